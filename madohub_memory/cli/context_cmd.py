"""``context [--workspace W | --cwd PATH] [--budget N] [--language en|zh]``: the session-start block.

What the ``SessionStart`` hook gives an agent, for any workspace or folder: its pinned
memories, working memory, patterns and preferences, then the user's preferences.
``recall-log`` lists what recent recalls (CLI, MCP, hook) handed out, with token counts.
"""

from __future__ import annotations

import argparse

from madohub_memory.cli.output import emit, open_services, table


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("context", parents=[common], help="the context an agent gets when a session starts")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--workspace", metavar="W", help="workspace:<project> or a project name")
    where.add_argument("--cwd", metavar="PATH", help="a folder: its repository names the workspace")
    p.add_argument("--budget", type=int, default=None, metavar="TOKENS",
                   help="token budget (default: setting recall.session_budget_tokens)")
    p.add_argument("--language", default=None, choices=["en", "zh"],
                   help="language of the headings (default: Chinese when the dashboard is)")
    p.add_argument("--no-log", action="store_true", help="do not count hits or log this as a recall")
    p.set_defaults(handler=_context)

    p = sub.add_parser("recall-log", parents=[common], help="what recent recalls handed to agents")
    p.add_argument("-n", "--limit", type=int, default=20, metavar="N", help="how many entries (default 20)")
    p.set_defaults(handler=_log)


def _context(args: argparse.Namespace) -> int:
    with open_services(args) as svc:
        context = svc.session_context.build(
            args.workspace, cwd=args.cwd, budget_tokens=args.budget, language=args.language,
            source="cli", record=not args.no_log,
        )
    emit(args, context.to_dict(), context.text or "(nothing to give: no pinned memories, working memory,"
         " patterns or preferences here yet)")
    return 0


def _log(args: argparse.Namespace) -> int:
    from madohub_memory.core.errors import ValidationError

    if args.limit < 1:
        raise ValidationError("--limit must be at least 1 (got {limit}).", limit=args.limit)
    with open_services(args) as svc:
        rows = svc.recall.recent_log(min(args.limit, 1000))
    emit(args, rows, table(rows, ["id", "at", "source", "namespace", "token_estimate", "memory_ids", "query"]))
    return 0
