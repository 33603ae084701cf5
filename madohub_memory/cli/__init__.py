"""The ``madohub-memory`` command line: a thin front end over :mod:`madohub_memory.services`.

Each module in :data:`COMMAND_MODULES` registers its sub-commands with
``register(subparsers, common)``; ``common`` is the parent parser that gives every
command ``--db`` and ``--json``. The same options are accepted before the command too
(``madohub-memory --db F ingest ...``, as with ``git -C``); given after it, they win.

Start-up time matters (an agent's hook runs this on every turn): command modules import
only argparse-level things at the top and load services, numpy or Qt inside handlers.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from madohub_memory import __version__
from madohub_memory.core.errors import UserError

COMMAND_MODULES = [
    "review", "memories", "settings", "sweep", "transfer", "gui",
    # Modules of later capabilities; registered when present.
    "ingest", "recall", "mcp", "worker", "agent_hooks", "decisions", "working",
    "scrub", "desktop", "backup", "doctor", "context", "history", "server", "setup", "embeddings",
]
# Commands whose module is not named after them, found without reading sources (an agent's
# hook runs on every turn).
COMMAND_HOMES = {"hook": "agent_hooks", "codex-notify": "agent_hooks"}


def add_global_options(parser: argparse.ArgumentParser, default: object = None) -> None:
    parser.add_argument(
        "--db", metavar="PATH", default=default,
        help="database file (default: $MADOHUB_DB or the user data dir)",
    )
    parser.add_argument(
        "--json", action="store_true", default=False if default is None else default,
        help="machine-readable JSON output",
    )


def common_parser() -> argparse.ArgumentParser:
    """The parent of every sub-command: ``--db``/``--json`` after the command. Their
    defaults are suppressed so that they do not overwrite a value given before it."""
    common = argparse.ArgumentParser(add_help=False)
    add_global_options(common, argparse.SUPPRESS)
    return common


class _Unused:
    """Stands for the parser of a sub-command this run does not need: takes every call
    (``add_argument``, ``set_defaults``, argument groups...) and builds nothing."""

    def __getattr__(self, _name: str) -> Any:
        return self._ignore

    def _ignore(self, *_args: Any, **_kwargs: Any) -> _Unused:
        return self


class _OnlyCommand:
    """The sub-parsers action as a command module's ``register`` sees it when one command of
    the module is run: only that command's parser is built (each costs a cold start ~1 ms)."""

    def __init__(self, subparsers: Any, command: str) -> None:
        self._subparsers = subparsers
        self._command = command

    def add_parser(self, name: str, **kwargs: Any) -> Any:
        if name == self._command:
            return self._subparsers.add_parser(name, **kwargs)
        return _Unused()


def build_parser(only: str | None = None, command: str | None = None) -> argparse.ArgumentParser:
    """The whole command line, or with ``only`` just the commands of that one module (with
    ``command`` too, just that command of it)."""
    parser = argparse.ArgumentParser(
        prog="madohub-memory",
        description="Human-gated long-term memory for AI agents.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    add_global_options(parser)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    common = common_parser()
    target = _OnlyCommand(subparsers, command) if only and command else subparsers
    for name in [only] if only else COMMAND_MODULES:
        importlib.import_module(f"{__name__}.{name}_cmd").register(target, common)
    parser.commands = sorted(subparsers.choices)  # type: ignore[attr-defined]
    return parser


def command_name(argv: Sequence[str]) -> str | None:
    """The sub-command named in ``argv`` (after any global options), or None (help, version...)."""
    skip = False
    for token in argv:
        if skip:
            skip = False
        elif token == "--db":
            skip = True
        elif token == "--json" or token.startswith("--db="):
            continue
        elif token.startswith("-"):
            return None
        else:
            return token
    return None


def module_for(command: str) -> str | None:
    """The module of :data:`COMMAND_MODULES` that registers ``command``, found without importing
    them all: ``<command>_cmd`` or, for modules with several commands, by reading their source
    for ``add_parser("<command>"``. None when unsure (a frozen app has no source): then every
    module is registered, as before."""
    if command in COMMAND_MODULES:
        return command
    if command in COMMAND_HOMES:
        return COMMAND_HOMES[command]
    import importlib.util

    needles = (f'add_parser("{command}"', f"add_parser('{command}'")
    for name in COMMAND_MODULES:
        spec = importlib.util.find_spec(f"{__name__}.{name}_cmd")
        if spec is None or not spec.origin or not spec.origin.endswith(".py"):
            continue
        try:
            with open(spec.origin, encoding="utf-8") as handle:
                source = handle.read()
        except OSError:
            return None
        if any(needle in source for needle in needles):
            return name
    return None


def parse(argv: Sequence[str]) -> argparse.Namespace:
    """Parse with only the module of the command imported (start-up time: an agent's hook runs
    this on every turn); anything unexpected is parsed by the whole command line."""
    command = command_name(argv)
    module = module_for(command) if command else None
    if module is not None:
        parser = build_parser(module, command)
        if command in parser.commands:  # type: ignore[attr-defined]
            return parser.parse_args(argv)
    return build_parser().parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    if getattr(sys, "frozen", False):  # a bundled app: the dashboard's helper process starts here
        import multiprocessing

        multiprocessing.freeze_support()
    if "numpy" not in sys.modules:
        # One BLAS thread, set before numpy loads OpenBLAS (see recall/embeddings.py for why);
        # the embedder then needs no threadpoolctl, ~20 ms of a cold recall or remember.
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list == ["--version"]:  # answered before every command module is imported
        print(f"madohub-memory {__version__}")
        return 0
    args = parse(args_list)
    from madohub_memory.services.log import setup_logging

    setup_logging()  # one log for every command: masked, warnings and errors to stderr
    try:
        if getattr(args, "db", None) and args.command not in ("hook", "codex-notify"):  # they log it, exit 0
            from madohub_memory.store.database import refuse_url

            refuse_url(args.db)
        code = int(args.handler(args) or 0)
        if argv is None and getattr(args, "exit_at_once", False):
            exit_at_once(code)
        return code
    except UserError as exc:
        from madohub_memory.core.secrets import redact  # the scanner loads only when there is a sentence

        print(f"madohub-memory: {redact(str(exc))}", file=sys.stderr)  # errors may quote the input
        return exc.exit_code
    except Exception as exc:  # a database failure met outside a transaction: still one sentence
        from madohub_memory.store.errors import translate

        error = translate(exc, getattr(args, "db", None) or "the database")
        if error is None:
            raise
        print(f"madohub-memory: {error}", file=sys.stderr)
        return error.exit_code
    except KeyboardInterrupt:
        print("madohub-memory: interrupted.", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


def exit_at_once(code: int) -> NoReturn:
    """End the process without the interpreter's teardown (freeing every loaded module costs
    about 20 ms): for commands that an agent runs on every turn (``hook``), once their files
    are closed. ``atexit`` handlers (logging's flush) still run and the output is flushed."""
    import atexit

    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


def gui_main() -> int:
    """The ``madohub-memory-gui`` launcher (a gui-script: no console window on Windows)."""
    return main(["gui", *sys.argv[1:]])
