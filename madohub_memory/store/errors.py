"""SQLite failures as one sentence a person can act on.

SQLite reports a full disk, a read-only file, a busy lock and a damaged page with terse
codes; every front end shows the sentence made here instead of a traceback. Errors that
are not about the file (a bug's SQL error) are left alone.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from madohub_memory.core.errors import (
    DamagedDatabaseError,
    DatabaseBusyError,
    DiskFullError,
    ReadOnlyDatabaseError,
    StorageError,
    UserError,
    ValidationError,
)

SQLITE_BUSY = 5
SQLITE_LOCKED = 6
SQLITE_READONLY = 8
SQLITE_IOERR = 10
SQLITE_CORRUPT = 11
SQLITE_FULL = 13
SQLITE_CANTOPEN = 14
SQLITE_NOTADB = 26
INT64_MAX = 2**63 - 1


def primary_code(exc: BaseException) -> int | None:
    code = getattr(exc, "sqlite_errorcode", None)
    return None if code is None else int(code) & 0xFF


def busy(path: Path | str, waited_s: float) -> DatabaseBusyError:
    return DatabaseBusyError(
        "The database {path} is busy: another program kept it locked for {waited_s:.0f} seconds; nothing "
        "was written, try again in a moment.", path=path, waited_s=waited_s,
    )


def full(path: Path | str) -> DiskFullError:
    return DiskFullError(
        "The disk holding {path} is full: free some space, then try again; nothing was written.", path=path,
    )


def read_only(path: Path | str) -> ReadOnlyDatabaseError:
    return ReadOnlyDatabaseError(
        "The database {path} is read-only: it can be searched but not changed (check the file's permissions "
        "and the disk it is on).", path=path,
    )


def damaged(path: Path | str, detail: str) -> DamagedDatabaseError:
    return DamagedDatabaseError(
        "The database {path} is damaged ({detail}): run `madohub-memory doctor` to check it, or "
        "`madohub-memory restore` a backup.", path=path, detail=detail,
    )


def is_busy(exc: BaseException) -> bool:
    if not isinstance(exc, sqlite3.OperationalError):
        return False
    code = primary_code(exc)
    if code is not None:
        return code in (SQLITE_BUSY, SQLITE_LOCKED)
    return "locked" in str(exc) or "busy" in str(exc)


def translate(exc: BaseException, path: Path | str, waited_s: float = 0.0) -> UserError | None:
    """The sentence for a storage failure, or ``None`` when ``exc`` is not one."""
    if isinstance(exc, StorageError):
        return exc
    if isinstance(exc, OverflowError) and "SQLite INTEGER" in str(exc):
        return ValidationError(
            "A number in the request is too large: ids and counts stop at {limit:,}.", limit=INT64_MAX,
        )
    if isinstance(exc, UnicodeEncodeError) and "surrogate" in str(exc):
        return ValidationError("The text holds an invalid character (a lone UTF-16 surrogate) and cannot be stored.")
    if not isinstance(exc, sqlite3.Error):
        return None
    code = primary_code(exc)
    text = str(exc)
    if is_busy(exc):
        return busy(path, waited_s)
    if code == SQLITE_FULL or "database or disk is full" in text:
        return full(path)
    if code == SQLITE_READONLY or "readonly database" in text:
        return read_only(path)
    if code in (SQLITE_CORRUPT, SQLITE_NOTADB) or "malformed" in text:
        return damaged(path, text)
    if code in (SQLITE_IOERR, SQLITE_CANTOPEN) or "disk I/O error" in text or "unable to open" in text:
        if _disk_nearly_full(path):  # a full disk fails SQLite's shared-memory file as an I/O error
            return full(path)
        if code == SQLITE_CANTOPEN or "unable to open" in text:
            return StorageError("Cannot open the database file {path}: {reason}.", path=path, reason=text)
        return StorageError(
            "Cannot read or write the database {path}: the disk reported an error ({reason}).",
            path=path, reason=text,
        )
    return None


def _disk_nearly_full(path: Path | str) -> bool:
    import shutil  # only after a failed write (it loads the compression modules: start-up time)

    try:
        return shutil.disk_usage(Path(path).parent).free < 256 * 1024
    except (OSError, ValueError):
        return False
