"""Changing another program's configuration file safely: marked blocks, a backup first, an
atomic write. Generic: any ``setup <agent>`` target can use it (Codex's ``config.toml`` and
``AGENTS.md`` do).

Why marked blocks: what setup adds must come out again exactly, however the person edited
the rest of the file meanwhile. Each addition is a run of whole lines between a begin and an
end marker line (comments in the file's own syntax), so uninstalling is cutting those lines
out, and a second setup finds its block and changes nothing (a byte-identical file).
Why a backup per change: a person who does not like what setup did gets the file back as
it was, from a copy beside it named after the moment (``config.toml.madohub-<time>.bak``).

JSON files (Claude Code's ``settings.json``, ``.mcp.json``, ``~/.claude.json``) have no
comments to mark a block with; there :func:`read_json_object`, :func:`check_writable`,
:func:`write_file` and :func:`original_bytes` apply these rules:

- a file that cannot be read as a JSON object (malformed, comments, not UTF-8, a list at the
  top) is refused with one sentence and left untouched; so is a read-only file (its write
  bits are cleared: the user meant "do not touch", even for root) or folder;
- nothing is written when nothing changes (a second run leaves the file byte-identical);
- a file that is a symbolic link (settings kept in a dotfiles repository) is written through
  the link, to the file it points to: the link stays a link;
- JSON is written with two-space indents, keys in their order, non-ASCII kept, and a final
  newline;
- :func:`original_bytes` finds, among the backups, one whose content equals what a removal
  leaves: restoring it gives the user their own file back byte for byte (their indentation
  and key order), not our re-serialisation of it.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from madohub_memory.core.errors import UserError


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


def without_added_newline(path: Path, text: str) -> str:
    """``text`` (what removing our blocks left) without the final newline :func:`insert_at`
    gave a last line that had none, when a backup shows the file had none: the person's own
    bytes back, not ours."""
    if not text.endswith("\n"):
        return text
    for saved in backups(path):
        try:
            if saved.read_text(encoding="utf-8") == text[:-1]:
                return text[:-1]
        except (OSError, UnicodeDecodeError):
            continue
    return text


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


# -- JSON settings files (Claude Code) ---------------------------------------------------------


def shown_path(path: Path) -> str:
    """``~/.claude/settings.json`` rather than the full home path, for messages."""
    home = Path.home()
    try:
        return "~/" + str(path.relative_to(home))
    except ValueError:
        return str(path)


def read_json_object(path: Path) -> tuple[dict[str, Any], bytes | None]:
    """The file's JSON object and its bytes; ``({}, None)`` when it does not exist (an empty
    file counts as ``{}``). Anything else is refused with one sentence."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return {}, None
    except IsADirectoryError:
        raise UserError("{path} is a folder, not a settings file; nothing was changed.",
                        path=shown_path(path)) from None
    except OSError as exc:
        raise UserError("{path} cannot be read ({reason}); nothing was changed.", path=shown_path(path),
                        reason=exc.strerror or exc) from None
    if not data.strip():
        return {}, data
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UserError("{path} is not UTF-8 text; nothing was changed.", path=shown_path(path)) from None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        comment = any(line.lstrip().startswith(("//", "/*", "#")) for line in text.splitlines())
        if comment:
            raise UserError("{path} has comments, which JSON does not allow (line {line}); remove them and run "
                            "this again; nothing was changed.", path=shown_path(path), line=exc.lineno) from None
        raise UserError("{path} is not valid JSON (line {line}, column {column}: {reason}); fix it and run this "
                        "again; nothing was changed.", path=shown_path(path), line=exc.lineno, column=exc.colno,
                        reason=exc.msg) from None
    if not isinstance(value, dict):
        raise UserError("{path} holds a JSON {found}, not an object of settings; nothing was changed.",
                        path=shown_path(path), found=type(value).__name__.replace("dict", "object")
                        .replace("list", "array").replace("str", "string")) from None
    return value, data


def dump_json(value: dict[str, Any]) -> bytes:
    return (json.dumps(value, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def check_writable(path: Path) -> None:
    """Refuse (one sentence) a read-only file, or a missing file in a folder we cannot write."""
    path = real_file(path)
    if path.exists():
        mode = path.stat().st_mode
        if not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) or not os.access(path, os.W_OK):
            raise UserError("{path} is read-only; make it writable (chmod u+w) and run this again, or make the "
                            "change yourself; nothing was changed.", path=shown_path(path))
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UserError("The folder {folder} is not writable; nothing was changed.", folder=shown_path(folder))


def backups(path: Path) -> list[Path]:
    """The backups :func:`backup` made of ``path`` (through a link), newest first."""
    path = real_file(path)
    found = [p for p in path.parent.glob(f"{path.name}.madohub-*.bak") if p.is_file()]
    return sorted(found, key=lambda p: (p.stat().st_mtime, p.name), reverse=True)


def original_bytes(path: Path, wanted: dict[str, Any]) -> bytes | None:
    """The bytes of the newest backup whose JSON equals ``wanted`` (None if none does)."""
    for candidate in backups(path):
        try:
            value, data = read_json_object(candidate)
        except UserError:
            continue
        if data is not None and value == wanted:
            return data
    return None


def real_file(path: Path) -> Path:
    """The file a settings path stands for: the target of a symbolic link, else itself."""
    return path.resolve() if path.is_symlink() else path


def write_file(path: Path, data: bytes) -> None:
    """Replace ``path`` (through a symbolic link) with ``data`` atomically, keeping its mode;
    a failure is one sentence and the file stays as it was."""
    try:
        write_atomic(real_file(path), data.decode("utf-8"))
    except OSError as exc:
        raise UserError("{path} could not be written ({reason}); it was left as it was.", path=shown_path(path),
                        reason=exc.strerror or exc) from None
