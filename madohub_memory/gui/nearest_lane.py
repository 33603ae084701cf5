"""The nearest approved memory, found on its own thread beside the database worker.

Finding it needs the embedding model (seconds to load, once) and a matrix product over the
vector index; neither may run on the GUI thread, and neither may delay a decision, so they
do not run on the database worker either. The shown candidate is always served first; the
next few rows of the queue are computed ahead, so moving on finds the answer ready.
Answers are cached per candidate text and dropped when approved memory changes.
"""

from __future__ import annotations

import queue
import sys
import threading
import traceback
from collections import OrderedDict
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal, Slot

from madohub_memory.core.clock import Clock
from madohub_memory.core.errors import UserError

_MISSING = object()
CACHE_SIZE = 2_000


class NearestLane(QObject):
    """``request(id, text, namespace, urgent)``; ``ready(id)`` says ``result(id, text)`` is known."""

    ready = Signal(int)
    _posted = Signal()

    def __init__(self, db_path: str | Path, clock: Clock | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.db_path = Path(db_path)
        self.clock = clock
        self._cond = threading.Condition()
        self._urgent: tuple[int, str, str, int] | None = None
        self._ahead: OrderedDict[tuple[int, str], tuple[str, int]] = OrderedDict()
        self._generation = 0
        self._cache: OrderedDict[tuple[int, str], Any] = OrderedDict()
        self._results: queue.SimpleQueue[tuple[int, str, int, Any]] = queue.SimpleQueue()
        self._posted.connect(self._drain)
        self._stopping = False
        self._thread: threading.Thread | None = None

    # -- GUI side ------------------------------------------------------------------------

    def result(self, candidate_id: int, content: str) -> Any:
        """The cached answer, or ``_MISSING`` (see :meth:`known`)."""
        return self._cache.get((candidate_id, content), _MISSING)

    def known(self, candidate_id: int, content: str) -> bool:
        return (candidate_id, content) in self._cache

    def request(self, candidate_id: int, content: str, namespace: str, urgent: bool) -> None:
        if self.known(candidate_id, content) or self._stopping:
            return
        with self._cond:
            if urgent:
                self._urgent = (candidate_id, content, namespace, self._generation)
            else:
                self._ahead[(candidate_id, content)] = (namespace, self._generation)
                while len(self._ahead) > 32:
                    self._ahead.popitem(last=False)
            self._cond.notify()
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="madohub-nearest", daemon=True)
            self._thread.start()

    def invalidate(self) -> None:
        """Approved memory changed: every cached answer may be stale."""
        with self._cond:
            self._generation += 1
            self._ahead.clear()
        self._cache.clear()

    @Slot()
    def _drain(self) -> None:
        while True:
            try:
                candidate_id, content, generation, value = self._results.get_nowait()
            except queue.Empty:
                return
            if generation != self._generation:
                continue
            self._cache[(candidate_id, content)] = value
            while len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)
            self.ready.emit(candidate_id)

    def stop(self) -> None:
        """Let the thread end; an unfinished answer is derived data and simply dropped."""
        with self._cond:
            self._stopping = True
            self._cond.notify()
        if self._thread is not None:
            self._thread.join(2.0)

    # -- thread side ---------------------------------------------------------------------

    def _next(self) -> tuple[int, str, str, int] | None:
        with self._cond:
            while not self._stopping and self._urgent is None and not self._ahead:
                self._cond.wait()
            if self._stopping:
                return None
            if self._urgent is not None:
                item, self._urgent = self._urgent, None
                self._ahead.pop((item[0], item[1]), None)
                return item
            (candidate_id, content), (namespace, generation) = self._ahead.popitem(last=False)
            return candidate_id, content, namespace, generation

    def _run(self) -> None:
        from madohub_memory.services import Services
        from madohub_memory.services.nearest import NearestService

        try:
            svc = Services.open(self.db_path, self.clock, origin="gui-nearest")
        except UserError:
            return  # the database worker reports why the file cannot be opened
        nearest = NearestService(svc)
        try:
            while True:
                item = self._next()
                if item is None:
                    return
                candidate_id, content, namespace, generation = item
                try:
                    value: Any = nearest.nearest(content, namespace, candidate_id)
                except UserError as exc:
                    value = {"error": str(exc)}
                except Exception as exc:  # a bug: keep the traceback, show one sentence
                    traceback.print_exc(file=sys.stderr)
                    value = {"error": f"{type(exc).__name__}: {exc}"}
                self._results.put((candidate_id, content, generation, value))
                try:
                    self._posted.emit()
                except RuntimeError:  # the window is gone
                    return
        finally:
            svc.close()
