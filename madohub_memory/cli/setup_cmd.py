"""``setup claude-code|codex [--uninstall]``: connect a coding agent to memory in one command.

Each target lives in its agent's room (``agents/claude_code/setup_command.py``,
``agents/codex/setup_command.py``) with a ``run(args) -> int``; this module only builds the command line and dispatches, so that the
agents' set-ups stay independent. Every target backs the agent's config file up before it
changes it, can run again without adding anything twice, prints exactly what it changed,
and refuses a file it cannot parse with one sentence, leaving it untouched.
"""

from __future__ import annotations

import argparse
import importlib

TARGETS = {"claude-code": "claude_code", "codex": "codex"}


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("setup", parents=[common], help="connect a coding agent (Claude Code, Codex) to memory")
    p.add_argument("target", choices=sorted(TARGETS), help="the agent to set up")
    p.add_argument("--uninstall", action="store_true", help="remove what setup added, restoring the user's entries")
    p.add_argument("--project", metavar="DIR", nargs="?", const=".", default=None,
                   help="Claude Code: the project's .claude/settings.json instead of the user's")
    p.set_defaults(handler=_setup)


def _setup(args: argparse.Namespace) -> int:
    if args.project is not None and args.target != "claude-code":
        from madohub_memory.core.errors import UserError

        raise UserError("--project is for claude-code: {target} reads its settings from one folder of yours "
                        "(Codex: $CODEX_HOME, else ~/.codex); nothing was changed.", target=args.target)
    module = importlib.import_module(f"madohub_memory.agents.{TARGETS[args.target]}.setup_command")
    return int(module.run(args))
