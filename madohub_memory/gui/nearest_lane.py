"""The nearest approved memory, found in a helper process beside the dashboard.

Finding it needs the embedding model (seconds to load, once) and a matrix product over the
vector index; neither may run on the GUI thread or delay a decision on the database worker,
and as a thread it would still take the interpreter lock from the GUI thread for
milliseconds at a time (see :mod:`madohub_memory.services.nearest_worker`). The shown
candidate is always served first; the next few rows of the queue are asked in advance, so
moving on usually finds the answer ready. Answers are cached per candidate text and dropped
when approved memory changes.
"""

from __future__ import annotations

import multiprocessing
import os
from collections import OrderedDict
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QSocketNotifier, QTimer, Signal

from madohub_memory.core.clock import Clock
from madohub_memory.core.paths import as_database

_MISSING = object()
CACHE_SIZE = 2_000
START_DELAY_MS = 800
_BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


class NearestLane(QObject):
    """``request(id, text, namespace, urgent)``; ``ready(id)`` says ``result(id, text)`` is known."""

    ready = Signal(int)

    def __init__(self, db_path: str | Path, clock: Clock | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.db_path = as_database(db_path)  # a server address stays a string (Path folds //)
        self._generation = 0
        self._cache: OrderedDict[tuple[int, str], Any] = OrderedDict()
        self._asked: set[tuple[int, str]] = set()
        self._process: Any = None
        self._conn: Any = None
        self._notifier: QSocketNotifier | None = None
        self._stopped = False
        self._early: OrderedDict[tuple[int, str], tuple[str, bool]] = OrderedDict()
        self._start_timer = QTimer(self)
        self._start_timer.setSingleShot(True)
        self._start_timer.setInterval(START_DELAY_MS)
        self._start_timer.timeout.connect(self._start_now)
        self.cost_ms: dict[tuple[int, str], float] = {}  # what each answer cost in the helper

    # -- answers ---------------------------------------------------------------------------

    def result(self, candidate_id: int, content: str) -> Any:
        """The cached answer, or a private marker (ask :meth:`known` first)."""
        return self._cache.get((candidate_id, content), _MISSING)

    def known(self, candidate_id: int, content: str) -> bool:
        return (candidate_id, content) in self._cache

    def request(self, candidate_id: int, content: str, namespace: str, urgent: bool) -> None:
        key = (candidate_id, content)
        if self._stopped or key in self._cache or (key in self._asked and not urgent):
            return
        if self._conn is None:
            # The helper starts once the window has shown its first rows (it loads the model
            # for seconds of CPU); what is asked meanwhile is sent when it runs.
            self._early[key] = (namespace, urgent or self._early.get(key, ("", False))[1])
            if not self._start_timer.isActive():
                self._start_timer.start()
            return
        self._asked.add(key)
        try:
            self._conn.send(("find", candidate_id, content, namespace, urgent, self._generation))
        except (BrokenPipeError, OSError):
            self._cache[key] = {"error": "the helper process stopped"}
            self.ready.emit(candidate_id)

    def invalidate(self) -> None:
        """Approved memory changed: every cached answer may be stale."""
        self._generation += 1
        self._cache.clear()
        self._asked.clear()

    def _start_now(self) -> None:
        if self._stopped or self._conn is not None or not self._start():
            return
        early, self._early = self._early, OrderedDict()
        for (candidate_id, content), (namespace, urgent) in early.items():  # the last urgent one wins
            self.request(candidate_id, content, namespace, urgent)

    def _start(self) -> bool:
        from madohub_memory.services.nearest_worker import serve

        context = multiprocessing.get_context("spawn")  # never fork a process that runs Qt threads
        ours, theirs = context.Pipe()
        process = context.Process(target=serve, args=(str(self.db_path), theirs), name="madohub-nearest",
                                  daemon=True)
        # One BLAS thread in the helper: on a busy two-core machine more threads only spin
        # against the dashboard (a 64-dimension scan of 100,000 rows: 2 ms on one thread).
        saved = {k: os.environ.get(k) for k in _BLAS_THREADS}
        os.environ.update(dict.fromkeys(_BLAS_THREADS, "1"))
        try:
            process.start()
        except OSError:
            self._stopped = True
            return False
        finally:
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value
        theirs.close()
        self._process, self._conn = process, ours
        self._notifier = QSocketNotifier(ours.fileno(), QSocketNotifier.Type.Read, self)
        self._notifier.activated.connect(self._readable)
        return True

    def _readable(self) -> None:
        try:
            while self._conn is not None and self._conn.poll(0):
                candidate_id, content, generation, value, ms = self._conn.recv()
                self._asked.discard((candidate_id, content))
                self.cost_ms[(candidate_id, content)] = ms
                if generation != self._generation:
                    continue
                self._cache[(candidate_id, content)] = value
                while len(self._cache) > CACHE_SIZE:
                    self.cost_ms.pop(self._cache.popitem(last=False)[0], None)
                self.ready.emit(candidate_id)
        except (EOFError, OSError):  # the helper is gone: stop listening, keep the dashboard
            if self._notifier is not None:
                self._notifier.setEnabled(False)
            self._conn = None

    def stop(self) -> None:
        """End the helper process; an unfinished answer is derived data and simply dropped."""
        self._stopped = True
        self._start_timer.stop()
        if self._notifier is not None:
            self._notifier.setEnabled(False)
        if self._conn is not None:
            try:
                self._conn.send(("stop",))
            except (BrokenPipeError, OSError):
                pass
        if self._process is not None:
            # It ends at once when idle; busy (loading the model, embedding), it is ended:
            # what it was computing is derived data, and SQLite rolls an open write back.
            self._process.join(0.3)
            if self._process.is_alive():
                self._process.terminate()
                self._process.join(2.0)
        if self._conn is not None:
            self._conn.close()
            self._conn = None
