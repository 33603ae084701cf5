"""The Pending tab: filter bar, lazy queue table, detail pane, keyboard-first triage.

The keys and the decisions are in :mod:`madohub_memory.gui.triage`. This module lays the tab
out and keeps the pane bound to the current row: synchronously from the table's row, then
enriched with provenance (database worker) and the nearest memory (its own thread). An edit
left behind when the selection moves stays on its candidate as a draft, as Anki keeps an
edit on row change.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, QItemSelectionModel, QObject, Qt, QTimer, Signal
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

from madohub_memory.core.vocab import KINDS, SOURCES
from madohub_memory.gui.detail_pane import LOOKING, DetailPane
from madohub_memory.gui.i18n import icon, kind_label, namespace_label, source_label
from madohub_memory.gui.nearest_lane import NearestLane
from madohub_memory.gui.pending_model import COLUMNS, PendingModel
from madohub_memory.gui.triage import TriageMixin
from madohub_memory.gui.wheel_guard import guard_wheel
from madohub_memory.gui.worker import DbWorker, query_op
from madohub_memory.services.changes import OpChanges
from madohub_memory.services.queue import QueueFilter

NEAREST_AHEAD = 4  # rows after the shown one whose nearest memory is computed in advance


class QueueTable(QTableView):
    """The queue: no type-ahead search, so a stray letter never moves the selection."""

    def keyboardSearch(self, search: str) -> None:
        return


class PendingTab(TriageMixin, QWidget):
    """The review queue; emits ``count_changed`` for the tab title."""

    count_changed = Signal(int)
    jump_requested = Signal(str)
    status = Signal(str)
    help_requested = Signal()
    undo_requested = Signal()
    decided = Signal(int)  # candidate id whose decision is stored
    decision_failed = Signal(str)

    def __init__(self, worker: DbWorker, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.worker = worker
        self.model = PendingModel(worker, self)
        self.lane = NearestLane(worker.db_path, worker.clock, self)
        self.drafts: dict[int, dict[str, Any]] = {}
        self._intents = []
        self._jump_for: int | None = None
        self.detail_load_ms: dict[int, float] = {}  # provenance query cost per candidate (benchmarks)
        self._build()
        self.model.count_changed.connect(self._counts_changed)
        self.model.ids_loaded.connect(self._ids_loaded)
        self.model.rows_loaded.connect(self._rows_loaded)
        self.model.rowsRemoved.connect(lambda *_a: self._update_empty_state())
        self.model.rowsInserted.connect(lambda *_a: self._update_empty_state())
        self.table.selectionModel().currentRowChanged.connect(self._current_changed)
        self.table.selectionModel().selectionChanged.connect(lambda *_a: self._update_buttons())
        self.detail.jump_requested.connect(self.jump_requested)
        self.detail.draft_discarded.connect(self._draft_discarded)
        self.lane.ready.connect(self._nearest_ready)
        self._filter_timer = QTimer(self)
        self._filter_timer.setSingleShot(True)
        self._filter_timer.setInterval(200)
        self._filter_timer.timeout.connect(self._apply_filter)
        self.worker.operation_did_execute.connect(self._operation_did_execute)
        self.model.refresh(reset=True)
        self._load_namespaces()
        query_op(self.worker, _mapped_queues, self._mapped_queues_arrived)

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
        self.filter_count = QLabel()
        self.filter_count.setObjectName("filterCount")
        bar = QHBoxLayout()
        bar.addWidget(self.search, 3)
        for w in (self.kind_filter, self.ns_filter, self.source_filter, self.min_conf):
            bar.addWidget(w, 1)
        bar.addWidget(self.filter_count)

        self.table = QueueTable()
        self.table.setObjectName("pendingTable")
        self.table.setAccessibleName(self.tr("Pending candidates"))
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.table.setSortingEnabled(True)
        self.table.horizontalHeader().setSortIndicator(COLUMNS.index("created_at"), Qt.SortOrder.AscendingOrder)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(28)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(COLUMNS.index("content"), QHeaderView.ResizeMode.Stretch)
        header.setStretchLastSection(False)
        header.setMinimumSectionSize(28)
        header.setSectionResizeMode(COLUMNS.index("flags"), QHeaderView.ResizeMode.Fixed)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self._fit_columns()
        self.table.installEventFilter(self)
        self.empty = QLabel(self.table.viewport())
        self.empty.setObjectName("emptyState")
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        self.empty.hide()

        self.detail = DetailPane()
        self.detail.editor.installEventFilter(self)
        self.detail.namespace.lineEdit().installEventFilter(self)  # type: ignore[union-attr]  # editable: it has one
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
        decide = QHBoxLayout()  # a row of their own: room for "Approve 3 selected"
        decide.addWidget(self.approve_btn, 1)
        decide.addWidget(self.reject_btn, 1)
        others = QHBoxLayout()
        others.addWidget(self.skip_btn)
        others.addWidget(self.jump_btn, 1)
        others.addWidget(self.undo_btn)
        right = QWidget()
        right.setMinimumWidth(360)
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addWidget(self.detail, 1)
        right_layout.addLayout(decide)
        right_layout.addLayout(others)

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
        self.elsewhere = QLabel()  # namespaces whose queue is in another store (stores.map)
        self.elsewhere.setObjectName("hint")
        self.elsewhere.setWordWrap(True)
        self.elsewhere.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.elsewhere.hide()
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(self.elsewhere)
        layout.addWidget(self.splitter, 1)
        layout.addWidget(self.hint)
        guard_wheel(self)

    def _fit_columns(self) -> None:
        """Column widths from the (translated) labels they show, not from 100,000 rows."""
        metrics = self.table.fontMetrics()
        header = self.table.horizontalHeader()
        bold = header.fontMetrics()

        def fit(key: str, samples: list[str], cap: int = 220) -> None:
            col = COLUMNS.index(key)
            title = str(self.model.headerData(col, Qt.Orientation.Horizontal) or "")
            width = max([metrics.horizontalAdvance(t) for t in samples] + [bold.horizontalAdvance(title) + 6])
            header.resizeSection(col, min(cap, width + 28))

        header.resizeSection(COLUMNS.index("flags"), 30)
        fit("kind", [kind_label(k) for k in KINDS])
        fit("namespace", ["    project-x"], 120)
        fit("source", [source_label(s) for s in SOURCES], 130)
        fit("confidence", ["0.00"])
        fit("seen_count", ["×99"])
        fit("created_at", ["23 min", "59 " + QCoreApplication.translate("Vocab", "min"),
                           QCoreApplication.translate("Vocab", "just now")])

    def _button(self, icon_name: str, text: str, key: str, slot: Any) -> QPushButton:
        button = QPushButton(icon(icon_name), text)
        button.setAccessibleName(text.replace("&", ""))
        button.setToolTip(f"{text.replace('&', '')} ({key})")
        button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # a click decides; the keys stay on the table
        button.clicked.connect(slot)
        return button

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        self._place_empty_state()

    def _place_empty_state(self) -> None:
        viewport = self.table.viewport()
        self.empty.setGeometry(24, 24, max(0, viewport.width() - 48), max(0, viewport.height() - 48))

    # -- filter, counts and empty state --------------------------------------------------

    def _apply_filter(self) -> None:
        self.model.set_filter(
            QueueFilter(
                kind=self.kind_filter.currentData(), namespace=self.ns_filter.currentData(),
                source=self.source_filter.currentData(), min_confidence=self.min_conf.value(),
                text=self.search.text(), sort=self.model.filter.sort, descending=self.model.filter.descending,
            )
        )

    def filter_active(self) -> bool:
        f = self.model.filter
        return bool(f.kind or f.namespace or f.source or f.min_confidence > 0 or f.text.strip())

    def _counts_changed(self, total: int) -> None:
        self.count_changed.emit(total)
        self._update_empty_state()

    def _update_empty_state(self) -> None:
        shown, total = self.model.rowCount(), self.model.total
        active = self.filter_active()
        self.filter_count.setText(self.tr("%1 of %2 shown").replace("%1", f"{shown:,}").replace("%2", f"{total:,}")
                                  if active else "")
        if shown or not self.model.loaded:
            self.empty.hide()
            return
        if active:
            self.empty.setText(self.tr("No candidates match the filter — 0 of %1 shown.").replace("%1", f"{total:,}"))
        else:
            self.empty.setText(self.tr("Nothing waits for your review. New candidates appear here as agents "
                                       "propose them."))
        self._place_empty_state()
        self.empty.show()

    def _update_buttons(self) -> None:
        count = len(self.table.selectionModel().selectedRows())
        if count > 1:
            self.approve_btn.setText(self.tr("&Approve %1 selected").replace("%1", str(count)))
            self.reject_btn.setText(self.tr("&Reject %1 selected").replace("%1", str(count)))
        else:
            self.approve_btn.setText(self.tr("&Approve"))
            self.reject_btn.setText(self.tr("&Reject"))

    def _mapped_queues_arrived(self, queues: list[tuple[str, str, list[str]]]) -> None:
        lines = [self.tr("Candidates of %1 are queued in the store %2; review them there: "
                         "madohub-memory gui --db %3").replace("%1", ", ".join(namespaces))
                 .replace("%2", label).replace("%3", shown)
                 for label, shown, namespaces in queues]
        self.elsewhere.setText("\n".join(lines))
        self.elsewhere.setVisible(bool(lines))

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

    # -- selection and the pane ----------------------------------------------------------

    def current_id(self) -> int | None:
        index = self.table.currentIndex()
        return self.model.id_at(index.row()) if index.isValid() else None

    def selected_ids(self) -> list[int]:
        rows = sorted({i.row() for i in self.table.selectionModel().selectedRows()})
        ids = [self.model.id_at(r) for r in rows]
        return [i for i in ids if i is not None]

    def select_row(self, row: int) -> None:
        if self.model.rowCount() == 0:
            self._keep_draft()
            self.detail.clear()
            return
        row = max(0, min(row, self.model.rowCount() - 1))
        index = self.model.index(row, COLUMNS.index("content"))
        flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        self.table.selectionModel().setCurrentIndex(index, flags)
        self.table.scrollTo(index)
        if self.detail.candidate_id != self.current_id():
            self._bind_current()

    def _ids_loaded(self) -> None:
        self._update_empty_state()
        if not self.table.currentIndex().isValid() and self.model.rowCount():
            self.select_row(0)
        elif self.model.rowCount() == 0:
            self._keep_draft()
            self.detail.clear()
        elif self.detail.candidate_id != self.current_id():
            self._bind_current()

    def _current_changed(self, current: Any, _previous: Any) -> None:
        cid = self.model.id_at(current.row()) if current.isValid() else None
        if cid != self.detail.candidate_id:
            self._bind_current()

    def _keep_draft(self) -> None:
        """The pane is leaving its candidate: an unsaved edit stays with it as a draft."""
        cid = self.detail.candidate_id
        if cid is None:
            return
        if self.detail.is_dirty():
            self.drafts[cid] = self.detail.current_values()
            self.model.drafts.add(cid)
        else:
            self.drafts.pop(cid, None)
            self.model.drafts.discard(cid)
        self.model.repaint_row(cid)

    def _bind_current(self) -> None:
        self._keep_draft()
        cid = self.current_id()
        if cid is None:
            self.detail.clear()
            return
        row = self.model.cached(cid)
        self.detail.bind(cid, row, self.drafts.get(cid))
        if row is None:
            current = self.table.currentIndex().row()
            self.model.ensure_rows(current, current)
        self._load_detail(cid)
        self._ask_nearest()

    def _detail_arrived(self, detail: dict[str, Any]) -> None:
        self.detail.enrich(detail)
        self.detail_load_ms[detail["candidate"]["id"]] = detail.get("load_ms", 0.0)
        cid = detail["candidate"]["id"]
        if self._jump_for == cid and self.detail.candidate_id == cid:
            self._jump_now(cid)

    def _rows_loaded(self) -> None:
        cid = self.detail.candidate_id
        if cid is None:
            return
        row = self.model.cached(cid)
        if self.detail.awaiting_row:
            if row is not None:
                self.detail.row_arrived(row)
                self._ask_nearest()
                self._run_intents()
            elif self.model.row_of(cid) < 0:
                self._drop_intents()
        elif row is not None and not self.detail.is_dirty():
            shown = self.detail._original
            if any(row[k] != shown.get(k) for k in ("content", "kind", "namespace")):
                self._rebind_keeping_cursor(cid, row)
        self._ask_nearest(ahead_only=True)

    def _rebind_keeping_cursor(self, cid: int, row: dict[str, Any]) -> None:
        """Another process changed the shown candidate and nothing is edited: show it anew."""
        editing = self.detail.editor.hasFocus()
        self.detail.bind(cid, row, self.drafts.get(cid))
        self._load_detail(cid)
        if editing:
            cursor = self.detail.editor.textCursor()
            cursor.movePosition(cursor.MoveOperation.End)
            self.detail.editor.setTextCursor(cursor)

    def _draft_discarded(self, cid: int) -> None:
        self.drafts.pop(cid, None)
        self.model.drafts.discard(cid)
        self.model.repaint_row(cid)

    # -- the nearest memory --------------------------------------------------------------

    def _ask_nearest(self, ahead_only: bool = False) -> None:
        index = self.table.currentIndex()
        if not index.isValid():
            return
        start = index.row()
        for offset in range(NEAREST_AHEAD + 1):
            if ahead_only and offset == 0:
                continue
            cid = self.model.id_at(start + offset)
            row = self.model.cached(cid) if cid is not None else None
            if cid is None or row is None:
                continue
            if offset == 0 and cid == self.detail.candidate_id:
                if self.lane.known(cid, row["content"]):
                    self.detail.show_nearest(cid, self.lane.result(cid, row["content"]))
                    continue
                self.detail.show_nearest(cid, LOOKING)
            self.lane.request(cid, row["content"], row["namespace"], urgent=offset == 0)

    def _nearest_ready(self, cid: int) -> None:
        if cid != self.detail.candidate_id:
            return
        row = self.model.cached(cid)
        if row is not None and self.lane.known(cid, row["content"]):
            self.detail.show_nearest(cid, self.lane.result(cid, row["content"]))

    @property
    def nearest_settled(self) -> bool:
        """The shown candidate's nearest-memory section has its answer (screenshots, benches)."""
        cid = self.detail.candidate_id
        return cid is None or self.detail.nearest_for == cid

    # -- changes made elsewhere ----------------------------------------------------------

    def _operation_did_execute(self, changes: OpChanges, initiator: object) -> None:
        if changes.memories:
            self.lane.invalidate()
            self._ask_nearest()
        if initiator is self or not (changes.candidates or changes.memories):
            return  # our own decision: the row is already where it belongs
        self.model.refresh()
        self._load_namespaces()
        cid = self.detail.candidate_id
        if cid is not None:
            self._load_detail(cid)

    # -- keys ----------------------------------------------------------------------------

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if event.type() != QEvent.Type.KeyPress:
            return False
        key_event: QKeyEvent = event  # type: ignore[assignment]
        if obj is self.table:
            return self._table_key(key_event)
        if obj is self.detail.editor:
            return self._editor_key(key_event)
        if obj is self.detail.namespace.lineEdit():
            return self._namespace_key(key_event)
        if obj is self.search and key_event.key() in (Qt.Key.Key_Escape, Qt.Key.Key_Down, Qt.Key.Key_Return):
            self.table.setFocus()
            if not self.table.currentIndex().isValid():
                self.select_row(0)
            return True
        return False

    @property
    def ready(self) -> bool:
        """Ids, the first page of rows and the current candidate's provenance are loaded."""
        if not self.model.loaded:
            return False
        if self.model.rowCount() == 0:
            return True
        cid = self.current_id()
        return (cid is not None and self.detail.candidate_id == cid and not self.detail.awaiting_row
                and self.detail.enriched)

    def shutdown(self) -> None:
        self.lane.stop()


def _mapped_queues(ctx: Any) -> list[tuple[str, str, list[str]]]:
    """Where the queues of mapped namespaces are (worker thread; nothing loaded without a map)."""
    if not ctx.svc.settings.get("stores.map"):
        return []
    from madohub_memory.services.stores import mapped_queues

    return mapped_queues(ctx.svc)
