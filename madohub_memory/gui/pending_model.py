"""A lazy table model over the pending queue: ids plus a row cache, rows fetched on demand.

Only the ids of the filtered, sorted queue are held (100,000 ints is under 4 MB); a row is
fetched from the worker in a page when the view first paints it. A live refresh diffs the
new id list against the old one and emits row removals/insertions, so the view keeps its
selection, current row and scroll position.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QBrush, QColor

from madohub_memory.core.text import first_line
from madohub_memory.gui.i18n import age_label, flags_label, icon, kind_label, namespace_label, source_label
from madohub_memory.gui.worker import DbWorker, query_op
from madohub_memory.services.queue import QueueFilter

COLUMNS = ("content", "kind", "namespace", "source", "confidence", "seen_count", "created_at", "flags")
ID_ROLE = Qt.ItemDataRole.UserRole + 1
PAGE_BEFORE = 40
PAGE_AFTER = 120
MAX_DIFF_CHANGES = 400
Index = QModelIndex | QPersistentModelIndex


_ICONS: dict[str, Any] = {}


def namespace_icon(namespace: str) -> Any:
    prefix = namespace.partition(":")[0]
    if prefix not in _ICONS:
        _ICONS[prefix] = icon("persona" if prefix == "persona" else "workspace")
    return _ICONS[prefix]


def column_title(key: str) -> str:
    titles = {
        "content": QCoreApplication.translate("PendingModel", "Content"),
        "kind": QCoreApplication.translate("PendingModel", "Kind"),
        "namespace": QCoreApplication.translate("PendingModel", "Namespace"),
        "source": QCoreApplication.translate("PendingModel", "Source"),
        "confidence": QCoreApplication.translate("PendingModel", "Conf."),
        "seen_count": QCoreApplication.translate("PendingModel", "Seen"),
        "created_at": QCoreApplication.translate("PendingModel", "Age"),
        "flags": QCoreApplication.translate("PendingModel", "Warnings"),
    }
    return titles[key]


def plan_change(old: list[int], new: list[int]) -> tuple[Any, ...]:
    """How to turn ``old`` into ``new``: ``("same",)``, ``("runs", removals, insertions, len)``
    or ``("layout", positions)``. Pure Python, so the worker thread computes it."""
    new_set, old_set = set(new), set(old)
    kept_old = [i for i in old if i in new_set]
    kept_new = [i for i in new if i in old_set]
    changes = (len(old) - len(kept_old)) + (len(new) - len(kept_new))
    if changes == 0 and kept_old == kept_new:
        return ("same", len(new))
    if kept_old != kept_new or changes > MAX_DIFF_CHANGES:
        return ("layout", {cid: row for row, cid in enumerate(new)}, len(new))
    removals = []
    row = len(old) - 1
    while row >= 0:
        if old[row] in new_set:
            row -= 1
            continue
        end = row
        while row >= 0 and old[row] not in new_set:
            row -= 1
        removals.append((row + 1, end))
    insertions = []
    pos = 0
    while pos < len(new):
        if new[pos] in old_set:
            pos += 1
            continue
        start = pos
        while pos < len(new) and new[pos] not in old_set:
            pos += 1
        insertions.append((start, pos - 1))
    return ("runs", removals, insertions, len(new))


class PendingModel(QAbstractTableModel):
    """Rows are pending candidate ids; ``ID_ROLE`` gives the id of a row."""

    ids_loaded = Signal()
    rows_loaded = Signal()
    count_changed = Signal(int)

    def __init__(self, worker: DbWorker, parent: Any = None) -> None:
        super().__init__(parent)
        self.worker = worker
        self.filter = QueueFilter()
        self._ids: list[int] = []
        self._cache: dict[int, dict[str, Any]] = {}
        self._stale: set[int] = set()
        self._inflight: set[int] = set()
        self._wanted: set[int] = set()
        self._hidden: set[int] = set()
        self._generation = 0
        self._arrived_generation = 0
        self._version = 0  # bumped whenever the id list changes
        self._loaded_once = False
        self.total = 0
        self._fetch_timer = QTimer(self)
        self._fetch_timer.setSingleShot(True)
        self._fetch_timer.setInterval(0)
        self._fetch_timer.timeout.connect(self._fetch_wanted)

    # -- Qt model API --------------------------------------------------------------------

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._ids)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and 0 <= section < len(COLUMNS):
            if role == Qt.ItemDataRole.DisplayRole:
                return column_title(COLUMNS[section])
        elif orientation == Qt.Orientation.Vertical and role == Qt.ItemDataRole.DisplayRole:
            return section + 1
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._ids):
            return None
        cid = self._ids[index.row()]
        if role == ID_ROLE:
            return cid
        row = self._cache.get(cid)
        if row is None or cid in self._stale:
            self._want(index.row())
        if row is None:
            if role == Qt.ItemDataRole.DisplayRole and index.column() == 0:
                return "…"
            return None
        key = COLUMNS[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(row, key)
        if role == Qt.ItemDataRole.ToolTipRole and key == "content":
            return row["content"]
        if role == Qt.ItemDataRole.ToolTipRole and key == "namespace":
            return namespace_label(row["namespace"])
        if role == Qt.ItemDataRole.DecorationRole and key == "namespace":
            return namespace_icon(row["namespace"])
        if role == Qt.ItemDataRole.TextAlignmentRole and key in ("confidence", "seen_count", "created_at"):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole and key == "flags" and row["flags"]:
            return QBrush(QColor("#b3261e"))
        if role == Qt.ItemDataRole.ForegroundRole and key == "confidence" and row["confidence"] < 0.5:
            return QBrush(QColor("#8a6d00"))
        return None

    @staticmethod
    def _display(row: dict[str, Any], key: str) -> str:
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
        if key == "flags":
            return flags_label(row["flags"])
        return ""

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if not 0 <= column < len(COLUMNS):
            return
        self.set_filter(
            QueueFilter(**{**self.filter.__dict__, "sort": COLUMNS[column],
                           "descending": order == Qt.SortOrder.DescendingOrder})
        )

    # -- lookups -------------------------------------------------------------------------

    def id_at(self, row: int) -> int | None:
        return self._ids[row] if 0 <= row < len(self._ids) else None

    def row_of(self, candidate_id: int) -> int:
        try:
            return self._ids.index(candidate_id)  # a C-speed scan: cheaper than keeping a map
        except ValueError:
            return -1

    def cached(self, candidate_id: int) -> dict[str, Any] | None:
        return self._cache.get(candidate_id)

    @property
    def loaded(self) -> bool:
        return self._loaded_once

    @property
    def loading(self) -> bool:
        """A reload of the id list (filter, sort or live refresh) is on its way."""
        return self._arrived_generation != self._generation

    # -- loading -------------------------------------------------------------------------

    def set_filter(self, flt: QueueFilter) -> None:
        self.filter = flt
        self.refresh(reset=True)

    def refresh(self, reset: bool = False) -> None:
        """Reload the id list for the current filter; the diff is planned on the worker."""
        self._generation += 1
        generation = self._generation
        flt = self.filter
        first_page = reset or not self._loaded_once
        old = None if first_page else list(self._ids)
        version = self._version
        hidden = frozenset(self._hidden)

        def load(ctx: Any) -> tuple[list[int], int, dict[int, dict[str, Any]], Any]:
            ids = [i for i in ctx.queue.ids(flt) if i not in hidden]
            # the first screenful comes with the ids: no second trip through the queue
            rows = ctx.queue.rows(ids[:PAGE_AFTER]) if first_page else {}
            plan = plan_change(old, ids) if old is not None else None
            return ids, ctx.queue.count(), rows, plan

        query_op(self.worker, load, lambda result: self._ids_arrived(generation, version, result, reset))

    def _ids_arrived(self, generation: int, version: int, result: Any, reset: bool) -> None:
        if generation != self._generation:
            return
        self._arrived_generation = generation
        ids, total, first_rows, plan = result
        if self._hidden:
            ids = [i for i in ids if i not in self._hidden]
        if reset or not self._loaded_once:
            self.beginResetModel()
            self._ids = ids
            self._version += 1
            self._cache.clear()
            self._stale.clear()
            self._cache.update(first_rows)
            self.endResetModel()
        else:
            if plan is None or version != self._version or len(ids) != plan[-1]:
                plan = plan_change(self._ids, ids)  # the list changed meanwhile: plan here
            self._apply_plan(plan, ids)
            self._stale.update(self._cache)
            if self._ids:
                self.dataChanged.emit(self.index(0, 0), self.index(len(self._ids) - 1, len(COLUMNS) - 1))
        self._loaded_once = True
        if self._ids and (reset or self.id_at(0) not in self._cache):
            self._want(0)  # prefetch the first page before the view asks
        self.total = max(0, total - len(self._hidden))
        self.count_changed.emit(self.total)
        self.ids_loaded.emit()

    def _apply_plan(self, plan: tuple[Any, ...], new_ids: list[int]) -> None:
        """Turn the id list into ``new_ids`` by the plan from :func:`plan_change`."""
        kind = plan[0]
        if kind == "same":
            return
        self._version += 1
        if kind == "layout":
            positions = plan[1]
            old = self._ids
            self.layoutAboutToBeChanged.emit()
            persistent = self.persistentIndexList()
            old_ids = [old[p.row()] if 0 <= p.row() < len(old) else None for p in persistent]
            self._ids = list(new_ids)
            targets = []
            for p, cid in zip(persistent, old_ids, strict=True):
                row = positions.get(cid, -1) if cid is not None else -1
                targets.append(self.index(row, p.column()) if row >= 0 else QModelIndex())
            self.changePersistentIndexList(persistent, targets)
            self.layoutChanged.emit()
            return
        _, removals, insertions, _size = plan
        for first, last in removals:  # from the end, so earlier rows keep their numbers
            self.beginRemoveRows(QModelIndex(), first, last)
            del self._ids[first : last + 1]
            self.endRemoveRows()
        for first, last in insertions:  # ascending: the prefix before each run already matches
            self.beginInsertRows(QModelIndex(), first, last)
            self._ids[first:first] = new_ids[first : last + 1]
            self.endInsertRows()

    def remove_ids(self, ids: list[int], hide: bool = True) -> None:
        """Take decided rows out at once (the worker stores the decision meanwhile)."""
        wanted = set(ids)
        rows = sorted((r for r, cid in enumerate(self._ids) if cid in wanted), reverse=True) if len(ids) > 8 \
            else sorted((r for r in map(self.row_of, ids) if r >= 0), reverse=True)
        for row in rows:
            self.beginRemoveRows(QModelIndex(), row, row)
            del self._ids[row]
            self.endRemoveRows()
        if rows:
            self._version += 1
        if hide:
            self._hidden.update(ids)
        if rows:
            self.total = max(0, self.total - len(rows))
            self.count_changed.emit(self.total)

    def unhide(self, ids: list[int]) -> None:
        self._hidden.difference_update(ids)

    def _want(self, row: int) -> None:
        self._wanted.add(row)
        if not self._fetch_timer.isActive():
            self._fetch_timer.start()

    def _fetch_wanted(self) -> None:
        if not self._wanted:
            return
        low, high = min(self._wanted), max(self._wanted)
        self._wanted.clear()
        start = max(0, low - PAGE_BEFORE)
        end = min(len(self._ids), high + PAGE_AFTER)
        ids = [
            cid for cid in self._ids[start:end]
            if (cid not in self._cache or cid in self._stale) and cid not in self._inflight
        ]
        if not ids:
            return
        self._inflight.update(ids)
        query_op(self.worker, lambda ctx: ctx.queue.rows(ids), lambda rows: self._rows_arrived(ids, rows))

    def _rows_arrived(self, asked: list[int], rows: Any) -> None:
        self._inflight.difference_update(asked)
        self._stale.difference_update(asked)
        self._cache.update(rows)
        for cid in asked:
            if cid not in rows:
                self._cache.pop(cid, None)
        if len(self._cache) > 20_000:  # keep memory bounded while scrolling far
            keep = set(asked)
            for cid in list(self._cache):
                if cid not in keep:
                    del self._cache[cid]
                    if len(self._cache) <= 10_000:
                        break
        if self._ids:  # the view repaints only the rows it shows
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._ids) - 1, len(COLUMNS) - 1))
        self.rows_loaded.emit()
