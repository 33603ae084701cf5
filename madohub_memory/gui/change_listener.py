"""The dashboard's ear for other people's changes: a thread waiting on the server's notifications.

On a PostgreSQL server, another dashboard's approval (or a worker's new candidates) is
announced by the server (:func:`~madohub_memory.services.change_watch.watch_changes`). This
thread waits for those announcements on a connection of its own and, for each, asks the
:class:`~madohub_memory.gui.worker.DbWorker` to check ``data_version`` at once, so a
colleague's decision shows within a second instead of at the next poll. The worker's
polling stays as the fallback (slower while this listens). A SQLite file cannot push: no
thread is started for it.

The listening connection can drop (the server restarts, an administrator ends it, the
network blinks). Then the thread says ``lost`` (polling goes back to full speed), and tries
to listen again after 1 s, 2 s, 4 s … at most :data:`RETRY_MAX_S` apart, on this thread:
the GUI never waits, and closing the window ends the pause at once. Once it listens again
it says ``restored`` and ``changed`` (what was committed meanwhile was not announced). The
log gets one line when an outage starts and one when it ends, not one per attempt.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator

from PySide6.QtCore import QObject, Signal, SignalInstance

from madohub_memory.core.errors import UserError

log = logging.getLogger(__name__)
WAIT_S = 0.5  # how often the thread looks at its stop flag between notifications
RETRY_FIRST_S = 1.0  # the pause before the first attempt to listen again; doubled after each failure
RETRY_MAX_S = 30.0


def retry_delays(first: float = RETRY_FIRST_S, most: float = RETRY_MAX_S) -> Iterator[float]:
    """1, 2, 4, 8, 16, 30, 30, … seconds: quick after a blip, gentle on a server that is down."""
    delay = first
    while True:
        yield min(delay, most)
        delay = min(delay * 2, most)


class ChangeListenerThread(QObject):
    """Emits ``changed`` (on the GUI thread, by a queued connection) for each commit elsewhere."""

    changed = Signal()
    lost = Signal()  # the listening connection failed: polling takes over at full speed
    restored = Signal()  # listening again after a loss (``changed`` follows)

    def __init__(self, watch: object, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._watch = watch
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="madohub-db-listen", daemon=True)
        self.reconnects = 0  # how many times listening came back (the tests look)

    def start(self) -> None:
        self._thread.start()

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                try:
                    self._listen()
                except UserError as exc:
                    if self._stop.is_set():
                        break
                    log.warning("change notifications stopped, polling until they are back: %s", exc)
                    self._emit(self.lost)
                    if not self._reconnect():
                        break
        finally:
            self._watch.close()  # type: ignore[attr-defined]

    def _listen(self) -> None:
        while not self._stop.is_set():
            if self._watch.wait(WAIT_S):  # type: ignore[attr-defined]
                self._emit(self.changed)

    def _reconnect(self) -> bool:
        """Listen again, pausing longer after each failed attempt; ``False`` when stopped first."""
        began = time.monotonic()
        for delay in retry_delays(RETRY_FIRST_S, RETRY_MAX_S):  # read now: a test shortens them
            if self._stop.wait(delay):
                return False
            try:
                if not self._watch.reopen():  # type: ignore[attr-defined]
                    return False
            except UserError as exc:
                log.debug("change notifications still unavailable: %s", exc)
                continue
            if self._stop.is_set():
                return False
            self.reconnects += 1
            log.info("change notifications are back after %.0f s", time.monotonic() - began)
            self._emit(self.restored)
            self._emit(self.changed)  # commits during the gap were not announced
            return True
        return False  # pragma: no cover - retry_delays never ends

    def _emit(self, signal: SignalInstance) -> None:
        try:
            signal.emit()
        except RuntimeError:  # the window is gone
            self._stop.set()

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout)
