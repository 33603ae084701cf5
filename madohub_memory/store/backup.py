"""Backups of the database file with SQLite's online backup API, and restoring one.

The backup API copies a consistent snapshot while other processes keep reading and
writing (in WAL mode nobody waits for it). A backup is written to a 0600 ``.part`` file,
checked (``integrity_check``) and only then renamed into place, so a backup that exists
is a whole, sound database. Restoring checks the source the same way and that it is a
MadoHub Memory file this program can read, keeps a copy of the current file first, then
copies the backup into the live file through the same API (other processes see the
restored data at their next read).
"""

from __future__ import annotations

import os
import re
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from madohub_memory.core.errors import DamagedDatabaseError, ForeignDatabaseError, StorageError
from madohub_memory.store import errors as db_errors
from madohub_memory.store import open_checks
from madohub_memory.store.files import (
    FILE_MODE,
    ensure_private_dir,
    make_private,
    part_path,
    remove_stale_parts,
)

PREFIX = "memory-"  # the default database memory.db; another file's backups carry its own name
SUFFIX = ".db"
_PAGES_PER_STEP = 1024


@dataclass(frozen=True)
class BackupFile:
    path: Path
    taken_at: str  # 20260101T120000Z
    size: int


def default_folder(db_path: Path) -> Path:
    return db_path.parent / "backups"


def prefix_for(db_path: Path) -> str:
    """``work-`` for ``work.db``: two databases sharing a folder (or ``backup.folder``) never
    list, restore or rotate away each other's backups."""
    return f"{db_path.stem}-"


def backup_name(db_path: Path, tag: str = "") -> str:
    return f"{prefix_for(db_path)}{stamp()}{'-' + tag if tag else ''}{SUFFIX}"


def _name_pattern(prefix: str) -> re.Pattern[str]:
    return re.compile(rf"^{re.escape(prefix)}(\d{{8}}T\d{{6}}Z)(?:-[a-z-]+)?{re.escape(SUFFIX)}$")


def stamp(moment: float | None = None) -> str:
    return time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(moment))


def list_backups(folder: Path, prefix: str = PREFIX) -> list[BackupFile]:
    """Backups in ``folder`` whose names start with ``prefix``, newest first (only files this
    module named)."""
    pattern = _name_pattern(prefix)
    found: list[BackupFile] = []
    try:
        names = os.listdir(folder)
    except OSError:
        return found
    for name in names:
        match = pattern.match(name)
        if match:
            path = folder / name
            try:
                size = path.stat().st_size
            except OSError:
                continue
            found.append(BackupFile(path, match.group(1), size))
    found.sort(key=lambda b: (b.taken_at, b.path.name), reverse=True)
    return found


def _copy(source: sqlite3.Connection, target: Path) -> None:
    """``source`` into a new 0600 file ``target`` (through ``.part``), checked before the rename."""
    ensure_private_dir(target.parent)
    remove_stale_parts(target)
    part = part_path(target)
    fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE)
    make_private(fd)
    os.close(fd)
    try:
        dest = sqlite3.connect(str(part), isolation_level=None)
        try:
            source.backup(dest, pages=_PAGES_PER_STEP)
            dest.execute("PRAGMA journal_mode = DELETE")  # a backup is one self-contained file
            problems = open_checks.integrity_problems(dest)
        finally:
            dest.close()
        if problems:
            raise DamagedDatabaseError(
                "The backup copy failed its integrity check ({problem}); nothing was kept.", problem=problems[0],
            )
        os.replace(part, target)
    except sqlite3.Error as exc:
        part.unlink(missing_ok=True)
        err = db_errors.translate(exc, target)
        raise (err or StorageError(
            "Cannot write the backup {target}: {reason}.", target=target, reason=exc,
        )) from None
    except OSError as exc:
        part.unlink(missing_ok=True)
        raise StorageError(
            "Cannot write the backup {target}: {reason}.", target=target, reason=exc.strerror or exc,
        ) from None
    except BaseException:
        part.unlink(missing_ok=True)
        raise


def write_backup(conn: sqlite3.Connection, target: Path) -> BackupFile:
    """Back the open database up to ``target``."""
    _copy(conn, target)
    return BackupFile(target, stamp(), target.stat().st_size)


def rotate(folder: Path, keep: int, prefix: str = PREFIX) -> list[Path]:
    """Delete all but the newest ``keep`` backups named with ``prefix``; return the deleted paths."""
    removed: list[Path] = []
    for old in list_backups(folder, prefix)[max(1, keep):]:
        try:
            old.path.unlink()
            removed.append(old.path)
        except OSError:
            continue
    return removed


def check_source(source: Path) -> sqlite3.Connection:
    """A read-only connection to a backup that is sound, ours and not newer than this program."""
    if not source.is_file():
        raise StorageError("There is no backup file at {source}.", source=source)
    open_checks.sniff(source)
    conn = sqlite3.connect(open_checks.read_only_uri(source), uri=True, isolation_level=None)
    try:
        open_checks.check_ownership(conn, source)
        if "schema_migrations" not in {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}:
            raise ForeignDatabaseError(
                "{source} holds no MadoHub Memory data; nothing was restored.", source=source,
            )
        open_checks.check_version(conn, source)
        problems = open_checks.integrity_problems(conn)
        if problems:
            raise DamagedDatabaseError(
                "The backup {source} is damaged ({problem}); nothing was restored.",
                source=source, problem=problems[0],
            )
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise ForeignDatabaseError(
            "{source} is not a MadoHub Memory database ({reason}); nothing was restored.",
            source=source, reason=exc,
        ) from None
    except BaseException:
        conn.close()
        raise
    return conn


def restore_into(source: Path, db_path: Path) -> None:
    """Replace the contents of ``db_path`` with the backup ``source`` (checked first)."""
    src = check_source(source)
    try:
        ensure_private_dir(db_path.parent)
        if not db_path.exists():
            fd = os.open(db_path, os.O_WRONLY | os.O_CREAT, FILE_MODE)
            os.close(fd)
        dest = sqlite3.connect(str(db_path), isolation_level=None, timeout=30)
        try:
            src.backup(dest, pages=_PAGES_PER_STEP)
            dest.execute("PRAGMA journal_mode = WAL")
        except sqlite3.DatabaseError as exc:
            if db_errors.primary_code(exc) not in (db_errors.SQLITE_CORRUPT, db_errors.SQLITE_NOTADB):
                raise
            # The live file is too damaged to be written page by page: replace it whole.
            dest.close()
            for side in open_checks.companions(db_path):
                side.unlink(missing_ok=True)
            _copy(src, db_path)
        finally:
            dest.close()
    except sqlite3.Error as exc:
        err = db_errors.translate(exc, db_path)
        raise (err or StorageError(
            "Cannot restore into {db_path}: {reason}.", db_path=db_path, reason=exc,
        )) from None
    finally:
        src.close()
    open_checks.clear_damaged(db_path)
