"""The Approved tab: memories grouped by namespace, with edit, delete, pin and jump.

Keys on the tree: E edit, Ctrl+S save, P pin/unpin, Delete delete (Ctrl+Z brings it
back), J or Enter jump to the originating turn, / filter.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QItemSelectionModel, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent, QStandardItem, QStandardItemModel
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
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from madohub_memory.core.text import first_line
from madohub_memory.core.vocab import KINDS
from madohub_memory.gui.i18n import age_label, icon, kind_label, namespace_label
from madohub_memory.gui.worker import DbWorker, collection_op, query_op

MEMORY_ROLE = Qt.ItemDataRole.UserRole + 10


class ApprovedTab(QWidget):
    jump_requested = Signal(str)
    status = Signal(str)

    def __init__(self, worker: DbWorker, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.worker = worker
        self.memories: dict[int, dict[str, Any]] = {}
        self.loaded = False
        self._collapsed: set[str] = set()
        self._dirty = False
        self._build()
        self._filter_timer = QTimer(self)
        self._filter_timer.setSingleShot(True)
        self._filter_timer.setInterval(200)
        self._filter_timer.timeout.connect(self.refresh)
        self.search.textChanged.connect(lambda _t: self._filter_timer.start())
        worker.data_changed.connect(self._on_data_changed)
        self._dirty = True  # loaded when first shown: the queue gets the worker first

    def _build(self) -> None:
        self.search = QLineEdit()
        self.search.setPlaceholderText(self.tr("Filter memories (press /)"))
        self.search.setAccessibleName(self.tr("Filter memories"))
        self.search.setClearButtonEnabled(True)
        self.search.addAction(icon("search"), QLineEdit.ActionPosition.LeadingPosition)
        self.model = QStandardItemModel(self)
        self.model.setHorizontalHeaderLabels(
            [self.tr("Memory"), self.tr("Kind"), self.tr("Pinned"), self.tr("Hits"), self.tr("Last hit")]
        )
        self.tree = QTreeView()
        self.tree.setObjectName("approvedTree")
        self.tree.setAccessibleName(self.tr("Approved memories by namespace"))
        self.tree.setModel(self.model)
        self.tree.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        # F2 or double-click edits a one-line memory in place; longer ones in the pane
        self.tree.setEditTriggers(QAbstractItemView.EditTrigger.EditKeyPressed
                                  | QAbstractItemView.EditTrigger.DoubleClicked)
        self.model.itemChanged.connect(self._edited_in_place)
        self.tree.setAlternatingRowColors(True)
        self.tree.setUniformRowHeights(True)
        header = self.tree.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setStretchLastSection(False)
        for col, width in ((1, 104), (2, 68), (3, 52), (4, 72)):
            header.resizeSection(col, width)
        self.tree.installEventFilter(self)
        self.tree.selectionModel().currentChanged.connect(self._current_changed)
        self.tree.collapsed.connect(lambda i: self._collapsed.add(i.data(MEMORY_ROLE + 1) or ""))
        self.tree.expanded.connect(lambda i: self._collapsed.discard(i.data(MEMORY_ROLE + 1) or ""))

        self.title = QLabel(self.tr("Select a memory"))
        self.title.setObjectName("detailTitle")
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
        self.info.setObjectName("facts")
        self.save_btn = self._button("approve", self.tr("&Save  Ctrl+S"), self.save)
        self.pin_btn = self._button("pin", self.tr("&Pin  P"), self.toggle_pin)
        self.delete_btn = self._button("delete", self.tr("&Delete  Del"), self.delete)
        self.jump_btn = self._button("jump", self.tr("&Jump to turn  Enter"), self.jump)
        buttons = QHBoxLayout()
        for b in (self.save_btn, self.pin_btn, self.delete_btn, self.jump_btn):
            buttons.addWidget(b)
        right = QWidget()
        rl = QVBoxLayout(right)
        rl.addWidget(self.title)
        rl.addWidget(self.editor)
        kind_row = QHBoxLayout()
        kind_label_widget = QLabel(self.tr("&Kind"))
        kind_label_widget.setBuddy(self.kind)
        kind_row.addWidget(kind_label_widget)
        kind_row.addWidget(self.kind, 1)
        rl.addLayout(kind_row)
        rl.addWidget(self.info)
        rl.addLayout(buttons)
        rl.addStretch(1)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.tree)
        splitter.addWidget(right)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setChildrenCollapsible(False)
        splitter.setSizes([780, 480])
        layout = QVBoxLayout(self)
        layout.addWidget(self.search)
        layout.addWidget(splitter, 1)
        self._set_enabled(False)

    def _button(self, icon_name: str, text: str, slot: Any) -> QPushButton:
        button = QPushButton(icon(icon_name), text)
        button.setAccessibleName(text.replace("&", "").split("  ")[0])
        button.clicked.connect(slot)
        return button

    def _set_enabled(self, on: bool) -> None:
        for w in (self.editor, self.kind, self.save_btn, self.pin_btn, self.delete_btn, self.jump_btn):
            w.setEnabled(on)

    # -- loading -------------------------------------------------------------------------

    def _on_data_changed(self, _origin: str) -> None:
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
        text = self.search.text()
        query_op(self.worker, lambda ctx: ctx.queue.memories(text), self._arrived)

    def _arrived(self, rows: list[dict[str, Any]]) -> None:
        current = self.current_id()
        scroll = self.tree.verticalScrollBar().value()
        self.memories = {r["id"]: r for r in rows}
        self.model.removeRows(0, self.model.rowCount())  # items are complete before they are added
        groups: dict[str, list[dict[str, Any]]] = {}
        for r in rows:
            groups.setdefault(r["namespace"], []).append(r)
        for ns, items in groups.items():
            parent = QStandardItem(f"{namespace_label(ns)}  ({len(items)})")
            parent.setData(ns, MEMORY_ROLE + 1)
            font = parent.font()
            font.setBold(True)
            parent.setFont(font)
            parent.setEditable(False)
            filler = [QStandardItem("") for _ in range(4)]
            for f in filler:
                f.setEditable(False)
            for r in items:
                cells = [
                    QStandardItem(first_line(r["content"], 200)),
                    QStandardItem(kind_label(r["kind"])),
                    QStandardItem(icon("pin"), "") if r["pinned"] else QStandardItem(""),
                    QStandardItem(str(r["hit_count"])),
                    QStandardItem(age_label(r["last_hit_at"])),
                ]
                cells[0].setToolTip(r["content"])
                for c in cells:
                    c.setData(r["id"], MEMORY_ROLE)
                    c.setEditable(False)
                one_line = "\n" not in r["content"] and len(r["content"]) <= 200
                cells[0].setEditable(one_line)
                parent.appendRow(cells)
            self.model.appendRow([parent, *filler])
        for row in range(self.model.rowCount()):
            item = self.model.item(row, 0)
            if item.data(MEMORY_ROLE + 1) not in self._collapsed:
                self.tree.expand(item.index())
        self.loaded = True
        if current is not None and current in self.memories:
            self.select_memory(current)
        elif self.model.rowCount() and not self.tree.currentIndex().isValid():
            first = self.model.item(0, 0)
            if first is not None and first.rowCount():
                self.tree.setCurrentIndex(first.child(0, 0).index())
        self.tree.verticalScrollBar().setValue(scroll)

    def select_memory(self, memory_id: int) -> None:
        for row in range(self.model.rowCount()):
            parent = self.model.item(row, 0)
            for child in range(parent.rowCount()):
                item = parent.child(child, 0)
                if item.data(MEMORY_ROLE) == memory_id:
                    self.tree.selectionModel().setCurrentIndex(
                        item.index(),
                        QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows,
                    )
                    return

    def current_id(self) -> int | None:
        index = self.tree.currentIndex()
        value = index.data(MEMORY_ROLE) if index.isValid() else None
        return int(value) if value is not None else None

    def _current_changed(self, *_args: Any) -> None:
        mid = self.current_id()
        row = self.memories.get(mid) if mid is not None else None
        if row is None:
            self.title.setText(self.tr("Select a memory"))
            self.editor.setPlainText("")
            self.info.setText("")
            self._set_enabled(False)
            return
        self._set_enabled(True)
        self.title.setText(self.tr("Memory #%1").replace("%1", str(row["id"])))
        self.editor.setPlainText(row["content"])
        self.kind.setCurrentIndex(max(0, self.kind.findData(row["kind"])))
        self.pin_btn.setText(self.tr("Un&pin  P") if row["pinned"] else self.tr("&Pin  P"))
        self.info.setText(
            self.tr("%1 · hits %2 · last hit %3 · created %4 ago")
            .replace("%1", namespace_label(row["namespace"]))
            .replace("%2", str(row["hit_count"]))
            .replace("%3", age_label(row["last_hit_at"]))
            .replace("%4", age_label(row["created_at"]))
        )
        self.jump_btn.setEnabled(bool(row["first_turn"]))

    # -- actions -------------------------------------------------------------------------

    def save(self) -> None:
        mid = self.current_id()
        if mid is None:
            return
        row = self.memories[mid]
        content = self.editor.toPlainText()
        kind = self.kind.currentData()
        changes: dict[str, Any] = {}
        if content != row["content"]:
            changes["content"] = content
        if kind != row["kind"]:
            changes["kind"] = kind
        if not changes:
            self.status.emit(self.tr("Nothing changed."))
            return
        collection_op(
            self.worker, lambda ctx: ctx.svc.memories.edit(mid, **changes),
            lambda _r: self.status.emit(self.tr("Saved memory #%1.").replace("%1", str(mid))),
            self.worker.error.emit,
        )

    def _edited_in_place(self, item: QStandardItem) -> None:
        mid = item.data(MEMORY_ROLE)
        if mid is None or item.column() != 0 or mid not in self.memories:
            return
        text = item.text()
        if text == self.memories[mid]["content"]:
            return
        collection_op(
            self.worker, lambda ctx: ctx.svc.memories.edit(mid, content=text),
            lambda _r: self.status.emit(self.tr("Saved memory #%1.").replace("%1", str(mid))),
            lambda msg: (self.worker.error.emit(msg), self.refresh()),
        )

    def toggle_pin(self) -> None:
        mid = self.current_id()
        if mid is None:
            return
        pinned = not self.memories[mid]["pinned"]
        collection_op(self.worker, lambda ctx: ctx.svc.memories.pin(mid, pinned), None, self.worker.error.emit)

    def delete(self) -> None:
        mid = self.current_id()
        if mid is None:
            return
        collection_op(
            self.worker, lambda ctx: ctx.svc.memories.delete(mid),
            lambda _r: self.status.emit(self.tr("Deleted memory #%1. Ctrl+Z brings it back.").replace("%1", str(mid))),
            self.worker.error.emit,
        )

    def edit(self) -> None:
        self.editor.setFocus()
        cursor = self.editor.textCursor()
        cursor.movePosition(cursor.MoveOperation.End)
        self.editor.setTextCursor(cursor)

    def jump(self) -> None:
        mid = self.current_id()
        turn = self.memories.get(mid, {}).get("first_turn") if mid is not None else None
        if turn:
            self.jump_requested.emit(turn)
        elif mid is not None:
            self.status.emit(self.tr("This memory has no originating turn (it was entered by hand)."))

    def undo(self) -> None:
        collection_op(
            self.worker, lambda ctx: ctx.svc.memories.undo(),
            lambda rows: self.status.emit(self.tr("Undone: %1 change(s).").replace("%1", str(len(rows)))),
            self.status.emit,
        )

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if event.type() != QEvent.Type.KeyPress:
            return False
        key_event: QKeyEvent = event  # type: ignore[assignment]
        key, mods = key_event.key(), key_event.modifiers()
        ctrl = bool(mods & Qt.KeyboardModifier.ControlModifier)
        if ctrl and key == Qt.Key.Key_S:
            self.save()
            return True
        if ctrl and key == Qt.Key.Key_Z and obj is self.tree:
            self.undo()
            return True
        if obj is self.editor:
            if key == Qt.Key.Key_Escape:
                self.tree.setFocus()
                return True
            return False
        if ctrl or mods & Qt.KeyboardModifier.AltModifier:
            return False
        actions = {
            Qt.Key.Key_E: self.edit, Qt.Key.Key_P: self.toggle_pin,
            Qt.Key.Key_Delete: self.delete, Qt.Key.Key_J: self.jump, Qt.Key.Key_Return: self.jump,
            Qt.Key.Key_Enter: self.jump, Qt.Key.Key_Slash: lambda: self.search.setFocus(),
        }
        if (key in actions and self.current_id() is not None) or key == Qt.Key.Key_Slash:
            actions[key]()
            return True
        return False
