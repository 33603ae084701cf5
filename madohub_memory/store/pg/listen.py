"""Change notifications from the server: ``LISTEN`` on a connection of its own.

Every write transaction of :class:`~.store.PgStore` that changed something sends
``NOTIFY`` on :data:`CHANNEL` as it commits (the server delivers it only if the commit
succeeds, once per transaction), with the new ``mh_data_version`` as its payload. A dashboard
on another machine waits here instead of asking the server every 600 ms: it hears a
colleague's approval within milliseconds and then reads ``data_version`` as before. Writes
made outside a :meth:`~.store.PgStore.transaction` (or by another program) bump the counter
without a notification; the dashboard's slower polling still finds those.
"""

from __future__ import annotations

import threading

import psycopg

from madohub_memory.core.errors import StorageError
from madohub_memory.store.pg.dsn import display_name, redact

CHANNEL = "madohub_changes"
NOTIFY_ON_COMMIT = (  # one round trip at commit: did this transaction bump the counter, then tell the listeners
    "SELECT pg_notify('" + CHANNEL + "', n::text) FROM mh_data_version WHERE xid = txid_current_if_assigned(); COMMIT"
)


class ChangeListener:
    """A connection listening on :data:`CHANNEL`; :meth:`wait` returns when a change was committed.

    Used by one thread at a time (the one that waits); :meth:`close` may come from another
    after that thread has stopped waiting."""

    pushes = True

    def __init__(self, dsn: str) -> None:
        self._path = display_name(dsn)
        self._closed = threading.Event()
        try:
            self._conn = psycopg.connect(dsn, autocommit=True, connect_timeout=10)
            self._conn.execute(f"LISTEN {CHANNEL}".encode())
        except psycopg.Error as exc:
            raise self._lost(exc) from None

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
