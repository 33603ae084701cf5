"""Opening the database file: pragmas, migrations, and one transaction helper."""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from madohub_memory.core.errors import UserError
from madohub_memory.store.migrations import migrate

BUSY_TIMEOUT_MS = 10_000


def default_db_path() -> Path:
    """``$MADOHUB_DB`` or ``<user data dir>/madohub-memory/memory.db``."""
    env = os.environ.get("MADOHUB_DB")
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("madohub-memory", appauthor=False)) / "memory.db"


class Store:
    """An open database file.

    The connection is in autocommit mode; every write goes through :meth:`transaction`,
    which takes the write lock up front (``BEGIN IMMEDIATE``) so two processes never
    deadlock on a lock upgrade. One ``Store`` is used by one thread at a time; the GUI
    worker and each background job open their own.
    """

    def __init__(self, path: str | os.PathLike[str], *, migrate_schema: bool = True) -> None:
        self.path = Path(path)
        if str(self.path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            conn = sqlite3.connect(
                str(self.path), timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None,
                check_same_thread=False,
            )
        except sqlite3.OperationalError as exc:
            raise UserError(f"Cannot open the database file {self.path}: {exc}.") from None
        conn.row_factory = sqlite3.Row
        self.conn = conn
        self._depth = 0
        self._identity: tuple[int, int] | None = None
        self._lock = threading.RLock()
        try:
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
            conn.execute("PRAGMA foreign_keys = ON")
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise UserError(f"{self.path} is not a MadoHub Memory database ({exc}).") from None
        from madohub_memory.store.recall import register_functions

        register_functions(conn)  # SQL functions the recall triggers call (m0004)
        if migrate_schema:
            migrate(self)
        self._identity = self.file_identity()

    def file_identity(self) -> tuple[int, int] | None:
        """(device, inode) of the file now at ``path``; ``None`` when there is none."""
        if str(self.path) == ":memory:":
            return None
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        return (st.st_dev, st.st_ino)

    def file_replaced(self) -> bool:
        """True when the file this connection writes to was deleted or replaced by another
        one since it was opened: writes would go to a file nobody will open again."""
        return self._identity is not None and self.file_identity() != self._identity

    def check_file(self) -> None:
        if self.file_replaced():
            raise UserError(
                f"The database file {self.path} was deleted or replaced while it was open; nothing was"
                " written. Restart MadoHub Memory to open the file that is there now."
            )

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """A write transaction; nested calls join the outer one. Rolls back on any error."""
        with self._lock:
            if self._depth:
                self._depth += 1
                try:
                    yield self.conn
                finally:
                    self._depth -= 1
                return
            self.check_file()
            self.conn.execute("BEGIN IMMEDIATE")
            self._depth = 1
            try:
                yield self.conn
            except BaseException:
                self.conn.execute("ROLLBACK")
                raise
            else:
                self.conn.execute("COMMIT")
            finally:
                self._depth = 0

    def query(self, sql: str, params: Any = ()) -> list[sqlite3.Row]:
        return self.conn.execute(sql, params).fetchall()

    def query_one(self, sql: str, params: Any = ()) -> sqlite3.Row | None:
        return self.conn.execute(sql, params).fetchone()

    def execute(self, sql: str, params: Any = ()) -> sqlite3.Cursor:
        return self.conn.execute(sql, params)

    def data_version(self) -> int:
        """Changes when another connection commits: cheap polling for live views."""
        row = self.conn.execute("PRAGMA data_version").fetchone()
        return int(row[0])
