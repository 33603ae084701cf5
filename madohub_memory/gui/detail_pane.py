"""The Pending tab's detail pane: editor, selectors, provenance and the nearest memory."""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QFrame,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from madohub_memory.core.vocab import KINDS
from madohub_memory.gui.i18n import (
    age_label,
    flag_label,
    kind_label,
    namespace_label,
    role_label,
    source_label,
)

TURN_ROLE = Qt.ItemDataRole.UserRole + 2


def diff_html(segments: list[Any]) -> str:
    """Word diff as rich text: removed words struck through in red, added ones in green."""
    parts = []
    for op, text in segments:
        escaped = html.escape(text)
        if op == "-":
            parts.append(f"<span style='color:#b3261e;text-decoration:line-through'>{escaped}</span>")
        elif op == "+":
            parts.append(f"<span style='color:#1b6e3a;background:#e3f4e8'>{escaped}</span>")
        else:
            parts.append(escaped)
    return "".join(parts)


class DetailPane(QWidget):
    """Shows one candidate; ``edits()`` returns what the person changed in it."""

    jump_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("detailPane")
        self.candidate_id: int | None = None
        self._original: dict[str, Any] = {}
        self._turn_ids: list[str] = []

        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 8, 8, 8)
        self.title = QLabel(self.tr("No candidate selected"))
        self.title.setObjectName("detailTitle")
        self.title.setWordWrap(True)
        self.banner = QLabel()
        self.banner.setObjectName("flagBanner")
        self.banner.setWordWrap(True)
        self.banner.hide()
        self.editor = QPlainTextEdit()
        self.editor.setObjectName("candidateEditor")
        self.editor.setAccessibleName(self.tr("Candidate text"))
        self.editor.setPlaceholderText(self.tr("The memory, as one standalone statement"))
        self.editor.setTabChangesFocus(True)
        self.editor.setMinimumHeight(90)

        form = QFormLayout()
        form.setLabelAlignment(Qt.AlignmentFlag.AlignRight)
        self.kind = QComboBox()
        self.kind.setAccessibleName(self.tr("Kind"))
        for kind in KINDS:
            self.kind.addItem(kind_label(kind), kind)
        self.namespace = QComboBox()
        self.namespace.setEditable(True)
        self.namespace.setAccessibleName(self.tr("Namespace"))
        self.namespace.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.namespace.lineEdit().setAccessibleName(self.tr("Namespace"))
        kind_label_widget = QLabel(self.tr("&Kind"))
        kind_label_widget.setBuddy(self.kind)
        ns_label_widget = QLabel(self.tr("&Namespace"))
        ns_label_widget.setBuddy(self.namespace)
        form.addRow(kind_label_widget, self.kind)
        form.addRow(ns_label_widget, self.namespace)
        self.facts = QLabel()
        self.facts.setObjectName("facts")
        self.facts.setWordWrap(True)
        form.addRow(QLabel(self.tr("Origin")), self.facts)

        self.turns = QListWidget()
        self.turns.setObjectName("turnList")
        self.turns.setAccessibleName(self.tr("Originating turns"))
        self.turns.setMaximumHeight(110)
        self.turns.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.turns.itemActivated.connect(self._turn_activated)

        self.nearest_title = QLabel(self.tr("Nearest approved memory"))
        self.nearest_title.setObjectName("sectionTitle")
        self.nearest = QLabel()
        self.nearest.setObjectName("nearest")
        self.nearest.setWordWrap(True)
        self.nearest.setTextFormat(Qt.TextFormat.RichText)
        self.nearest.setFrameShape(QFrame.Shape.StyledPanel)

        turns_title = QLabel(self.tr("Times seen and originating turns"))
        turns_title.setObjectName("sectionTitle")
        layout.addWidget(self.title)
        layout.addWidget(self.banner)
        layout.addWidget(self.editor, 3)
        layout.addLayout(form)
        layout.addWidget(turns_title)
        layout.addWidget(self.turns, 1)
        layout.addWidget(self.nearest_title)
        layout.addWidget(self.nearest)
        layout.addStretch(0)
        self.set_namespaces([])
        self.clear()

    # -- content -------------------------------------------------------------------------

    def set_namespaces(self, namespaces: list[str]) -> None:
        current = self.namespace.currentText()
        self.namespace.blockSignals(True)
        self.namespace.clear()
        for ns in namespaces:
            self.namespace.addItem(ns, ns)
        self.namespace.setEditText(current)
        self.namespace.blockSignals(False)

    def clear(self) -> None:
        self.candidate_id = None
        self._original = {}
        self._turn_ids = []
        self.title.setText(self.tr("No candidate selected"))
        self.banner.hide()
        self.editor.setPlainText("")
        self.editor.setEnabled(False)
        self.kind.setEnabled(False)
        self.namespace.setEnabled(False)
        self.facts.setText("")
        self.turns.clear()
        self.nearest.setText(self.tr("—"))

    def show_detail(self, detail: dict[str, Any], keep_edits: bool = False) -> None:
        """Fill the pane; with ``keep_edits`` an edit in progress is left untouched."""
        c = detail["candidate"]
        same = self.candidate_id == c["id"]
        self.candidate_id = c["id"]
        self._turn_ids = list(detail["turn_ids"])
        self.title.setText(self.tr("Candidate #%1").replace("%1", str(c["id"])))
        flags = [f for f in c["flags"].split(",") if f]
        if flags:
            names = ", ".join(flag_label(f) for f in flags)
            self.banner.setText("⚠ " + self.tr("Flagged: %1. Check the text before approving.").replace("%1", names))
            self.banner.show()
        else:
            self.banner.hide()
        if not (keep_edits and same and self.is_dirty()):
            self._original = {"content": c["content"], "kind": c["kind"], "namespace": c["namespace"]}
            self.editor.setPlainText(c["content"])
            self.kind.setCurrentIndex(max(0, self.kind.findData(c["kind"])))
            self.namespace.setEditText(c["namespace"])
        for w in (self.editor, self.kind, self.namespace):
            w.setEnabled(True)
        self.facts.setText(
            self.tr("%1 · confidence %2 · seen ×%3 · %4 ago")
            .replace("%1", source_label(c["source"]))
            .replace("%2", f"{c['confidence']:.2f}")
            .replace("%3", str(c["seen_count"]))
            .replace("%4", age_label(c["created_at"]))
        )
        self.turns.clear()
        for s in detail["sightings"]:
            if s["turn_id"]:
                snippet = (s["snippet"] or "").replace("\n", " ")
                text = f"{role_label(s['role'] or 'user')}: {snippet}" if s["role"] else s["turn_id"]
            else:
                text = self.tr("%1, no turn recorded").replace("%1", source_label(s["source"]))
            item = QListWidgetItem(f"{age_label(s['seen_at'])} · {text}")
            item.setData(TURN_ROLE, s["turn_id"])
            item.setToolTip(s["turn_id"] or "")
            self.turns.addItem(item)
        near = detail.get("nearest")
        if near:
            kind = html.escape(kind_label(near["kind"]))
            ns = html.escape(namespace_label(near["namespace"]))
            score = html.escape(self.tr("overlap %1").replace("%1", f"{near['score']:.0%}"))
            self.nearest.setText(f"<b>#{near['id']}</b> {kind} · {ns} · {score}<br>{diff_html(near['diff'])}")
        else:
            self.nearest.setText(self.tr("No similar approved memory: this adds something new."))

    # -- edits ---------------------------------------------------------------------------

    def current_values(self) -> dict[str, Any]:
        return {
            "content": self.editor.toPlainText(),
            "kind": self.kind.currentData(),
            "namespace": self.namespace.currentText().strip(),
        }

    def edits(self) -> dict[str, Any]:
        """The fields that differ from the stored candidate (passed to approve)."""
        if self.candidate_id is None:
            return {}
        values = self.current_values()
        return {k: v for k, v in values.items() if v != self._original.get(k)}

    def is_dirty(self) -> bool:
        return bool(self.edits())

    def first_turn(self) -> str | None:
        return self._turn_ids[0] if self._turn_ids else None

    def _turn_activated(self, item: QListWidgetItem) -> None:
        turn_id = item.data(TURN_ROLE)
        if turn_id:
            self.jump_requested.emit(turn_id)
