"""``setup claude-code [--project [DIR]] [--uninstall]``: Claude Code's hooks and MCP server in one command.

The work is done by :mod:`madohub_memory.agents.claude_code.setup`; this prints exactly
what changed (each hook entry, the backup, the MCP registration), or that nothing did.
Exit status 0 when everything is in place (or removed), 1 when the MCP part failed after the
settings were written (both are printed).
"""

from __future__ import annotations

import argparse
from typing import Any

from madohub_memory.cli.output import emit


def run(args: argparse.Namespace) -> int:
    from madohub_memory.agents.claude_code import setup

    report = setup.uninstall(args.project) if args.uninstall else setup.install(args.project, args.db)
    emit(args, report, describe(report, uninstall=args.uninstall))
    return 1 if report["mcp"].get("status") == "failed" else 0


def describe(report: dict[str, Any], *, uninstall: bool) -> str:
    from pathlib import Path

    from madohub_memory.agents.config_files import shown_path

    settings = shown_path(Path(report["settings"]))
    lines = []
    if report["changes"]:
        saved = f" (the previous file is kept as {shown_path(Path(report['backup']))})" if report.get("backup") else ""
        lines.append(f"Changed {settings}{saved}:")
        lines += [f"  {change}" for change in report["changes"]]
        if report.get("restored"):
            lines.append("  (restored byte for byte from the copy made before set-up)")
        if report.get("removed_file"):
            lines.append("  (the file was removed: set-up had created it)")
    else:
        lines.append(f"{settings}: {'no hooks of ours' if uninstall else 'already set up'}; nothing changed.")
    mcp = report["mcp"]
    where = f"{mcp.get('scope', '')} scope, {shown_path(Path(mcp['file']))}" if mcp.get("file") else ""
    status = mcp.get("status")
    if status == "failed":
        lines.append(f"MCP server madohub: not changed: {mcp['error']}")
    elif status in ("added", "updated"):
        how = "with `claude mcp add`" if mcp.get("how") == "claude mcp add" else "in the file (the claude CLI is not on PATH)"
        lines.append(f"MCP server madohub: {status} {how} ({where}): {mcp.get('command')}")
        if mcp.get("scope") == "project":
            lines.append("  (Claude Code asks once, in an interactive session, before it starts a project's servers.)")
    elif status == "removed":
        how = "with `claude mcp remove`" if mcp.get("how") == "claude mcp remove" else "from the file"
        lines.append(f"MCP server madohub: removed {how} ({where}).")
    elif status == "unchanged":
        lines.append(f"MCP server madohub: already registered ({where}); nothing changed.")
    elif status == "absent":
        lines.append(f"MCP server madohub: not registered ({where}); nothing changed.")
    else:
        lines.append(f"MCP server madohub: {mcp.get('warning')}.")
    if report.get("warning"):
        lines.append(f"Warning: {report['warning']}.")
    if not uninstall and (report["changes"] or status in ("added", "updated")):
        lines.append("Start a new Claude Code session for it to take effect; `madohub-memory doctor` checks it.")
    return "\n".join(lines)
