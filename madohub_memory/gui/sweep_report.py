"""How the dashboard says what the sweep did: per action in the jobs table, and a status-bar
note when approved memories left the Approved list.

The sweep (``services/sweep.py``) runs beside the dashboard, in the background worker or in
another process, and may archive hundreds of approved memories at once (unused ones, expired
events): the documented policy, but invisible unless said. :class:`SweepNote` asks the
database which memories the sweep archived since this person last looked (a history mark
kept per database in the window's settings), says how many, and offers to show them
(Ctrl+Shift+A or the link); showing or dismissing moves the mark. A memory restored
meanwhile is not counted.
"""

from __future__ import annotations

import hashlib
import html
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QSettings, Qt, QTimer, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QToolButton, QWidget

from madohub_memory.gui.worker import DbWorker, query_op
from madohub_memory.services.changes import OpChanges

SHOW_ARCHIVED_KEY = "Ctrl+Shift+A"

# services.sweep.COUNT_KEYS, as the jobs table names them ("364 archived as expired")
_COUNT_LABELS = {
    "memories_archived": QT_TRANSLATE_NOOP("SweepReport", "%1 archived as unused"),
    "memories_evicted": QT_TRANSLATE_NOOP("SweepReport", "%1 archived as expired"),
    "weight_lowered": QT_TRANSLATE_NOOP("SweepReport", "%1 lowered in weight"),
    "candidates_archived": QT_TRANSLATE_NOOP("SweepReport", "%1 stale candidates archived"),
    "auto_approved": QT_TRANSLATE_NOOP("SweepReport", "%1 auto-approved"),
    "decisions_expired": QT_TRANSLATE_NOOP("SweepReport", "%1 decisions expired"),
    "preferences_proposed": QT_TRANSLATE_NOOP("SweepReport", "%1 preferences proposed"),
}


def _tr(text: str) -> str:
    return QCoreApplication.translate("SweepReport", text)


def counts_text(counts: dict[str, int]) -> str:
    """What one run did, action by action ("364 archived as expired · 2,262 lowered in
    weight"); only the actions that touched something, or "nothing to change"."""
    parts = [_tr(str(label)).replace("%1", f"{counts[key]:,}") for key, label in _COUNT_LABELS.items()
             if counts.get(key)]
    parts += [f"{key.replace('_', ' ')}: {value:,}" for key, value in counts.items()
              if value and key not in _COUNT_LABELS]  # an action this window does not know yet
    return " · ".join(parts) if parts else QCoreApplication.translate("SweepReport", "nothing to change")


def _mark_key(db_path: Any) -> str:
    digest = hashlib.sha1(str(db_path).encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return f"sweep/seen/{digest}"


class SweepNote(QWidget):
    """"The sweep archived 364 approved memories … Show them (Ctrl+Shift+A)" ×, in the status
    bar until shown or dismissed; hidden while there is nothing to say."""

    show_requested = Signal()

    def __init__(self, worker: DbWorker, settings: QSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sweepNote")
        self.worker = worker
        self.settings = settings
        self._key = _mark_key(worker.db_path)
        self.seen = int(str(settings.value(self._key, 0) or 0))  # the newest history row already told
        self.count = 0
        self.memory_ids: list[int] = []
        self._last = self.seen
        self.label = QLabel()
        self.label.setObjectName("sweepNoteText")
        self.label.setTextFormat(Qt.TextFormat.RichText)
        self.label.linkActivated.connect(lambda _link: self.show_requested.emit())
        self.close_btn = QToolButton()
        self.close_btn.setText("×")
        self.close_btn.setAutoRaise(True)
        self.close_btn.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the keys stay on the list
        self.close_btn.clicked.connect(self.dismiss)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.label)
        layout.addWidget(self.close_btn)
        self.hide()
        self._again = QTimer(self)  # a burst of commits asks once
        self._again.setSingleShot(True)
        self._again.setInterval(400)
        self._again.timeout.connect(self.refresh)
        worker.operation_did_execute.connect(self._changed)
        self.refresh()

    def _changed(self, changes: OpChanges, _initiator: object) -> None:
        if changes.memories and not self._again.isActive():
            self._again.start()

    def refresh(self) -> None:
        seen = self.seen
        query_op(self.worker, lambda ctx: ctx.svc.sweep.archived_since(seen), self._arrived, lambda _m: None)

    def _arrived(self, found: dict[str, Any]) -> None:
        self.count = int(found["count"])
        self.memory_ids = list(found["memory_ids"])
        self._last = int(found["last"])
        if not self.count:
            self.hide()
            return
        if self.count == 1:
            said = self.tr("The sweep archived 1 approved memory (unused or expired).")
        else:
            said = self.tr("The sweep archived %1 approved memories (unused or expired).").replace(
                "%1", f"{self.count:,}")
        link = self.tr("Show them")
        self.label.setText(f"{html.escape(said)} <a href='show'>{html.escape(link)}</a> ({SHOW_ARCHIVED_KEY})")
        self.label.setToolTip(self.tr("Archived memories are no longer recalled or in the Approved list. "
                                      "Select one and press R to restore it; Ctrl+Z takes a restore back."))
        self.close_btn.setToolTip(self.tr("Dismiss this note"))
        self.close_btn.setAccessibleName(self.tr("Dismiss this note"))
        self.show()

    def dismiss(self) -> None:
        """The person has seen it: the note stays away until the sweep archives more."""
        self.seen = max(self.seen, self._last)
        self.settings.setValue(self._key, self.seen)
        self.count = 0
        self.memory_ids = []
        self.hide()
