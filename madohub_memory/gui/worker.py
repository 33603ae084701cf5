"""The dashboard's one database thread (Anki's ``QueryOp``/``CollectionOp`` pattern).

A :class:`~madohub_memory.store.Store` is used by one thread at a time, and the GUI thread
must never wait on SQLite, so a single worker thread owns its own ``Services`` and runs
every operation in the order it was asked for. Results come back to the GUI thread by a
queued signal and are handed to the success or failure callback there.

Reads are :func:`query_op`; writes are :func:`collection_op`. After a write the worker
emits ``operation_did_execute(changes, initiator)`` with the
:class:`~madohub_memory.services.changes.OpChanges` the services recorded, so each view
refreshes only when something it shows changed, and the view that asked for the change
(the initiator) can skip the refresh it already did itself. The worker also polls
``PRAGMA data_version``: a commit by another process (CLI, MCP server, background jobs)
arrives as ``OpChanges.everything()`` with no initiator. On a PostgreSQL server the
server's notifications trigger that check at once (:mod:`.change_listener`).

Every change this window writes carries its origin ``gui:<uuid>``, and the window's own
undo stack (:class:`~madohub_memory.gui.undo_stack.UndoStack`) lives here beside it.
"""

from __future__ import annotations

import itertools
import logging
import os
import queue
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal, Slot

from madohub_memory.core.clock import Clock
from madohub_memory.core.errors import UserError
from madohub_memory.core.paths import as_database
from madohub_memory.gui.i18n import error_text
from madohub_memory.gui.undo_stack import UndoStack
from madohub_memory.services.changes import OpChanges

POLL_MS = 600
LISTENING_POLL_MS = 3000  # while the server's notifications arrive (change_listener), polling is the fallback
NOTIFIED_GAP_MS = 250  # at most one check per this while workers commit in a burst (the views reload once)
_DEBUG = bool(os.environ.get("MADOHUB_GUI_DEBUG"))
log = logging.getLogger(__name__)


@dataclass
class WorkerContext:
    """What an operation receives on the worker thread."""

    svc: Any
    queue: Any


Success = Callable[[Any], object]
Failure = Callable[[str], object]


@dataclass
class _Pending:
    success: Success | None
    failure: Failure | None
    write: bool
    initiator: object | None
    changes: OpChanges


class DbWorker(QObject):
    """Runs ``fn(ctx)`` on the database thread; delivers the result on the GUI thread."""

    # No arguments on purpose: results travel through ``_results`` (a thread-safe queue),
    # because PySide6 6.x loses references when bool/None cross threads in signal arguments.
    _finished = Signal()
    # (OpChanges, initiator or None), emitted on the GUI thread after a write of this window
    # or a commit by another process.
    operation_did_execute = Signal(object, object)
    # Kept for views written against the older API: "local" or "external".
    data_changed = Signal(str)
    error = Signal(str)
    writes_changed = Signal(int)  # writes queued or running (the window waits for 0 to close)
    listening_changed = Signal(bool)  # the server's change notifications stopped (False) or came back

    def __init__(self, db_path: str | Path, clock: Clock | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.db_path = as_database(db_path)  # a server address stays a string (Path folds //)
        self.clock = clock
        self.origin = f"gui:{uuid.uuid4().hex[:12]}"
        self.undo_stack = UndoStack()
        self._tasks: queue.Queue[tuple[int, Callable[[WorkerContext], Any], bool] | None] = queue.Queue()
        self._callbacks: dict[int, _Pending] = {}
        self._tokens = itertools.count(1)
        self._results: queue.SimpleQueue[tuple[int, bool, Any, OpChanges]] = queue.SimpleQueue()
        self._finished.connect(self._drain)
        self._thread = threading.Thread(target=self._run, name="madohub-db-worker", daemon=True)
        self._poll_timer = QTimer(self)
        self._poll_timer.setInterval(POLL_MS)
        self._poll_timer.timeout.connect(self._poll)
        self._polling = False
        self._poll_again = False
        self._last_version: int | None = None
        self._replaced_reported = False
        self._last_callback: Any = None
        self._stopped = False
        self._closing = False
        self.open_error: UserError | None = None
        self._jobs: list[threading.Thread] = []
        self._listener: Any = None
        self._listening_ok = True
        self._notify_gap = QTimer(self)
        self._notify_gap.setSingleShot(True)
        self._notify_gap.setInterval(NOTIFIED_GAP_MS)
        self._notify_gap.timeout.connect(self._gap_over)
        self._notified_later = False
        self._thread.start()

    # -- thread side ---------------------------------------------------------------------

    def _open(self) -> WorkerContext:
        from madohub_memory.services import Services

        svc = Services.open(self.db_path, self.clock, origin=self.origin)
        return WorkerContext(svc=svc, queue=svc.queue)

    def _run(self) -> None:
        ctx: WorkerContext | None = None
        open_error: UserError | None = None
        try:
            ctx = self._open()
        except UserError as exc:
            open_error = exc
            self.open_error = open_error
            self._post(0, False, open_error, OpChanges())
        while True:
            item = self._tasks.get()
            if item is None:
                break
            token, fn, _write = item
            if ctx is None:
                self._post(token, False, open_error or UserError("The database could not be opened."), OpChanges())
                continue
            self._post(token, *self._call(ctx, fn))
        if ctx is not None:
            ctx.svc.close()

    @staticmethod
    def _call(ctx: WorkerContext, fn: Callable[[WorkerContext], Any]) -> tuple[bool, Any, OpChanges]:
        try:
            value = fn(ctx)
        except UserError as exc:
            ctx.svc.changelog.take_changes()  # rolled back: nothing changed
            return False, exc, OpChanges()
        except Exception as exc:  # a bug: the traceback goes to the log, the user reads one sentence
            log.exception("a dashboard operation failed")
            ctx.svc.changelog.take_changes()
            return False, UserError("Unexpected error: {error}", error=f"{type(exc).__name__}: {exc}"), OpChanges()
        return True, value, ctx.svc.changelog.take_changes()

    def _post(self, token: int, ok: bool, value: Any, changes: OpChanges) -> None:
        self._results.put((token, ok, value, changes))
        try:
            self._finished.emit()
        except RuntimeError:  # the window (and this object) is gone; nothing is waiting
            pass

    # -- GUI side ------------------------------------------------------------------------

    def submit(
        self,
        fn: Callable[[WorkerContext], Any],
        on_success: Success | None = None,
        on_failure: Failure | None = None,
        *,
        mutates: bool = False,
        initiator: object | None = None,
        changes: OpChanges | None = None,
    ) -> int:
        """Queue ``fn``; ``mutates`` marks a write (views are told what it changed)."""
        if self._stopped:
            return 0
        token = next(self._tokens)
        self._callbacks[token] = _Pending(on_success, on_failure, mutates, initiator, changes or OpChanges())
        self._tasks.put((token, fn, mutates))
        if mutates:
            self.writes_changed.emit(self.pending_writes)
        return token

    @Slot()
    def _drain(self) -> None:
        # One result per event-loop turn: painting and input interleave with a burst of results.
        try:
            token, ok, value, changes = self._results.get_nowait()
        except queue.Empty:
            return
        started = time.perf_counter()
        self._deliver(token, ok, value, changes)
        if _DEBUG and time.perf_counter() - started > 0.01:
            log.warning("slow GUI callback %.0f ms: %s", (time.perf_counter() - started) * 1000, self._last_callback)

    def _deliver(self, token: int, ok: bool, value: Any, changes: OpChanges) -> None:
        pending = self._callbacks.pop(token, None) or _Pending(None, None, False, None, OpChanges())
        self._last_callback = getattr(pending.success, "__qualname__", pending.success)
        if pending.write:
            self.writes_changed.emit(self.pending_writes)
        if self._stopped:
            return
        try:
            if ok:
                if pending.success is not None:
                    pending.success(value)
            elif pending.failure is not None:
                pending.failure(error_text(value))
            else:
                self.error.emit(error_text(value))
        except RuntimeError as exc:  # the widget that asked was closed meanwhile
            if "already deleted" not in str(exc):
                raise
        if ok and pending.write:
            changed = changes | pending.changes
            if changed:
                self.operation_did_execute.emit(changed, pending.initiator)
                self.data_changed.emit("local")

    def submit_background(
        self,
        fn: Callable[[WorkerContext], Any],
        on_success: Success | None = None,
        on_failure: Failure | None = None,
        *,
        changes: OpChanges | None = None,
    ) -> int:
        """Run a long job (an ingest of thousands of turns) on its own thread and connection,
        so the queue's reads and decisions are not stuck behind it. Views refresh after."""
        token = next(self._tokens)
        self._callbacks[token] = _Pending(on_success, on_failure, True, None, changes or OpChanges.everything())
        self.writes_changed.emit(self.pending_writes)

        def job() -> None:
            try:
                ctx = self._open()
            except UserError as exc:
                self._post(token, False, exc, OpChanges())
                return
            try:
                self._post(token, *self._call(ctx, fn))
            finally:
                ctx.svc.close()

        thread = threading.Thread(target=job, name="madohub-db-job", daemon=True)
        self._jobs.append(thread)
        thread.start()
        return token

    @property
    def busy(self) -> int:
        """How many operations are queued or running."""
        return len(self._callbacks)

    @property
    def pending_writes(self) -> int:
        """Writes queued or running whose result has not reached the GUI yet."""
        return sum(1 for p in self._callbacks.values() if p.write)

    def start_polling(self) -> None:
        self._poll()  # the baseline version, so the very next commit elsewhere is seen
        self._poll_timer.start()

        def watch(ctx: WorkerContext) -> Any:
            from madohub_memory.services.change_watch import watch_changes

            return watch_changes(ctx.svc.store)

        self.submit(watch, self._listen, lambda _message: None)

    def _listen(self, watch: Any) -> None:
        """Start waiting for the server's change notifications (a database that pushes them)."""
        if not watch.pushes or self._stopped:
            watch.close()
            return
        from madohub_memory.gui.change_listener import ChangeListenerThread

        self._listener = ChangeListenerThread(watch, self)
        self._listener.changed.connect(self._notified)
        self._listener.lost.connect(self._listening_lost)
        self._listener.restored.connect(self._listening_restored)
        self._poll_timer.setInterval(LISTENING_POLL_MS)
        self._listener.start()

    def _notified(self) -> None:
        """A commit elsewhere: check now, but during a burst (four workers submitting) at most
        once per :data:`NOTIFIED_GAP_MS`, the last notification always followed by a check."""
        if self._notify_gap.isActive():
            self._notified_later = True
            return
        self._notified_later = False
        self._poll()
        self._notify_gap.start()

    def _gap_over(self) -> None:
        if self._notified_later:
            self._notified()

    def _listening_lost(self) -> None:
        self._listening_ok = False
        self._poll_timer.setInterval(POLL_MS)
        self.listening_changed.emit(False)

    def _listening_restored(self) -> None:
        """Listening again after a dropped connection: polling slows down again (the listener
        asks for one check at once, for what was committed while nobody listened)."""
        self._listening_ok = True
        self._poll_timer.setInterval(LISTENING_POLL_MS)
        self.listening_changed.emit(True)

    @property
    def listening(self) -> bool:
        """Whether the server's change notifications reach this window (PostgreSQL)."""
        return self._listener is not None and self._listening_ok

    def _poll(self) -> None:
        if self._polling:  # a notification during a check: check once more after it
            self._poll_again = True
            return
        self._polling = True
        self._poll_again = False

        def check(ctx: WorkerContext) -> tuple[int, bool]:
            return ctx.svc.store.data_version(), ctx.svc.store.file_replaced()

        self.submit(check, self._polled, self._poll_failed)

    def _polled(self, result: tuple[int, bool]) -> None:
        version, replaced = result
        self._polling = False
        if replaced and not self._replaced_reported:
            self._replaced_reported = True
            self.error.emit(error_text(UserError(
                "The database file {path} was deleted or replaced while it was open; nothing was written. "
                "Restart MadoHub Memory to open the file that is there now.", path=self.db_path)))
        changed = self._last_version is not None and version != self._last_version
        self._last_version = int(version)
        if changed:
            self.operation_did_execute.emit(OpChanges.everything(), None)
            self.data_changed.emit("external")
        if self._poll_again:
            self._poll()

    def _poll_failed(self, _message: str) -> None:
        self._polling = False

    def stop(self, timeout: float = 120.0) -> None:
        """Finish every queued operation (decisions are never dropped), close the database and
        join the thread. ``timeout`` only guards against a database locked by another process
        for minutes; the window waits for queued writes before it calls this."""
        if self._stopped:
            return
        self._poll_timer.stop()
        self._notify_gap.stop()
        if self._listener is not None:
            self._listener.stop()
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
                  success: Success | None = None, failure: Failure | None = None, *,
                  initiator: object | None = None, changes: OpChanges | None = None) -> int:
    """A write: like :func:`query_op`; afterwards the views hear what it changed.
    ``initiator`` is the view that asked (it skips the refresh it already did);
    ``changes`` adds what the services cannot record themselves (jobs, an import)."""
    return worker.submit(fn, success, failure, mutates=True, initiator=initiator, changes=changes)
