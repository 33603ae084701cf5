"""A table model that holds only ids and fetches rows by id when the view paints them
(as Anki's browser table): the Pending queue and the Approved list both use it.

Filtering and sorting run in SQL on the worker; the model keeps the ordered id list for
the current filter and a bounded cache of rows. A live refresh diffs the new id list against
the old one (on the worker) and emits row removals/insertions, so the view keeps its
selection, current row and scroll position.

Rows a view took out optimistically (a decision not stored yet) are *hidden*: a refresh
never brings them back. Rows a view put back optimistically (an undo not stored yet) are
*held*: refreshes wait until the undo is stored, so the row never flickers away.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, QTimer, Signal

from madohub_memory.gui.worker import DbWorker, query_op

ID_ROLE = Qt.ItemDataRole.UserRole + 1
_ID = int(ID_ROLE)
_DISPLAY = int(Qt.ItemDataRole.DisplayRole)
_CELL_ROLES = tuple(int(r) for r in (
    Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole, Qt.ItemDataRole.DecorationRole,
    Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.FontRole, Qt.ItemDataRole.TextAlignmentRole,
    Qt.ItemDataRole.ForegroundRole, Qt.ItemDataRole.AccessibleTextRole,
))
_ROLES = frozenset((*_CELL_ROLES, _ID))
_ROW_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
_NO_FLAGS = Qt.ItemFlag.NoItemFlags
PAGE_BEFORE = 40
PAGE_AFTER = 120
MAX_DIFF_CHANGES = 400
CACHE_HIGH = 20_000
CACHE_LOW = 10_000
Index = QModelIndex | QPersistentModelIndex


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


class LazyIdModel(QAbstractTableModel):
    """Rows are ids; ``ID_ROLE`` gives the id of a row. Subclasses say what to fetch and show."""

    ids_loaded = Signal()
    rows_loaded = Signal()
    count_changed = Signal(int)
    COLUMNS: tuple[str, ...] = ()

    def __init__(self, worker: DbWorker, flt: Any, parent: Any = None) -> None:
        super().__init__(parent)
        self.worker = worker
        self.filter = flt
        self._ids: list[int] = []
        self._cache: dict[int, dict[str, Any]] = {}
        self._rendered: dict[int, list[dict[int, Any]]] = {}
        self._content_column = self.COLUMNS.index("content")
        self._stale: set[int] = set()
        self._inflight: set[int] = set()
        self._wanted: set[int] = set()
        self._hidden: set[int] = set()
        self._held: set[int] = set()
        self._refresh_when_released = False
        self._generation = 0
        self._arrived_generation = 0
        self._version = 0  # bumped whenever the id list changes
        self._loaded_once = False
        self.editing_id: int | None = None  # a row edited in place (its editor must keep its text)
        self.total = 0  # rows for the empty filter (the "0 of 77 shown" figure)
        self._fetch_timer = QTimer(self)
        self._fetch_timer.setSingleShot(True)
        self._fetch_timer.setInterval(0)
        self._fetch_timer.timeout.connect(self._fetch_wanted)

    # -- what subclasses provide (the ``fetch_*`` run on the worker thread) ---------------

    def fetch_ids(self, ctx: Any, flt: Any) -> list[int]:
        raise NotImplementedError

    def fetch_rows(self, ctx: Any, ids: list[int]) -> dict[int, dict[str, Any]]:
        raise NotImplementedError

    def fetch_total(self, ctx: Any) -> int:
        raise NotImplementedError

    def cell(self, row: dict[str, Any], key: str, role: int) -> Any:
        raise NotImplementedError

    def column_title(self, key: str) -> str:
        return key

    def sorted_filter(self, key: str, descending: bool) -> Any:
        raise NotImplementedError

    # -- Qt model API --------------------------------------------------------------------

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._ids)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and 0 <= section < len(self.COLUMNS):
            if role == Qt.ItemDataRole.DisplayRole:
                return self.column_title(self.COLUMNS[section])
        elif orientation == Qt.Orientation.Vertical and role == Qt.ItemDataRole.DisplayRole:
            return section + 1
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        return _ROW_FLAGS if index.isValid() else _NO_FLAGS

    def data(self, index: Index, role: int = _DISPLAY) -> Any:
        # Called ~1,400 times per repaint of the visible rows: every cell's values are computed
        # once per fetched row (``_rendered``) and looked up here.
        if role not in _ROLES:
            return None
        r = index.row()
        ids = self._ids
        if not 0 <= r < len(ids):
            return None
        row_id = ids[r]
        if role == _ID:
            return row_id
        cells = self._rendered.get(row_id)
        if cells is None or row_id in self._stale:
            row = self._cache.get(row_id)
            if row is None or row_id in self._stale:
                self._want(r)
            if row is None:
                return "…" if role == _DISPLAY and index.column() == self._content_column else None
            if cells is None:
                cells = self._rendered[row_id] = self._render(row)
        return cells[index.column()].get(role)

    def _render(self, row: dict[str, Any]) -> list[dict[int, Any]]:
        cells = []
        for key in self.COLUMNS:
            values = {}
            for role in _CELL_ROLES:
                value = self.cell(row, key, role)
                if value is not None:
                    values[int(role)] = value
            cells.append(values)
        return cells

    def forget_rendering(self, row_id: int) -> None:
        """Recompute this row's cells on the next paint (a draft mark changed, say)."""
        self._rendered.pop(row_id, None)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if not 0 <= column < len(self.COLUMNS):
            return
        self.set_filter(self.sorted_filter(self.COLUMNS[column], order == Qt.SortOrder.DescendingOrder))

    # -- lookups -------------------------------------------------------------------------

    def id_at(self, row: int) -> int | None:
        return self._ids[row] if 0 <= row < len(self._ids) else None

    def row_of(self, row_id: int) -> int:
        try:
            return self._ids.index(row_id)  # a C-speed scan: cheaper than keeping a map
        except ValueError:
            return -1

    def cached(self, row_id: int) -> dict[str, Any] | None:
        return self._cache.get(row_id)

    @property
    def loaded(self) -> bool:
        return self._loaded_once

    @property
    def loading(self) -> bool:
        """A reload of the id list (filter, sort or live refresh) is on its way."""
        return self._arrived_generation != self._generation

    def repaint_row(self, row_id: int) -> None:
        self._rendered.pop(row_id, None)
        row = self.row_of(row_id)
        if row >= 0:
            self.dataChanged.emit(self.index(row, 0), self.index(row, len(self.COLUMNS) - 1))

    # -- loading -------------------------------------------------------------------------

    def set_filter(self, flt: Any) -> None:
        self.filter = flt
        self.refresh(reset=True)

    def refresh(self, reset: bool = False) -> None:
        """Reload the id list for the current filter; the diff is planned on the worker."""
        if self._held and not reset:
            self._refresh_when_released = True  # an undo is on its way: its row stays put
            return
        self._generation += 1
        generation = self._generation
        flt = self.filter
        first_page = reset or not self._loaded_once
        old = None if first_page else list(self._ids)
        version = self._version
        hidden = frozenset(self._hidden)

        def load(ctx: Any) -> tuple[list[int], int, dict[int, dict[str, Any]], Any]:
            ids = [i for i in self.fetch_ids(ctx, flt) if i not in hidden]
            # the first screenful comes with the ids: no second trip through the queue
            rows = self.fetch_rows(ctx, ids[:PAGE_AFTER]) if first_page else {}
            plan = plan_change(old, ids) if old is not None else None
            return ids, self.fetch_total(ctx), rows, plan

        query_op(self.worker, load, lambda result: self._ids_arrived(generation, version, result, reset))

    def _ids_arrived(self, generation: int, version: int, result: Any, reset: bool) -> None:
        if generation != self._generation:
            return
        self._arrived_generation = generation
        if self._held and not reset:
            self._refresh_when_released = True
            return
        ids, total, first_rows, plan = result
        if self._hidden:
            ids = [i for i in ids if i not in self._hidden]
        if reset or not self._loaded_once:
            self.beginResetModel()
            self._ids = ids
            self._version += 1
            self._cache.clear()
            self._rendered.clear()
            self._stale.clear()
            self._cache.update(first_rows)
            self.endResetModel()
        else:
            if plan is None or version != self._version or len(ids) != plan[-1]:
                plan = plan_change(self._ids, ids)  # the list changed meanwhile: plan here
            self._apply_plan(plan, ids)
            self._stale.update(self._cache)  # refetched when the view paints them again
            if self._ids:
                self._emit_changed(0, len(self._ids) - 1)
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
            for p, row_id in zip(persistent, old_ids, strict=True):
                row = positions.get(row_id, -1) if row_id is not None else -1
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

    # -- optimistic changes --------------------------------------------------------------

    def remove_ids(self, ids: list[int], hide: bool = True) -> None:
        """Take rows out at once (the worker stores the decision meanwhile)."""
        wanted = set(ids)
        rows = sorted((r for r, rid in enumerate(self._ids) if rid in wanted), reverse=True) if len(ids) > 8 \
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

    def put_back(self, rows: list[tuple[int, int, dict[str, Any] | None]]) -> None:
        """Insert ``(id, row number, cached row)`` back where they were (an undo shown before
        it is stored); they are held until :meth:`release` so no refresh takes them away."""
        for row_id, position, cached in sorted(rows, key=lambda r: r[1]):
            self._hidden.discard(row_id)
            self._held.add(row_id)
            if cached is not None:
                self._cache[row_id] = cached
                self._rendered.pop(row_id, None)
            if self.row_of(row_id) >= 0:
                continue
            at = max(0, min(position, len(self._ids)))
            self.beginInsertRows(QModelIndex(), at, at)
            self._ids.insert(at, row_id)
            self.endInsertRows()
            self.total += 1
        self._version += 1
        self.count_changed.emit(self.total)

    def release(self, ids: list[int]) -> None:
        """The undo is stored: refreshes may move these rows again."""
        self._held.difference_update(ids)
        if not self._held and self._refresh_when_released:
            self._refresh_when_released = False
            self.refresh()

    # -- fetching rows -------------------------------------------------------------------

    def ensure_rows(self, first: int, last: int) -> None:
        """Ask for the rows in ``first..last`` (and a page around them) if not cached."""
        for row in (first, last):
            if 0 <= row < len(self._ids):
                self._wanted.add(row)
        if self._wanted and not self._fetch_timer.isActive():
            self._fetch_timer.start()

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
            rid for rid in self._ids[start:end]
            if (rid not in self._cache or rid in self._stale) and rid not in self._inflight
        ]
        if not ids:
            return
        self._inflight.update(ids)
        query_op(self.worker, lambda ctx: self.fetch_rows(ctx, ids), lambda rows: self._rows_arrived(ids, rows))

    def _rows_arrived(self, asked: list[int], rows: Any) -> None:
        self._inflight.difference_update(asked)
        self._stale.difference_update(asked)
        self._cache.update(rows)
        for rid in asked:
            self._rendered.pop(rid, None)
            if rid not in rows and rid not in self._held:
                self._cache.pop(rid, None)
        if len(self._cache) > CACHE_HIGH:  # keep memory bounded while scrolling far
            keep = set(asked) | self._held | self._hidden
            for rid in list(self._cache):
                if rid not in keep:
                    del self._cache[rid]
                    self._rendered.pop(rid, None)
                    if len(self._cache) <= CACHE_LOW:
                        break
        self._changed_rows(asked)
        self.rows_loaded.emit()

    def _changed_rows(self, ids: list[int]) -> None:
        """Say that the rows of ``ids`` changed: one range from the first to the last of them,
        leaving out the row an in-place editor is open on (Qt would reset what is typed)."""
        rows = [r for r in (self.row_of(ids[0]), self.row_of(ids[-1])) if r >= 0] if ids else []
        if rows:
            self._emit_changed(min(rows), max(rows))

    def _emit_changed(self, first: int, last: int) -> None:
        editing = self.row_of(self.editing_id) if self.editing_id is not None else -1
        spans = [(first, editing - 1), (editing + 1, last)] if first <= editing <= last else [(first, last)]
        for top, bottom in spans:
            if top <= bottom:
                self.dataChanged.emit(self.index(top, 0), self.index(bottom, len(self.COLUMNS) - 1))
