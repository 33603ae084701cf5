"""Changing another program's JSON configuration file safely (agent set-ups share this).

A set-up command edits files that belong to the user and to another program (Claude Code's
``settings.json``, its ``.mcp.json``...). The rules, written once here:

- a file that cannot be read as a JSON object (malformed, comments, not UTF-8, a list at the
  top) is refused with one sentence and left untouched; so is a read-only file (its write
  bits are cleared: the user meant "do not touch", even for root) or folder;
- nothing is written when nothing changes (a second run leaves the file byte-identical);
- before a change the file is copied beside itself (``NAME.madohub-<time>.bak``, same mode);
- the new content is written to a temporary file in the same folder and renamed over the
  old one, so a crash leaves the old file or the new one, never half of either;
- JSON is written with two-space indents, keys in their order, non-ASCII kept, and a final
  newline;
- a file that is a symbolic link (settings kept in a dotfiles repository) is written through
  the link, to the file it points to: the link stays a link.

:func:`original_bytes` finds, among the backups, one whose content equals what a
set-up's removal leaves: restoring it gives the user their own file back byte for byte
(their indentation and key order), not our re-serialisation of it.
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
from datetime import datetime
from pathlib import Path
from typing import Any

from madohub_memory.core.errors import UserError

BACKUP_INFIX = ".madohub-"
BACKUP_SUFFIX = ".bak"


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


def backup(path: Path, now: datetime | None = None) -> Path | None:
    """A copy of ``path`` beside it, with its mode (None when there is no file to copy)."""
    if not path.exists():
        return None
    path = real_file(path)
    stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S-%f")
    target = path.with_name(f"{path.name}{BACKUP_INFIX}{stamp}{BACKUP_SUFFIX}")
    data = path.read_bytes()
    _write(target, data, stat.S_IMODE(path.stat().st_mode))
    return target


def backups(path: Path) -> list[Path]:
    """The backups :func:`backup` made of ``path``, newest first."""
    path = real_file(path)
    prefix = f"{path.name}{BACKUP_INFIX}"
    found = [p for p in path.parent.glob(f"{prefix}*{BACKUP_SUFFIX}") if p.is_file()]
    return sorted(found, key=lambda p: p.name, reverse=True)


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
    """Replace ``path`` with ``data`` atomically, keeping its mode (0600 for a new file: it
    may hold an MCP server's environment)."""
    path = real_file(path)
    mode = stat.S_IMODE(path.stat().st_mode) if path.exists() else 0o600
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _write(path, data, mode)
    except OSError as exc:
        raise UserError("{path} could not be written ({reason}); it was left as it was.", path=shown_path(path),
                        reason=exc.strerror or exc) from None


def _write(path: Path, data: bytes, mode: int) -> None:
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise
