"""First run with an empty database: demo data, transcript import, connecting an agent."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from PySide6.QtCore import QProcess, QProcessEnvironment, Qt, Signal
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
from madohub_memory.gui.worker import DbWorker, collection_op
from madohub_memory.services.changes import OpChanges


class WelcomePage(QWidget):
    """Shown instead of the queue while nothing at all is stored."""

    status = Signal(str)
    import_finished = Signal()

    def __init__(self, worker: DbWorker, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.worker = worker
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
        """Ingest in a separate ``madohub-memory ingest`` process: thousands of turns are
        parsed and extracted without taking the GUI's interpreter lock; the live view picks
        up the new candidates as they are committed. The database goes to the child in
        ``$MADOHUB_DB``, not on its command line: a server address may carry a password (from
        the dashboard's own ``$MADOHUB_DB``), and every program on the machine sees arguments."""
        self.status.emit(self.tr("Importing transcripts…"))
        process = QProcess(self)
        self._process = process
        command = [] if getattr(sys, "frozen", False) else ["-m", "madohub_memory"]
        environment = QProcessEnvironment.systemEnvironment()
        environment.insert("MADOHUB_DB", os.fspath(self.worker.db_path))
        process.setProcessEnvironment(environment)
        process.setProgram(sys.executable)
        process.setArguments([*command, "ingest", *paths, "--format", "auto", "--json"])
        process.finished.connect(lambda code, _status: self._imported(process, code))
        process.errorOccurred.connect(lambda _e: self._import_failed(process))
        process.start()

    def finish_import(self, timeout_ms: int = 60_000) -> None:
        """On quit: let a running import commit instead of killing it half-way."""
        process = getattr(self, "_process", None)
        try:
            running = process is not None and process.state() != QProcess.ProcessState.NotRunning
        except RuntimeError:  # already deleted
            return
        if running and process is not None:
            process.waitForFinished(timeout_ms)

    def _imported(self, process: QProcess, code: int) -> None:
        out = bytes(process.readAllStandardOutput().data()).decode("utf-8", "replace")
        err = bytes(process.readAllStandardError().data()).decode("utf-8", "replace")
        process.deleteLater()
        self.import_finished.emit()
        try:
            summary = json.loads(out)
            new = summary["turns"]["new"]
        except (ValueError, KeyError, TypeError):
            message = err.strip().splitlines()[-1] if err.strip() else self.tr("The import failed.")
            self.worker.error.emit(message.removeprefix("madohub-memory: "))
            return
        self.worker.operation_did_execute.emit(OpChanges.everything(), None)
        self.status.emit(self.tr("Imported %1 new turns.").replace("%1", str(new)))
        if code not in (0, 3):
            self.worker.error.emit(err.strip().splitlines()[-1] if err.strip() else self.tr("The import failed."))

    def _import_failed(self, process: QProcess) -> None:
        if process.error() == QProcess.ProcessError.FailedToStart:
            self.import_finished.emit()
            self.worker.error.emit(self.tr("Could not start the import: %1").replace("%1", process.errorString()))

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
