"""The Pending tab: filter bar, lazy queue table, detail pane, keyboard-first triage.

Keys (on the table): A approve with the pane's edits, X reject, E edit, Shift+J or Enter
jump to the originating turn, Space skip, J/K or arrows move, / filter, ? help, Ctrl+Z
undo. With several rows selected, A and X decide all of them as one undoable batch.
A decision takes the row out at once and selects the next one; the worker stores it.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QItemSelectionModel, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from madohub_memory.core.vocab import FLAGS, KINDS, SOURCES
from madohub_memory.gui.detail_pane import DetailPane
from madohub_memory.gui.i18n import flags_label, icon, kind_label, namespace_label, source_label
from madohub_memory.gui.pending_model import PendingModel
from madohub_memory.gui.worker import DbWorker, collection_op, query_op
from madohub_memory.services.queue import QueueFilter


class PendingTab(QWidget):
    """The review queue; emits ``count_changed`` for the tab title."""

    count_changed = Signal(int)
    jump_requested = Signal(str)
    status = Signal(str)
    help_requested = Signal()
    decided = Signal(int)  # candidate id whose decision is stored

    def __init__(self, worker: DbWorker, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.worker = worker
        self.model = PendingModel(worker, self)
        self._detail_token = 0
        self._select_after_load: int | None = None
        self._build()
        self.model.count_changed.connect(self.count_changed)
        self.model.ids_loaded.connect(self._ids_loaded)
        self.table.selectionModel().currentRowChanged.connect(self._current_changed)
        self.detail.jump_requested.connect(self.jump_requested)
        self._filter_timer = QTimer(self)
        self._filter_timer.setSingleShot(True)
        self._filter_timer.setInterval(200)
        self._filter_timer.timeout.connect(self._apply_filter)
        self.worker.data_changed.connect(self._data_changed)
        self.model.refresh(reset=True)
        self._load_namespaces()

    # -- layout --------------------------------------------------------------------------

    def _build(self) -> None:
        self.search = QLineEdit()
        self.search.setObjectName("filterEdit")
        self.search.setPlaceholderText(self.tr("Filter text (press /)"))
        self.search.setAccessibleName(self.tr("Filter text"))
        self.search.setClearButtonEnabled(True)
        self.search.addAction(icon("search"), QLineEdit.ActionPosition.LeadingPosition)
        self.search.textChanged.connect(lambda _t: self._filter_timer.start())
        self.search.installEventFilter(self)
        self.kind_filter = QComboBox()
        self.kind_filter.setAccessibleName(self.tr("Filter by kind"))
        self.kind_filter.addItem(self.tr("All kinds"), None)
        for kind in KINDS:
            self.kind_filter.addItem(kind_label(kind), kind)
        self.ns_filter = QComboBox()
        self.ns_filter.setAccessibleName(self.tr("Filter by namespace"))
        self.ns_filter.addItem(self.tr("All namespaces"), None)
        self.source_filter = QComboBox()
        self.source_filter.setAccessibleName(self.tr("Filter by source"))
        self.source_filter.addItem(self.tr("All sources"), None)
        for source in SOURCES:
            self.source_filter.addItem(source_label(source), source)
        self.min_conf = QDoubleSpinBox()
        self.min_conf.setAccessibleName(self.tr("Minimum confidence"))
        self.min_conf.setRange(0.0, 1.0)
        self.min_conf.setSingleStep(0.1)
        self.min_conf.setDecimals(2)
        self.min_conf.setPrefix(self.tr("conf ≥ "))
        for combo in (self.kind_filter, self.ns_filter, self.source_filter):
            combo.currentIndexChanged.connect(lambda _i: self._filter_timer.start())
        self.min_conf.valueChanged.connect(lambda _v: self._filter_timer.start())
        bar = QHBoxLayout()
        bar.addWidget(self.search, 3)
        for w in (self.kind_filter, self.ns_filter, self.source_filter, self.min_conf):
            bar.addWidget(w, 1)

        self.table = QTableView()
        self.table.setObjectName("pendingTable")
        self.table.setAccessibleName(self.tr("Pending candidates"))
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setSortingEnabled(True)
        self.table.horizontalHeader().setSortIndicator(6, Qt.SortOrder.AscendingOrder)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(28)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setStretchLastSection(False)
        header.setMinimumSectionSize(40)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self._fit_columns()
        self.table.installEventFilter(self)

        self.detail = DetailPane()
        self.detail.editor.installEventFilter(self)
        self.approve_btn = self._button("approve", self.tr("&Approve"), "A", self.approve)
        self.reject_btn = self._button("reject", self.tr("&Reject"), "X", self.reject)
        self.skip_btn = self._button("skip", self.tr("&Skip"), "Space", self.skip)
        self.jump_btn = self._button("jump", self.tr("&Jump to turn"), "Enter", self.jump)
        self.undo_btn = self._button("undo", self.tr("&Undo"), "Ctrl+Z", self.undo)
        for compact in (self.skip_btn, self.undo_btn):
            compact.setText("")  # icon only; the name and key are in the tooltip and hint line
            compact.setFixedWidth(38)
        self.approve_btn.setObjectName("approveButton")
        self.reject_btn.setObjectName("rejectButton")
        buttons = QHBoxLayout()
        for b in (self.approve_btn, self.reject_btn, self.skip_btn, self.jump_btn, self.undo_btn):
            buttons.addWidget(b)
        right = QWidget()
        right.setMinimumWidth(360)
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addWidget(self.detail, 1)
        right_layout.addLayout(buttons)

        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.table)
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setSizes([848, 432])
        self.splitter.setChildrenCollapsible(False)
        self.hint = QLabel(self.tr("A approve · X reject · E edit · Enter jump to turn · Space skip · "
                                   "Ctrl+Z undo · / filter · ? all shortcuts"))
        self.hint.setObjectName("hint")
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(self.splitter, 1)
        layout.addWidget(self.hint)

    def _fit_columns(self) -> None:
        """Column widths from the (translated) labels they show, not from 100,000 rows."""
        metrics = self.table.fontMetrics()
        header = self.table.horizontalHeader()
        bold = header.fontMetrics()

        def fit(col: int, samples: list[str], cap: int = 220) -> None:
            title = str(self.model.headerData(col, Qt.Orientation.Horizontal))
            width = max([metrics.horizontalAdvance(t) for t in samples] + [bold.horizontalAdvance(title) + 6])
            header.resizeSection(col, min(cap, width + 18))

        fit(1, [kind_label(k) for k in KINDS])
        fit(2, ["    project-x"], 120)
        fit(3, [source_label(s) for s in SOURCES], 92)
        fit(4, ["0.00"])
        fit(5, ["×99"])
        fit(6, ["23 min"])
        fit(7, [flags_label(f) for f in FLAGS], 100)

    def _button(self, icon_name: str, text: str, key: str, slot: Any) -> QPushButton:
        button = QPushButton(icon(icon_name), text)
        button.setAccessibleName(text.replace("&", ""))
        button.setToolTip(f"{text.replace('&', '')} ({key})")
        button.clicked.connect(slot)
        return button

    # -- filter --------------------------------------------------------------------------

    def _apply_filter(self) -> None:
        self.model.set_filter(
            QueueFilter(
                kind=self.kind_filter.currentData(), namespace=self.ns_filter.currentData(),
                source=self.source_filter.currentData(), min_confidence=self.min_conf.value(),
                text=self.search.text(), sort=self.model.filter.sort, descending=self.model.filter.descending,
            )
        )

    def _load_namespaces(self) -> None:
        query_op(self.worker, lambda ctx: ctx.queue.namespaces(), self._namespaces_arrived)

    def _namespaces_arrived(self, namespaces: list[str]) -> None:
        current = self.ns_filter.currentData()
        self.ns_filter.blockSignals(True)
        while self.ns_filter.count() > 1:
            self.ns_filter.removeItem(1)
        for ns in namespaces:
            self.ns_filter.addItem(namespace_label(ns), ns)
        index = self.ns_filter.findData(current)
        self.ns_filter.setCurrentIndex(max(0, index))
        self.ns_filter.blockSignals(False)
        self.detail.set_namespaces(namespaces)

    # -- selection and detail ------------------------------------------------------------

    def current_id(self) -> int | None:
        index = self.table.currentIndex()
        return self.model.id_at(index.row()) if index.isValid() else None

    def selected_ids(self) -> list[int]:
        rows = sorted({i.row() for i in self.table.selectionModel().selectedRows()})
        ids = [self.model.id_at(r) for r in rows]
        return [i for i in ids if i is not None]

    def select_row(self, row: int) -> None:
        if self.model.rowCount() == 0:
            self.detail.clear()
            return
        row = max(0, min(row, self.model.rowCount() - 1))
        index = self.model.index(row, 0)
        flags = (QItemSelectionModel.SelectionFlag.ClearAndSelect
                 | QItemSelectionModel.SelectionFlag.Rows)
        self.table.selectionModel().setCurrentIndex(index, flags)
        self.table.scrollTo(index)

    def _ids_loaded(self) -> None:
        if self._select_after_load is not None:
            row = self.model.row_of(self._select_after_load)
            self._select_after_load = None
            if row >= 0:
                self.select_row(row)
                return
        if not self.table.currentIndex().isValid() and self.model.rowCount():
            self.select_row(0)
        elif self.model.rowCount() == 0:
            self.detail.clear()

    def _current_changed(self, current: Any, _previous: Any) -> None:
        cid = self.model.id_at(current.row()) if current.isValid() else None
        if cid is None:
            self.detail.clear()
            return
        if cid != self.detail.candidate_id:
            self._load_detail(cid, keep_edits=False)

    def _load_detail(self, cid: int, keep_edits: bool) -> None:
        self._detail_token += 1
        token = self._detail_token
        query_op(
            self.worker, lambda ctx: ctx.queue.detail(cid),
            lambda detail: self._detail_arrived(token, detail, keep_edits),
            lambda _msg: None,
        )

    def _detail_arrived(self, token: int, detail: dict[str, Any], keep_edits: bool) -> None:
        if token != self._detail_token:
            return
        if self.current_id() != detail["candidate"]["id"]:
            return
        self.detail.show_detail(detail, keep_edits=keep_edits)

    def _data_changed(self, origin: str) -> None:
        if origin == "queue":
            return  # our own decision: the row is already out of the model
        self.model.refresh()
        self._load_namespaces()
        cid = self.current_id()
        if cid is not None:
            self._load_detail(cid, keep_edits=True)

    # -- decisions -----------------------------------------------------------------------

    def _targets(self) -> tuple[list[int], int]:
        ids = self.selected_ids()
        cid = self.current_id()
        if len(ids) <= 1:
            ids = [cid] if cid is not None else []
        row = min((self.model.row_of(i) for i in ids), default=-1)
        return ids, row

    def approve(self) -> None:
        ids, row = self._targets()
        if not ids:
            return
        if len(ids) == 1:
            cid = ids[0]
            edits = self.detail.edits() if self.detail.candidate_id == cid else {}
            if "content" in edits and not edits["content"].strip():
                self.status.emit(self.tr("The text is empty: write the memory or press X to reject."))
                return
            def fn(ctx):
                return (ctx.svc.review.approve(cid, **edits))
            message = self.tr("Approved #%1. Ctrl+Z undoes.").replace("%1", str(cid))
        else:
            def fn(ctx):
                return (ctx.svc.review.approve_many(ids))
            message = self.tr("Approved %1 candidates. Ctrl+Z undoes.").replace("%1", str(len(ids)))
        self._decide(ids, row, fn, message)

    def reject(self) -> None:
        ids, row = self._targets()
        if not ids:
            return
        if len(ids) == 1:
            cid = ids[0]
            def fn(ctx):
                return (ctx.svc.review.reject(cid))
            message = self.tr("Rejected #%1. Ctrl+Z undoes.").replace("%1", str(cid))
        else:
            def fn(ctx):
                return (ctx.svc.review.reject_many(ids))
            message = self.tr("Rejected %1 candidates. Ctrl+Z undoes.").replace("%1", str(len(ids)))
        self._decide(ids, row, fn, message)

    def _decide(self, ids: list[int], row: int, fn: Any, message: str) -> None:
        self.detail.candidate_id = None  # keep the widgets (no flicker); edits no longer apply
        self.model.remove_ids(ids)
        self.select_row(row)
        self.table.setFocus()

        def done(_result: Any) -> None:
            self.model.unhide(ids)
            self.status.emit(message)
            for cid in ids:
                self.decided.emit(cid)

        def failed(msg: str) -> None:
            self.model.unhide(ids)
            self._select_after_load = ids[0]
            self.status.emit(msg)
            self.worker.error.emit(msg)
            self.model.refresh()

        def stored(result: Any) -> None:
            done(result)
            self.worker.data_changed.emit("queue")  # the other views refresh; this one need not

        query_op(self.worker, fn, stored, failed)

    def skip(self) -> None:
        self.move(1)

    def move(self, step: int) -> None:
        index = self.table.currentIndex()
        self.select_row((index.row() if index.isValid() else -1) + step)

    def edit(self) -> None:
        if self.detail.candidate_id is None:
            return
        self.detail.editor.setFocus()
        cursor = self.detail.editor.textCursor()
        cursor.movePosition(cursor.MoveOperation.End)
        self.detail.editor.setTextCursor(cursor)

    def jump(self) -> None:
        turn = self.detail.first_turn()
        if turn:
            self.jump_requested.emit(turn)
        elif self.detail.candidate_id is not None:
            self.status.emit(self.tr("This candidate has no originating turn (typed by hand or remembered without one)."))

    def undo(self) -> None:
        def done(rows: list[dict[str, Any]]) -> None:
            restored = [int(r["entity_id"]) for r in rows if r["entity"] == "candidate"]
            if restored:
                self._select_after_load = restored[0]
            self.status.emit(self.tr("Undone: %1 change(s).").replace("%1", str(len(rows))))

        collection_op(self.worker, lambda ctx: ctx.svc.review.undo(), done, self.status.emit)

    def focus_filter(self) -> None:
        self.search.setFocus()
        self.search.selectAll()

    # -- keys ----------------------------------------------------------------------------

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if event.type() != QEvent.Type.KeyPress:
            return False
        key_event: QKeyEvent = event  # type: ignore[assignment]
        if obj is self.table:
            return self._table_key(key_event)
        if obj is self.detail.editor:
            return self._editor_key(key_event)
        if obj is self.search and key_event.key() in (Qt.Key.Key_Escape, Qt.Key.Key_Down, Qt.Key.Key_Return):
            self.table.setFocus()
            if not self.table.currentIndex().isValid():
                self.select_row(0)
            return True
        return False

    def _table_key(self, event: QKeyEvent) -> bool:
        mods = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        key = event.key()
        plain = mods == Qt.KeyboardModifier.NoModifier
        shift = mods == Qt.KeyboardModifier.ShiftModifier
        if key == Qt.Key.Key_Z and mods == Qt.KeyboardModifier.ControlModifier:
            self.undo()  # normally the window's shortcut takes it first
            return True
        actions = {
            Qt.Key.Key_A: self.approve, Qt.Key.Key_X: self.reject, Qt.Key.Key_E: self.edit,
            Qt.Key.Key_Space: self.skip, Qt.Key.Key_Slash: self.focus_filter,
            Qt.Key.Key_K: lambda: self.move(-1), Qt.Key.Key_Return: self.jump, Qt.Key.Key_Enter: self.jump,
            Qt.Key.Key_Delete: self.reject,
        }
        if key == Qt.Key.Key_J and (plain or shift):
            (self.jump if shift else lambda: self.move(1))()
            return True
        if key == Qt.Key.Key_Question or (key == Qt.Key.Key_Slash and shift):
            self.help_requested.emit()
            return True
        if key in actions and (plain or (shift and key in (Qt.Key.Key_A, Qt.Key.Key_X, Qt.Key.Key_E))):
            actions[key]()
            return True
        return False

    def _editor_key(self, event: QKeyEvent) -> bool:
        ctrl = bool(event.modifiers() & Qt.KeyboardModifier.ControlModifier)
        if event.key() == Qt.Key.Key_Escape:
            self.table.setFocus()
            return True
        if ctrl and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.approve()
            return True
        return False

    @property
    def ready(self) -> bool:
        """Ids, the first page of rows and the current detail are loaded (screenshots, tests)."""
        if not self.model.loaded:
            return False
        if self.model.rowCount() == 0:
            return True
        cid = self.current_id()
        return cid is not None and self.model.cached(cid) is not None and self.detail.candidate_id == cid
