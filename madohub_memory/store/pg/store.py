"""``PgStore``: the store on a PostgreSQL server, with the interface of the SQLite ``Store``.

The store modules call ``query``/``query_one``/``scalar``/``execute``/``transaction`` and,
for bulk writes, ``store.conn.executemany``; here each statement is rewritten once
(:mod:`.dialect`) and sent through psycopg 3 in autocommit mode, and rows come back shaped like
``sqlite3.Row`` (:mod:`.rows`).

Writes: :meth:`transaction` opens a transaction and takes one advisory lock per database
first, the counterpart of SQLite's ``BEGIN IMMEDIATE``: writers run one after another, so
every check-then-write of the store modules (dedup, undo, claims) behaves as on SQLite,
and waiting for another writer ends in the same one-sentence busy error. Live views poll
:meth:`data_version`, a counter every writing transaction bumps once (``mh_data_version``),
which changes only for other connections' commits, as SQLite's ``PRAGMA data_version`` does;
a transaction that bumped it also sends ``NOTIFY`` as it commits (:mod:`.listen`), so a
dashboard elsewhere hears of the change without asking.

A dropped connection (the server restarted, an administrator ended it, the network blinked)
does not leave a long-lived program (the dashboard, the MCP server) broken until restarted:
the next read or transaction connects anew (:meth:`PgStore._reconnect`). A read, or the
``BEGIN`` of a transaction, that finds the connection dead is sent once more on the new
one: nothing of it reached the server. A write is never sent twice: one that lost the
connection before ``COMMIT`` was rolled back by the server and says so; one that lost it
during ``COMMIT`` may have been stored, and the sentence says that, for the user to check.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import psycopg
from psycopg import errors as pg_errors

from madohub_memory.core.errors import (
    ForeignDatabaseError,
    MissingDatabaseError,
    ReviewerRoleError,
    StorageError,
    UserError,
    ValidationError,
)
from madohub_memory.store import errors as db_errors
from madohub_memory.store.database import LockStats, Store, busy_give_up_s
from madohub_memory.store.pg import dialect, schema
from madohub_memory.store.pg.connect_hints import with_hint
from madohub_memory.store.pg.dsn import display_name, redact
from madohub_memory.store.pg.listen import NOTIFY_ON_COMMIT
from madohub_memory.store.pg.rows import Cursor, Row, configure, row_factory
from madohub_memory.store.pg.security import POLICY_NEEDED, REVIEWER_NEEDED
from madohub_memory.store.write_guard import guard, guard_many

APPLICATION_NAME = "madohub-memory"  # what pg_stat_activity shows, unless the address names one
WRITE_LOCK = 0x4D61646F  # "Mado": the advisory lock every write transaction takes first
WAITERS_CHECK_S = 0.02  # writers_waiting() asks the server at most this often (one round trip)
# A transaction waiting for the write lock: pg_locks shows a bigint advisory key as
# classid (high 32 bits), objid (low 32 bits), objsubid 1.
_WAITERS = (
    "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
    f" AND classid = 0 AND objid = {WRITE_LOCK} AND objsubid = 1"
    " AND database = (SELECT oid FROM pg_database WHERE datname = current_database()))"
)
_RETURNING = " RETURNING id"
_COMMIT = NOTIFY_ON_COMMIT.encode()
_SECURITY_COLUMNS = frozenset({"mh_owner", "mh_private_to"})  # server-setup's (store/pg/security.py)
_PLAIN = row_factory(frozenset({"mh_rowid"}) | _SECURITY_COLUMNS)
_ALL = row_factory(_SECURITY_COLUMNS)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return redact(text[0] if text else type(exc).__name__)


class PgConnection:
    """What the store modules use of ``store.conn``: ``execute``, ``executemany``, ``in_transaction``."""

    def __init__(self, store: PgStore) -> None:
        self._store = store

    def execute(self, sql: str, params: Any = ()) -> Cursor:
        return self._store.execute(sql, params)

    def executemany(self, sql: str, seq: Any) -> Cursor:
        return self._store.executemany(sql, seq)

    @property
    def in_transaction(self) -> bool:
        return self._store.raw.info.transaction_status != psycopg.pq.TransactionStatus.IDLE


class PgStore(Store):
    """An open database on a PostgreSQL server (``postgresql://…`` or ``service=…``)."""

    backend = "postgresql"

    def __init__(
        self, dsn: str, *, migrate_schema: bool = True, create: bool = True, check: bool = True,
    ) -> None:
        self.dsn = dsn
        self.path = display_name(dsn)  # type: ignore[assignment]  # printed, never opened as a file
        self.readonly = False
        self._depth = 0
        self._lock = threading.RLock()
        self._registered = False
        self._identity = None
        self._own_bumps = 0
        self._memories_written = False
        self._role: str | None = None
        self._closed = False
        self._waiters_checked = (-1.0, False)  # (when, answer) of the last writers_waiting()
        self.raw = self._dial()
        self.conn = PgConnection(self)  # type: ignore[assignment]
        try:
            self._open(create, migrate_schema)
        except BaseException:
            self.close()
            raise

    # -- opening ----------------------------------------------------------------------

    def _dial(self) -> psycopg.Connection[Any]:
        try:
            raw = psycopg.connect(self.dsn, autocommit=True, connect_timeout=10,
                                  fallback_application_name=APPLICATION_NAME)
        except psycopg.Error as exc:
            raise StorageError(
                "Cannot connect to the database server {path}: {reason}.", path=self.path,
                reason=with_hint(_first_line(exc)),
            ) from None
        configure(raw.adapters)
        return raw

    def _dropped(self, exc: BaseException) -> bool:
        """Whether ``exc`` is the server (or the network) ending this connection, not the
        statement's fault: psycopg marks the connection closed when it finds it gone."""
        return isinstance(exc, psycopg.OperationalError) and self.raw.closed and not self._closed

    def _reconnect(self) -> None:
        """A new connection in place of the one that dropped, between transactions only. The
        connection holds no state of ours beyond a transaction: the role and the change
        counter carry over."""
        if not self.raw.closed:
            self.raw.close()
        self.raw = self._dial()

    def _ensure_open(self) -> None:
        """Before a read or a transaction: connect anew if the last one found the connection gone."""
        if self.raw.closed and not self._closed and not self._depth:
            self._reconnect()

    def tables(self) -> set[str]:
        rows = self.query(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        )
        return {str(r[0]) for r in rows}

    def columns(self, table: str) -> list[str]:
        """The columns of ``table`` in order (``mh_rowid`` and the owner columns, PostgreSQL's own, left out)."""
        rows = self.query(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema()"
            " AND table_name = ? ORDER BY ordinal_position", (table,),
        )
        return [str(r[0]) for r in rows if r[0] != "mh_rowid" and r[0] not in _SECURITY_COLUMNS]

    def primary_key(self, table: str) -> list[str]:
        rows = self.query(
            "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid"
            " AND a.attnum = ANY(i.indkey) WHERE i.indrelid = to_regclass(current_schema() || '.' || ?)"
            " AND i.indisprimary ORDER BY array_position(i.indkey::int2[], a.attnum)", (table,),
        )
        return [str(r[0]) for r in rows]

    def schema_version(self) -> int:
        return int(self.scalar("SELECT COALESCE(MAX(version), 0) FROM schema_migrations"))

    def _open(self, create: bool, migrate_schema: bool) -> None:
        tables = self.tables()
        if tables and "schema_migrations" not in tables:
            sample = ", ".join(sorted(tables)[:3])
            raise ForeignDatabaseError(
                "{path} holds another program's tables ({sample}), not MadoHub Memory's: give another"
                " database; nothing was changed.", path=self.path, sample=sample,
            )
        self.readonly = not self._can_write()
        if not tables:
            if not create:
                raise MissingDatabaseError(
                    "There is no MadoHub Memory data in {path} yet (nothing has been stored there): check --db"
                    " or $MADOHUB_DB.", path=self.path,
                )
            if self.readonly:
                raise db_errors.read_only(self.path)
            if migrate_schema:
                self._install()
            return
        version = self.schema_version()
        if version > schema.VERSION:
            raise ForeignDatabaseError(
                "{path} was written by a newer MadoHub Memory (schema version {version}; this program knows up "
                "to {latest}): update madohub-memory to use it; nothing was changed.",
                path=self.path, version=version, latest=schema.VERSION,
            )
        if version < schema.VERSION:
            if self.readonly or not migrate_schema:
                raise ForeignDatabaseError(
                    "{path} was written by an older MadoHub Memory (schema version {version}): open it once"
                    " with a role that may change its tables to bring it up to date; nothing was changed.",
                    path=self.path, version=version,
                )
            self._upgrade()

    def _upgrade(self) -> None:
        """Bring a database an earlier version created up to :data:`schema.VERSION`, one step
        per version in one transaction (another process may have done it while we waited)."""
        with self.transaction():
            for version in range(self.schema_version() + 1, schema.VERSION + 1):
                for statement in schema.UPGRADES[version]:
                    self.raw.execute(statement.encode())
                self.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES"
                    " (?, ?, to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'))",
                    (version, f"upgrade to {version}"),
                )

    def default_person(self) -> str | None:
        """The person behind this connection's changes: the database role (``current_user``),
        which the server vouches for; a setting shared by everyone cannot name them."""
        if self._role is None:  # a connection's role does not change (no SET ROLE here): asked once
            self._role = str(self.scalar("SELECT current_user"))
        return self._role

    def may_decide_workspace(self) -> bool:
        """Whether this role may approve, reject or edit shared (workspace) candidates: false
        for a member of ``madohub_proposer`` only, where ``server-setup`` has been run."""
        if self.scalar("SELECT to_regprocedure('mh_may_decide(text,text)') IS NULL"):
            return True
        return bool(self.scalar("SELECT mh_may_decide('workspace:any', NULL)"))

    def _can_write(self) -> bool:
        row = self.query_one(
            "SELECT current_setting('transaction_read_only') = 'on', CASE"
            " WHEN to_regclass(current_schema() || '.candidates') IS NULL"
            " THEN has_schema_privilege(current_schema(), 'CREATE')"
            " ELSE has_table_privilege(current_schema() || '.candidates', 'INSERT') END"
        )
        return row is not None and not row[0] and bool(row[1])

    def _install(self) -> None:
        import os

        with self.transaction():
            if "schema_migrations" in self.tables():
                return  # another process created it while we waited for the lock
            for statement in schema.statements():
                self.raw.execute(statement.encode())
            self.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES"
                " (?, ?, to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'))",
                (schema.VERSION, schema.NAME),
            )
            self.execute("INSERT INTO recall_state (key, value) VALUES ('index_id', ?)", (os.urandom(16).hex(),))

    def file_identity(self) -> tuple[int, int] | None:
        return None

    def file_replaced(self) -> bool:
        return False

    def check_file(self) -> None:
        return None

    def close(self) -> None:
        self._closed = True
        raw = getattr(self, "raw", None)
        if raw is not None and not raw.closed:
            raw.close()
        LockStats.dump()

    def __enter__(self) -> PgStore:
        return self

    # -- errors -----------------------------------------------------------------------

    def _fail(self, exc: BaseException, waited_s: float = 0.0) -> BaseException:
        if isinstance(exc, pg_errors.InsufficientPrivilege) and POLICY_NEEDED in str(exc):
            return ReviewerRoleError(
                "Only a reviewer may change the review policy (auto-approve, archiving, decay) on a team server:"
                " the database role {role} may propose only; nothing was changed.", role=self.raw.info.user,
            )
        if isinstance(exc, pg_errors.InsufficientPrivilege) and REVIEWER_NEEDED in str(exc):
            return ReviewerRoleError(
                "Only a reviewer may approve, reject or edit shared candidates and memories: the database role"
                " {role} may propose only (an administrator can grant it madohub_reviewer); nothing was changed.",
                role=self.raw.info.user,
            )
        if isinstance(exc, pg_errors.InsufficientPrivilege) and "row-level security" in str(exc):
            return ReviewerRoleError(
                "A persona: namespace belongs to the person who proposed the candidate, and this one was"
                " proposed by someone else: keep it in a workspace: namespace; nothing was changed.",
            )
        err = translate(exc, str(self.path), waited_s)
        return exc if err is None else err

    # -- transactions -----------------------------------------------------------------

    def _commit(self) -> None:
        """The keyword index follows at commit (as SQLite's triggers do), then one round trip
        says whether this transaction bumped the change counter (and sent NOTIFY) and commits."""
        try:
            if self._memories_written:
                from madohub_memory.store.pg import keyword

                keyword.index_pending(self)
        except psycopg.Error as exc:
            self._rollback()
            raise self._fail(exc) from None
        try:
            mine = self.raw.execute(_COMMIT).fetchone()
        except psycopg.Error as exc:
            if self._dropped(exc):  # the COMMIT may have arrived before the connection went
                raise StorageError(
                    "Lost the connection to the database server {path} while saving ({reason}): the change may"
                    " or may not be stored; look before trying again.", path=self.path, reason=_first_line(exc),
                ) from None
            self._rollback()
            raise self._fail(exc) from None
        if mine:
            self._own_bumps += 1

    def _after_transaction(self) -> None:
        self._memories_written = False

    def writers_waiting(self) -> bool:
        """Whether another connection waits for the write lock. The server queues waiters in
        order (the next ``pg_advisory_xact_lock`` of a loop goes behind them), so this only
        lets a loop end a long transaction early; asked at most every ``WAITERS_CHECK_S``."""
        when, answer = self._waiters_checked
        now = time.monotonic()
        if now - when >= WAITERS_CHECK_S:
            answer = bool(self.scalar(_WAITERS))
            self._waiters_checked = (now, answer)
        return answer

    def _begin(self, wait_s: float) -> None:
        started = time.monotonic()
        wait_ms = max(1, int(wait_s * 1000))
        begin = (f"BEGIN; SET LOCAL lock_timeout = {wait_ms}; SELECT pg_advisory_xact_lock({WRITE_LOCK});"
                 f" SET LOCAL lock_timeout = {int(busy_give_up_s() * 1000) or 1}").encode()
        self._ensure_open()
        try:
            try:
                self.raw.execute(begin)
            except psycopg.Error as exc:
                if not self._dropped(exc):
                    raise
                self._reconnect()  # the connection was gone before the transaction began: nothing was sent
                self.raw.execute(begin)
        except psycopg.Error as exc:
            self._rollback()
            raise self._fail(exc, time.monotonic() - started) from None

    def _rollback(self) -> None:
        if self.raw.closed:
            return
        if self.raw.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
            try:
                self.raw.execute("ROLLBACK")
            except psycopg.Error:
                pass

    # -- queries ----------------------------------------------------------------------

    def _run(self, sql: str, params: Any) -> tuple[Any, bool]:
        text, returning = dialect.translate(sql)
        if self._depth and _changes_memory_text(sql):
            self._memories_written = True
        params = guard(sql, params)  # free text masked on every write (store/write_guard.py)
        values = list(params) if not isinstance(params, dict) else params
        self._ensure_open()
        cursor = self.raw.cursor(row_factory=_ALL if "rowid" in sql else _PLAIN)
        try:
            try:
                cursor.execute(text.encode(), values)
            except psycopg.Error as exc:
                if self._depth or not _reads_only(sql) or not self._dropped(exc):
                    raise
                self._reconnect()  # a read outside a transaction: asking again changes nothing
                cursor = self.raw.cursor(row_factory=_ALL if "rowid" in sql else _PLAIN)
                cursor.execute(text.encode(), values)
        except (psycopg.Error, UnicodeEncodeError, OverflowError) as exc:
            err = self._fail(exc)
            if err is not exc:
                raise err from None
            raise
        return cursor, returning

    def execute(self, sql: str, params: Any = ()) -> Cursor:  # type: ignore[override]
        cursor, returning = self._run(sql, params)
        rows = cursor.fetchall() if cursor.description is not None else []
        if returning:
            return Cursor([], cursor.rowcount, int(rows[-1][0]) if rows else None)
        return Cursor(rows, cursor.rowcount, None)

    def executemany(self, sql: str, seq: Any) -> Cursor:
        text, returning = dialect.translate(sql)
        if returning and text.endswith(_RETURNING):
            text = text[: -len(_RETURNING)]
        if self._depth and _changes_memory_text(sql):
            self._memories_written = True
        self._ensure_open()
        cursor = self.raw.cursor()
        try:
            cursor.executemany(text.encode(), [p if isinstance(p, dict) else list(p) for p in guard_many(sql, seq)])
        except (psycopg.Error, UnicodeEncodeError, OverflowError) as exc:
            err = self._fail(exc)
            if err is not exc:
                raise err from None
            raise
        return Cursor([], cursor.rowcount, None)

    def query(self, sql: str, params: Any = ()) -> list[Row]:  # type: ignore[override]
        cursor, _ = self._run(sql, params)
        return cursor.fetchall() if cursor.description is not None else []

    def query_one(self, sql: str, params: Any = ()) -> Row | None:  # type: ignore[override]
        cursor, _ = self._run(sql, params)
        return cursor.fetchone() if cursor.description is not None else None

    def data_version(self) -> int:
        """Changes when another connection commits a change (not for this one's own)."""
        n = self.query_one("SELECT n FROM mh_data_version")
        return int(n[0] if n else 0) - self._own_bumps


def _reads_only(sql: str) -> bool:
    """Whether a statement only reads (a ``SELECT``), so that sending it again is harmless."""
    return sql.lstrip()[:6].upper() == "SELECT"


def _changes_memory_text(sql: str) -> bool:
    """Whether a statement may queue a memory for the keyword index (an insert, a delete, or
    an update naming ``content``): only then does the commit look at the queue."""
    if "memories" not in sql:
        return False
    head = sql.lstrip()[:6].upper()
    return head in ("INSERT", "DELETE") or (head == "UPDATE" and "content" in sql)


def translate(exc: BaseException, path: str, waited_s: float = 0.0) -> UserError | None:
    """The sentence for a server failure, or ``None`` when ``exc`` is not one (a bug's SQL error)."""
    if isinstance(exc, UserError):
        return exc
    if isinstance(exc, OverflowError | UnicodeEncodeError):
        return db_errors.translate(exc, path)
    if isinstance(exc, psycopg.DataError) and "NUL" in str(exc):
        return ValidationError("The text holds a NUL character (0x00), which the database server cannot store.")
    if isinstance(exc, pg_errors.LockNotAvailable | pg_errors.QueryCanceled | pg_errors.DeadlockDetected):
        return db_errors.busy(path, waited_s)
    if isinstance(exc, pg_errors.DiskFull | pg_errors.OutOfMemory):
        return db_errors.full(path)
    if isinstance(exc, pg_errors.ReadOnlySqlTransaction | pg_errors.InsufficientPrivilege):
        return db_errors.read_only(path)
    if isinstance(exc, psycopg.OperationalError | psycopg.InterfaceError):
        return StorageError(  # the next read or transaction connects anew (PgStore._ensure_open)
            "Lost the connection to the database server {path}: {reason}; try again, it connects anew.",
            path=path, reason=_first_line(exc),
        )
    return None


def open_pg(dsn: str, **options: Any) -> PgStore:
    return PgStore(dsn, **options)


__all__ = ["PgStore", "open_pg", "translate"]
