"""Changing another program's configuration file safely: marked blocks, a backup first, an
atomic write. Generic: any ``setup <agent>`` target can use it (Codex's ``config.toml`` and
``AGENTS.md`` do).

Why marked blocks: what setup adds must come out again exactly, however the person edited
the rest of the file meanwhile. Each addition is a run of whole lines between a begin and an
end marker line (comments in the file's own syntax), so uninstalling is cutting those lines
out, and a second setup finds its block and changes nothing (a byte-identical file).
Why a backup per change: a person who does not like what setup did gets the file back as
it was, from a copy beside it named after the moment (``config.toml.madohub-<time>.bak``).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path


@dataclass(frozen=True)
class Block:
    """The marker lines around one addition, e.g. ``# >>> madohub-memory notify …``."""

    begin: str
    end: str

    def wrap(self, body: str) -> str:
        """The block's text: marker lines around ``body`` (whole lines)."""
        body = body if body.endswith("\n") or not body else body + "\n"
        return f"{self.begin}\n{body}{self.end}\n"

    def span(self, text: str) -> tuple[int, int] | None:
        """Where the block is in ``text`` (start of its begin line, end after its end line)."""
        start = _line_start(text, self.begin)
        if start is None:
            return None
        end_at = text.find(f"\n{self.end}", start)
        if end_at < 0:
            return None
        stop = end_at + 1 + len(self.end)
        if stop < len(text) and text[stop] == "\n":
            stop += 1
        return start, stop

    def body(self, text: str) -> str | None:
        """The lines between the markers (None when the block is not in ``text``)."""
        span = self.span(text)
        if span is None:
            return None
        inner = text[span[0]:span[1]]
        return inner[len(self.begin) + 1: inner.rfind(self.end)]

    def remove(self, text: str) -> str:
        """``text`` without the block (unchanged when it is not there)."""
        span = self.span(text)
        return text if span is None else text[: span[0]] + text[span[1]:]


def _line_start(text: str, line: str) -> int | None:
    """Offset of the first line of ``text`` that is exactly ``line`` (None when none is)."""
    at = 0
    while True:
        found = text.find(line, at)
        if found < 0:
            return None
        ends = found + len(line)
        if (found == 0 or text[found - 1] == "\n") and (ends == len(text) or text[ends] in "\r\n"):
            return found
        at = found + 1


def insert_at(text: str, offset: int, block_text: str) -> str:
    """``block_text`` inserted at a line boundary ``offset`` (a newline added to a last line that lacks one)."""
    head = text[:offset]
    if head and not head.endswith("\n"):
        head += "\n"
    return head + block_text + text[offset:]


def backup_path(path: Path, now: datetime | None = None) -> Path:
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%S")
    candidate = path.with_name(f"{path.name}.madohub-{stamp}.bak")
    number = 1
    while candidate.exists():
        number += 1
        candidate = path.with_name(f"{path.name}.madohub-{stamp}-{number}.bak")
    return candidate


def backup(path: Path) -> Path | None:
    """A copy of ``path`` beside it (None when there is no file yet); same permissions."""
    if not path.exists():
        return None
    target = backup_path(path)
    shutil.copy2(path, target)
    return target


def write_atomic(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` in one step (a crash leaves the old file or the new one),
    keeping the file's permissions (0600 for a new file: agent configs may hold keys)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = path.stat().st_mode & 0o7777 if path.exists() else 0o600
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def read_text(path: Path) -> str | None:
    """The file's text (None when it does not exist); a file that is not UTF-8 raises ValueError."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"not valid UTF-8 (byte {exc.start})") from None
