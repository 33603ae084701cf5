"""Approved memory: list, edit, delete, pin, deprecate (each change undoable)."""

from __future__ import annotations

import builtins
from typing import TYPE_CHECKING, Any

from madohub_memory.core.errors import ConflictError, NotFoundError, ValidationError
from madohub_memory.core.types import Memory
from madohub_memory.core.vocab import MEMORY_STATUSES, validate_namespace
from madohub_memory.services.edits import edit_values
from madohub_memory.store import memories as memory_rows

if TYPE_CHECKING:
    from madohub_memory.services import Services


class MemoryService:
    def __init__(self, svc: Services) -> None:
        self.svc = svc
        self.changes = svc.changelog

    def get(self, memory_id: int) -> Memory:
        memory = memory_rows.get(self.svc.store, memory_id)
        if memory is None:
            raise NotFoundError("No memory with id {memory_id}.", memory_id=memory_id)
        return memory

    def list(self, namespace: str | None = None, status: str | None = "active") -> list[Memory]:
        namespace = validate_namespace(namespace) if namespace else None
        if status is not None and status not in MEMORY_STATUSES:
            raise ValidationError(
                "Unknown status {status!r}: use one of {choices}.",
                status=status, choices=', '.join(MEMORY_STATUSES),
            )
        return memory_rows.list_memories(self.svc.store, namespace=namespace, status=status)

    def _require(self, memory_id: int) -> dict[str, Any]:
        row = memory_rows.get_row(self.svc.store, memory_id)
        if row is None:
            raise NotFoundError("No memory with id {memory_id}.", memory_id=memory_id)
        return row

    def _change(self, memory_id: int, action: str, values: dict[str, Any], actor: str = "human") -> None:
        with self.changes.batch():
            before = self._require(memory_id)
            now = self.svc.clock.now_iso()
            values = {**values, "updated_at": now}
            if actor == "human":  # "edited by wei": the last person who changed it by hand
                values.update(edited_by=self.changes.person(), edited_at=now)
            memory_rows.update(self.svc.store, memory_id, values)
            self.changes.record(
                "memory", memory_id, action, actor, before, memory_rows.get_row(self.svc.store, memory_id)
            )

    def edit(
        self,
        memory_id: int,
        *,
        content: str | None = None,
        kind: str | None = None,
        namespace: str | None = None,
    ) -> None:
        values = edit_values(self.svc, content, kind, namespace)
        if not values:
            raise ValidationError("Nothing to change: give --content, --kind or --namespace.")
        from madohub_memory.store.fts_text import warm

        warm(values.get("content"))
        self._change(memory_id, "edit", values)

    def pin(self, memory_id: int, pinned: bool = True) -> None:
        self._change(memory_id, "pin" if pinned else "unpin", {"pinned": int(pinned)})

    def set_status(self, memory_id: int, status: str, actor: str = "human") -> None:
        if status not in MEMORY_STATUSES:
            raise ValidationError(
                "Unknown status {status!r}: use one of {choices}.",
                status=status, choices=', '.join(MEMORY_STATUSES),
            )
        self._change(memory_id, status, {"status": status}, actor)

    def restore(self, memory_id: int) -> None:
        """An archived (by the decay or a person) or deprecated memory back in recall; it
        counts as a person's change, so the decay's age rules start again from now."""
        with self.changes.batch():
            if self._require(memory_id)["status"] == "active":
                raise ConflictError("Memory {memory_id} is active already: there is nothing to restore.",
                                    memory_id=memory_id)
            self._change(memory_id, "restore", {"status": "active"})

    def delete(self, memory_id: int) -> None:
        """Delete a memory; the full row stays in history, so undo brings it back."""
        with self.changes.batch():
            before = self._require(memory_id)
            memory_rows.delete(self.svc.store, memory_id)
            self.changes.record("memory", memory_id, "delete", "human", before, None)

    def undo(self) -> builtins.list[dict[str, Any]]:
        return self.changes.undo()
