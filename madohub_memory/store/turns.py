"""Queries on conversations and turns (read side; the ingest capability adds the writers)."""

from __future__ import annotations

from typing import Any

from madohub_memory.store.database import Store


def get_turn(store: Store, turn_id: str) -> dict[str, Any] | None:
    row = store.query_one("SELECT * FROM turns WHERE id = ?", (turn_id,))
    return dict(row) if row else None


def get_conversation(store: Store, conversation_id: str) -> dict[str, Any] | None:
    row = store.query_one("SELECT * FROM conversations WHERE id = ?", (conversation_id,))
    return dict(row) if row else None


def turns_around(store: Store, conversation_id: str, seq: int, radius: int) -> list[dict[str, Any]]:
    rows = store.query(
        "SELECT * FROM turns WHERE conversation_id = ? AND seq BETWEEN ? AND ? ORDER BY seq",
        (conversation_id, seq - radius, seq + radius),
    )
    return [dict(r) for r in rows]


def conversation_turns(store: Store, conversation_id: str) -> list[dict[str, Any]]:
    rows = store.query(
        "SELECT * FROM turns WHERE conversation_id = ? ORDER BY seq", (conversation_id,)
    )
    return [dict(r) for r in rows]
