"""The command line run inside the test process, seen as a subprocess would see it.

A subprocess per command costs a Python start and every import (~1 s each, most of the CLI
tests' time); ``invoke`` calls :func:`madohub_memory.cli.main` with the arguments, the
environment, the working folder and standard input the test gives, captures standard output
and error, and returns the exit code: the same ``returncode``/``stdout``/``stderr`` a test
read from :func:`subprocess.run`. Like sqlite-utils' ``CliRunner``: the contract (exit codes,
the installed entry point, the hook under Claude Code) keeps a few real subprocess tests.
"""

from __future__ import annotations

import io
import logging
import os
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from madohub_memory.cli import main


@dataclass(frozen=True)
class CliResult:
    """What :func:`subprocess.run` with ``capture_output=True, text=True`` gives back."""

    args: list[str]
    returncode: int
    stdout: str
    stderr: str


@contextmanager
def _environment(env: Mapping[str, str] | None) -> Iterator[None]:
    saved = dict(os.environ)
    if env is not None:
        os.environ.clear()
        os.environ.update(env)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


@contextmanager
def _logging_restored() -> Iterator[None]:
    """``main`` sets up the log for its process; here the process goes on to the next test."""
    root = logging.getLogger()
    ours = logging.getLogger("madohub_memory")
    handlers, levels = list(root.handlers), (root.level, ours.level)
    try:
        yield
    finally:
        for handler in [h for h in root.handlers if h not in handlers]:
            root.removeHandler(handler)
        root.setLevel(levels[0])
        ours.setLevel(levels[1])


def _stream(data: str = "") -> io.TextIOWrapper:
    return io.TextIOWrapper(io.BytesIO(data.encode("utf-8")), encoding="utf-8", write_through=True)


def _text(stream: io.TextIOWrapper) -> str:
    stream.flush()
    buffer = stream.buffer
    assert isinstance(buffer, io.BytesIO)
    return buffer.getvalue().decode("utf-8", errors="replace")


def invoke(*args: str, env: Mapping[str, str] | None = None, input: str | None = None,
           cwd: Path | str | None = None) -> CliResult:
    """Run ``madohub-memory ARGS`` here; ``env`` replaces the environment (as for a
    subprocess), ``input`` is standard input (empty when not given, never a terminal)."""
    argv = [str(a) for a in args]
    stdin, stdout, stderr = _stream(input or ""), _stream(), _stream()
    saved = (sys.stdin, sys.stdout, sys.stderr)
    old_cwd = os.getcwd()
    with _environment(env), _logging_restored():
        sys.stdin, sys.stdout, sys.stderr = stdin, stdout, stderr
        try:
            if cwd is not None:
                os.chdir(cwd)
            try:
                code: int = main(argv)
            except SystemExit as exit_:  # argparse: --help, usage errors
                if exit_.code is None or isinstance(exit_.code, int):
                    code = exit_.code or 0
                else:
                    print(exit_.code, file=sys.stderr)
                    code = 1
        finally:
            os.chdir(old_cwd)
            sys.stdin, sys.stdout, sys.stderr = saved
    return CliResult(argv, code, _text(stdout), _text(stderr))
