"""``doctor``: check that the database is sound, private and not stuck (exit 1 when damaged),
and how the coding agents are connected: Claude Code (hooks and MCP server set up, and
answering) and Codex. Agents are reported, never an exit 1: an agent not set up is a choice,
not damage."""

from __future__ import annotations

import argparse
import os
from typing import Any

from madohub_memory.cli.output import emit, open_services

_MARKS = {True: "ok  ", False: "FAIL", None: "--  "}


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("doctor", parents=[common], help="check the database file (integrity, indexes, permissions)"
                       " and the coding agents' set-up",
                       description="Run SQLite's integrity check, the foreign-key and keyword-index checks, and"
                                   " check permissions and stuck extraction. Exit status 1 when the file is damaged."
                                   " Then report whether Claude Code's hooks and MCP server and Codex are set up"
                                   " and answer.")
    p.add_argument("--no-agents", action="store_true", help="skip the agent checks (Claude Code's start the hook"
                   " and the MCP server once each)")
    p.set_defaults(handler=_doctor)


def _doctor(args: argparse.Namespace) -> int:
    from madohub_memory.core.errors import MissingDatabaseError

    missing: MissingDatabaseError | None = None
    try:
        with open_services(args, create=False, check=False) as svc:
            report = svc.backup.doctor()
    except MissingDatabaseError as exc:
        # Right after `setup`, before the first session, there is no database yet: the agents'
        # set-up is still what the person wants checked. A --db (or $MADOHUB_DB) naming a file
        # that is not there is more likely a typo: said as one sentence, with exit status 1.
        if args.no_agents:
            raise
        missing = exc
        report = {"ok": True, "checks": [{"check": "database", "ok": None, "detail": (
            f"none yet at {_default_db()}: the first agent session (or `madohub-memory remember`) creates it")}]}
    lines = [f"{_MARKS[None if c['ok'] is None else bool(c['ok'])]}  {c['check']}: {c['detail']}"
             for c in report["checks"]]
    if not args.no_agents:
        from madohub_memory.agents.claude_code.hook import log_path
        from madohub_memory.agents.claude_code.status import status

        project = os.getcwd() if os.path.isdir(os.path.join(os.getcwd(), ".claude")) else None
        claude = status(project, log_path(args.db))
        report["integrations"] = {"claude-code": claude}
        lines += [f"{_MARKS[c['ok']]}  {c['check']}: {c['detail']}" for c in claude]
        codex = _codex_integration()
        if codex is not None:
            report["integrations"]["codex"] = codex
            lines.append(codex["line"])
    if not report["ok"]:
        advice = f"restore a backup: madohub-memory restore {report['latest_backup'] or 'FILE'}"
        lines.append(f"The database is damaged: {advice}.")
        report["advice"] = advice
    if missing is not None and (args.db or os.environ.get("MADOHUB_DB")):
        if len(lines) > 1 and not args.json:
            emit(args, None, "\n".join(lines[1:]))  # the agents' checks, then the one sentence
        raise missing
    emit(args, report, "\n".join(lines))
    return 0 if report["ok"] else 1


def _default_db() -> str:
    from madohub_memory.agents.config_files import shown_path
    from madohub_memory.core.paths import default_db_path

    return shown_path(default_db_path())


def _codex_integration() -> dict[str, Any] | None:
    """How Codex is connected (``setup codex``), when Codex is used on this machine; never
    changes the exit status (the database's health does)."""
    from madohub_memory.agents.codex.setup import CodexSetup

    setup = CodexSetup()
    if not setup.home.is_dir():
        return None
    status = setup.status()
    parts = {"mcp": "MCP server", "notify": "per-turn import (notify)"}
    missing = [label for key, label in parts.items() if status[key] not in ("installed", "yours")]
    if not status["guide"]:
        missing.append("remember guide")
    if status["problem"]:
        status["line"] = f"warn  codex: {status['problem']}"
    elif len(missing) == 3:
        status["line"] = f"--    codex: not set up in {setup.home} (run: madohub-memory setup codex)"
    elif missing:
        status["line"] = f"warn  codex: missing {', '.join(missing)} (run: madohub-memory setup codex)"
    else:
        status["line"] = f"ok    codex: MCP server, per-turn import and remember guide set up in {setup.home}"
    return status
