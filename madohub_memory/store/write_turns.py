"""Writers take turns on one SQLite file: a writer that is waiting goes before a loop writes again.

Why: SQLite hands its write lock to whoever asks at the right moment. Its busy handler sleeps
and polls (every 100 ms once it has waited a while), and a process that writes in a loop (an
import, a drain, a transfer, a decay sweep, re-embedding) begins its next transaction a
fraction of a millisecond after committing the last one: on a 6,000-line import, 3 of 4
gaps between two of its transactions were under 1 ms (median 0.1 ms). A writer of another
process then rarely lands in a gap: beside transactions of 0.1 s, one waited 3 s; beside
0.2-0.4 s ones (issue 27), 11-31 s, and some gave up with "database is busy".

How: a small file beside the database, ``<db>-writers``, holds one lock per waiting writer.
A writer that finds the database locked takes a shared ``flock`` on it and keeps it until
its own transaction has begun, polling ``BEGIN IMMEDIATE`` every few milliseconds. A writer
that ended a transaction moments ago (it writes in a loop) asks, before it begins again,
whether anyone holds such a lock (an exclusive ``flock`` that does not wait): if so, it lets
them go first, for at most :data:`YIELD_S`, then waits like them. So a loop yields the lock
to a waiting writer at its next transaction, and two loops alternate. A yielding loop is not
marked itself (two loops would each wait for the other); a writer arriving afresh just tries. A loop may also end a long transaction early when someone waits
(:meth:`WriteTurns.others_waiting`, via ``Store.writers_waiting``).

Liveness needs nothing more: a ``flock`` belongs to the open file, so a killed process's
mark is gone at once, as its SQLite lock is. The file is removed by the last store to close
while nobody waits, as SQLite removes its ``-wal`` and ``-shm``. Where locks on files are not available
(Windows, a folder that cannot be written), writers only poll faster, as before.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from types import ModuleType

from madohub_memory.store.files import tighten

fcntl: ModuleType | None
try:
    import fcntl
except ImportError:  # Windows
    fcntl = None

SUFFIX = "-writers"
YIELD_S = 0.5  # the longest a writer lets marked waiters go first before it waits with them
_YIELD_STEP_S = 0.001
_MARK_TRIES = 20  # a mark is refused only while another writer's check holds it (microseconds)


class WriteTurns:
    """The waiting-writers marks of one database file, as one ``Store`` sees them."""

    def __init__(self, db_path: str | os.PathLike[str]) -> None:
        self.path = Path(f"{os.fspath(db_path)}{SUFFIX}")
        self._mark_fd: int | None = None  # holds LOCK_SH while this store waits for the lock
        self._probe_fd: int | None = None  # tries LOCK_EX to see whether anyone waits
        self._broken = fcntl is None
        self.yield_s = YIELD_S
        self.yields = 0
        self.yielded_s = 0.0

    def _ready(self) -> bool:
        """The two descriptors open on the file that is at :attr:`path` now (another store's
        close may have removed the one these were opened on: then they are opened anew)."""
        if self._broken:
            return False
        if self._probe_fd is not None and not self._current():
            self._close_fds()
        if self._probe_fd is None:
            try:
                flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0)
                self._mark_fd = os.open(self.path, flags, 0o600)
                self._probe_fd = os.open(self.path, flags, 0o600)
                tighten(self.path)  # made by an older umask, or by hand
            except OSError:  # a folder we may not write: no marks, writers only poll
                self._close_fds()
                self._broken = True
                return False
        return True

    def _current(self) -> bool:
        assert self._probe_fd is not None
        try:
            return os.stat(self.path).st_ino == os.fstat(self._probe_fd).st_ino
        except OSError:
            return False

    def others_waiting(self) -> bool:
        """Whether a writer (of any process, or another store of this one) waits for the lock."""
        if not self._ready() or fcntl is None:
            return False
        assert self._probe_fd is not None
        try:
            fcntl.flock(self._probe_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        except OSError:
            return False
        fcntl.flock(self._probe_fd, fcntl.LOCK_UN)
        return False

    def let_waiters_go(self, limit_s: float) -> float:
        """Before beginning: while marked writers wait, let them take the lock first (at most
        ``limit_s``). Returns how long it yielded."""
        if limit_s <= 0 or not self.others_waiting():
            return 0.0
        started = time.monotonic()
        self.yields += 1
        while time.monotonic() - started < limit_s:
            time.sleep(_YIELD_STEP_S)
            if not self.others_waiting():
                break
        spent = time.monotonic() - started
        self.yielded_s += spent
        return spent

    def mark_waiting(self) -> bool:
        """Say this store waits for the lock (until :meth:`unmark`). ``False`` when it cannot."""
        for _ in range(_MARK_TRIES):
            if not self._ready() or fcntl is None:
                return False
            assert self._mark_fd is not None
            try:
                fcntl.flock(self._mark_fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            except BlockingIOError:  # another writer's check (microseconds), or a close removing the file
                time.sleep(0.0005)
                continue
            except OSError:
                return False
            if self._current():
                return True
            self.unmark()  # marked on a file just removed: mark on the one at the path
        return False

    def unmark(self) -> None:
        if self._mark_fd is not None and fcntl is not None:
            try:
                fcntl.flock(self._mark_fd, fcntl.LOCK_UN)
            except OSError:
                pass

    def close(self) -> None:
        """Close; the file goes too when no writer waits (as SQLite removes ``-wal`` and ``-shm``
        at the last close). One that opened it meanwhile notices and makes it anew (:meth:`_ready`)."""
        if self._probe_fd is not None and fcntl is not None and self._current():
            try:
                fcntl.flock(self._probe_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                os.unlink(self.path)
            except OSError:  # someone waits (or it is gone already): leave it
                pass
        self._close_fds()

    def _close_fds(self) -> None:
        for fd in (self._mark_fd, self._probe_fd):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._mark_fd = self._probe_fd = None
