"""Recording changes in history, undoing them, and saying what an operation changed.

Every write that a person, the auto-approve policy or an agent makes goes through the one
:class:`ChangeLog` of a :class:`~madohub_memory.services.Services`, so the history table is
complete by construction. A *batch* groups the rows of one user-visible action (one approve,
or one batch approve of 40 rows); undo restores the ``before`` side of a batch.

Undo is per actor instance (``Services.origin``: ``gui:<window>``, ``cli``, ``mcp:<session>``,
``worker``): it takes back the newest human batch *that origin* made, never one made by the
CLI, an agent or another window in between, and never a settings change.

:class:`OpChanges` is what an operation changed (as Anki's ``OpChanges``): the log notes the
kind of every row it records, and a front end asks :meth:`ChangeLog.take_changes` after an
operation so that each view refreshes only when something it shows changed.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from madohub_memory.core.errors import ConflictError, NotFoundError
from madohub_memory.store import candidates as candidate_rows
from madohub_memory.store import history
from madohub_memory.store import memories as memory_rows

if TYPE_CHECKING:
    from madohub_memory.services import Services

_TABLES = {
    "candidate": (candidate_rows.get_row, candidate_rows.upsert_row, candidate_rows.delete),
    "memory": (memory_rows.get_row, memory_rows.upsert_row, memory_rows.delete),
}
_KIND_OF_ENTITY = {"candidate": "candidates", "memory": "memories", "setting": "settings"}
# Fields that other actors move on their own (a sighting, a recall, a decay pass): a change
# to them since the undone step is kept, not treated as a conflict.
_VOLATILE = frozenset({"seen_count", "hit_count", "last_hit_at", "last_seen_at", "updated_at", "weight"})


@dataclass(frozen=True)
class OpChanges:
    """Which families of stored data an operation changed."""

    candidates: bool = False
    memories: bool = False
    settings: bool = False
    jobs: bool = False
    decisions: bool = False

    @classmethod
    def everything(cls) -> OpChanges:
        """What another process changed: unknown, so every view looks again."""
        return cls(**{f.name: True for f in fields(cls)})

    @classmethod
    def of(cls, *kinds: str) -> OpChanges:
        return cls(**{kind: True for kind in kinds})

    def __or__(self, other: OpChanges) -> OpChanges:
        return OpChanges(**{f.name: getattr(self, f.name) or getattr(other, f.name) for f in fields(self)})

    def __bool__(self) -> bool:
        return any(getattr(self, f.name) for f in fields(self))

    def names(self) -> list[str]:
        return [f.name for f in fields(self) if getattr(self, f.name)]


def describe_undo(rows: list[dict[str, Any]]) -> dict[str, list[int]]:
    """What an undo brought back, for the message that names it: candidates back in the
    queue, other candidates changed, memories restored or reverted, memories taken away
    (an approval undone)."""
    pending: list[int] = []
    candidates: list[int] = []
    memories: list[int] = []
    removed: list[int] = []
    for row in rows:
        if not str(row["entity_id"]).isdigit():
            continue
        entity_id = int(row["entity_id"])
        before = row["before"] or {}
        if row["entity"] == "candidate":
            (pending if before.get("status") == "pending" else candidates).append(entity_id)
        elif row["entity"] == "memory" and row["before"] is None:
            removed.append(entity_id)
        elif row["entity"] == "memory":
            memories.append(entity_id)
    return {"pending": pending, "candidates": candidates, "memories": memories, "removed_memories": removed}


def _batch_id() -> str:
    """A random id like ``uuid4().hex``; ``uuid`` is not imported (it pulls ``platform``,
    ~10 ms of every command's start)."""
    return os.urandom(16).hex()


class ChangeLog:
    """The history writer of one ``Services``; families share it so one batch can span them."""

    def __init__(self, svc: Services) -> None:
        self.svc = svc
        self._batch: str | None = None
        self._person: str | None = None
        self._touched: set[str] = set()

    def person(self) -> str | None:
        """The person recorded on the changes being made (resolved once per batch)."""
        if self._batch is not None and self._person is not None:
            return self._person
        person = self.svc.person
        if self._batch is not None:
            self._person = person
        return person

    @contextmanager
    def batch(self, batch_id: str | None = None) -> Iterator[str]:
        """Group every change inside the block into one undoable step, in one transaction.

        ``batch_id`` names the step in advance, so a front end can undo exactly the step it
        asked for (the dashboard binds its undo stack to these names)."""
        if self._batch is not None:
            yield self._batch
            return
        self._batch = batch_id or _batch_id()
        try:
            with self.svc.store.transaction():
                yield self._batch
        finally:
            self._batch = None
            self._person = None

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
            batch=self._batch or _batch_id(), origin=self.svc.origin, person=self.person(),
        )
        self._touched.add(_KIND_OF_ENTITY[entity])

    def note(self, *kinds: str) -> None:
        """Record that an operation changed data kept outside history (jobs, decisions)."""
        self._touched.update(kinds)

    def take_changes(self) -> OpChanges:
        """What was recorded since the last call (and forget it)."""
        touched, self._touched = self._touched, set()
        return OpChanges.of(*touched)

    def changes(
        self, *, memory_id: int | None = None, candidate_id: int | None = None, person: str | None = None,
        limit: int = 50,
    ) -> list[dict[str, Any]]:
        """The newest history rows, newest first: of one memory (with the candidate it was
        approved from), of one candidate, or all; optionally only one person's."""
        store = self.svc.store
        if memory_id is not None:
            rows = history.of_memory(store, memory_id, limit)
            return [r for r in rows if person is None or r["person"] == person]
        if candidate_id is not None:
            return history.recent(store, entity="candidate", entity_id=candidate_id, person=person, limit=limit)
        return history.recent(store, person=person, limit=limit)

    # -- undo ----------------------------------------------------------------------------

    def undo(self) -> list[dict[str, Any]]:
        """Undo the newest human batch of this origin; return its history rows (oldest first)."""
        store = self.svc.store
        with store.transaction():
            batch = history.last_undoable_batch(store, self.svc.origin)
            if batch is None:
                raise NotFoundError("Nothing to undo.")
            return self._undo_rows(history.undoable_batch_rows(store, batch, self.svc.origin), batch)

    def undo_batch(self, batch: str) -> list[dict[str, Any]]:
        """Undo the named batch of this origin (the dashboard's Ctrl+Z names the step it shows)."""
        store = self.svc.store
        with store.transaction():
            rows = history.undoable_batch_rows(store, batch, self.svc.origin)
            if not rows:
                raise NotFoundError("That step is no longer there to undo (it was undone already, or never stored).")
            return self._undo_rows(rows, batch)

    def _undo_rows(self, rows: list[dict[str, Any]], batch: str) -> list[dict[str, Any]]:
        self._refuse_if_superseded(rows)
        undo_batch = _batch_id()
        for row in reversed(rows):
            self._revert(row, undo_batch)
        history.mark_undone(self.svc.store, batch)
        return rows

    def _refuse_if_superseded(self, rows: list[dict[str, Any]]) -> None:
        """Refuse an undo whose rows were overwritten since by another actor (the archive sweep,
        another window, the CLI): putting back their ``before`` would silently undo that
        later change too, e.g. revive an archived candidate next to its pending twin."""
        last_after: dict[tuple[str, int], dict[str, Any] | None] = {}
        for row in rows:  # the state this batch left each entity in is its last row's 'after'
            if row["entity"] in _TABLES:
                last_after[(row["entity"], int(row["entity_id"]))] = row["after"]
        for (entity, entity_id), after in last_after.items():
            current = _TABLES[entity][0](self.svc.store, entity_id)
            if after is None or current is None:
                continue
            changed = [key for key, value in after.items() if key not in _VOLATILE and current.get(key) != value]
            if changed:
                status = current["status"] if "status" in changed else None
                if entity == "candidate":
                    raise ConflictError(
                        "Candidate {entity_id} has changed since (it is now {status})." if status
                        else "Candidate {entity_id} has changed since.",
                        entity_id=entity_id, status=status,
                    )
                raise ConflictError(
                    "Memory {entity_id} has changed since (it is now {status})." if status
                    else "Memory {entity_id} has changed since.",
                    entity_id=entity_id, status=status,
                )

    def _revert(self, row: dict[str, Any], undo_batch: str) -> None:
        store = self.svc.store
        entity, entity_id = row["entity"], row["entity_id"]
        before, after = row["before"], row["after"]
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
            origin=self.svc.origin, person=self.person(),
        )
        self._touched.add(_KIND_OF_ENTITY[entity])
