"""What is checked before a database file is used: that it is ours, not newer, not damaged.

* **Ours**: the file carries MadoHub Memory's SQLite ``application_id``; a file from
  before the id (tables ``schema_migrations`` and ``candidates``) gets it stamped. Any other
  SQLite file is refused before a single byte of it changes (no WAL switch, no tables).
* **Not newer**: a schema version above the newest migration this program knows means a
  newer release wrote it; this one refuses instead of writing into a schema it does not know.
* **Not damaged**: after an unclean shutdown (a WAL file with content and no other process
  holding the database open) ``PRAGMA integrity_check`` runs before anything else. A failed
  check, or a damaged page met later, leaves a ``<file>.damaged`` note that refuses every
  open until ``madohub-memory doctor`` passes or a backup is restored.

Opening a file and closing it again would drop the POSIX locks SQLite holds on it in this
process, so the header sniff and the lock probe skip files this process has open already.
"""

from __future__ import annotations

import os
import sqlite3
import time
import urllib.parse
from pathlib import Path

from madohub_memory.core.errors import ForeignDatabaseError, StorageError
from madohub_memory.core.lock_order import Level, OrderedLock
from madohub_memory.store import errors as db_errors
from madohub_memory.store.files import FILE_MODE

APPLICATION_ID = 0x4D484D4D  # "MHMM"
SQLITE_HEADER = b"SQLite format 3\x00"
_WAL_DMS_BYTE = 128  # SQLite's "dead man switch" lock byte in the -shm file (unix VFS)
_OUR_TABLES = {"schema_migrations", "candidates"}

_open_here: dict[str, int] = {}
_open_lock = OrderedLock("the registry of open files", Level.LEAF)


def _key(path: Path) -> str:
    return os.path.realpath(path)


def register(path: Path) -> None:
    with _open_lock:
        _open_here[_key(path)] = _open_here.get(_key(path), 0) + 1


def unregister(path: Path) -> None:
    with _open_lock:
        key = _key(path)
        count = _open_here.get(key, 0) - 1
        if count > 0:
            _open_here[key] = count
        else:
            _open_here.pop(key, None)


def open_here(path: Path) -> bool:
    with _open_lock:
        return _key(path) in _open_here


def companions(path: Path) -> list[Path]:
    """The WAL and shared-memory files next to a database (those that exist)."""
    return [p for p in (Path(f"{path}-wal"), Path(f"{path}-shm")) if p.exists()]


def sniff(path: Path) -> None:
    """Refuse a non-empty file that is not SQLite at all (a text file given as --db)."""
    if open_here(path):
        return
    try:
        with open(path, "rb") as handle:
            head = handle.read(len(SQLITE_HEADER))
    except OSError as exc:
        raise StorageError(
            "Cannot read the database file {path}: {reason}.", path=path, reason=exc.strerror or exc,
        ) from None
    if head and head != SQLITE_HEADER:
        raise ForeignDatabaseError(
            "{path} is not a MadoHub Memory database (it is not an SQLite file): give another --db path.",
            path=path,
        )


def writable(path: Path) -> bool:
    """Whether SQLite can write here: the file, and its folder or existing WAL/SHM files."""
    if not os.access(path, os.W_OK):
        return False
    if os.access(path.parent, os.W_OK | os.X_OK):
        return True
    side = [Path(f"{path}-wal"), Path(f"{path}-shm")]
    return all(p.exists() and os.access(p, os.W_OK) for p in side)


def read_only_uri(path: Path) -> str:
    return f"file:{urllib.parse.quote(str(path.resolve()))}?mode=ro"


def unclean_shutdown(path: Path) -> bool:
    """True when the last process using the file did not close it (killed, crashed, power cut).

    A clean close of the last connection checkpoints the WAL and deletes it; a WAL with
    content that no live connection holds (none has the shared-memory lock) was left behind.
    """
    wal = Path(f"{path}-wal")
    try:
        if wal.stat().st_size == 0:
            return False
    except OSError:
        return False
    if open_here(path):
        return False
    shm = Path(f"{path}-shm")
    if not shm.exists():
        return True
    try:
        import fcntl
    except ImportError:  # Windows: no way to probe SQLite's lock from here
        return False
    try:
        fd = os.open(shm, os.O_RDWR)
    except OSError:
        return False
    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, _WAL_DMS_BYTE)
    except OSError:
        return False  # another process has the database open
    else:
        fcntl.lockf(fd, fcntl.LOCK_UN, 1, _WAL_DMS_BYTE)
        return True
    finally:
        os.close(fd)


def _tables(conn: sqlite3.Connection) -> set[str]:
    return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")}


def check_ownership(conn: sqlite3.Connection, path: Path) -> None:
    """Refuse another program's SQLite file (read-only queries: nothing is changed)."""
    app = int(conn.execute("PRAGMA application_id").fetchone()[0])
    if app == APPLICATION_ID:
        return
    if app != 0:
        raise ForeignDatabaseError(
            "{path} belongs to another program (SQLite application id {app:#x}), it is not a MadoHub Memory "
            "database: give another --db path; nothing was changed.", path=path, app=app,
        )
    tables = _tables(conn)
    if not tables or tables >= _OUR_TABLES or tables == {"schema_migrations"}:
        return
    sample = ", ".join(sorted(tables)[:3])
    raise ForeignDatabaseError(
        "{path} is another program's SQLite database (tables {sample}), not a MadoHub Memory database: give "
        "another --db path; nothing was changed.", path=path, sample=sample,
    )


def latest_version() -> int:
    from madohub_memory.store.migrations import all_migrations

    return max(m.version for m in all_migrations())


def check_version(conn: sqlite3.Connection, path: Path) -> int:
    """The file's schema version; refuse one newer than this program knows."""
    if "schema_migrations" not in _tables(conn):
        return 0
    version = int(conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations").fetchone()[0])
    latest = latest_version()
    if version > latest:
        raise ForeignDatabaseError(
            "{path} was written by a newer MadoHub Memory (schema version {version}; this program knows up "
            "to {latest}): update madohub-memory to use it; nothing was changed.",
            path=path, version=version, latest=latest,
        )
    return version


def require_current(version: int, path: Path) -> None:
    """A read-only file cannot be migrated: it must already have the current schema."""
    latest = latest_version()
    if version < latest:
        raise StorageError(
            "{path} is read-only and uses an older schema (version {version}, current {latest}): open it "
            "once with write access to upgrade it.", path=path, version=version, latest=latest,
        )


def stamp_application_id(conn: sqlite3.Connection) -> None:
    if int(conn.execute("PRAGMA application_id").fetchone()[0]) != APPLICATION_ID:
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")


# -- integrity ------------------------------------------------------------------------


def integrity_problems(conn: sqlite3.Connection, limit: int = 20) -> list[str]:
    """What ``PRAGMA integrity_check`` reports (empty when the file is sound)."""
    try:
        rows = [str(r[0]) for r in conn.execute(f"PRAGMA integrity_check({int(limit)})")]
    except sqlite3.DatabaseError as exc:
        return [str(exc)]
    return [] if rows == ["ok"] else rows


def damaged_marker(path: Path) -> Path:
    return Path(f"{path}.damaged")


def mark_damaged(path: Path, detail: str) -> None:
    note = damaged_marker(path)
    try:
        fd = os.open(note, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(f"{time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())} {detail.strip()}\n")
    except OSError:
        pass


def clear_damaged(path: Path) -> None:
    damaged_marker(path).unlink(missing_ok=True)


def refuse_if_marked_damaged(path: Path) -> None:
    note = damaged_marker(path)
    if not note.exists():
        return
    try:
        detail = note.read_text(encoding="utf-8", errors="replace").strip().splitlines()[0][:200]
    except (OSError, IndexError):
        detail = "see the .damaged note next to it"
    raise db_errors.damaged(path, detail)


def integrity_after_crash(conn: sqlite3.Connection, path: Path) -> None:
    problems = integrity_problems(conn)
    if problems:
        detail = f"integrity check after an unclean shutdown: {problems[0]}"
        mark_damaged(path, detail)
        raise db_errors.damaged(path, detail)
