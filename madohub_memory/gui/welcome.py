"""First run with an empty database: demo data, transcript import, connecting an agent."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QLabel,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from madohub_memory.gui.i18n import icon
from madohub_memory.gui.import_child import ImportChild
from madohub_memory.gui.worker import DbWorker, collection_op
from madohub_memory.services.changes import OpChanges


class WelcomePage(QWidget):
    """Shown instead of the queue while nothing at all is stored."""

    status = Signal(str)
    import_finished = Signal()

    def __init__(self, worker: DbWorker, parent: QWidget | None = None,
                 import_child: ImportChild | None = None) -> None:
        super().__init__(parent)
        self.worker = worker
        self.import_child = import_child or ImportChild(worker, self)
        self.import_child.status.connect(self.status)
        self.import_child.finished.connect(self.import_finished)
        self.setObjectName("welcome")
        layout = QVBoxLayout(self)
        layout.addStretch(1)
        title = QLabel(self.tr("Nothing to review yet"))
        title.setObjectName("welcomeTitle")
        title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        text = QLabel(self.tr(
            "Agents propose memories; you decide what they keep. Start with one of these:"))
        text.setAlignment(Qt.AlignmentFlag.AlignCenter)
        text.setWordWrap(True)
        layout.addWidget(title)
        layout.addWidget(text)
        self.demo_btn = self._button("demo", self.tr("Load the &demo data"), self.load_demo)
        self.import_btn = self._button("import", self.tr("&Import Claude Code transcripts…"), self.import_transcripts)
        self.connect_btn = self._button("connect", self.tr("Show how to &connect an agent"), self.show_connect)
        for b in (self.demo_btn, self.import_btn, self.connect_btn):
            b.setMinimumWidth(360)
            layout.addWidget(b, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addStretch(2)

    def _button(self, icon_name: str, text: str, slot: Any) -> QPushButton:
        button = QPushButton(icon(icon_name), text)
        button.setObjectName("welcomeButton")
        button.setAccessibleName(text.replace("&", "").rstrip("…"))
        button.clicked.connect(slot)
        return button

    def load_demo(self) -> None:
        from madohub_memory.services.demo import load_demo

        collection_op(self.worker, lambda ctx: load_demo(ctx.svc),
                      lambda _c: self.status.emit(self.tr("Demo data loaded.")), self.worker.error.emit,
                      changes=OpChanges.everything())

    def import_transcripts(self) -> None:
        start = Path.home() / ".claude" / "projects"
        folder = QFileDialog.getExistingDirectory(self, self.tr("Claude Code projects folder"),
                                                  str(start if start.is_dir() else Path.home()))
        if folder:
            self.import_paths([folder])

    def import_paths(self, paths: list[str]) -> None:
        """Import in the dashboard's child process (:mod:`.import_child`)."""
        self.import_child.start(paths)

    def finish_import(self, timeout_ms: int = 60_000) -> None:
        """On quit: let a running import commit instead of killing it half-way."""
        self.import_child.finish(timeout_ms)

    def show_connect(self) -> None:
        ConnectDialog(self).open()


class ConnectDialog(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Connect an agent"))
        self.resize(620, 420)
        browser = QTextBrowser()
        browser.setAccessibleName(self.tr("How to connect an agent"))
        browser.setHtml(self.tr(
            "<h3>Claude Code</h3><p>Register the MCP server:</p>"
            "<pre>claude mcp add madohub -- madohub-memory mcp</pre>"
            "<p>Import past sessions, and keep importing new ones with the hook:</p>"
            "<pre>madohub-memory ingest ~/.claude/projects\nmadohub-memory hook --install</pre>"
            "<h3>Any MCP client</h3><p>Run <code>madohub-memory mcp</code> as a stdio server. "
            "Agents call <code>remember</code> to propose a memory and <code>recall</code> to read "
            "approved ones; everything they propose waits here for your review.</p>"
            "<h3>Scripts</h3><pre>madohub-memory remember \"User prefers pnpm\" --kind preference</pre>"))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.button(QDialogButtonBox.StandardButton.Close).setText(self.tr("Close"))
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(browser)
        layout.addWidget(buttons)


from madohub_memory.gui.shortcuts import ShortcutsDialog  # noqa: E402  (its old home)

__all__ = ["ConnectDialog", "ShortcutsDialog", "WelcomePage"]
