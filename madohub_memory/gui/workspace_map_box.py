"""The Advanced tab's folder -> project mapping (setting ``workspace.map``).

Why: git repositories and their worktrees are recognised by themselves; folders that are
not (a client folder with several checkouts, a renamed copy) need the user to say which
project they belong to. One ``folder = project`` per line; saved with the button, and a
bad line is reported in the dashboard's error box with the line's own sentence.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import (
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

Save = Callable[[str, Any], None]


def map_to_text(mapping: dict[str, str]) -> str:
    return "\n".join(f"{prefix} = {project}" for prefix, project in mapping.items())


def text_to_setting(text: str) -> str:
    """The editor's lines as the setting's ``prefix=project`` list (blank lines and # comments dropped)."""
    lines = [line.strip() for line in text.splitlines()]
    return "\n".join(line for line in lines if line and not line.startswith("#"))


class WorkspaceMapBox(QGroupBox):
    def __init__(self, save: Save, parent: QWidget | None = None) -> None:
        super().__init__(self.tr("Projects"), parent)
        self._save = save
        layout = QVBoxLayout(self)
        note = QLabel(self.tr("Git repositories and their worktrees are one project by themselves. "
                              "For other folders, write one \"folder = project\" per line."))
        note.setWordWrap(True)
        self.editor = QPlainTextEdit()
        self.editor.setAccessibleName(self.tr("Folders and their projects"))
        self.editor.setPlaceholderText("~/clients/acme-2024 = acme")
        self.editor.setMaximumHeight(90)
        self.save_button = QPushButton(self.tr("Save projects"))
        self.save_button.setAccessibleName(self.tr("Save projects"))
        self.save_button.clicked.connect(self.save)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.save_button)
        layout.addWidget(note)
        layout.addWidget(self.editor)
        layout.addLayout(row)

    def load(self, mapping: dict[str, str]) -> None:
        if not self.editor.hasFocus():
            self.editor.setPlainText(map_to_text(mapping or {}))

    def save(self) -> None:
        self._save("workspace.map", text_to_setting(self.editor.toPlainText()))
