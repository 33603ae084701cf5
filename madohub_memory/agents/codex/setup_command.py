"""``setup codex [--uninstall]``: register the MCP server, the per-turn import (``notify``) and
the remember guide with the Codex CLI, or take them out again (the work is done by
:mod:`madohub_memory.agents.codex.setup`; this prints what changed, file by file)."""

from __future__ import annotations

import argparse
import os

from madohub_memory.cli.output import emit


def _database(db: str | None) -> str | None:
    """``--db`` as Codex must see it: a file as an absolute path (Codex starts us in other folders)."""
    if not db:
        return None
    from madohub_memory.core.paths import is_server_address

    return db if is_server_address(db) else os.path.abspath(os.path.expanduser(db))


def _persona(db: str | None) -> str:
    """The active persona of the database (``default`` while there is none yet)."""
    from madohub_memory.core.errors import UserError
    from madohub_memory.services import Services

    try:
        with Services.open(db, origin="cli", create=False) as svc:
            return str(svc.settings.get("persona") or "default")
    except UserError:
        return "default"


def run(args: argparse.Namespace) -> int:
    from madohub_memory.agents.codex.setup import CodexSetup

    db = _database(args.db)
    setup = CodexSetup(db=db, persona=None if args.uninstall else _persona(db))
    report = setup.uninstall() if args.uninstall else setup.install()
    lines = [c.line() for c in report.changes if c.action != "kept"]
    kept = [f"{c.path}: {c.what}" for c in report.changes if c.action == "kept"]
    if args.uninstall:
        head = "Codex: removed madohub-memory." if report.changed else \
            f"Codex: nothing of madohub-memory was set up in {setup.home}; nothing changed."
    elif report.changed:
        head = "Codex is set up: each finished turn is imported, the agent can remember and recall."
    else:
        head = "Codex is already set up; nothing changed."
    text = [head, *lines, *(f"{line} (unchanged)" for line in kept if not args.uninstall),
            *(f"backup: {path}" for path in report.backups)]
    if not args.uninstall and report.changed:
        text.append("Start a new Codex session for it to take effect.")
    emit(args, {"codex_home": str(setup.home), "changed": report.changed,
                "changes": [c.to_dict() for c in report.changes],
                "backups": [str(p) for p in report.backups]}, "\n".join(text))
    return 0
