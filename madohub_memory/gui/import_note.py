"""The status bar's word while an import or an extraction runs, here or in another process.

An import started from this dashboard runs in a child process; one started in a terminal,
by the hook or by the background worker runs elsewhere. Each writes how far it has come to
the database (:mod:`madohub_memory.services.progress`); this note reads it whenever another
process commits (the worker's live-view check) and says "Importing chat.json (1 of 3): 1,200
of 3,000 turns", with a small bar. Decisions keep being stored meanwhile: writers take turns
(``store/write_turns.py``). The note goes away when the work ends or its process is gone.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QWidget

from madohub_memory.gui.worker import DbWorker, query_op
from madohub_memory.services.changes import OpChanges

RECHECK_MS = 2000  # while shown: a killed import leaves no commit to notice it by
GAP_MS = 500  # at most one read per this while an import commits many times a second


class ImportNote(QWidget):
    """A label and a bar in the status bar; hidden while nothing runs."""

    def __init__(self, worker: DbWorker, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.worker = worker
        self.setObjectName("importNote")
        self.label = QLabel()
        self.label.setObjectName("importNoteText")
        self.bar = QProgressBar()
        self.bar.setObjectName("importNoteBar")
        self.bar.setMaximumWidth(140)
        self.bar.setMaximumHeight(14)
        self.bar.setTextVisible(False)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 6, 0)
        layout.addWidget(self.label)
        layout.addWidget(self.bar)
        self.rows: list[dict[str, Any]] = []
        self._asking = False
        self._again = False
        self._gap = QTimer(self)
        self._gap.setSingleShot(True)
        self._gap.setInterval(GAP_MS)
        self._gap.timeout.connect(self._gap_over)
        self._recheck = QTimer(self)
        self._recheck.setInterval(RECHECK_MS)
        self._recheck.timeout.connect(self.check)
        self.hide()
        worker.operation_did_execute.connect(self._changed)
        self.check()

    def _changed(self, _changes: OpChanges, initiator: object) -> None:
        if initiator is None:  # another process committed (or this window's own import child)
            self.check()

    def check(self) -> None:
        if self._asking or self._gap.isActive():
            self._again = True
            return
        self._asking = True
        self._again = False

        def read(ctx: Any) -> list[dict[str, Any]]:
            from madohub_memory.services.progress import running

            return running(ctx.svc)

        query_op(self.worker, read, self._show, self._failed)

    def _gap_over(self) -> None:
        if self._again:
            self.check()

    def _failed(self, _message: str) -> None:
        self._asking = False

    def _show(self, rows: list[dict[str, Any]]) -> None:
        self._asking = False
        self._gap.start()
        self.rows = rows
        if not rows:
            self.hide()
            self._recheck.stop()
            return
        row = rows[0]
        text = self.describe(row)
        if len(rows) > 1:
            text += " " + self.tr("(+%1 more)").replace("%1", str(len(rows) - 1))
        self.label.setText(text)
        self.setToolTip(self.tr("Decisions are stored meanwhile: writers take turns with the import."))
        total, done = int(row.get("total") or 0), int(row.get("done") or 0)
        self.bar.setRange(0, total if total > 0 else 0)  # 0..0: busy, no end known yet (reading)
        if total > 0:
            self.bar.setValue(min(done, total))
        self.show()
        if not self._recheck.isActive():
            self._recheck.start()

    def describe(self, row: dict[str, Any]) -> str:
        detail = row.get("detail") or {}
        total, done = int(row.get("total") or 0), int(row.get("done") or 0)
        turns = (self.tr("%1 of %2 turns").replace("%1", f"{done:,}").replace("%2", f"{total:,}") if total
                 else self.tr("reading…"))
        if row.get("work") == "extract":
            return self.tr("Extracting candidates: %1").replace("%1", turns)
        if row.get("work") != "import":  # a loop added later (re-embedding...): its word and numbers
            count = f"{done:,} / {total:,}" if total else self.tr("reading…")
            return self.tr("Working (%1): %2").replace("%1", str(row.get("work"))).replace("%2", count)
        name = str(detail.get("file") or "")
        files = int(detail.get("files") or 1)
        if files > 1:
            where = self.tr("%1 (file %2 of %3)").replace("%1", name).replace("%2", str(detail.get("index", 1))) \
                .replace("%3", str(files))
        else:
            where = name
        return self.tr("Importing %1: %2").replace("%1", where).replace("%2", turns)
