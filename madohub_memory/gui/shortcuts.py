"""The ``?`` sheet: every key of every tab, and the keys that work everywhere."""

from __future__ import annotations

import html

from PySide6.QtCore import QT_TRANSLATE_NOOP
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget

SECTIONS = (
    (QT_TRANSLATE_NOOP("ShortcutsDialog", "Pending"), (
        ("A", QT_TRANSLATE_NOOP("ShortcutsDialog", "Approve, with the edits in the pane")),
        ("X / Delete", QT_TRANSLATE_NOOP("ShortcutsDialog", "Reject")),
        ("E", QT_TRANSLATE_NOOP("ShortcutsDialog", "Edit the text (Esc returns to the list)")),
        ("Ctrl+Enter", QT_TRANSLATE_NOOP("ShortcutsDialog", "Approve while editing")),
        ("Ctrl+Space", QT_TRANSLATE_NOOP("ShortcutsDialog", "In the namespace box: list the known namespaces")),
        ("Shift+J / Enter", QT_TRANSLATE_NOOP("ShortcutsDialog", "Jump to the originating turn")),
        ("Space", QT_TRANSLATE_NOOP("ShortcutsDialog", "Skip to the next candidate")),
        ("J / K / ↓ / ↑", QT_TRANSLATE_NOOP("ShortcutsDialog", "Next / previous candidate")),
        ("Home / End / PgUp / PgDn", QT_TRANSLATE_NOOP("ShortcutsDialog", "First / last candidate, page up / down")),
        ("Shift+↓ / Shift+↑", QT_TRANSLATE_NOOP("ShortcutsDialog", "Extend the selection for a batch decision")),
        ("/", QT_TRANSLATE_NOOP("ShortcutsDialog", "Focus the filter (Esc or ↓ returns to the list)")),
    )),
    (QT_TRANSLATE_NOOP("ShortcutsDialog", "Approved"), (
        ("E", QT_TRANSLATE_NOOP("ShortcutsDialog", "Edit the memory in the pane (Esc returns to the list)")),
        ("F2", QT_TRANSLATE_NOOP("ShortcutsDialog", "Edit a one-line memory in place")),
        ("Ctrl+S", QT_TRANSLATE_NOOP("ShortcutsDialog", "Save the edit")),
        ("P", QT_TRANSLATE_NOOP("ShortcutsDialog", "Pin or unpin")),
        ("Delete", QT_TRANSLATE_NOOP("ShortcutsDialog", "Delete (Ctrl+Z brings it back)")),
        ("J / Enter", QT_TRANSLATE_NOOP("ShortcutsDialog", "Jump to the originating turn")),
        ("Home / End", QT_TRANSLATE_NOOP("ShortcutsDialog", "First / last memory")),
        ("R", QT_TRANSLATE_NOOP("ShortcutsDialog", "Archived memories: restore the memory (Ctrl+Z archives it again)")),
        ("/", QT_TRANSLATE_NOOP("ShortcutsDialog", "Focus the filter")),
    )),
    (QT_TRANSLATE_NOOP("ShortcutsDialog", "Advanced"), (
        ("Tab / Shift+Tab", QT_TRANSLATE_NOOP("ShortcutsDialog",
                                              "Move between settings (the mouse wheel changes a field only after a click)")),
    )),
    (QT_TRANSLATE_NOOP("ShortcutsDialog", "Everywhere"), (
        ("Ctrl+Z", QT_TRANSLATE_NOOP("ShortcutsDialog",
                                     "Undo this window's last decision or edit (repeat for older ones; never a setting)")),
        ("Ctrl+1 / 2 / 3 / 4", QT_TRANSLATE_NOOP("ShortcutsDialog", "Pending / Approved / Advanced / Decisions tab")),
        ("Ctrl+Shift+A", QT_TRANSLATE_NOOP("ShortcutsDialog", "Show the archived memories (what the sweep archived first)")),
        ("? / F1", QT_TRANSLATE_NOOP("ShortcutsDialog", "This list")),
        ("Esc", QT_TRANSLATE_NOOP("ShortcutsDialog", "Close a dialog or the turn viewer")),
        ("Ctrl+Q", QT_TRANSLATE_NOOP("ShortcutsDialog", "Quit (after every decision is saved)")),
    )),
)


class ShortcutsDialog(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Keyboard shortcuts"))
        self.resize(620, 640)
        parts = []
        for title, rows in SECTIONS:
            parts.append(f"<h3 style='margin:10px 0 4px 0'>{html.escape(self.tr(str(title)))}</h3><table>")
            parts.extend(
                f"<tr><td style='padding:3px 16px 3px 0'><b>{html.escape(key)}</b></td>"
                f"<td>{html.escape(self.tr(str(text)))}</td></tr>"
                for key, text in rows
            )
            parts.append("</table>")
        browser = QTextBrowser()
        browser.setAccessibleName(self.tr("Keyboard shortcuts"))
        browser.setHtml("".join(parts))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.button(QDialogButtonBox.StandardButton.Close).setText(self.tr("Close"))
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(browser)
        layout.addWidget(buttons)
