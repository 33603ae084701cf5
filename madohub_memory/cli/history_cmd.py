"""``history``: who changed what and when (the audit trail behind undo)."""

from __future__ import annotations

import argparse

from madohub_memory.cli.output import emit, open_services, positive_id, table


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("history", parents=[common],
                       help="the newest changes with who made them (person, actor, origin)")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--memory", type=positive_id, metavar="ID",
                       help="one memory's changes, with those of the candidate it was approved from")
    which.add_argument("--candidate", type=positive_id, metavar="ID", help="one candidate's changes")
    p.add_argument("--person", metavar="NAME", help="only changes this person made")
    p.add_argument("--limit", type=positive_id, default=50, metavar="N", help="at most N changes (default 50)")
    p.set_defaults(handler=_history)


def _history(args: argparse.Namespace) -> int:
    with open_services(args, create=False) as svc:
        rows = svc.changelog.changes(
            memory_id=args.memory, candidate_id=args.candidate, person=args.person, limit=args.limit,
        )
    out = [
        {"id": r["id"], "at": r["at"], "person": r["person"], "actor": r["actor"], "origin": r["origin"],
         "action": r["action"], "entity": r["entity"], "entity_id": r["entity_id"], "undone": bool(r["undone"]),
         "batch": r["batch"]}
        for r in rows
    ]
    shown = [{**r, "at": r["at"][:16].replace("T", " "), "person": r["person"] or "?"} for r in out]
    emit(args, out, table(shown, ["at", "person", "actor", "origin", "action", "entity", "entity_id"]))
    return 0
