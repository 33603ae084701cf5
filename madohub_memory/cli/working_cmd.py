"""``working show|update|end``: the task-level working memory of a workspace."""

from __future__ import annotations

import argparse

from madohub_memory.cli.output import emit, open_services, positive_id
from madohub_memory.services.working import OPERATIONS


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("working", help="working memory of a workspace (task, decisions, to-do)")
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    a = actions.add_parser("show", parents=[common], help="show (or --render) a workspace's working memory")
    a.add_argument("workspace", metavar="WORKSPACE", help="workspace:<project> (or just <project>)")
    a.add_argument("--language", default="en", choices=["en", "zh"])
    a.set_defaults(handler=_show)
    a = actions.add_parser("update", parents=[common], help="apply one operation")
    a.add_argument("workspace", metavar="WORKSPACE")
    a.add_argument("operation", choices=OPERATIONS)
    a.add_argument("text", nargs="?", default=None, help="the task, decision, constraint, to-do or file")
    a.add_argument("--reason", help="why (required for add_decision and reject_approach)")
    a.add_argument("--id", type=positive_id, default=None, help="to-do id for resolve_pending")
    a.set_defaults(handler=_update)
    a = actions.add_parser("end", parents=[common], help="end the task: its summary becomes a candidate")
    a.add_argument("workspace", metavar="WORKSPACE")
    a.add_argument("final_approach", metavar="FINAL_APPROACH", help="what was finally done")
    a.set_defaults(handler=_end)


def _show(args: argparse.Namespace) -> int:
    with open_services(args, create=False) as svc:
        data = svc.working.show(args.workspace)
        text = svc.working.render(args.workspace, args.language)
    emit(args, data, text)
    return 0


def _update(args: argparse.Namespace) -> int:
    with open_services(args) as svc:
        data = svc.working.update(args.workspace, args.operation, args.text, args.reason, args.id)
        text = svc.working.render(data["workspace"])
    emit(args, data, text)
    return 0


def _end(args: argparse.Namespace) -> int:
    with open_services(args) as svc:
        result = svc.working.end_task(args.workspace, args.final_approach, source="manual")
    data = {"outcome": result.outcome, "candidate_id": result.candidate_id}
    emit(args, data, f"task summary queued for review as candidate {result.candidate_id} ({result.outcome})")
    return 0
