"""``mcp``: the stdio MCP server agents connect to (tools remember, recall, working memory...)."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("mcp", parents=[common], help="run the MCP server on stdio")
    p.set_defaults(handler=_mcp)


def _mcp(args: argparse.Namespace) -> int:
    from madohub_memory.mcp.server import run_stdio

    run_stdio(args.db)
    return 0
