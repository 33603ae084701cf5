"""Named, transactional schema migrations keyed by schema version.

Each module ``mNNNN_<name>.py`` in this package defines ``VERSION`` (int, the ``NNNN`` of
its file name), ``NAME`` (str, the ``<name>``) and ``apply(conn)``. The list of migrations
is read from the file names and a module is imported only when it is applied: every open
asks for the newest version, and a read command should not load twelve modules to learn
that none is due (start-up time, issue 11). Versions are applied in order, each in its own transaction together
with its row in ``schema_migrations``; a failure rolls that migration back and stops.
Before migrating a file that already holds data, a backup copy
``<file>.bak-v<old version>`` is written next to it (SQLite's online backup API).
"""

from __future__ import annotations

import functools
import importlib
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from madohub_memory.store.database import Store


class Migration:
    """One schema step (a plain class: a dataclass or named tuple costs every open a few ms)."""

    __slots__ = ("apply", "name", "version")

    def __init__(self, version: int, name: str, apply: Callable[[sqlite3.Connection], None]) -> None:
        self.version = version
        self.name = name
        self.apply = apply

    def __repr__(self) -> str:
        return f"Migration({self.version}, {self.name!r})"


def all_migrations() -> list[Migration]:
    return list(_discover())


def _applier(module_name: str, version: int, name: str) -> Callable[[sqlite3.Connection], None]:
    """``apply`` of the module ``module_name``, imported on the first call; a module whose
    ``VERSION`` or ``NAME`` disagrees with its file name is a bug, refused before it runs."""

    def apply(conn: sqlite3.Connection) -> None:
        module = importlib.import_module(f"{__name__}.{module_name}")
        if (version, name) != (module.VERSION, module.NAME):
            raise RuntimeError(f"{module_name}.py defines version {module.VERSION} {module.NAME!r}:"
                               f" its file name says {version} {name!r}")
        module.apply(conn)

    return apply


def _is_migration(name: str) -> bool:
    return name[:1] == "m" and name[1:5].isdigit() and name[5:6] == "_" and name[6:].isidentifier()


def module_names() -> list[str]:
    """The migration modules of this package (``mNNNN_<name>``), by name: the folder is
    listed directly (``pkgutil.iter_modules`` imports ``inspect``, ~10 ms of a start); a
    frozen or zipped package, which has no folder, is asked through ``pkgutil``."""
    names: set[str] = set()
    for folder in __path__:
        try:
            entries = os.listdir(folder)
        except OSError:
            continue
        names.update(stem for stem, dot, ext in (e.partition(".") for e in entries) if dot and ext == "py")
    if not any(_is_migration(n) for n in names):
        import pkgutil

        names = {info.name for info in pkgutil.iter_modules(__path__)}
    return sorted(n for n in names if _is_migration(n))


@functools.cache
def _discover() -> tuple[Migration, ...]:
    """Found once per process: every open asks twice (version check, then migrate)."""
    found: list[Migration] = []
    for module_name in module_names():
        version, name = int(module_name[1:5]), module_name[6:]
        found.append(Migration(version, name, _applier(module_name, version, name)))
    found.sort(key=lambda m: m.version)
    versions = [m.version for m in found]
    if len(set(versions)) != len(versions):
        raise RuntimeError(f"Two migrations share a version: {versions}")
    return tuple(found)


def current_version(conn: sqlite3.Connection) -> int:
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
    )
    row = conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations").fetchone()
    return int(row[0])


def backup_file(conn: sqlite3.Connection, path: Path, version: int) -> Path:
    """Copy the file (SQLite backup API) to ``<file>.bak-v<version>``, readable by its owner only."""
    from madohub_memory.store.files import FILE_MODE, make_private

    target = path.with_name(f"{path.name}.bak-v{version}")
    fd = os.open(target, os.O_WRONLY | os.O_CREAT, FILE_MODE)
    make_private(fd)
    os.close(fd)
    dest = sqlite3.connect(str(target))
    try:
        conn.backup(dest)
    finally:
        dest.close()
    return target


def _failed(store: Store, migration: Migration, version: int, backup: Path | None, exc: BaseException) -> Exception:
    """One sentence for a migration that could not be applied (the step was rolled back)."""
    from madohub_memory.core.errors import StorageError
    from madohub_memory.store import errors as db_errors

    translated = db_errors.translate(exc, store.path)
    if isinstance(translated, StorageError):
        return translated
    return StorageError(
        "Upgrading {path} to schema version {target} ({name}) failed ({error}): the file stays at version"
        " {version}; a copy from before the upgrade is at {backup}." if backup else
        "Upgrading {path} to schema version {target} ({name}) failed ({error}): the file stays at version"
        " {version}.",
        path=store.path, target=migration.version, name=migration.name, error=f"{type(exc).__name__}: {exc}",
        version=version, backup=backup,
    )


def migrate(store: Store) -> list[str]:
    """Bring the file up to the newest schema; return the names applied."""
    conn = store.conn
    version = current_version(conn)
    pending = [m for m in all_migrations() if m.version > version]
    if not pending:
        return []
    backup = None
    if version > 0 and str(store.path) != ":memory:":
        backup = backup_file(conn, store.path, version)
    applied: list[str] = []
    for migration in pending:
        conn.execute("BEGIN IMMEDIATE")
        try:
            # Another process may have migrated while we waited for the lock.
            if current_version(conn) >= migration.version:
                conn.execute("ROLLBACK")
                continue
            migration.apply(conn)
            conn.execute(
                "INSERT INTO schema_migrations (version, name, applied_at)"
                " VALUES (?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))",
                (migration.version, migration.name),
            )
        except BaseException as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            if isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc):
                raise  # busy: the caller retries the whole upgrade
            if isinstance(exc, Exception):
                raise _failed(store, migration, current_version(conn), backup, exc) from exc
            raise
        conn.execute("COMMIT")
        applied.append(migration.name)
    return applied
