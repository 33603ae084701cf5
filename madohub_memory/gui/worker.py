"""The dashboard's one database thread (the Anki ``QueryOp``/``CollectionOp`` pattern).

A :class:`~madohub_memory.store.Store` is used by one thread at a time, and the GUI thread
must never wait on SQLite, so a single worker thread owns its own ``Services`` and runs
every operation in order. Results come back to the GUI thread by a queued signal and are
handed to the success or failure callback there. The worker also polls
``PRAGMA data_version`` so writes by other processes (CLI, MCP server, background jobs)
reach the views within a second.
"""

from __future__ import annotations

import itertools
import os
import queue
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal, Slot

from madohub_memory.core.clock import Clock
from madohub_memory.core.errors import UserError
from madohub_memory.gui.error_text import localize_error

POLL_MS = 600
_DEBUG = bool(os.environ.get("MADOHUB_GUI_DEBUG"))


@dataclass
class WorkerContext:
    """What an operation receives on the worker thread."""

    svc: Any
    queue: Any


Success = Callable[[Any], None]
Failure = Callable[[str], None]


class DbWorker(QObject):
    """Runs ``fn(ctx)`` on the database thread; delivers the result on the GUI thread."""

    # No arguments on purpose: results travel through ``_results`` (a thread-safe queue),
    # because PySide6 6.x loses references when bool/None cross threads in signal arguments.
    _finished = Signal()
    # Emitted on the GUI thread after this process changed data ("local") or another
    # process committed ("external"); views refresh and keep their selection.
    data_changed = Signal(str)
    error = Signal(str)

    def __init__(self, db_path: str | Path, clock: Clock | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.db_path = Path(db_path)
        self.clock = clock
        self._tasks: queue.Queue[tuple[int, Callable[[WorkerContext], Any]] | None] = queue.Queue()
        self._callbacks: dict[int, tuple[Success | None, Failure | None, bool]] = {}
        self._tokens = itertools.count(1)
        self._results: queue.SimpleQueue[tuple[int, bool, Any]] = queue.SimpleQueue()
        self._finished.connect(self._drain)
        self._thread = threading.Thread(target=self._run, name="madohub-db-worker", daemon=True)
        self._poll_timer = QTimer(self)
        self._poll_timer.setInterval(POLL_MS)
        self._poll_timer.timeout.connect(self._poll)
        self._polling = False
        self._last_version: int | None = None
        self._last_callback: Any = None
        self._stopped = False
        self.open_error: str | None = None
        self._jobs: list[threading.Thread] = []
        self._thread.start()

    # -- thread side ---------------------------------------------------------------------

    def _run(self) -> None:
        from madohub_memory.services import Services
        from madohub_memory.services.queue import QueueService

        ctx: WorkerContext | None = None
        open_error: str | None = None
        try:
            svc = Services.open(self.db_path, self.clock)
            ctx = WorkerContext(svc=svc, queue=QueueService(svc))
        except UserError as exc:
            open_error = str(exc)
            self.open_error = open_error
            self._post(0, False, open_error)
        while True:
            item = self._tasks.get()
            if item is None:
                break
            token, fn = item
            if ctx is None:
                self._post(token, False, open_error or "The database could not be opened.")
                continue
            try:
                value = fn(ctx)
            except UserError as exc:
                self._post(token, False, str(exc))
            except Exception as exc:  # a bug: keep the traceback on stderr, show one sentence
                traceback.print_exc(file=sys.stderr)
                self._post(token, False, f"Unexpected error: {type(exc).__name__}: {exc}")
            else:
                self._post(token, True, value)
        if ctx is not None:
            ctx.svc.close()

    # -- GUI side ------------------------------------------------------------------------

    def submit(
        self,
        fn: Callable[[WorkerContext], Any],
        on_success: Success | None = None,
        on_failure: Failure | None = None,
        *,
        mutates: bool = False,
    ) -> int:
        """Queue ``fn``; ``mutates`` makes views refresh after it succeeds."""
        if self._stopped:
            return 0
        token = next(self._tokens)
        self._callbacks[token] = (on_success, on_failure, mutates)
        self._tasks.put((token, fn))
        return token

    def _post(self, token: int, ok: bool, value: Any) -> None:
        self._results.put((token, ok, value))
        self._finished.emit()

    @Slot()
    def _drain(self) -> None:
        # One result per event-loop turn: painting and input interleave with a burst of results.
        try:
            token, ok, value = self._results.get_nowait()
        except queue.Empty:
            return
        started = time.perf_counter()
        self._deliver(token, ok, value)
        if _DEBUG and time.perf_counter() - started > 0.01:
            print(f"slow GUI callback {(time.perf_counter() - started) * 1000:.0f} ms:",
                  self._last_callback, file=sys.stderr)

    def _deliver(self, token: int, ok: bool, value: Any) -> None:
        on_success, on_failure, mutates = self._callbacks.pop(token, (None, None, False))
        self._last_callback = getattr(on_success, "__qualname__", on_success)
        if self._stopped:
            return
        try:
            if ok:
                if on_success is not None:
                    on_success(value)
            elif on_failure is not None:
                on_failure(localize_error(str(value)))
            else:
                self.error.emit(localize_error(str(value)))
        except RuntimeError as exc:  # the widget that asked was closed meanwhile
            if "already deleted" not in str(exc):
                raise
        if ok and mutates:
            self.data_changed.emit("local")

    def submit_background(
        self,
        fn: Callable[[WorkerContext], Any],
        on_success: Success | None = None,
        on_failure: Failure | None = None,
    ) -> int:
        """Run a long job (an ingest of thousands of turns) on its own thread and connection,
        so the queue's reads and decisions are not stuck behind it. Views refresh after."""
        token = next(self._tokens)
        self._callbacks[token] = (on_success, on_failure, True)

        def job() -> None:
            from madohub_memory.services import Services
            from madohub_memory.services.queue import QueueService

            try:
                with Services.open(self.db_path, self.clock) as svc:
                    value = fn(WorkerContext(svc=svc, queue=QueueService(svc)))
            except UserError as exc:
                self._post(token, False, str(exc))
            except Exception as exc:
                traceback.print_exc(file=sys.stderr)
                self._post(token, False, f"Unexpected error: {type(exc).__name__}: {exc}")
            else:
                self._post(token, True, value)

        thread = threading.Thread(target=job, name="madohub-db-job", daemon=True)
        self._jobs.append(thread)
        thread.start()
        return token

    @property
    def busy(self) -> int:
        """How many operations are queued or running."""
        return len(self._callbacks)

    def start_polling(self) -> None:
        self._poll()  # the baseline version, so the very next commit elsewhere is seen
        self._poll_timer.start()

    def _poll(self) -> None:
        if self._polling:
            return
        self._polling = True
        self.submit(lambda ctx: ctx.svc.store.data_version(), self._polled, self._poll_failed)

    def _polled(self, version: object) -> None:
        self._polling = False
        changed = self._last_version is not None and version != self._last_version
        self._last_version = int(version)  # type: ignore[call-overload]
        if changed:
            self.data_changed.emit("external")

    def _poll_failed(self, _message: str) -> None:
        self._polling = False

    def stop(self, timeout: float = 10.0) -> None:
        """Finish queued work, close the database and join the thread."""
        if self._stopped:
            return
        self._poll_timer.stop()
        self._tasks.put(None)
        self._thread.join(timeout)
        for job in self._jobs:
            job.join(timeout)
        self._stopped = True
        self._callbacks.clear()


def query_op(worker: DbWorker, fn: Callable[[WorkerContext], Any],
             success: Success | None = None, failure: Failure | None = None) -> int:
    """A read: run ``fn`` on the worker, then ``success(result)`` on the GUI thread."""
    return worker.submit(fn, success, failure)


def collection_op(worker: DbWorker, fn: Callable[[WorkerContext], Any],
                  success: Success | None = None, failure: Failure | None = None) -> int:
    """A write: like :func:`query_op`, and every view refreshes afterwards."""
    return worker.submit(fn, success, failure, mutates=True)
