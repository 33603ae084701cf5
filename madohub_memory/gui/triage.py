"""Keyboard triage in the Pending tab: every key acts on the candidate on screen.

A key is turned into an intent bound to the candidate id shown at the moment it arrives,
and the intent is applied at once to what the table and the pane show (both are updated
synchronously, from rows the table already holds); the worker then stores it, in order.
Nothing a key does waits for the database: a decision takes the row out and selects the
next one, an undo puts the row back and selects it, ``E`` puts the cursor in the editor of
the shown candidate. Only when the shown row has not been fetched yet (a jump far down the
list) do keys that need its text wait, queued in order, until the row arrives.

Keys on the table: A approve (with the pane's edits), X or Delete reject, E edit, Enter or
Shift+J jump to the originating turn, Space skip, J/K or arrows move, Home/End (with or
without Ctrl) the first/last candidate, PgUp/PgDn a page, / filter, ? help. Every move is
an intent like a decision, so it lands in order and the row it reaches is selected.
Letters with no meaning do nothing (the table's type-ahead search is off). Ctrl+Z is the
window's: it takes back this window's newest step (:mod:`madohub_memory.gui.undo_stack`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent

from madohub_memory.gui.undo_stack import UndoEntry
from madohub_memory.gui.worker import collection_op, query_op

if TYPE_CHECKING:
    from madohub_memory.gui.pending_tab import PendingTab

Intent = Callable[[], bool]  # returns False when it must wait for the shown row


def _ids_text(ids: list[int]) -> str:
    shown = ", ".join(f"#{i}" for i in ids[:5])
    return shown + (" …" if len(ids) > 5 else "")


class TriageMixin:
    """Keys, decisions and undo of :class:`~madohub_memory.gui.pending_tab.PendingTab`."""

    _intents: list[Intent]
    _jump_for: int | None

    # -- intents -------------------------------------------------------------------------

    def _key(self: PendingTab, intent: Intent) -> None:
        if self._intents:
            self._intents.append(intent)  # behind a key that waits: keep the order
            return
        if not intent():
            self._intents.append(intent)

    def _run_intents(self: PendingTab) -> None:
        while self._intents:
            if not self._intents[0]():
                return
            self._intents.pop(0)

    def _drop_intents(self: PendingTab) -> None:
        if self._intents:
            count = len(self._intents)
            self._intents.clear()
            self.status.emit(self.tr("The candidate left the queue before its text arrived; "
                                     "%1 key(s) were not applied.").replace("%1", str(count)))

    # -- decisions -----------------------------------------------------------------------

    def _targets(self: PendingTab) -> list[int]:
        ids = self.selected_ids()
        cid = self.current_id()
        if len(ids) <= 1:
            ids = [cid] if cid is not None else []
        return ids

    def approve(self: PendingTab) -> None:
        self._key(self._approve)

    def reject(self: PendingTab) -> None:
        self._key(self._reject)

    def _approve(self: PendingTab) -> bool:
        ids = self._targets()
        if not ids:
            return True
        if len(ids) > 1:
            self._decide_many("approve", ids)
            return True
        cid = ids[0]
        if self.detail.candidate_id != cid:  # cannot happen: the pane follows the current row
            self._bind_current()
        if self.detail.typed_while_loading():
            return False  # the text typed must follow the row's own text: wait for it
        problem = self.detail.problem()
        if problem is not None:
            self.detail.point_at(*problem)
            self.status.emit(problem[1])
            return True
        edits = self.detail.edits()
        draft = self.detail.current_values() if edits else None

        def store(ctx: Any, batch: str) -> Any:
            return ctx.svc.review.approve(cid, **edits)

        self._decide("approve", [cid], store, draft)
        return True

    def _reject(self: PendingTab) -> bool:
        ids = self._targets()
        if not ids:
            return True
        if len(ids) > 1:
            self._decide_many("reject", ids)
            return True
        cid = ids[0]
        draft = self.detail.current_values() if self.detail.candidate_id == cid and self.detail.is_dirty() else None
        self._decide("reject", [cid], lambda ctx, batch: ctx.svc.review.reject(cid), draft)
        return True

    def _decide_many(self: PendingTab, action: str, ids: list[int]) -> None:
        """A batch decision; a batch approve leaves flagged candidates for one-by-one review."""
        if action == "reject":
            self._decide("reject", ids, lambda ctx, batch: ctx.svc.review.reject_many(ids), None)
            return
        flagged = [i for i in ids if (self.model.cached(i) or {}).get("flags")]
        chosen = [i for i in ids if i not in flagged]
        if flagged:
            self.status.emit(self.tr("%1 flagged candidate(s) left for one-by-one review: %2")
                             .replace("%1", str(len(flagged))).replace("%2", _ids_text(flagged)))
        if not chosen:
            return

        def store(ctx: Any, batch: str) -> Any:
            # rows not in the table's cache were not checked above: check them here
            safe = [i for i in chosen if not ctx.svc.review.get(i).flags]
            ctx.svc.review.approve_many(safe)
            return [i for i in chosen if i not in safe]

        self._decide("approve", chosen, store, None)

    def _decide(self: PendingTab, action: str, ids: list[int], store: Callable[[Any, str], Any],
                draft: dict[str, Any] | None) -> None:
        entry = UndoEntry(kind=action, rows=[
            (cid, self.model.row_of(cid), self.model.cached(cid),
             draft if len(ids) == 1 else self.drafts.get(cid))
            for cid in ids
        ])
        self.worker.undo_stack.push(entry)
        rows = [r for _, r, _, _ in entry.rows if r >= 0]
        for cid in ids:
            self.drafts.pop(cid, None)
            self.model.drafts.discard(cid)
        self.detail.candidate_id = None  # the pane keeps its widgets; it no longer speaks for cid
        self.model.remove_ids(ids)
        self.select_row(min(rows) if rows else self.table.currentIndex().row())
        self.table.setFocus()
        batch = entry.batch

        def run(ctx: Any) -> Any:
            with ctx.svc.changelog.batch(batch):
                return store(ctx, batch)

        def stored(result: Any) -> None:
            self.model.unhide(ids)
            skipped = result if action == "approve" and len(ids) > 1 and isinstance(result, list) else []
            if skipped:
                self.model.refresh()
                self.status.emit(self.tr("%1 flagged candidate(s) left for one-by-one review: %2")
                                 .replace("%1", str(len(skipped))).replace("%2", _ids_text(skipped)))
            elif len(ids) == 1:
                text = self.tr("Approved #%1. Ctrl+Z undoes.") if action == "approve" else \
                    self.tr("Rejected #%1. Ctrl+Z undoes.")
                self.status.emit(text.replace("%1", str(ids[0])))
            else:
                text = self.tr("Approved %1 candidates. Ctrl+Z undoes.") if action == "approve" else \
                    self.tr("Rejected %1 candidates. Ctrl+Z undoes.")
                self.status.emit(text.replace("%1", str(len(ids))))
            for cid in ids:
                self.decided.emit(cid)

        def failed(message: str) -> None:
            # back on screen at once, to be decided again, even when the refresh below cannot
            # reach the database either (a server that is down); the refresh corrects the rest
            self.model.put_back([(cid, row, cached) for cid, row, cached, _ in entry.rows])
            self.model.release(ids)
            self.worker.undo_stack.discard(batch)
            if draft is not None and len(ids) == 1:  # keep everything typed
                self.drafts[ids[0]] = draft
                self.model.drafts.add(ids[0])
            verb = self.tr("#%1 was not approved: %2") if action == "approve" else self.tr("#%1 was not rejected: %2")
            self.status.emit(verb.replace("%1", _ids_text(ids).lstrip("#")).replace("%2", message))
            self.decision_failed.emit(message)
            self.model.refresh()

        collection_op(self.worker, run, stored, failed, initiator=self)

    # -- undo ----------------------------------------------------------------------------

    def undo(self: PendingTab) -> None:
        """Ctrl+Z on the table (normally the window's shortcut takes it first)."""
        self.undo_requested.emit()

    def undo_entry(self: PendingTab, entry: UndoEntry) -> None:
        """Put the candidates of a decision back at once, select the first, then store it."""
        self._intents.clear()
        ids = entry.candidate_ids
        for cid, _row, _cached, draft in entry.rows:
            if draft:
                self.drafts[cid] = draft
                self.model.drafts.add(cid)
        self.model.put_back([(cid, row, cached) for cid, row, cached, _ in entry.rows])
        first = min(entry.rows, key=lambda r: r[1])[0]
        self.select_row(self.model.row_of(first))  # the pane's own edit, if any, stays a draft
        self.table.setFocus()
        message = self.tr("Restored %1 to pending.").replace("%1", _ids_text(ids))

        def stored(_rows: Any) -> None:
            self.model.release(ids)
            self.status.emit(message)

        def failed(text: str) -> None:
            self.model.release(ids)
            self.status.emit(self.tr("Could not undo: %1").replace("%1", text))
            self.model.refresh()

        collection_op(self.worker, lambda ctx: ctx.svc.changelog.undo_batch(entry.batch), stored, failed,
                      initiator=self)

    # -- moving, editing, jumping --------------------------------------------------------

    def skip(self: PendingTab) -> None:
        self.move(1)

    def move(self: PendingTab, step: int) -> None:
        def intent() -> bool:
            index = self.table.currentIndex()
            self.select_row((index.row() if index.isValid() else -1) + step)
            return True

        self._key(intent)

    def move_to(self: PendingTab, where: str) -> None:
        """``first``, ``last``, ``page_up`` or ``page_down``: the row becomes current *and*
        selected (Qt's own Ctrl+End moves the current row without selecting it)."""
        def intent() -> bool:
            index = self.table.currentIndex()
            row = index.row() if index.isValid() else 0
            page = max(1, self.table.viewport().height() // self.table.verticalHeader().defaultSectionSize() - 1)
            targets = {"first": 0, "last": self.model.rowCount() - 1, "page_up": row - page, "page_down": row + page}
            self.select_row(targets[where])
            return True

        self._key(intent)

    def edit(self: PendingTab) -> None:
        def intent() -> bool:
            if self.detail.candidate_id is None:
                return True
            self.detail.editor.setFocus()
            cursor = self.detail.editor.textCursor()
            cursor.movePosition(cursor.MoveOperation.End)
            self.detail.editor.setTextCursor(cursor)
            return True

        self._key(intent)

    def jump(self: PendingTab) -> None:
        def intent() -> bool:
            cid = self.current_id()
            if cid is None:
                return True
            if self.detail.candidate_id == cid and self.detail.enriched:
                self._jump_now(cid)
            else:
                self._jump_for = cid  # when its provenance arrives
            return True

        self._key(intent)

    def _jump_now(self: PendingTab, cid: int) -> None:
        self._jump_for = None
        turn = self.detail.first_turn() if self.detail.candidate_id == cid else None
        if turn:
            self.jump_requested.emit(turn)
        else:
            self.status.emit(self.tr("This candidate has no originating turn (typed by hand or remembered without one)."))

    def focus_filter(self: PendingTab) -> None:
        self.search.setFocus()
        self.search.selectAll()

    # -- keys ----------------------------------------------------------------------------

    def _table_key(self: PendingTab, event: QKeyEvent) -> bool:
        mods = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        key = event.key()
        plain = mods == Qt.KeyboardModifier.NoModifier
        shift = mods == Qt.KeyboardModifier.ShiftModifier
        if key == Qt.Key.Key_Z and mods == Qt.KeyboardModifier.ControlModifier:
            self.undo()
            return True
        moves: dict[Any, str] = {Qt.Key.Key_Home: "first", Qt.Key.Key_End: "last", Qt.Key.Key_PageUp: "page_up",
                                 Qt.Key.Key_PageDown: "page_down"}
        if key in moves and (plain or mods == Qt.KeyboardModifier.ControlModifier):
            self.move_to(moves[key])
            return True
        if not (plain or shift):
            return False  # Ctrl/Alt combinations are the window's shortcuts
        if key == Qt.Key.Key_J:
            (self.jump if shift else lambda: self.move(1))()
            return True
        if key == Qt.Key.Key_Question or (key == Qt.Key.Key_Slash and shift):
            self.help_requested.emit()
            return True
        actions: dict[Any, Callable[[], object]] = {
            Qt.Key.Key_A: self.approve, Qt.Key.Key_X: self.reject, Qt.Key.Key_E: self.edit,
            Qt.Key.Key_Delete: self.reject,
        }
        if key in actions:
            actions[key]()
            return True
        plain_actions: dict[Any, Callable[[], object]] = {
            Qt.Key.Key_Space: self.skip, Qt.Key.Key_Slash: self.focus_filter,
            Qt.Key.Key_K: lambda: self.move(-1), Qt.Key.Key_Return: self.jump, Qt.Key.Key_Enter: self.jump,
            Qt.Key.Key_Down: lambda: self.move(1), Qt.Key.Key_Up: lambda: self.move(-1),
        }
        if plain and key in plain_actions:
            plain_actions[key]()
            return True
        # A letter with no meaning does nothing (no type-ahead jump); Shift+arrows extend the
        # selection, as in any table.
        return bool(event.text() and event.text().isprintable())

    def _editor_key(self: PendingTab, event: QKeyEvent) -> bool:
        ctrl = bool(event.modifiers() & Qt.KeyboardModifier.ControlModifier)
        if event.key() == Qt.Key.Key_Escape:
            self.table.setFocus()
            return True
        if ctrl and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.approve()
            return True
        return False

    def _namespace_key(self: PendingTab, event: QKeyEvent) -> bool:
        ctrl = bool(event.modifiers() & Qt.KeyboardModifier.ControlModifier)
        if ctrl and event.key() == Qt.Key.Key_Space:
            self.detail.complete_namespace()  # the list of namespaces only when asked for
            return True
        return self._editor_key(event)  # Escape and Ctrl+Enter as in the editor

    def _load_detail(self: PendingTab, cid: int) -> None:
        def load(ctx: Any) -> dict[str, Any]:
            started = time.perf_counter()
            detail = dict(ctx.queue.detail(cid))
            detail["load_ms"] = (time.perf_counter() - started) * 1000  # what it cost (benchmarks)
            return detail

        query_op(self.worker, load, self._detail_arrived, lambda _m: None)
