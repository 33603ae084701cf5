"""The lazy table model behind the Pending tab: candidate ids, rows fetched when painted.

Rows carry a candidate's whole text (not a cut), so the detail pane and the editor show a
candidate the instant it is selected, before its provenance has loaded. The Warnings column
comes first and shows an icon, so a flagged candidate is visible however narrow the table;
a candidate with an unsaved draft shows a pencil in the Content column.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QBrush, QColor, QFont

from madohub_memory.core.text import first_line
from madohub_memory.gui.i18n import age_label, flags_label, icon, kind_label, namespace_label, source_label
from madohub_memory.gui.lazy_model import ID_ROLE, LazyIdModel, plan_change
from madohub_memory.gui.worker import DbWorker
from madohub_memory.services.queue import QueueFilter

__all__ = ["COLUMNS", "ID_ROLE", "PendingModel", "column_title", "namespace_icon", "plan_change"]

COLUMNS = ("flags", "content", "kind", "namespace", "source", "confidence", "seen_count", "created_at")
_ICONS: dict[str, Any] = {}


def cached_icon(name: str) -> Any:
    if name not in _ICONS:
        _ICONS[name] = icon(name)
    return _ICONS[name]


def namespace_icon(namespace: str) -> Any:
    prefix = namespace.partition(":")[0]
    return cached_icon("persona" if prefix == "persona" else "workspace")


def column_title(key: str) -> str:
    titles = {
        "content": QCoreApplication.translate("PendingModel", "Content"),
        "kind": QCoreApplication.translate("PendingModel", "Kind"),
        "namespace": QCoreApplication.translate("PendingModel", "Namespace"),
        "source": QCoreApplication.translate("PendingModel", "Source"),
        "confidence": QCoreApplication.translate("PendingModel", "Conf."),
        "seen_count": QCoreApplication.translate("PendingModel", "Seen"),
        "created_at": QCoreApplication.translate("PendingModel", "Age"),
        "flags": "",  # an icon column; the tooltip names it
    }
    return titles[key]


class PendingModel(LazyIdModel):
    """Pending candidates for the current :class:`QueueFilter`."""

    COLUMNS = COLUMNS

    def __init__(self, worker: DbWorker, parent: Any = None) -> None:
        super().__init__(worker, QueueFilter(), parent)
        self.drafts: set[int] = set()  # ids with an unsaved edit (shown with a pencil)
        self._italic = QFont()
        self._italic.setItalic(True)

    def fetch_ids(self, ctx: Any, flt: QueueFilter) -> list[int]:
        return list(ctx.queue.ids(flt))

    def fetch_rows(self, ctx: Any, ids: list[int]) -> dict[int, dict[str, Any]]:
        return dict(ctx.queue.rows(ids))

    def fetch_total(self, ctx: Any) -> int:
        return int(ctx.queue.count())

    def column_title(self, key: str) -> str:
        return column_title(key)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if (orientation == Qt.Orientation.Horizontal and 0 <= section < len(COLUMNS)
                and COLUMNS[section] == "flags"):
            if role == Qt.ItemDataRole.DecorationRole:
                return cached_icon("warning")
            if role == Qt.ItemDataRole.ToolTipRole:
                return QCoreApplication.translate("PendingModel", "Warnings")
        return super().headerData(section, orientation, role)

    def sorted_filter(self, key: str, descending: bool) -> QueueFilter:
        return QueueFilter(**{**self.filter.__dict__, "sort": key, "descending": descending})

    def cell(self, row: dict[str, Any], key: str, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(row, key)
        if key == "flags":
            if role == Qt.ItemDataRole.DecorationRole and row["flags"]:
                return cached_icon("warning")
            if role == Qt.ItemDataRole.ToolTipRole and row["flags"]:
                return flags_label(row["flags"])
            if role == Qt.ItemDataRole.AccessibleTextRole:
                return flags_label(row["flags"])
            return None
        if key == "content":
            draft = row["id"] in self.drafts
            if role == Qt.ItemDataRole.ToolTipRole:
                return row["content"]
            if role == Qt.ItemDataRole.DecorationRole and draft:
                return cached_icon("draft")
            if role == Qt.ItemDataRole.FontRole and draft:
                return self._italic
            return None
        if role == Qt.ItemDataRole.ToolTipRole and key == "namespace":
            return namespace_label(row["namespace"])
        if role == Qt.ItemDataRole.DecorationRole and key == "namespace":
            return namespace_icon(row["namespace"])
        if role == Qt.ItemDataRole.TextAlignmentRole and key in ("confidence", "seen_count", "created_at"):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole and key == "confidence" and row["confidence"] < 0.5:
            return QBrush(QColor("#8a6d00"))
        return None

    @staticmethod
    def _display(row: dict[str, Any], key: str) -> str | None:
        if key == "content":
            return first_line(row["content"], 200)
        if key == "kind":
            return kind_label(row["kind"])
        if key == "namespace":  # the icon says persona or workspace; the tooltip says it in words
            return row["namespace"].partition(":")[2]
        if key == "source":
            return source_label(row["source"])
        if key == "confidence":
            return f"{row['confidence']:.2f}"
        if key == "seen_count":
            return f"×{row['seen_count']}"
        if key == "created_at":
            return age_label(row["created_at"])
        return None  # flags: the icon only
