"""``hook`` and ``codex-notify``: the entries an agent runs on its own events, wired to the
command line. The work is done in each agent's room (:mod:`madohub_memory.agents.claude_code.hook`,
:mod:`madohub_memory.agents.codex.notify`); this module only builds their parsers, so that
the command line stays thin and adding an agent's entry is one parser here.

Both run on every turn of the agent: ``exit_at_once`` skips the interpreter teardown, and the
agent's module is imported only when its command runs.
"""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("hook", parents=[common], help="Claude Code hook entry (event JSON on stdin); always exits 0")
    p.set_defaults(handler=_hook, exit_at_once=True)  # run on every turn: skip the interpreter teardown
    p = sub.add_parser("codex-notify", parents=[common],
                       help="Codex notify entry (the turn's JSON as last argument); always exits 0")
    p.add_argument("notification", nargs="?", metavar="JSON", help="the notification Codex passes")
    p.add_argument("--then", nargs=argparse.REMAINDER, metavar="CMD",
                   help="the person's own notify command, run too (everything after it; the JSON comes last)")
    p.set_defaults(handler=_codex_notify, exit_at_once=True)


def _hook(args: argparse.Namespace) -> int:
    from madohub_memory.agents.claude_code import hook

    return hook.run(args)


def _codex_notify(args: argparse.Namespace) -> int:
    from madohub_memory.agents.codex import notify

    return notify.run(args)
