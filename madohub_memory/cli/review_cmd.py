"""Commands on candidates: add, remember, pending, approve, reject, restore, undo."""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

from madohub_memory.cli.output import emit, open_services, positive_id, store_ref, table
from madohub_memory.core.errors import ValidationError
from madohub_memory.core.vocab import KINDS

if TYPE_CHECKING:  # the read commands (pending) load no dataclass machinery: see tests/test_pending_startup.py
    from madohub_memory.core.types import SubmitResult
    from madohub_memory.services import Services


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("add", parents=[common], help="type a memory candidate by hand (source manual)")
    p.add_argument("text", help="the memory, as one standalone statement")
    p.add_argument("--kind", required=True, metavar="K", help=f"one of {', '.join(KINDS)}")
    p.add_argument("--namespace", metavar="NS", help="persona:<name> or workspace:<project>")
    p.set_defaults(handler=_add)

    p = sub.add_parser("remember", parents=[common], help="agent path: propose a candidate (source remember)")
    p.add_argument("text")
    p.add_argument("--kind", required=True, metavar="K", help=f"one of {', '.join(KINDS)}")
    p.add_argument("--namespace", metavar="NS")
    p.add_argument("--confidence", type=float, default=0.9, metavar="C", help="0 to 1 (default 0.9)")
    p.add_argument("--turn", metavar="TURN_ID", help="originating turn id")
    p.add_argument("--session", metavar="NAME",
                   help="the agent session speaking (default: $MADOHUB_SESSION, else this terminal session);"
                        " repeats from one session count once")
    p.set_defaults(handler=_remember)

    p = sub.add_parser("pending", parents=[common], help="list pending candidates")
    p.add_argument("--kind", metavar="K")
    p.add_argument("--namespace", metavar="NS")
    p.set_defaults(handler=_pending)

    p = sub.add_parser("approve", parents=[common], help="approve a candidate, optionally edited")
    p.add_argument("id", type=store_ref, help="12, or team:12 for a candidate of a mapped store")
    p.add_argument("--content", metavar="T", help="the edited text that becomes memory")
    p.add_argument("--kind", metavar="K")
    p.add_argument("--namespace", metavar="NS")
    p.set_defaults(handler=_approve)

    p = sub.add_parser("reject", parents=[common], help="reject a candidate")
    p.add_argument("id", type=store_ref, help="12, or team:12 for a candidate of a mapped store")
    p.set_defaults(handler=_reject)

    p = sub.add_parser(
        "restore", parents=[common],
        help="put an archived or rejected candidate back in the queue (ID), or restore a database backup (FILE)")
    p.add_argument("target", metavar="ID|FILE", help="a candidate id, or a backup file ('latest': the newest backup)")
    p.add_argument("--backup", action="store_true", help="TARGET is a backup file even if it looks like a number")
    p.set_defaults(handler=_restore)

    p = sub.add_parser("undo", parents=[common],
                       help="undo the last decision or edit made from the command line (not the dashboard's or an agent's)")
    p.set_defaults(handler=_undo)


def _submit_result(args: argparse.Namespace, result: SubmitResult) -> None:
    from dataclasses import asdict

    data = asdict(result)
    if data.get("store") is None:
        data.pop("store", None)
    emit(args, data, result.sentence())


def _add(args: argparse.Namespace) -> int:
    with open_services(args) as svc:
        _submit_result(args, svc.review.add_manual(args.text, args.kind, args.namespace))
    return 0


def _remember(args: argparse.Namespace) -> int:
    from madohub_memory.store.liveness import terminal_session

    with open_services(args) as svc:
        session = args.session or os.environ.get("MADOHUB_SESSION") or terminal_session()
        result = svc.review.remember(args.text, args.kind, args.namespace, args.confidence, args.turn,
                                     session=session)
        _submit_result(args, result)
    return 0


def _pending(args: argparse.Namespace) -> int:
    from madohub_memory.services.pending_list import pending_rows

    with open_services(args, create=False) as svc:
        owner, label = svc.stores.holder(args.namespace) if args.namespace else (svc, None)  # a mapped namespace: its store's queue
        rows = pending_rows(owner, args.kind, args.namespace)
        elsewhere = [] if args.namespace or args.json else mapped_elsewhere(svc)
    for row in rows:
        row.pop("fingerprint", None)
        row.pop("memory_id", None)
        if label:
            row["store"] = label
    shown = [{**r, "id": f"{label}:{r['id']}"} for r in rows] if label else rows
    emit(args, rows, table(shown, ["id", "kind", "namespace", "source", "confidence", "seen_count", "flags",
                                   "content"]))
    for line in elsewhere:
        print(line, file=sys.stderr)
    return 0


def mapped_elsewhere(svc: Services) -> list[str]:
    """One line per mapped store whose queue this listing leaves out (setting stores.map)."""
    if not svc.has_store_map():
        return []
    from madohub_memory.services.stores import mapped_queues

    return [f"({', '.join(namespaces)}: queued in the store {label}, {shown}; list them with"
            f" `pending --namespace {namespaces[0]}`.)" for label, shown, namespaces in mapped_queues(svc)]


def _approve(args: argparse.Namespace) -> int:
    with open_services(args, create=False) as svc:
        memory_id = svc.review.approve(args.id, content=args.content, kind=args.kind, namespace=args.namespace)
        approved_by = svc.review.get(args.id).decided_by
    prefix = f"{args.id.store}:" if args.id.store else ""
    emit(args, {"candidate_id": args.id, "memory_id": memory_id, "approved_by": approved_by},
         f"approved candidate {args.id} as memory {prefix}{memory_id}")
    return 0


def _reject(args: argparse.Namespace) -> int:
    with open_services(args, create=False) as svc:
        svc.review.reject(args.id)
        rejected_by = svc.review.get(args.id).decided_by
    emit(args, {"candidate_id": args.id, "status": "rejected", "rejected_by": rejected_by},
         f"rejected candidate {args.id}")
    return 0


def _restore(args: argparse.Namespace) -> int:
    if args.backup or not args.target.strip().isdigit():
        from madohub_memory.cli.backup_cmd import restore_backup

        return restore_backup(args)
    try:
        candidate_id = positive_id(args.target)
    except argparse.ArgumentTypeError as exc:
        raise ValidationError("{problem}.", problem=exc) from None
    with open_services(args, create=False) as svc:
        svc.review.restore(candidate_id)
    emit(args, {"candidate_id": candidate_id, "status": "pending"}, f"candidate {candidate_id} is pending again")
    return 0


def _undo(args: argparse.Namespace) -> int:
    with open_services(args, create=False) as svc:
        rows = svc.review.undo()
        person = svc.person
    undone = [{"entity": r["entity"], "id": r["entity_id"], "action": r["action"], "by": r["person"]} for r in rows]
    emit(args, {"undone": undone, "person": person}, "undid " + ", ".join(f"{u['action']} {u['entity']} {u['id']}" for u in undone))
    return 0
