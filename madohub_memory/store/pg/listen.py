"""Change notifications from the server: ``LISTEN`` on a connection of its own.

Every write transaction of :class:`~.store.PgStore` that changed something sends
``NOTIFY`` on :data:`CHANNEL` as it commits (the server delivers it only if the commit
succeeds, once per transaction), with the new ``mh_data_version`` as its payload. A dashboard
on another machine waits here instead of asking the server every 600 ms: it hears a
colleague's approval within milliseconds and then reads ``data_version`` as before. Writes
made outside a :meth:`~.store.PgStore.transaction` (or by another program) bump the counter
without a notification; the dashboard's slower polling still finds those.

The connection is named ``madohub-listen`` (``application_name``, unless the address names
one) so that an administrator sees what it is in ``pg_stat_activity``; TCP keepalives make
a silently dropped network path fail within about a minute instead of never. When the
connection fails, :meth:`ChangeListener.wait` raises; :meth:`ChangeListener.reopen` connects
and listens again (the dashboard's listener thread calls it with a growing pause).
"""

from __future__ import annotations

import threading

import psycopg
from psycopg.conninfo import make_conninfo

from madohub_memory.core.errors import StorageError
from madohub_memory.store.pg.dsn import display_name, redact

CHANNEL = "madohub_changes"
APPLICATION_NAME = "madohub-listen"
_KEEPALIVE = {"keepalives": 1, "keepalives_idle": 30, "keepalives_interval": 10, "keepalives_count": 3}
NOTIFY_ON_COMMIT = (  # one round trip at commit: did this transaction bump the counter, then tell the listeners
    "SELECT pg_notify('" + CHANNEL + "', n::text) FROM mh_data_version WHERE xid = txid_current_if_assigned(); COMMIT"
)


class ChangeListener:
    """A connection listening on :data:`CHANNEL`; :meth:`wait` returns when a change was committed.

    Used by one thread at a time (the one that waits); :meth:`close` may come from another
    after that thread has stopped waiting."""

    pushes = True

    def __init__(self, dsn: str, connect_timeout: int = 10) -> None:
        self._dsn = dsn
        self._path = display_name(dsn)
        self._closed = threading.Event()
        self._conn = self._connect(connect_timeout)

    def _connect(self, connect_timeout: int) -> psycopg.Connection:
        try:
            conninfo = make_conninfo(self._dsn, fallback_application_name=APPLICATION_NAME, **_KEEPALIVE)
            conn = psycopg.connect(conninfo, autocommit=True, connect_timeout=connect_timeout)
        except psycopg.Error as exc:
            raise self._lost(exc) from None
        try:
            conn.execute(f"LISTEN {CHANNEL}".encode())
        except psycopg.Error as exc:
            conn.close()
            raise self._lost(exc) from None
        return conn

    def reopen(self, connect_timeout: int = 5) -> bool:
        """Connect and listen again after :meth:`wait` raised (the old connection is dropped).
        ``False`` once :meth:`close` was called; a failure raises the same one sentence as
        :meth:`wait`. Notifications sent while no connection listened are not replayed: the
        caller checks for changes itself once this succeeds."""
        if self._closed.is_set():
            return False
        if not self._conn.closed:
            self._conn.close()
        conn = self._connect(connect_timeout)
        if self._closed.is_set():  # closed from another thread meanwhile
            conn.close()
            return False
        self._conn = conn
        return True

    def _lost(self, exc: BaseException) -> StorageError:
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return StorageError("Lost the connection to the database server {path}: {reason}.",
                            path=self._path, reason=redact(reason))

    def wait(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for another commit; ``True`` when one came. Every
        notification already queued is taken with it (one refresh for a burst of commits)."""
        if self._closed.is_set():
            return False
        try:
            got = any(True for _ in self._conn.notifies(timeout=timeout, stop_after=1))
            if got:
                for _ in self._conn.notifies(timeout=0.0):
                    pass
        except psycopg.Error as exc:
            if self._closed.is_set():
                return False
            raise self._lost(exc) from None
        return got

    def close(self) -> None:
        self._closed.set()
        if not self._conn.closed:
            self._conn.close()
