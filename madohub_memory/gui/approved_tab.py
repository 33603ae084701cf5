"""The Approved tab: every active memory in one lazy list, with edit, pin, delete and jump.

Filter by text or namespace; sort by any column, among them how often and how recently
agents recalled a memory. Keys on the list: E edit, Ctrl+S save, P pin/unpin, Delete delete
(Ctrl+Z brings it back), J or Enter jump to the originating turn, F2 edit a one-line memory
in place, Home/End the first/last memory, / filter. An unsaved edit stays on its memory as
a draft when the selection moves. The view box switches to the archived memories, where R
restores one (:mod:`madohub_memory.gui.archived_view`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, QItemSelectionModel, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QStyledItemDelegate,
    QVBoxLayout,
    QWidget,
)

from madohub_memory.core.vocab import KINDS
from madohub_memory.gui.archived_view import ArchivedViewMixin
from madohub_memory.gui.change_list import ChangeList
from madohub_memory.gui.i18n import age_label, ago_label, icon, kind_label, namespace_label
from madohub_memory.gui.memory_model import COLUMNS, ICON_COLUMNS, MemoryModel
from madohub_memory.gui.pending_tab import QueueTable
from madohub_memory.gui.undo_stack import UndoEntry
from madohub_memory.gui.wheel_guard import guard_wheel
from madohub_memory.gui.worker import DbWorker, collection_op, query_op
from madohub_memory.services.changes import OpChanges
from madohub_memory.services.queue import MemoryFilter


class InPlaceDelegate(QStyledItemDelegate):
    """Tells the model which memory is being edited in place, so a page of rows arriving
    meanwhile never resets what is typed."""

    def __init__(self, model: MemoryModel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.model = model

    def createEditor(self, parent: QWidget, option: Any, index: Any) -> QWidget:
        self.model.editing_id = self.model.id_at(index.row())
        return super().createEditor(parent, option, index)

    def destroyEditor(self, editor: QWidget, index: Any) -> None:
        self.model.editing_id = None
        super().destroyEditor(editor, index)


class ApprovedTab(ArchivedViewMixin, QWidget):
    jump_requested = Signal(str)
    status = Signal(str)
    help_requested = Signal()

    def __init__(self, worker: DbWorker, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.worker = worker
        self.model = MemoryModel(worker, self)
        self.drafts: dict[int, dict[str, Any]] = {}
        self._bound: int | None = None
        self._original: dict[str, Any] = {}
        self._build()
        self._filter_timer = QTimer(self)
        self._filter_timer.setSingleShot(True)
        self._filter_timer.setInterval(200)
        self._filter_timer.timeout.connect(self._apply_filter)
        self.search.textChanged.connect(lambda _t: self._filter_timer.start())
        self.ns_filter.currentIndexChanged.connect(lambda _i: self._filter_timer.start())
        self.model.ids_loaded.connect(self._ids_loaded)
        self.model.rows_loaded.connect(self._rows_loaded)
        self.model.edited_in_place.connect(self._edited_in_place)
        self.table.selectionModel().currentRowChanged.connect(lambda *_a: self._bind_current())
        worker.operation_did_execute.connect(self._operation_did_execute)
        self._dirty = True  # loaded when first shown: the queue gets the worker first

    def _build(self) -> None:
        self.search = QLineEdit()
        self.search.setPlaceholderText(self.tr("Filter memories (press /)"))
        self.search.setAccessibleName(self.tr("Filter memories"))
        self.search.setClearButtonEnabled(True)
        self.search.addAction(icon("search"), QLineEdit.ActionPosition.LeadingPosition)
        self.search.installEventFilter(self)
        self.ns_filter = QComboBox()
        self.ns_filter.setAccessibleName(self.tr("Filter by namespace"))
        self.ns_filter.addItem(self.tr("All namespaces"), None)
        self.view_box = QComboBox()
        self.view_box.setObjectName("memoryView")
        self.view_box.setAccessibleName(self.tr("Show active or archived memories"))
        self.view_box.addItem(self.tr("Active memories"), "active")
        self.view_box.addItem(self.tr("Archived memories"), "archived")
        self.view_box.setToolTip(self.tr("Archived memories are not recalled: the sweep archives unused and "
                                         "expired ones. Select one and press R to restore it."))
        self.view_box.currentIndexChanged.connect(self._view_changed)
        self.count_label = QLabel()
        self.count_label.setObjectName("filterCount")
        bar = QHBoxLayout()
        bar.addWidget(self.search, 3)
        bar.addWidget(self.ns_filter, 1)
        bar.addWidget(self.view_box)
        bar.addWidget(self.count_label)

        self.table = QueueTable()
        self.table.setObjectName("approvedTable")
        self.table.setAccessibleName(self.tr("Approved memories"))
        self.table.setModel(self.model)
        self.table.setItemDelegate(InPlaceDelegate(self.model, self.table))
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        # F2 or double-click edits a one-line memory in place; longer ones in the pane
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.EditKeyPressed
                                   | QAbstractItemView.EditTrigger.DoubleClicked)
        self.table.setSortingEnabled(True)
        self.table.horizontalHeader().setSortIndicator(COLUMNS.index("namespace"), Qt.SortOrder.AscendingOrder)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(28)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setStretchLastSection(False)
        self._fit_columns()
        self.table.installEventFilter(self)

        self.title = QLabel(self.tr("Select a memory"))
        self.title.setObjectName("detailTitle")
        self.title.setWordWrap(True)
        self.draft_note = QLabel(self.tr("Unsaved edit kept as a draft: Ctrl+S saves it."))
        self.draft_note.setObjectName("draftNote")
        self.draft_note.setWordWrap(True)
        self.draft_note.hide()
        self.editor = QPlainTextEdit()
        self.editor.setAccessibleName(self.tr("Memory text"))
        self.editor.setTabChangesFocus(True)
        self.editor.setMaximumHeight(260)
        self.editor.installEventFilter(self)
        self.kind = QComboBox()
        self.kind.setAccessibleName(self.tr("Kind"))
        for kind in KINDS:
            self.kind.addItem(kind_label(kind), kind)
        self.info = QLabel()
        self.info.setWordWrap(True)
        self.info.setTextFormat(Qt.TextFormat.PlainText)  # a person's name is shown as typed
        self.info.setObjectName("facts")
        self.save_btn = self._button("approve", self.tr("&Save"), "Ctrl+S", self.save)
        self.pin_btn = self._button("pin", self.tr("&Pin"), "P", self.toggle_pin)
        self.delete_btn = self._button("delete", self.tr("&Delete"), "Del", self.delete)
        self.jump_btn = self._button("jump", self.tr("&Jump to turn"), "Enter", self.jump)
        self.restore_btn = self._button("undo", self.tr("&Restore"), "R", self.restore)
        self.restore_btn.setObjectName("restoreButton")
        self.restore_btn.hide()  # the archived view's
        buttons = QHBoxLayout()
        for b in (self.restore_btn, self.save_btn, self.pin_btn, self.delete_btn, self.jump_btn):
            buttons.addWidget(b)
        right = QWidget()
        right.setMinimumWidth(340)
        rl = QVBoxLayout(right)
        rl.addWidget(self.title)
        rl.addWidget(self.draft_note)
        rl.addWidget(self.editor)
        kind_row = QHBoxLayout()
        kind_label_widget = QLabel(self.tr("&Kind"))
        kind_label_widget.setBuddy(self.kind)
        kind_row.addWidget(kind_label_widget)
        kind_row.addWidget(self.kind, 1)
        rl.addLayout(kind_row)
        rl.addWidget(self.info)
        rl.addLayout(buttons)
        self.changes_title = QLabel(self.tr("Changes"))
        self.changes_title.setObjectName("sectionTitle")
        self.changes = ChangeList()
        rl.addWidget(self.changes_title)
        rl.addWidget(self.changes)
        rl.addStretch(1)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.table)
        splitter.addWidget(right)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setChildrenCollapsible(False)
        splitter.setSizes([880, 400])  # the list's Memory column is what a person reads
        self.hint = QLabel(self._hint_text())
        self.hint.setObjectName("hint")
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(splitter, 1)
        layout.addWidget(self.hint)
        self._set_enabled(False)
        guard_wheel(self)

    def _button(self, icon_name: str, text: str, key: str, slot: Any) -> QPushButton:
        button = QPushButton(icon(icon_name), text)
        button.setAccessibleName(text.replace("&", ""))
        button.setToolTip(f"{text.replace('&', '')} ({key})")
        button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        button.clicked.connect(slot)
        return button

    def _fit_columns(self) -> None:
        """Widths from the (translated) labels the columns show."""
        header = self.table.horizontalHeader()
        metrics, bold = self.table.fontMetrics(), header.fontMetrics()

        def fit(key: str, samples: list[str], cap: int = 200) -> None:
            # the cells' text with its padding, or the title with room for the sort arrow
            col = COLUMNS.index(key)
            width = max([metrics.horizontalAdvance(t) + 20 for t in samples]
                        + [bold.horizontalAdvance(self.model.column_title(key)) + 40])
            header.resizeSection(col, min(cap, width))

        fit("kind", [kind_label(k) for k in KINDS])
        fit("namespace", ["    project-x"], 130)
        fit("hit_count", ["9,999"])
        fit("last_hit_at", ["23 min", age_label(None), QCoreApplication.translate("Vocab", "just now")])
        for key in ICON_COLUMNS:  # a mark per row under an icon header: the Memory column gets the width
            header.resizeSection(COLUMNS.index(key), 44)

    def _set_enabled(self, on: bool) -> None:
        archived = self.archived_shown  # read-only there: restore it to edit or pin it
        for w in (self.editor, self.kind, self.save_btn, self.pin_btn):
            w.setEnabled(on and not archived)
        for w in (self.save_btn, self.pin_btn):  # the archived view's buttons: Restore, Delete, Jump
            w.setVisible(not archived)
        for w in (self.delete_btn, self.jump_btn):
            w.setEnabled(on)
        self.restore_btn.setEnabled(on and archived)

    # -- loading -------------------------------------------------------------------------

    @property
    def loaded(self) -> bool:
        return self.model.loaded

    def _operation_did_execute(self, changes: OpChanges, _initiator: object) -> None:
        if not changes.memories:
            return
        if self.isVisible():
            self.refresh()
        else:
            self._dirty = True  # refreshed when the tab is shown

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        if self._dirty:
            self._dirty = False
            self.refresh()

    def refresh(self) -> None:
        self.model.refresh(reset=not self.model.loaded)
        self._load_namespaces()

    def _load_namespaces(self) -> None:
        status = self.model.filter.status
        query_op(self.worker, lambda ctx: ctx.queue.memory_namespaces(status), self._namespaces_arrived)

    def _apply_filter(self) -> None:
        f = self.model.filter
        self.model.set_filter(MemoryFilter(text=self.search.text(), namespace=self.ns_filter.currentData(),
                                           sort=f.sort, descending=f.descending, status=f.status))

    def _namespaces_arrived(self, namespaces: list[tuple[str, int]]) -> None:
        current = self.ns_filter.currentData()
        self.ns_filter.blockSignals(True)
        while self.ns_filter.count() > 1:
            self.ns_filter.removeItem(1)
        for ns, count in namespaces:
            self.ns_filter.addItem(f"{namespace_label(ns)}  ({count:,})", ns)
        self.ns_filter.setCurrentIndex(max(0, self.ns_filter.findData(current)))
        self.ns_filter.blockSignals(False)

    def _ids_loaded(self) -> None:
        shown, total = self.model.rowCount(), self.model.total
        self.count_label.setText(self.tr("%1 of %2 shown").replace("%1", f"{shown:,}").replace("%2", f"{total:,}"))
        if not self.table.currentIndex().isValid() and shown:
            self.select_row(0)
        elif self._bound != self.current_id():
            self._bind_current()

    def _rows_loaded(self) -> None:
        mid = self.current_id()
        row = self.model.cached(mid) if mid is not None else None
        if row is None:
            return
        if self._bound != mid or not self._is_dirty():
            self._bind_current(force=True)

    # -- selection and the pane ----------------------------------------------------------

    def current_id(self) -> int | None:
        index = self.table.currentIndex()
        return self.model.id_at(index.row()) if index.isValid() else None

    @property
    def memories(self) -> dict[int, dict[str, Any]]:
        """The rows fetched so far, by id (the list shows more as it scrolls)."""
        return {rid: row for rid in self.model._ids if (row := self.model.cached(rid)) is not None}

    def select_row(self, row: int) -> None:
        if self.model.rowCount() == 0:
            return
        row = max(0, min(row, self.model.rowCount() - 1))
        index = self.model.index(row, 0)
        self.table.selectionModel().setCurrentIndex(
            index, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
        self.table.scrollTo(index)

    def select_memory(self, memory_id: int) -> None:
        row = self.model.row_of(memory_id)
        if row >= 0:
            self.select_row(row)

    def _values(self) -> dict[str, Any]:
        return {"content": self.editor.toPlainText(), "kind": self.kind.currentData()}

    def _is_dirty(self) -> bool:
        return self._bound is not None and bool(self._original) and self._values() != self._original

    def _bind_current(self, force: bool = False) -> None:
        mid = self.current_id()
        if mid == self._bound and not force:
            return
        if self._bound is not None and self._bound != mid:
            if self._is_dirty():
                self.drafts[self._bound] = self._values()
                self.model.drafts.add(self._bound)
            else:
                self.drafts.pop(self._bound, None)
                self.model.drafts.discard(self._bound)
            self.model.repaint_row(self._bound)
        row = self.model.cached(mid) if mid is not None else None
        self._bound = mid
        if row is None:
            self._original = {}
            self.title.setText(self.tr("Select a memory") if mid is None else
                               self.tr("Memory #%1").replace("%1", str(mid)))
            self.editor.setPlainText("")
            self.info.setText("")
            self.changes.memory_id = None
            self.changes.clear()
            self.draft_note.hide()
            self._set_enabled(False)
            return
        self._set_enabled(True)
        self._original = {"content": row["content"], "kind": row["kind"]}
        values = {**self._original, **self.drafts.get(row["id"], {})}
        self.title.setText(self.tr("Memory #%1").replace("%1", str(row["id"])))
        self.editor.setPlainText(values["content"])
        self.kind.setCurrentIndex(max(0, self.kind.findData(values["kind"])))
        self.draft_note.setVisible(self._is_dirty())
        self.pin_btn.setText(self.tr("Un&pin") if row["pinned"] else self.tr("&Pin"))
        recalled = (self.tr("recalled %1 times, last %2").replace("%1", f"{row['hit_count']:,}")
                    .replace("%2", ago_label(row["last_hit_at"]))
                    if row["hit_count"] else self.tr("never recalled yet"))
        self.info.setText(self._provenance(row, recalled))
        self._load_changes(row["id"])
        self.jump_btn.setEnabled(bool(row["first_turn"]))

    def _load_changes(self, mid: int) -> None:
        """Who changed the memory and when (read on the worker; a late answer is dropped)."""
        self.changes.memory_id = mid
        query_op(self.worker, lambda ctx: ctx.svc.changelog.changes(memory_id=mid, limit=8),
                 lambda rows: self._changes_arrived(mid, rows))

    def _changes_arrived(self, mid: int, rows: list[dict[str, Any]]) -> None:
        self.changes.show_changes(mid, rows)
        shown = self.changes.count() > 0  # an imported memory has no recorded changes
        self.changes_title.setVisible(shown)
        self.changes.setVisible(shown)

    def _provenance(self, row: dict[str, Any], recalled: str) -> str:
        """Namespace and recall use, then who approved and who last edited it, a line each
        ("approved by wei · 2 h ago")."""
        namespace = namespace_label(row["namespace"])
        if row.get("approved_by"):
            lines = [self.tr("%1 · %2").replace("%1", namespace).replace("%2", recalled),
                     self.tr("approved by %1 · %2").replace("%1", row["approved_by"])
                     .replace("%2", ago_label(row["created_at"]))]
        else:
            info = (self.tr("%1 · %2 · created %3").replace("%1", namespace)
                    .replace("%2", recalled).replace("%3", ago_label(row["created_at"])))
            if row["auto"]:
                info += " · " + self.tr("approved by the auto-approve policy")
            lines = [info]
        if row.get("edited_by"):
            lines.append(self.tr("edited by %1 · %2").replace("%1", row["edited_by"])
                         .replace("%2", ago_label(row.get("edited_at"))))
        return "\n".join(lines)

    # -- actions -------------------------------------------------------------------------

    def _write(self, mid: int, action: str, fn: Any, done: str) -> None:
        entry = self.worker.undo_stack.push(UndoEntry(kind="memory", memory_ids=[mid], action=action))

        def run(ctx: Any) -> Any:
            with ctx.svc.changelog.batch(entry.batch):
                return fn(ctx)

        def failed(message: str) -> None:
            self.worker.undo_stack.discard(entry.batch)
            self.model.unhide([mid])
            self.worker.error.emit(message)
            self.refresh()

        collection_op(self.worker, run, lambda _r: (self.model.unhide([mid]), self.status.emit(done)), failed,
                      initiator=self)

    def save(self) -> None:
        mid = self._bound
        if mid is None or not self._original:
            return
        values = self._values()
        changes = {k: v for k, v in values.items() if v != self._original.get(k)}
        if not changes:
            self.status.emit(self.tr("Nothing changed."))
            return
        self.drafts.pop(mid, None)
        self.model.drafts.discard(mid)
        self._original = values  # saved as shown: no draft when the row moves on
        self.draft_note.hide()
        self._write(mid, "edit", lambda ctx: ctx.svc.memories.edit(mid, **changes),
                    self.tr("Saved memory #%1.").replace("%1", str(mid)))

    def _edited_in_place(self, mid: int, text: str) -> None:
        self._write(mid, "edit", lambda ctx: ctx.svc.memories.edit(mid, content=text),
                    self.tr("Saved memory #%1.").replace("%1", str(mid)))

    def toggle_pin(self) -> None:
        mid = self.current_id()
        row = self.model.cached(mid) if mid is not None else None
        if mid is None or row is None or self.archived_shown:  # restore it first
            return
        pinned = not row["pinned"]
        self._write(mid, "pin" if pinned else "unpin", lambda ctx: ctx.svc.memories.pin(mid, pinned),
                    (self.tr("Pinned memory #%1.") if pinned else self.tr("Unpinned memory #%1.")).replace("%1", str(mid)))

    def delete(self) -> None:
        mid = self.current_id()
        if mid is None:
            return
        self._take_out(mid, "delete", lambda ctx: ctx.svc.memories.delete(mid),
                       self.tr("Deleted memory #%1. Ctrl+Z brings it back.").replace("%1", str(mid)))

    def _take_out(self, mid: int, action: str, fn: Any, done: str) -> None:
        """A change that takes the shown memory out of this list (delete, restore): the row
        goes and the next one is shown at once, then the worker stores it (one undo step)."""
        row = self.table.currentIndex().row()
        self._bound = None
        self.drafts.pop(mid, None)
        self.model.remove_ids([mid])
        self.select_row(row)
        self._write(mid, action, fn, done)

    def undo_entry(self, entry: UndoEntry) -> None:
        mid = entry.memory_ids[0]
        messages = {
            "delete": self.tr("Restored memory #%1."), "edit": self.tr("Undid the edit of memory #%1."),
            "pin": self.tr("Unpinned memory #%1 again."), "unpin": self.tr("Pinned memory #%1 again."),
            "restore": self.tr("Archived memory #%1 again."),
        }
        message = messages.get(entry.action, self.tr("Undid a change to memory #%1.")).replace("%1", str(mid))
        collection_op(self.worker, lambda ctx: ctx.svc.changelog.undo_batch(entry.batch),
                      lambda _r: (self.status.emit(message), self._after_undo(mid)),
                      lambda text: self.status.emit(self.tr("Could not undo: %1").replace("%1", text)),
                      initiator=self)

    def _after_undo(self, mid: int) -> None:
        self.model.unhide([mid])
        self._pending_select = mid
        self.model.ids_loaded.connect(self._select_after_refresh)

    def _select_after_refresh(self) -> None:
        self.model.ids_loaded.disconnect(self._select_after_refresh)
        self.select_memory(getattr(self, "_pending_select", -1))

    def edit(self) -> None:
        self.editor.setFocus()
        cursor = self.editor.textCursor()
        cursor.movePosition(cursor.MoveOperation.End)
        self.editor.setTextCursor(cursor)

    def jump(self) -> None:
        mid = self.current_id()
        row = self.model.cached(mid) if mid is not None else None
        if row is not None and row["first_turn"]:
            self.jump_requested.emit(row["first_turn"])
        elif mid is not None:
            self.status.emit(self.tr("This memory has no originating turn (it was entered by hand)."))

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if event.type() != QEvent.Type.KeyPress:
            return False
        key_event: QKeyEvent = event  # type: ignore[assignment]
        key, mods = key_event.key(), key_event.modifiers()
        ctrl = bool(mods & Qt.KeyboardModifier.ControlModifier)
        if ctrl and key == Qt.Key.Key_S and obj in (self.editor, self.table):
            self.save()
            return True
        if obj is self.table and key in (Qt.Key.Key_Home, Qt.Key.Key_End) and not mods & ~(
                Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.KeypadModifier):
            # the first/last memory, with or without Ctrl (Qt's Home goes to the first column)
            self.select_row(0 if key == Qt.Key.Key_Home else self.model.rowCount() - 1)
            return True
        if obj is self.search:
            if key in (Qt.Key.Key_Escape, Qt.Key.Key_Down, Qt.Key.Key_Return):
                self.table.setFocus()
                return True
            return False
        if obj is self.editor:
            if key == Qt.Key.Key_Escape:
                self.table.setFocus()
                return True
            return False
        if obj is not self.table or ctrl or mods & Qt.KeyboardModifier.AltModifier:
            return False
        if key == Qt.Key.Key_Question:
            self.help_requested.emit()
            return True
        actions: dict[Any, Callable[[], object]] = {
            Qt.Key.Key_E: self.edit, Qt.Key.Key_P: self.toggle_pin,
            Qt.Key.Key_Delete: self.delete, Qt.Key.Key_J: self.jump, Qt.Key.Key_Return: self.jump,
            Qt.Key.Key_Enter: self.jump, Qt.Key.Key_Slash: lambda: self.search.setFocus(),
            Qt.Key.Key_R: self.restore,
        }
        if key in actions:
            if self.current_id() is not None or key == Qt.Key.Key_Slash:
                actions[key]()
            return True
        return bool(key_event.text() and key_event.text().isprintable())  # no type-ahead
