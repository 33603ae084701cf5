"""The lazy table model behind the Approved tab: memory ids, rows fetched when painted.

The same model as the Pending queue (:class:`~madohub_memory.gui.lazy_model.LazyIdModel`),
so 100,000 memories cost one id list, and a change refreshes by diff instead of rebuilding.
It shows per memory how often and when agents recalled it, sortable, and marks memories the
auto-approve policy created. A one-line memory can be edited in place (F2 or double-click).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QFont

from madohub_memory.core.text import first_line
from madohub_memory.gui.i18n import age_label, kind_label, namespace_label
from madohub_memory.gui.lazy_model import LazyIdModel
from madohub_memory.gui.pending_model import cached_icon, namespace_icon
from madohub_memory.gui.worker import DbWorker
from madohub_memory.services.queue import MemoryFilter

COLUMNS = ("content", "kind", "namespace", "pinned", "hit_count", "last_hit_at", "auto")
Index = QModelIndex | QPersistentModelIndex


def column_title(key: str) -> str:
    titles = {
        "content": QCoreApplication.translate("MemoryModel", "Memory"),
        "kind": QCoreApplication.translate("MemoryModel", "Kind"),
        "namespace": QCoreApplication.translate("MemoryModel", "Namespace"),
        "pinned": QCoreApplication.translate("MemoryModel", "Pinned"),
        "hit_count": QCoreApplication.translate("MemoryModel", "Recalled"),
        "last_hit_at": QCoreApplication.translate("MemoryModel", "Last recalled"),
        "auto": QCoreApplication.translate("MemoryModel", "Auto"),
    }
    return titles[key]


def one_line(content: str) -> bool:
    return "\n" not in content and len(content) <= 200


ICON_COLUMNS = {"pinned": "pin", "auto": "auto"}  # a mark per row: an icon for a header, the title as tooltip


class MemoryModel(LazyIdModel):
    """Active (or archived) memories for the current :class:`MemoryFilter`."""

    COLUMNS = COLUMNS
    edited_in_place = Signal(int, str)  # memory id, new text

    def __init__(self, worker: DbWorker, parent: Any = None) -> None:
        super().__init__(worker, MemoryFilter(), parent)
        self.drafts: set[int] = set()
        self._italic = QFont()
        self._italic.setItalic(True)

    def fetch_ids(self, ctx: Any, flt: MemoryFilter) -> list[int]:
        return list(ctx.queue.memory_ids(flt))

    def fetch_rows(self, ctx: Any, ids: list[int]) -> dict[int, dict[str, Any]]:
        return dict(ctx.queue.memory_rows(ids))

    def fetch_total(self, ctx: Any) -> int:
        return int(ctx.queue.memory_count(self.filter.status))

    def column_title(self, key: str) -> str:
        return column_title(key)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """The pinned and auto-approved columns hold a mark: an icon header, its name as a
        tooltip, so their width goes to the Memory column."""
        key = COLUMNS[section] if orientation == Qt.Orientation.Horizontal and 0 <= section < len(COLUMNS) else None
        if key in ICON_COLUMNS:
            if role == Qt.ItemDataRole.DecorationRole:
                return cached_icon(ICON_COLUMNS[key])
            if role in (Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.AccessibleTextRole):
                return column_title(key)
            if role == Qt.ItemDataRole.DisplayRole:
                return None
        return super().headerData(section, orientation, role)

    def sorted_filter(self, key: str, descending: bool) -> MemoryFilter:
        return MemoryFilter(**{**self.filter.__dict__, "sort": key, "descending": descending})

    def flags(self, index: Index) -> Qt.ItemFlag:
        base = super().flags(index)
        if index.isValid() and self.COLUMNS[index.column()] == "content" and self.filter.status == "active":
            row = self.cached(self.id_at(index.row()) or 0)
            if row is not None and one_line(row["content"]):
                return base | Qt.ItemFlag.ItemIsEditable
        return base

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        """An in-place edit: the tab stores it (and the row shows the new text meanwhile)."""
        if role != Qt.ItemDataRole.EditRole or not index.isValid():
            return False
        memory_id = self.id_at(index.row())
        row = self.cached(memory_id or 0)
        text = str(value)
        if memory_id is None or row is None or text == row["content"] or not text.strip():
            return False
        self.edited_in_place.emit(memory_id, text)
        return True

    def cell(self, row: dict[str, Any], key: str, role: int) -> Any:
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            return self._display(row, key, role == Qt.ItemDataRole.EditRole)
        if key == "content":
            if role == Qt.ItemDataRole.ToolTipRole:
                return row["content"]
            if row["id"] in self.drafts:
                if role == Qt.ItemDataRole.DecorationRole:
                    return cached_icon("draft")
                if role == Qt.ItemDataRole.FontRole:
                    return self._italic
            return None
        if key == "namespace":
            if role == Qt.ItemDataRole.DecorationRole:
                return namespace_icon(row["namespace"])
            if role == Qt.ItemDataRole.ToolTipRole:
                return namespace_label(row["namespace"])
        if key == "pinned" and role == Qt.ItemDataRole.DecorationRole and row["pinned"]:
            return cached_icon("pin")
        if key == "auto" and row["auto"]:
            if role == Qt.ItemDataRole.DecorationRole:
                return cached_icon("auto")
            if role == Qt.ItemDataRole.ToolTipRole:
                return QCoreApplication.translate("MemoryModel", "Approved by the auto-approve policy")
        if role == Qt.ItemDataRole.TextAlignmentRole and key in ("hit_count", "last_hit_at"):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    @staticmethod
    def _display(row: dict[str, Any], key: str, editing: bool) -> str | None:
        if key == "content":
            return row["content"] if editing else first_line(row["content"], 200)
        if key == "kind":
            return kind_label(row["kind"])
        if key == "namespace":
            return row["namespace"].partition(":")[2]
        if key == "hit_count":
            return f"{row['hit_count']:,}"
        if key == "last_hit_at":
            return age_label(row["last_hit_at"])
        return None  # pinned and auto: an icon
