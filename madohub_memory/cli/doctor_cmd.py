"""``doctor``: check that the database is sound, private and not stuck (exit 1 when damaged),
and whether the Claude Code integration is installed and working (reported, never an exit 1:
an agent not set up is a choice, not damage)."""

from __future__ import annotations

import argparse
import os

from madohub_memory.cli.output import emit, open_services

_MARKS = {True: "ok  ", False: "FAIL", None: "--  "}


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("doctor", parents=[common], help="check the database file (integrity, indexes, permissions)"
                       " and the Claude Code integration",
                       description="Run SQLite's integrity check, the foreign-key and keyword-index checks, and"
                                   " check permissions and stuck extraction. Exit status 1 when the file is damaged."
                                   " Then report whether Claude Code's hooks and MCP server are set up and answer.")
    p.add_argument("--no-agents", action="store_true", help="skip the Claude Code checks (they start the hook and"
                   " the MCP server once each)")
    p.set_defaults(handler=_doctor)


def _doctor(args: argparse.Namespace) -> int:
    with open_services(args, create=False, check=False) as svc:
        report = svc.backup.doctor()
    lines = [f"{_MARKS[bool(c['ok'])]}  {c['check']}: {c['detail']}" for c in report["checks"]]
    if not report["ok"]:
        advice = f"restore a backup: madohub-memory restore {report['latest_backup'] or 'FILE'}"
        lines.append(f"The database is damaged: {advice}.")
        report["advice"] = advice
    if not args.no_agents:
        from madohub_memory.cli.hook_cmd import log_path
        from madohub_memory.services.claude_code_status import status

        project = os.getcwd() if os.path.isdir(os.path.join(os.getcwd(), ".claude")) else None
        report["integrations"] = status(project, log_path(args.db))
        lines += [f"{_MARKS[c['ok']]}  {c['check']}: {c['detail']}" for c in report["integrations"]]
    emit(args, report, "\n".join(lines))
    return 0 if report["ok"] else 1
