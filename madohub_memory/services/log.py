"""One way to log, for every front end: the CLI, the background worker, the dashboard, the
MCP server and the Claude Code hook.

Modules log with ``logging.getLogger(__name__)`` and nothing else (no ``print`` to stderr,
no printed tracebacks); a front end calls :func:`setup_logging` once when it starts.
Every record is masked for secrets before any handler sees it
(:mod:`madohub_memory.core.log_redaction`). Warnings and errors go to stderr, one line each
plus the traceback of a bug: what the bare ``logging`` module printed before any handler
was set, so nothing a user sees changed. ``MADOHUB_LOG_LEVEL=info`` (or ``debug``) shows more.

The hook also writes to ``hook.log`` next to the database (:func:`log_to_file`): it runs
inside the agent's session, so that file is where users look for what it did and why it
failed. The file is 0600 in a 0700 folder, starts each line with a UTC time stamp, and
is rotated to ``hook.log.1`` past 1 MB.
"""

from __future__ import annotations

import io
import logging
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, cast

from madohub_memory.core import log_redaction
from madohub_memory.store.files import ensure_private_dir, open_private_append, tighten

LOG_MAX_BYTES = 1_000_000
PACKAGE_LOGGER = "madohub_memory"
_MARK = "_madohub_handler"


class _Stderr(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes to ``sys.stderr`` as it is when the record comes (tests and the dashboard
    swap it), like the handler ``logging`` falls back to when none is configured."""

    def __init__(self) -> None:
        super().__init__(sys.stderr)

    @property
    def stream(self) -> Any:
        return sys.stderr

    @stream.setter
    def stream(self, _value: Any) -> None:
        pass


def _private_file(path: Path) -> logging.Handler:
    """A rotating log file created 0600; a log that cannot be written is given up silently
    (the hook must never fail the agent because of its own log). ``logging.handlers`` is
    imported here, not at start: it costs every command ~10 ms and only logging commands
    need it."""
    from logging.handlers import RotatingFileHandler

    class _PrivateFile(RotatingFileHandler):
        def _open(self) -> io.TextIOWrapper:
            return cast(io.TextIOWrapper, open_private_append(Path(self.baseFilename)))

        def handleError(self, record: logging.LogRecord) -> None:
            pass

    return _PrivateFile(path, maxBytes=LOG_MAX_BYTES, backupCount=1, encoding="utf-8", delay=True)


def _level(name: str | None) -> int:
    value = logging.getLevelName((name or "warning").upper())
    return value if isinstance(value, int) else logging.WARNING


def _ours(handler: logging.Handler) -> logging.Handler:
    setattr(handler, _MARK, True)
    return handler


def setup_logging(level: str | None = None) -> None:
    """Mask every record and send warnings (or ``level``, default ``$MADOHUB_LOG_LEVEL``)
    to stderr. Safe to call again: the handler it added before is replaced."""
    log_redaction.install()
    root = logging.getLogger()
    for handler in [h for h in root.handlers if getattr(h, _MARK, False)]:
        root.removeHandler(handler)
    wanted = _level(level or os.environ.get("MADOHUB_LOG_LEVEL"))
    stderr = _ours(_Stderr())
    stderr.setLevel(wanted)
    stderr.setFormatter(logging.Formatter("%(message)s"))
    root.addHandler(stderr)
    if wanted < logging.WARNING:
        logging.getLogger(PACKAGE_LOGGER).setLevel(wanted)


@contextmanager
def log_to_file(path: Path, *, only: bool = False) -> Iterator[None]:
    """While inside, this program's records from INFO up (and anyone's warnings) are also
    appended to ``path`` (with ``only``, instead of stderr: the hook prints nothing into the
    agent's session); a file that cannot be created is skipped without a word."""
    log_redaction.install()
    try:
        ensure_private_dir(path.parent)
        if path.exists():
            tighten(path)  # logs name files and errors: owner only
        handler = _ours(_private_file(path))
    except OSError:
        yield
        return
    stamped = logging.Formatter("%(asctime)s %(message)s", datefmt="%Y-%m-%dT%H:%M:%SZ")
    stamped.converter = time.gmtime
    handler.setFormatter(stamped)
    handler.addFilter(lambda r: r.levelno >= logging.WARNING or r.name.startswith(PACKAGE_LOGGER))
    root = logging.getLogger()
    ours = logging.getLogger(PACKAGE_LOGGER)
    previous = ours.level
    if ours.getEffectiveLevel() > logging.INFO:
        ours.setLevel(logging.INFO)
    hidden = [h for h in root.handlers if only and getattr(h, _MARK, False)]
    for other in hidden:
        root.removeHandler(other)
    root.addHandler(handler)
    try:
        yield
    finally:
        root.removeHandler(handler)
        handler.close()
        for other in hidden:
            root.addHandler(other)
        ours.setLevel(previous)
