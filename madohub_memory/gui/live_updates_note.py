"""The status bar's word while a server's change notifications are away.

On a team server the dashboard shows a colleague's decision within a second because the
server announces it (:mod:`.change_listener`). When that connection drops, the dashboard
still catches up by polling, only slower, and says so here until it listens again; then
the note goes away. A SQLite file never shows it.
"""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QWidget

from madohub_memory.gui.worker import DbWorker


class LiveUpdatesNote(QLabel):
    """"Live updates paused — reconnecting…", shown only while the listener is reconnecting."""

    def __init__(self, worker: DbWorker, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("liveUpdatesNote")
        self.hide()
        worker.listening_changed.connect(self._listening_changed)

    def _listening_changed(self, listening: bool) -> None:
        if not listening:  # worded when shown: the interface language may have changed meanwhile
            self.setText(self.tr("Live updates paused — reconnecting…"))
            self.setToolTip(self.tr("The connection that announces other people's changes dropped: they "
                                    "still show, a few seconds later, until it is back."))
        self.setVisible(not listening)
