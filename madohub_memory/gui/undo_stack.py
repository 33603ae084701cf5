"""The window's own undo stack: what Ctrl+Z takes back, known at the moment of the key.

Every decision or memory edit the window makes runs in a history batch whose name the window
chooses up front and pushes here when the key is pressed. Ctrl+Z pops the newest entry at
once, so the view can put the candidate back and select it before the next key is handled,
and the worker undoes exactly that named batch (``ChangeLog.undo_batch``) after the decision
itself has been stored. Changes by the CLI, agents, the workers or another window are never
on this stack, and settings are never pushed: a queue Ctrl+Z cannot take them back.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any


@dataclass
class UndoEntry:
    """One undoable step of this window.

    ``kind``: ``approve`` or ``reject`` (queue decisions; ``rows`` holds, per candidate, the
    row it sat in, its table row and the draft it had) or ``memory`` (an edit, pin or
    delete in the Approved tab; ``memory_ids`` names them)."""

    kind: str
    rows: list[tuple[int, int, dict[str, Any] | None, dict[str, Any] | None]] = field(default_factory=list)
    memory_ids: list[int] = field(default_factory=list)
    action: str = ""
    batch: str = field(default_factory=lambda: uuid.uuid4().hex)

    @property
    def candidate_ids(self) -> list[int]:
        return [row[0] for row in self.rows]


class UndoStack:
    """Newest last; bounded so a long session does not grow without end."""

    LIMIT = 500

    def __init__(self) -> None:
        self._entries: list[UndoEntry] = []

    def push(self, entry: UndoEntry) -> UndoEntry:
        self._entries.append(entry)
        del self._entries[: -self.LIMIT]
        return entry

    def pop(self) -> UndoEntry | None:
        return self._entries.pop() if self._entries else None

    def discard(self, batch: str) -> None:
        """Forget a step whose write failed (there is nothing stored to undo)."""
        self._entries = [e for e in self._entries if e.batch != batch]

    def __len__(self) -> int:
        return len(self._entries)
