"""Importing transcripts from the dashboard: ``madohub-memory ingest`` in a child process.

Thousands of turns are parsed and extracted without taking the GUI's interpreter lock, and
the person goes on reviewing meanwhile: the live view picks up the new candidates as they
are committed, decisions are stored between the child's transactions (writers take turns,
``store/write_turns.py``), and the status bar says how far the child has come
(:mod:`.import_note`). The database goes to the child in ``$MADOHUB_DB``, not on its
command line: a server address may carry a password (from the dashboard's own
``$MADOHUB_DB``), and every program on the machine sees arguments. One import at a time.
"""

from __future__ import annotations

import json
import os
import sys

from PySide6.QtCore import QObject, QProcess, QProcessEnvironment, Signal

from madohub_memory.gui.worker import DbWorker
from madohub_memory.services.changes import OpChanges


class ImportChild(QObject):
    status = Signal(str)
    finished = Signal()

    def __init__(self, worker: DbWorker, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.worker = worker
        self.process: QProcess | None = None

    @property
    def running(self) -> bool:
        try:
            return self.process is not None and self.process.state() != QProcess.ProcessState.NotRunning
        except RuntimeError:  # already deleted
            return False

    def start(self, paths: list[str]) -> bool:
        """Import ``paths`` (files or folders, any transcript format); ``False`` while one runs."""
        if self.running:
            self.status.emit(self.tr("An import is already running; wait for it to finish."))
            return False
        self.status.emit(self.tr("Importing transcripts…"))
        process = QProcess(self)
        self.process = process
        command = [] if getattr(sys, "frozen", False) else ["-m", "madohub_memory"]
        environment = QProcessEnvironment.systemEnvironment()
        environment.insert("MADOHUB_DB", os.fspath(self.worker.db_path))
        process.setProcessEnvironment(environment)
        process.setProgram(sys.executable)
        process.setArguments([*command, "ingest", *paths, "--format", "auto", "--json"])
        process.finished.connect(lambda code, _status: self._imported(process, code))
        process.errorOccurred.connect(lambda _e: self._failed_to_start(process))
        process.start()
        return True

    def finish(self, timeout_ms: int = 60_000) -> None:
        """On quit: let a running import commit instead of killing it half-way."""
        if self.running and self.process is not None:
            self.process.waitForFinished(timeout_ms)

    def _imported(self, process: QProcess, code: int) -> None:
        out = bytes(process.readAllStandardOutput().data()).decode("utf-8", "replace")
        err = bytes(process.readAllStandardError().data()).decode("utf-8", "replace")
        process.deleteLater()
        if self.process is process:
            self.process = None
        self.finished.emit()
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

    def _failed_to_start(self, process: QProcess) -> None:
        if process.error() == QProcess.ProcessError.FailedToStart:
            if self.process is process:
                self.process = None
            self.finished.emit()
            self.worker.error.emit(self.tr("Could not start the import: %1").replace("%1", process.errorString()))
