"""The Pending tab's detail pane: editor, selectors, provenance and the nearest memory.

The pane is bound to a candidate *synchronously*, from the row the queue table already
holds (:meth:`DetailPane.bind`): the instant a row becomes current, the editor shows its
text, so a key pressed right after a decision edits the candidate on screen. What needs a
database read arrives later and only fills in: the sightings (:meth:`enrich`) and the
nearest approved memory (:meth:`show_nearest`); neither ever touches the editor.
"""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import QStringListModel, Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QCompleter,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from madohub_memory.core.cjk import is_cjk
from madohub_memory.core.errors import UserError
from madohub_memory.core.text import validate_content
from madohub_memory.core.vocab import KINDS, validate_namespace
from madohub_memory.gui.i18n import (
    age_label,
    ago_label,
    error_text,
    flag_label,
    kind_label,
    namespace_label,
    role_label,
    source_label,
)

TURN_ROLE = Qt.ItemDataRole.UserRole + 2
LOOKING = "looking"  # show_nearest: the answer is being computed


def _gap(removed: str, added: str) -> str:
    """What keeps a removed run and the added run after it apart: they are drawn side by
    side, so "for" struck out then "developing" would read "fordeveloping". A space between
    words, a thin space between two Chinese characters (Chinese has no spaces to keep)."""
    if not removed or not added or removed[-1].isspace() or added[0].isspace():
        return ""
    return "\u2009" if is_cjk(removed[-1]) and is_cjk(added[0]) else " "


def diff_html(segments: list[Any]) -> str:
    """Word diff as rich text: removed words struck through in red, added ones in green.
    Runs of spaces and line breaks are kept (``white-space: pre-wrap``), and a removed word
    never runs into the added one after it (:func:`_gap`)."""
    parts = []
    previous: tuple[str, str] = ("=", "")
    for op, text in segments:
        escaped = html.escape(text)
        if op == "-":
            parts.append(f"<span style='color:#b3261e;text-decoration:line-through'>{escaped}</span>")
        elif op == "+":
            if previous[0] == "-":
                parts.append(_gap(previous[1], text))
            parts.append(f"<span style='color:#1b6e3a;background:#e3f4e8'>{escaped}</span>")
        else:
            parts.append(escaped)
        previous = (op, text)
    return "<span style='white-space:pre-wrap'>" + "".join(parts) + "</span>"


class DetailPane(QWidget):
    """Shows one candidate; ``edits()`` returns what the person changed in it."""

    jump_requested = Signal(str)
    draft_discarded = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("detailPane")
        self.candidate_id: int | None = None
        self.awaiting_row = False  # bound to a row the table has not fetched yet
        self.enriched = False
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
        self.draft_note = QLabel(self.tr("Your edit is kept as a draft: A approves the edited text."))
        self.draft_note.setObjectName("draftNote")
        self.draft_note.setWordWrap(True)  # the only sign that A stores the edited text: never cut
        self.discard_btn = QPushButton(self.tr("Discard draft"))
        self.discard_btn.setAccessibleName(self.tr("Discard draft"))
        self.discard_btn.clicked.connect(self.discard_draft)
        draft_row = QHBoxLayout()
        draft_row.addWidget(self.draft_note, 1)
        draft_row.addWidget(self.discard_btn)
        self.draft_box = QWidget()
        self.draft_box.setLayout(draft_row)
        draft_row.setContentsMargins(0, 0, 0, 0)
        self.draft_box.hide()
        self.editor = QPlainTextEdit()
        self.editor.setObjectName("candidateEditor")
        self.editor.setAccessibleName(self.tr("Candidate text"))
        self.editor.setPlaceholderText(self.tr("The memory, as one standalone statement"))
        self.editor.setTabChangesFocus(True)
        self.editor.setMinimumHeight(60)
        self.error = QLabel()
        self.error.setObjectName("fieldError")
        self.error.setWordWrap(True)
        self.error.hide()

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
        namespace_edit = self.namespace.lineEdit()
        assert namespace_edit is not None  # an editable combo box has one
        namespace_edit.setAccessibleName(self.tr("Namespace"))
        namespace_edit.setPlaceholderText("persona:<name> · workspace:<project>")
        # No inline completion: typing "workspace:" must stay "workspace:". The list opens on
        # request: the arrow, Alt+Down, or Ctrl+Space for the names starting with what is typed.
        self.namespace.setCompleter(None)  # type: ignore[arg-type]  # None removes it (Qt API)
        self._names = QStringListModel(self)
        self._completer = QCompleter(self._names, self)
        self._completer.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        self._completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self._completer.setWidget(namespace_edit)
        self._completer.activated.connect(self.namespace.setEditText)
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
        self.nearest_for: int | None = None  # the candidate the nearest section shows

        turns_title = QLabel(self.tr("Times seen and originating turns"))
        turns_title.setObjectName("sectionTitle")
        layout.addWidget(self.title)
        layout.addWidget(self.banner)
        layout.addWidget(self.draft_box)
        layout.addWidget(self.editor, 3)
        layout.addWidget(self.error)
        layout.addLayout(form)
        layout.addWidget(turns_title)
        layout.addWidget(self.turns, 1)
        layout.addWidget(self.nearest_title)
        layout.addWidget(self.nearest)
        layout.addStretch(0)
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
        self._names.setStringList(namespaces)

    def complete_namespace(self) -> None:
        self._completer.setCompletionPrefix(self.namespace.currentText())
        self._completer.complete()

    def clear(self) -> None:
        self.candidate_id = None
        self.awaiting_row = False
        self.enriched = False
        self._original = {}
        self._turn_ids = []
        self.title.setText(self.tr("No candidate selected"))
        self.banner.hide()
        self.draft_box.hide()
        self.error.hide()
        self.editor.setPlainText("")
        self.editor.setPlaceholderText(self.tr("The memory, as one standalone statement"))
        self.editor.setEnabled(False)
        self.kind.setEnabled(False)
        self.namespace.setEnabled(False)
        self.facts.setText("")
        self.turns.clear()
        self.nearest_for = None
        self.nearest.setText("—")

    def bind(self, candidate_id: int, row: dict[str, Any] | None, draft: dict[str, Any] | None = None) -> None:
        """Show ``candidate_id`` at once from its table ``row`` (``None``: not fetched yet, the
        editor takes typing and the text is put before it when the row arrives)."""
        self.candidate_id = candidate_id
        self.enriched = False
        self._turn_ids = []
        self.error.hide()
        self.turns.clear()
        self.nearest_for = None
        self.nearest.setText(self.tr("Looking for a similar approved memory…"))
        self.title.setText(self.tr("Candidate #%1").replace("%1", str(candidate_id)))
        for w in (self.editor, self.kind, self.namespace):
            w.setEnabled(True)
        if row is None:
            self.awaiting_row = True
            self._original = {}
            self.editor.setPlainText("")
            self.editor.setPlaceholderText(self.tr("Loading…"))
            self.banner.hide()
            self.draft_box.hide()
            self.facts.setText("")
            return
        self.awaiting_row = False
        self._fill(row, draft)

    def row_arrived(self, row: dict[str, Any]) -> None:
        """The row of a candidate bound before it was fetched: keep what was typed, after it."""
        if not self.awaiting_row or row.get("id") != self.candidate_id:
            return
        typed = self.editor.toPlainText()
        self.awaiting_row = False
        self.editor.setPlaceholderText(self.tr("The memory, as one standalone statement"))
        self._fill(row, None)
        if typed:
            self.editor.setPlainText(row["content"] + typed)
            cursor = self.editor.textCursor()
            cursor.movePosition(cursor.MoveOperation.End)
            self.editor.setTextCursor(cursor)

    def _fill(self, c: dict[str, Any], draft: dict[str, Any] | None) -> None:
        flags = [f for f in c["flags"].split(",") if f]
        if flags:
            names = ", ".join(flag_label(f) for f in flags)
            self.banner.setText("⚠ " + self.tr("Flagged: %1. Check the text before approving.").replace("%1", names))
            self.banner.show()
        else:
            self.banner.hide()
        self._original = {"content": c["content"], "kind": c["kind"], "namespace": c["namespace"]}
        values = {**self._original, **(draft or {})}
        self.editor.setPlainText(values["content"])
        self.kind.setCurrentIndex(max(0, self.kind.findData(values["kind"])))
        self.namespace.setEditText(values["namespace"])
        self.draft_box.setVisible(bool(draft) and self.is_dirty())
        self.facts.setText(
            self.tr("%1 · confidence %2 · seen ×%3 · %4")
            .replace("%1", source_label(c["source"]))
            .replace("%2", f"{c['confidence']:.2f}")
            .replace("%3", str(c["seen_count"]))
            .replace("%4", ago_label(c["created_at"]))
        )

    def enrich(self, detail: dict[str, Any]) -> None:
        """Sightings and originating turns of the bound candidate (never touches the editor)."""
        c = detail["candidate"]
        if c["id"] != self.candidate_id:
            return
        self.enriched = True
        self._turn_ids = list(detail["turn_ids"])
        self.turns.clear()
        for s in detail["sightings"]:
            if s["turn_id"]:
                snippet = (s["snippet"] or "").replace("\n", " ")
                text = f"{role_label(s['role'] or 'user')}: {snippet}" if s["role"] else s["turn_id"]
            else:
                text = self.tr("%1, no turn recorded").replace("%1", source_label(s["source"]))
            # when the turn was said, where the transcript recorded it: an old session
            # imported today was not said "2 min" ago
            said = s.get("said_at")
            when = age_label(said) if said else age_label(s["seen_at"])
            item = QListWidgetItem(f"{when} · {text}")
            item.setData(TURN_ROLE, s["turn_id"])
            tip = self.tr("Said %1 · seen %2").replace("%1", said or "?").replace("%2", s["seen_at"] or "?")
            item.setToolTip(f"{tip}\n{s['turn_id']}" if s["turn_id"] else tip)
            self.turns.addItem(item)

    def show_nearest(self, candidate_id: int, near: Any) -> None:
        """``near``: a result of ``NearestService.nearest``, ``None`` (nothing similar),
        :data:`LOOKING`, or ``{"error": sentence}``."""
        if candidate_id != self.candidate_id:
            return
        if near == LOOKING:
            self.nearest_for = None
            self.nearest.setText(self.tr("Looking for a similar approved memory…"))
            return
        self.nearest_for = candidate_id
        if near is None:
            self.nearest.setText(self.tr("No similar approved memory: this adds something new."))
        elif "error" in near:
            self.nearest.setText(html.escape(self.tr("Similar memories are not available: %1")
                                             .replace("%1", error_text(near["error"]))))
        else:
            kind = html.escape(kind_label(near["kind"]))
            ns = html.escape(namespace_label(near["namespace"]))
            score = html.escape(self.tr("similarity %1").replace("%1", f"{near['score']:.0%}"))
            who = (" · " + html.escape(self.tr("approved by %1").replace("%1", near["approved_by"]))
                   if near.get("approved_by") else "")
            self.nearest.setText(f"<b>#{near['id']}</b> {kind} · {ns} · {score}{who}<br>{diff_html(near['diff'])}")

    # -- edits ---------------------------------------------------------------------------

    def current_values(self) -> dict[str, Any]:
        return {
            "content": self.editor.toPlainText(),
            "kind": self.kind.currentData(),
            "namespace": self.namespace.currentText().strip(),
        }

    def edits(self) -> dict[str, Any]:
        """The fields that differ from the stored candidate (passed to approve)."""
        if self.candidate_id is None or self.awaiting_row:
            return {}
        values = self.current_values()
        return {k: v for k, v in values.items() if v != self._original.get(k)}

    def is_dirty(self) -> bool:
        return bool(self.edits())

    def typed_while_loading(self) -> bool:
        return self.awaiting_row and bool(self.editor.toPlainText())

    def discard_draft(self) -> None:
        if self.candidate_id is None or not self._original:
            return
        cid = self.candidate_id
        self.editor.setPlainText(self._original["content"])
        self.kind.setCurrentIndex(max(0, self.kind.findData(self._original["kind"])))
        self.namespace.setEditText(self._original["namespace"])
        self.draft_box.hide()
        self.error.hide()
        self.draft_discarded.emit(cid)

    def problem(self) -> tuple[QWidget, str] | None:
        """What would make the service refuse these edits, checked here before the key acts:
        (the field, one sentence in the interface language), or ``None``."""
        edits = self.edits()
        if "content" in edits:
            try:
                validate_content(edits["content"])
            except UserError as exc:
                return self.editor, error_text(exc)
        if "namespace" in edits:
            try:
                validate_namespace(edits["namespace"])
            except UserError as exc:
                return self.namespace, error_text(exc)
        return None

    def point_at(self, widget: QWidget, message: str) -> None:
        """Say what is wrong next to the editor and put the cursor in the field; nothing typed
        is lost."""
        self.error.setText(message)
        self.error.show()
        if widget is self.namespace:
            self.namespace.setFocus()
            self.namespace.lineEdit().selectAll()  # type: ignore[union-attr]  # editable: it has one
        else:
            self.editor.setFocus()

    def first_turn(self) -> str | None:
        return self._turn_ids[0] if self._turn_ids else None

    def _turn_activated(self, item: QListWidgetItem) -> None:
        turn_id = item.data(TURN_ROLE)
        if turn_id:
            self.jump_requested.emit(turn_id)
