"""Recording changes in history, and undoing them.

Every write that a person, the auto-approve policy or an agent makes goes through
:class:`ChangeLog`, so the history table is complete by construction. A *batch* groups
the rows of one user-visible action (one approve, or one batch approve of 40 rows); undo
restores the ``before`` side of the newest batch that is not undone yet.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from madohub_memory.core.errors import NotFoundError
from madohub_memory.store import candidates as candidate_rows
from madohub_memory.store import history
from madohub_memory.store import memories as memory_rows
from madohub_memory.store import settings as setting_rows

if TYPE_CHECKING:
    from madohub_memory.services import Services

_TABLES = {
    "candidate": (candidate_rows.get_row, candidate_rows.upsert_row, candidate_rows.delete),
    "memory": (memory_rows.get_row, memory_rows.upsert_row, memory_rows.delete),
}


def _batch_id() -> str:
    """A random id like ``uuid4().hex``; ``uuid`` is not imported (it pulls ``platform``,
    ~10 ms of every command's start)."""
    return os.urandom(16).hex()


class ChangeLog:
    def __init__(self, svc: Services) -> None:
        self.svc = svc
        self._batch: str | None = None

    @contextmanager
    def batch(self) -> Iterator[str]:
        """Group every change inside the block into one undoable step, in one transaction."""
        if self._batch is not None:
            yield self._batch
            return
        self._batch = _batch_id()
        try:
            with self.svc.store.transaction():
                yield self._batch
        finally:
            self._batch = None

    def record(
        self,
        entity: str,
        entity_id: int | str,
        action: str,
        actor: str,
        before: dict[str, Any] | None,
        after: dict[str, Any] | None,
    ) -> None:
        history.record(
            self.svc.store, entity=entity, entity_id=entity_id, action=action, actor=actor,
            at=self.svc.clock.now_iso(), before=before, after=after,
            batch=self._batch or _batch_id(),
        )

    def undo(self, actors: tuple[str, ...] = ("human",)) -> list[dict[str, Any]]:
        """Undo the newest batch made by ``actors``; return its history rows (oldest first)."""
        store = self.svc.store
        with store.transaction():
            batch = history.last_undoable_batch(store, actors)
            if batch is None:
                raise NotFoundError("Nothing to undo.")
            rows = history.batch_rows(store, batch)
            undo_batch = _batch_id()
            for row in reversed(rows):
                self._revert(row, undo_batch)
            history.mark_undone(store, batch)
        return rows

    def _revert(self, row: dict[str, Any], undo_batch: str) -> None:
        store = self.svc.store
        entity, entity_id = row["entity"], row["entity_id"]
        before, after = row["before"], row["after"]
        if entity == "setting":
            current = setting_rows.get_raw(store, entity_id)
            if before is None:
                setting_rows.delete(store, entity_id)
            else:
                setting_rows.set_raw(store, entity_id, before["value"], self.svc.clock.now_iso())
            restored = before
            current_snapshot = None if current is None else {"value": current}
        else:
            get_row, upsert_row, delete = _TABLES[entity]
            current_snapshot = get_row(store, int(entity_id))
            if before is None:
                delete(store, int(entity_id))
                restored = None
            elif after is None or current_snapshot is None:
                upsert_row(store, before)
                restored = before
            else:
                # Restore only what this change touched, so later counters (seen_count,
                # hit_count) that other actors raised in between are kept.
                restored = dict(current_snapshot)
                for key, value in before.items():
                    if after.get(key) != value:
                        restored[key] = value
                upsert_row(store, restored)
        history.record(
            store, entity=entity, entity_id=entity_id, action="undo", actor="human",
            at=self.svc.clock.now_iso(), before=current_snapshot, after=restored, batch=undo_batch,
        )
