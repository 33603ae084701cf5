"""The dashboard's ear for other people's changes: a thread waiting on the server's notifications.

On a PostgreSQL server, another dashboard's approval (or a worker's new candidates) is
announced by the server (:func:`~madohub_memory.services.change_watch.watch_changes`). This
thread waits for those announcements on a connection of its own and, for each, asks the
:class:`~madohub_memory.gui.worker.DbWorker` to check ``data_version`` at once, so a
colleague's decision shows within a second instead of at the next poll. The worker's
polling stays as the fallback (slower while this listens; at full speed again if the
connection is lost). A SQLite file cannot push: no thread is started for it.
"""

from __future__ import annotations

import logging
import threading

from PySide6.QtCore import QObject, Signal, SignalInstance

from madohub_memory.core.errors import UserError

log = logging.getLogger(__name__)
WAIT_S = 0.5  # how often the thread looks at its stop flag between notifications


class ChangeListenerThread(QObject):
    """Emits ``changed`` (on the GUI thread, by a queued connection) for each commit elsewhere."""

    changed = Signal()
    lost = Signal()  # the listening connection failed: polling takes over at full speed

    def __init__(self, watch: object, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._watch = watch
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="madohub-db-listen", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def _run(self) -> None:
        watch = self._watch
        try:
            while not self._stop.is_set():
                if watch.wait(WAIT_S):  # type: ignore[attr-defined]
                    self._emit(self.changed)
        except UserError as exc:
            if not self._stop.is_set():
                log.warning("change notifications stopped, polling instead: %s", exc)
                self._emit(self.lost)
        finally:
            watch.close()  # type: ignore[attr-defined]

    def _emit(self, signal: SignalInstance) -> None:
        try:
            signal.emit()
        except RuntimeError:  # the window is gone
            self._stop.set()

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout)
