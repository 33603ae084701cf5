"""The cheap looks at a transcript file that come before reading it: is it a regular file,
is it the file read last time (a hash of its first bytes, and of the bytes just before where
the last read stopped), does it mention something at all (a byte scan, far cheaper than
parsing every line), is it an empty Claude Code subagent file."""

from __future__ import annotations

import hashlib
import os
import stat

from madohub_memory.core.errors import UserError
from madohub_memory.ingest.lines import first_json_char

HEAD_BYTES = 4096


def head_hash(path: str, length: int) -> str:
    with open(path, "rb") as handle:
        data = handle.read(length)
    return f"{len(data)}:{hashlib.sha1(data).hexdigest()}"


def tail_hash(path: str, end: int) -> str:
    """A hash of the bytes just before ``end``: a file rewritten from the middle on (same
    first bytes, different conversation) is noticed and read again from the start."""
    start = max(0, end - HEAD_BYTES)
    with open(path, "rb") as handle:
        handle.seek(start)
        data = handle.read(end - start)
    return f"{start}:{hashlib.sha1(data).hexdigest()}"


def regular_file_error(path: str) -> UserError | None:
    """Why ``path`` must not be opened (a pipe or a device would block or never end)."""
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        return UserError("{reason}", reason=exc.strerror or exc)
    if not stat.S_ISREG(mode):
        return UserError("not a regular file (a pipe, a device or a socket); skipped")
    return None


def mentions(path: str, needle: bytes, chunk: int = 1 << 20, start: int = 0) -> bool:
    """Whether the file contains ``needle`` from byte ``start`` on (a byte scan, far cheaper
    than parsing every line)."""
    try:
        with open(path, "rb") as handle:
            handle.seek(start)
            tail = b""
            while block := handle.read(chunk):
                window = tail + block
                if needle in window:
                    return True
                tail = window[-(len(needle) - 1):]
    except OSError:
        return True  # let the real reader report the problem
    return False


# A question (the tool call) or its answer (``toolUseResult.answers``, or the text fallback):
# an answer read now may belong to a question read by an earlier import.
DECISION_NEEDLES = (b"AskUserQuestion", b'"answers"', b"answered your question")


def empty_subagent_file(path: str) -> bool:
    """A Claude Code subagent file (``<session>/subagents/…`` or ``agent-*.jsonl``) with no content."""
    name = os.path.basename(path)
    if os.path.basename(os.path.dirname(path)) != "subagents" and not name.startswith("agent-"):
        return False
    try:
        return os.path.getsize(path) == 0 or not first_json_char(path)
    except OSError:
        return False
