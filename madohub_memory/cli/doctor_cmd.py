"""``doctor``: check that the database is sound, private and not stuck (exit 1 when damaged)."""

from __future__ import annotations

import argparse

from madohub_memory.cli.output import emit, open_services


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("doctor", parents=[common], help="check the database file (integrity, indexes, permissions)",
                       description="Run SQLite's integrity check, the foreign-key and keyword-index checks, and"
                                   " check permissions and stuck extraction. Exit status 1 when the file is damaged.")
    p.set_defaults(handler=_doctor)


def _doctor(args: argparse.Namespace) -> int:
    with open_services(args, create=False, check=False) as svc:
        report = svc.backup.doctor()
    lines = [f"{'ok  ' if c['ok'] else 'FAIL'}  {c['check']}: {c['detail']}" for c in report["checks"]]
    if not report["ok"]:
        advice = f"restore a backup: madohub-memory restore {report['latest_backup'] or 'FILE'}"
        lines.append(f"The database is damaged: {advice}.")
        report["advice"] = advice
    emit(args, report, "\n".join(lines))
    return 0 if report["ok"] else 1
