"""Jump to the originating turn: a turn with the conversation around it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from madohub_memory.core.errors import NotFoundError
from madohub_memory.store import turns as turn_rows

if TYPE_CHECKING:
    from madohub_memory.services import Services


class TurnService:
    def __init__(self, svc: Services) -> None:
        self.svc = svc

    def context(self, turn_id: str, radius: int = 5) -> dict[str, Any]:
        """The turn, its conversation, and up to ``radius`` turns before and after it."""
        store = self.svc.store
        turn = turn_rows.get_turn(store, turn_id)
        if turn is None:
            raise NotFoundError("No turn with id {turn_id!r}.", turn_id=turn_id)
        conversation = turn_rows.get_conversation(store, turn["conversation_id"])
        turns = turn_rows.turns_around(store, turn["conversation_id"], turn["seq"], max(0, radius))
        focus = next(i for i, t in enumerate(turns) if t["id"] == turn_id)
        return {"conversation": conversation, "turns": turns, "focus": focus, "turn": turn}
