"""The ``madohub-memory`` command line: a thin front end over :mod:`madohub_memory.services`.

Each module in :data:`COMMAND_MODULES` registers its sub-commands with
``register(subparsers, common)``; ``common`` is the parent parser that gives every
command ``--db`` and ``--json``.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
from collections.abc import Sequence

from madohub_memory import __version__
from madohub_memory.core.errors import UserError

COMMAND_MODULES = [
    "review", "memories", "settings", "sweep", "transfer", "gui",
    # Modules of later capabilities; registered when present.
    "ingest", "recall", "mcp", "worker", "hook", "decisions", "working",
    "context",
]


def common_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--db", metavar="PATH", default=None,
        help="database file (default: $MADOHUB_DB or the user data dir)",
    )
    common.add_argument("--json", action="store_true", help="machine-readable JSON output")
    return common


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="madohub-memory",
        description="Human-gated long-term memory for AI agents.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    common = common_parser()
    for name in COMMAND_MODULES:
        module_name = f"{__name__}.{name}_cmd"
        if importlib.util.find_spec(module_name) is None:
            continue
        importlib.import_module(module_name).register(subparsers, common)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except UserError as exc:
        print(f"madohub-memory: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("madohub-memory: interrupted.", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
