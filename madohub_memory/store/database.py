"""Opening the database file: checks, pragmas, migrations, and one transaction helper."""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from madohub_memory.core import lock_order
from madohub_memory.core.errors import (
    DamagedDatabaseError,
    ForeignDatabaseError,
    MissingDatabaseError,
    StorageError,
    UserError,
)
from madohub_memory.core.lock_order import Level
from madohub_memory.store import errors as db_errors
from madohub_memory.store import open_checks
from madohub_memory.store.files import create_private, ensure_private_dir, tighten
from madohub_memory.store.migrations import migrate
from madohub_memory.store.write_guard import GuardedConnection

if TYPE_CHECKING:
    from madohub_memory.store.write_turns import WriteTurns

BUSY_TIMEOUT_MS = 5_000
BUSY_GIVE_UP_S = 30.0  # BEGIN IMMEDIATE is retried this long before the one-sentence error
# A writer that found the lock taken asks again every 2-6 ms (SQLite's own handler: every
# 100 ms), so it is in within milliseconds of the holder's commit (write_turns.py).
POLL_S = (0.002, 0.006)
# A store that ended a transaction less than this ago is writing in a loop: before its next
# one it lets writers already waiting go first. Another writer just tries, then waits its turn
# (were it to yield too, two yielding writers could each wait for the other).
LOOP_GAP_S = 1.0


JOURNAL_SIZE_LIMIT = 4 * 1024 * 1024


def busy_give_up_s() -> float:
    """How long a write waits for another process's lock (``$MADOHUB_BUSY_TIMEOUT`` seconds)."""
    try:
        return max(0.0, float(os.environ.get("MADOHUB_BUSY_TIMEOUT", BUSY_GIVE_UP_S)))
    except ValueError:
        return BUSY_GIVE_UP_S


class LockStats:
    """The longest write-lock hold of this process (``bench/reliability.py`` reads it).

    With ``MADOHUB_LOCK_STATS=FILE`` in the environment each closing store appends one
    JSON line ``{"pid", "max_hold_ms", "transactions"}`` to FILE.
    """

    max_hold_s = 0.0
    transactions = 0
    holds: ClassVar[list[float]] = []  # kept only while MADOHUB_LOCK_STATS is set (percentiles)
    max_wait_s = 0.0  # the longest wait for the lock (another process held it)
    waited_s = 0.0  # every wait for the lock, added up (with the yields)
    yields = 0  # transactions begun after letting a waiting writer go first
    yielded_s = 0.0

    @classmethod
    def add(cls, held_s: float) -> None:
        cls.transactions += 1
        cls.max_hold_s = max(cls.max_hold_s, held_s)
        if len(cls.holds) < 1_000_000 and os.environ.get("MADOHUB_LOCK_STATS"):
            cls.holds.append(held_s)

    @classmethod
    def waited(cls, wait_s: float, yielded_s: float) -> None:
        cls.max_wait_s = max(cls.max_wait_s, wait_s)
        cls.waited_s += wait_s
        if yielded_s:
            cls.yields += 1
            cls.yielded_s += yielded_s

    @classmethod
    def dump(cls) -> None:
        target = os.environ.get("MADOHUB_LOCK_STATS")
        if not target or not cls.transactions:
            return
        import json

        ordered = sorted(cls.holds)
        p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] if ordered else 0.0
        try:
            with open(target, "a", encoding="utf-8") as handle:
                handle.write(json.dumps({
                    "pid": os.getpid(), "max_hold_ms": round(cls.max_hold_s * 1000, 1),
                    "p99_hold_ms": round(p99 * 1000, 1), "transactions": cls.transactions,
                    "over_250ms": sum(1 for h in ordered if h > 0.25),
                    "max_wait_ms": round(cls.max_wait_s * 1000, 1), "waited_ms": round(cls.waited_s * 1000, 1),
                    "yields": cls.yields,
                    "yielded_ms": round(cls.yielded_s * 1000, 1)}) + "\n")
        except OSError:
            pass


def _jitter(low: float, high: float) -> float:
    """A random wait between retries (``random`` is imported only when a retry happens)."""
    import random

    return random.uniform(low, high)


def refuse_url(path: str | os.PathLike[str]) -> None:
    """A URL given as the database that is not a PostgreSQL server (``--db sqlite:///m.db``) is
    refused: ``Path()`` would turn it into a folder ``sqlite:`` and a new empty database inside
    it. A server address goes to :func:`madohub_memory.store.opening.open_store`."""
    from madohub_memory.core.locations import is_dsn, redact

    text = os.fspath(path)
    if is_dsn(text):
        from madohub_memory.store.pg.dsn import has_password

        if has_password(text):
            raise StorageError(
                "Do not put a password in --db ({path}): command lines are visible to other programs and"
                " kept in shell history; put it in PGPASSFILE (~/.pgpass) or a libpq service file"
                " (--db service=NAME), or the whole address in $MADOHUB_DB.", path=redact(text),
            )
        return
    if "://" in text:
        raise StorageError(
            "--db takes the path of a local database file or a postgresql:// server address, not a URL"
            " like {path}.", path=redact(text),
        )


class Store:
    """An open database file.

    The connection is in autocommit mode; every write goes through :meth:`transaction`,
    which takes the write lock up front (``BEGIN IMMEDIATE``, retried while another
    process holds it) so two processes never deadlock on a lock upgrade. One ``Store`` is
    used by one thread at a time; the GUI worker and each background job open their own.

    ``create=False`` (read commands) refuses a path where no database exists instead of
    creating one. A file that cannot be written is opened read-only (``readonly``): reads
    work, a write is one sentence. Another program's SQLite file, a newer schema, a file
    that is not SQLite and a damaged file are refused before anything is written to them.
    """

    backend = "sqlite"  # PgStore (store/pg) says "postgresql"
    _turns: WriteTurns | None = None  # waiting-writers marks beside the file (write_turns.py), on first write
    _takes_turns = False  # a file this store may write: its writers take turns with other processes
    _last_end = -LOOP_GAP_S  # time.monotonic() when this store's last transaction ended
    _wait_cap: float | None = None  # set by waits_at_most(): no write waits longer for the lock

    def __init__(
        self, path: str | os.PathLike[str], *, migrate_schema: bool = True, create: bool = True,
        check: bool = True,
    ) -> None:
        refuse_url(path)
        from madohub_memory.core.locations import is_dsn

        if is_dsn(path):  # a server address: open_store() picks PgStore for it
            raise StorageError("{path} is a server address: open it with open_store(), not Store().",
                               path=os.fspath(path))
        self.path = Path(path)
        self.readonly = False
        self._depth = 0
        self._lock = threading.RLock()
        self._registered = False
        self._identity: tuple[int, int] | None = None
        memory = str(self.path) == ":memory:"
        unclean = False
        if not memory:
            self._prepare_file(create)
            self.readonly = not open_checks.writable(self.path)
            unclean = check and not self.readonly and open_checks.unclean_shutdown(self.path)
        self.conn = self._connect()
        self._takes_turns = not memory and not self.readonly  # with other processes' writers (write_turns.py)
        open_checks.register(self.path)
        self._registered = True
        try:
            self._configure(memory, unclean, check, migrate_schema)
        except BaseException:
            self.close()
            raise
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
                "The database file {path} was deleted or replaced while it was open; nothing was written. "
                "Restart MadoHub Memory to open the file that is there now.", path=self.path,
            )

    # -- opening ----------------------------------------------------------------------

    def _prepare_file(self, create: bool) -> None:
        if self.path.exists():
            if not self.path.is_file():
                raise StorageError(
                    "{path} is not a file: give the path of a database file with --db.", path=self.path,
                )
            open_checks.sniff(self.path)
            for path in (self.path, *open_checks.companions(self.path)):
                tighten(path)
            if self.path.parent.name == "madohub-memory":  # our own data folder (not a user's)
                tighten(self.path.parent)
            return
        if not create:
            raise MissingDatabaseError(
                "There is no database at {path} yet (nothing has been stored there): check --db or "
                "$MADOHUB_DB.", path=self.path,
            )
        try:
            ensure_private_dir(self.path.parent)
            create_private(self.path)
        except OSError as exc:
            raise StorageError(
                "Cannot create the database file {path}: {reason}.",
                path=self.path, reason=exc.strerror or exc,
            ) from None

    def _connect(self) -> sqlite3.Connection:
        target, uri = str(self.path), False
        if self.readonly:
            target, uri = open_checks.read_only_uri(self.path), True
        try:
            conn = sqlite3.connect(
                target, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None, check_same_thread=False, uri=uri,
                factory=GuardedConnection,  # every write masks its free text (store/write_guard.py)
            )
            if self.readonly:
                try:
                    conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
                except sqlite3.OperationalError as exc:
                    if db_errors.primary_code(exc) != db_errors.SQLITE_CANTOPEN:
                        raise
                    # A WAL file on read-only media whose shared-memory file cannot be
                    # created: read it as an unchanging file.
                    conn.close()
                    conn = sqlite3.connect(
                        target + "&immutable=1", isolation_level=None, check_same_thread=False, uri=True,
                        factory=GuardedConnection,
                    )
        except sqlite3.Error as exc:
            raise StorageError(
                "Cannot open the database file {path}: {reason}.", path=self.path, reason=exc,
            ) from None
        conn.row_factory = sqlite3.Row
        return conn

    def _configure(self, memory: bool, unclean: bool, check: bool, migrate_schema: bool) -> None:
        conn = self.conn
        try:
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            self._retry_busy(lambda: open_checks.check_ownership(conn, self.path))
            version = self._retry_busy(lambda: open_checks.check_version(conn, self.path))
            if not self.readonly:
                self._retry_busy(lambda: conn.execute("PRAGMA journal_mode = WAL"))
                conn.execute("PRAGMA synchronous = NORMAL")
            conn.execute("PRAGMA foreign_keys = ON")
            # Deleted and overwritten text is zeroed, not left in free pages or in the free
            # space of a page (a masked secret, an ended task, a deleted memory): cost in
            # bench/secure_delete.py. The WAL is cut back to 4 MB when it restarts.
            conn.execute("PRAGMA secure_delete = ON")
            if not self.readonly:
                conn.execute(f"PRAGMA journal_size_limit = {JOURNAL_SIZE_LIMIT}")
        except UserError:
            raise
        except sqlite3.DatabaseError as exc:
            err = db_errors.translate(exc, self.path)
            if err is None or db_errors.primary_code(exc) == db_errors.SQLITE_NOTADB:
                raise ForeignDatabaseError(
                    "{path} is not a MadoHub Memory database ({reason}).", path=self.path, reason=exc,
                ) from None
            raise err from None
        if check and not memory:
            if unclean:
                open_checks.integrity_after_crash(conn, self.path)
            open_checks.refuse_if_marked_damaged(self.path)
        from madohub_memory.store.fts_text import register_functions

        register_functions(conn)  # SQL functions the recall triggers call (m0004)
        if self.readonly:
            open_checks.require_current(version, self.path)
            return
        if migrate_schema:
            self._retry_busy(lambda: migrate(self))
            self._retry_busy(lambda: open_checks.stamp_application_id(conn))

    def _retry_busy(self, action: Any) -> Any:
        """Run ``action`` again while SQLite says the file is busy, up to ``BUSY_GIVE_UP_S``."""
        started = time.monotonic()
        while True:
            try:
                return action()
            except sqlite3.OperationalError as exc:
                waited = time.monotonic() - started
                if not db_errors.is_busy(exc):
                    raise
                if waited >= busy_give_up_s():
                    raise db_errors.busy(self.path, waited) from None
                time.sleep(_jitter(0.02, 0.2))

    def close(self) -> None:
        if getattr(self, "conn", None) is not None:
            self.conn.close()
        if self._turns is not None:
            self._turns.close()
        if self._registered:
            open_checks.unregister(self.path)
            self._registered = False
        LockStats.dump()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- errors -----------------------------------------------------------------------

    def _fail(self, exc: BaseException, waited_s: float = 0.0) -> BaseException:
        """The one-sentence error for a storage failure (``exc`` itself for anything else)."""
        err = db_errors.translate(exc, self.path, waited_s)
        if err is None:
            return exc
        if isinstance(err, DamagedDatabaseError):
            open_checks.mark_damaged(self.path, str(exc))
        return err

    def _raise_translated(self, exc: BaseException) -> None:
        err = self._fail(exc)
        if err is not exc:
            raise err from None

    # -- transactions -----------------------------------------------------------------

    @contextmanager
    def waits_at_most(self, seconds: float) -> Iterator[None]:
        """Within the block, a write waits at most ``seconds`` for another process's lock, then
        raises :class:`DatabaseBusyError`: for writes a read does on the side (a recall storing
        the vector of a memory approved meanwhile), which the reader skips rather than wait."""
        previous = self._wait_cap
        self._wait_cap = seconds if previous is None else min(previous, seconds)
        try:
            yield
        finally:
            self._wait_cap = previous

    @contextmanager
    def transaction(self, wait_s: float | None = None) -> Iterator[sqlite3.Connection]:
        """A write transaction; nested calls join the outer one. Rolls back on any error.

        ``wait_s``: how long to wait for another process's write lock before giving up with
        :class:`DatabaseBusyError` (a recall's hit counting waits less than a user's edit).
        """
        with self._lock:
            if self._depth:
                self._depth += 1
                try:
                    yield self.conn
                finally:
                    self._depth -= 1
                return
            if self.readonly:
                raise db_errors.read_only(self.path)
            self.check_file()
            limit = busy_give_up_s() if wait_s is None else min(wait_s, busy_give_up_s())
            # never waited for while this thread holds an in-process lock (core/lock_order.py)
            lock_order.waiting_for(Level.WRITE, "the database write lock", self)
            self._begin(limit if self._wait_cap is None else min(limit, self._wait_cap))
            self._depth = 1
            began = time.monotonic()
            if lock_order.CHECK:
                lock_order.note_taken(Level.WRITE, "the database write lock", self)
            try:
                yield self.conn
            except BaseException as exc:
                self._rollback()
                err = self._fail(exc) if isinstance(exc, Exception) else exc
                if err is not exc:
                    raise err from None
                raise
            else:
                self._commit()
            finally:
                if lock_order.CHECK:
                    lock_order.note_released(self)
                self._depth = 0
                self._after_transaction()
                self._last_end = time.monotonic()
                LockStats.add(self._last_end - began)

    def _commit(self) -> None:
        """COMMIT the open transaction (rolled back, one sentence, when that fails). A server
        backend does more here: :meth:`madohub_memory.store.pg.store.PgStore._commit`."""
        try:
            self.conn.execute("COMMIT")
        except sqlite3.Error as exc:
            self._rollback()
            raise self._fail(exc) from None

    def _after_transaction(self) -> None:
        """What a backend resets once a transaction has ended, committed or not."""

    def _write_turns(self) -> WriteTurns | None:
        """The waiting-writers marks, made at the first write (a read command never loads them)."""
        if self._turns is None and self._takes_turns:
            from madohub_memory.store.write_turns import WriteTurns

            self._turns = WriteTurns(self.path)
        return self._turns

    def writers_waiting(self) -> bool:
        """Whether a writer of another process (or another store of this one) waits for the
        write lock now: a loop that writes many items in one transaction ends it early at a
        safe point when this is true (``services/batch_submit.py``). Cheap (two system calls)."""
        turns = self._write_turns()
        return turns is not None and turns.others_waiting()

    def _begin(self, wait_s: float) -> None:
        """``BEGIN IMMEDIATE``, taking turns with the writers of other processes
        (:mod:`.write_turns`): a store writing in a loop first lets those already waiting go
        (at most ``YIELD_S``); then try, and while the lock is taken, be marked as waiting and
        ask again every few ms."""
        started = time.monotonic()
        turns = self._write_turns()
        looping = started - self._last_end < LOOP_GAP_S
        yielded = turns.let_waiters_go(min(turns.yield_s, wait_s)) if turns is not None and looping else 0.0
        marked = False
        self.conn.execute("PRAGMA busy_timeout = 0")
        try:
            while True:
                try:
                    self.conn.execute("BEGIN IMMEDIATE")
                    LockStats.waited(time.monotonic() - started, yielded)
                    return
                except sqlite3.OperationalError as exc:
                    waited = time.monotonic() - started
                    if not db_errors.is_busy(exc) or waited >= wait_s:
                        raise self._fail(exc, waited) from None
                if not marked and turns is not None:
                    marked = turns.mark_waiting()
                time.sleep(min(_jitter(*POLL_S), max(0.0, wait_s - waited)))
        finally:
            if marked and turns is not None:
                turns.unmark()
            self.conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")

    def _rollback(self) -> None:
        if self.conn.in_transaction:
            try:
                self.conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass  # SQLite already rolled back (a full disk, an I/O error)

    # -- queries ----------------------------------------------------------------------

    def query(self, sql: str, params: Any = ()) -> list[sqlite3.Row]:
        try:
            return self.conn.execute(sql, params).fetchall()
        except (sqlite3.Error, OverflowError, UnicodeEncodeError) as exc:
            self._raise_translated(exc)
            raise

    def query_one(self, sql: str, params: Any = ()) -> sqlite3.Row | None:
        try:
            row: sqlite3.Row | None = self.conn.execute(sql, params).fetchone()
            return row
        except (sqlite3.Error, OverflowError, UnicodeEncodeError) as exc:
            self._raise_translated(exc)
            raise


    def scalar(self, sql: str, params: Any = ()) -> Any:
        """The first column of the first row (``None`` when there is none): for aggregates."""
        row = self.query_one(sql, params)
        return None if row is None else row[0]
    def execute(self, sql: str, params: Any = ()) -> sqlite3.Cursor:
        try:
            return self.conn.execute(sql, params)
        except (sqlite3.Error, OverflowError, UnicodeEncodeError) as exc:
            self._raise_translated(exc)
            raise

    # -- introspection (PgStore answers from information_schema) ---------------------

    def tables(self) -> set[str]:
        return {str(r[0]) for r in self.query("SELECT name FROM sqlite_master WHERE type = 'table'")}

    def columns(self, table: str) -> list[str]:
        return [str(r[1]) for r in self.query(f"PRAGMA table_info({table})")]

    def primary_key(self, table: str) -> list[str]:
        rows = sorted((r[5], r[1]) for r in self.query(f"PRAGMA table_info({table})") if r[5])
        return [str(name) for _, name in rows]

    def data_version(self) -> int:
        """Changes when another connection commits: cheap polling for live views."""
        row = self.conn.execute("PRAGMA data_version").fetchone()
        return int(row[0])
