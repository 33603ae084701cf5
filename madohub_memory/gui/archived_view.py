"""The Approved tab's second list: archived memories, and restoring one with a single key.

The sweep archives approved memories that were never recalled for months and events past
their lifetime (``services/decay.py``); a person can archive one too. Archived memories are
not recalled, so they are not in the Approved list; here they are, newest archive first,
each with its changes (who archived it and why). ``R`` (or the Restore button) puts the
shown memory back into recall and the list; Ctrl+Z archives it again, like any other step
of this window. An archived memory is read-only here: restore it to edit or pin it.

Its words are the Approved tab's (context ``ApprovedTab``: ``self.tr`` in a mixin looks
them up under the class of the object, which ``lupdate`` cannot know).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, Qt

from madohub_memory.gui.memory_model import COLUMNS
from madohub_memory.services.queue import MemoryFilter

if TYPE_CHECKING:
    from madohub_memory.gui.approved_tab import ApprovedTab

class ArchivedViewMixin:
    """The view switch (active / archived) and the restore of :class:`ApprovedTab`."""


    @property
    def archived_shown(self: ApprovedTab) -> bool:
        return bool(self.model.filter.status == "archived")

    def show_status(self: ApprovedTab, status: str) -> None:
        """Show the ``active`` or the ``archived`` memories (the view box follows)."""
        index = self.view_box.findData(status)
        if index >= 0 and index != self.view_box.currentIndex():
            self.view_box.setCurrentIndex(index)  # _view_changed applies it
        elif index >= 0 and self.model.filter.status != status:
            self._view_changed()

    def _view_changed(self: ApprovedTab, *_args: Any) -> None:
        status = str(self.view_box.currentData() or "active")
        archived = status == "archived"
        # archived: the newest archive first (what the sweep just took out); active: by namespace
        sort, descending = ("archived_at", True) if archived else ("namespace", False)
        header = self.table.horizontalHeader()
        header.blockSignals(True)  # the indicator only shows the order; the filter below sets it
        if archived:
            header.setSortIndicator(-1, header.sortIndicatorOrder())
        else:
            header.setSortIndicator(COLUMNS.index("namespace"), Qt.SortOrder.AscendingOrder)
        header.blockSignals(False)
        header.viewport().update()
        self.hint.setText(self._hint_text(archived))
        self.restore_btn.setVisible(archived)
        self.save_btn.setVisible(not archived)
        self.pin_btn.setVisible(not archived)
        self.model.set_filter(MemoryFilter(text=self.search.text(), namespace=self.ns_filter.currentData(),
                                           sort=sort, descending=descending, status=status))
        self._load_namespaces()

    def _hint_text(self: ApprovedTab, archived: bool = False) -> str:
        if archived:
            return QCoreApplication.translate(
                "ApprovedTab", "R restore · Del delete · Enter jump to turn · / filter · Ctrl+Z undo · ? all shortcuts")
        return QCoreApplication.translate(
            "ApprovedTab", "E edit · Ctrl+S save · P pin · Del delete · Enter jump to turn · F2 edit in place · "
                           "/ filter · Ctrl+Z undo · ? all shortcuts")

    def restore(self: ApprovedTab) -> None:
        """Put the shown archived memory back into recall and the list (one undoable step)."""
        mid = self.current_id()
        if mid is None or not self.archived_shown:
            return
        self._take_out(mid, "restore", lambda ctx: ctx.svc.memories.restore(mid),
                       QCoreApplication.translate(
                           "ApprovedTab", "Restored memory #%1: it is recalled and in the Approved list again. "
                                          "Ctrl+Z archives it again.").replace("%1", str(mid)))
