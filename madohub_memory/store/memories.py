"""Queries on approved memories."""

from __future__ import annotations

import sqlite3
from typing import Any

from madohub_memory.core.types import Memory
from madohub_memory.store import rows
from madohub_memory.store.database import Store

MEMORY_COLUMNS = (
    "id", "candidate_id", "content", "kind", "namespace", "fingerprint", "pinned", "weight",
    "hit_count", "last_hit_at", "reinforced_count", "status", "created_at", "updated_at",
    "approved_by", "edited_by", "edited_at",
)


def row_to_memory(row: sqlite3.Row | dict[str, Any], turn_ids: list[str] | None = None) -> Memory:
    return Memory(
        id=row["id"], candidate_id=row["candidate_id"], content=row["content"],
        kind=row["kind"], namespace=row["namespace"], pinned=bool(row["pinned"]),
        weight=row["weight"], hit_count=row["hit_count"], last_hit_at=row["last_hit_at"],
        reinforced_count=row["reinforced_count"], status=row["status"],
        created_at=row["created_at"], updated_at=row["updated_at"], turn_ids=turn_ids or [],
        approved_by=row["approved_by"], edited_by=row["edited_by"], edited_at=row["edited_at"],
    )


def get_row(store: Store, memory_id: int) -> dict[str, Any] | None:
    row = store.query_one("SELECT * FROM memories WHERE id = ?", (memory_id,))
    return dict(row) if row else None


def turn_ids(store: Store, memory_id: int) -> list[str]:
    rows = store.query(
        "SELECT s.turn_id FROM memories m"  # GROUP BY, not DISTINCT: PostgreSQL too
        " JOIN candidate_sightings s ON s.candidate_id = m.candidate_id"
        " WHERE m.id = ? AND s.turn_id IS NOT NULL GROUP BY s.turn_id ORDER BY MIN(s.id)",
        (memory_id,),
    )
    return [r[0] for r in rows]


def get(store: Store, memory_id: int) -> Memory | None:
    row = store.query_one("SELECT * FROM memories WHERE id = ?", (memory_id,))
    return row_to_memory(row, turn_ids(store, memory_id)) if row else None


def find_active_by_fingerprint(
    store: Store, fp: str, namespace: str, kind: str
) -> sqlite3.Row | None:
    return store.query_one(
        "SELECT * FROM memories WHERE fingerprint = ? AND namespace = ? AND kind = ?"
        " AND status = 'active' ORDER BY id LIMIT 1",
        (fp, namespace, kind),
    )


def insert(store: Store, values: dict[str, Any]) -> int:
    return rows.insert(store, "memories", MEMORY_COLUMNS, values)


def update(store: Store, row_id: int, values: dict[str, Any]) -> None:
    rows.update(store, "memories", row_id, values)


def upsert_row(store: Store, row: dict[str, Any]) -> None:
    rows.upsert(store, "memories", MEMORY_COLUMNS, row)


def delete(store: Store, row_id: int) -> None:
    rows.delete(store, "memories", row_id)


def list_memories(
    store: Store, *, namespace: str | None = None, status: str | None = "active"
) -> list[Memory]:
    sql = "SELECT * FROM memories WHERE 1 = 1"
    params: list[Any] = []
    if status:
        sql += " AND status = ?"
        params.append(status)
    if namespace:
        sql += " AND namespace = ?"
        params.append(namespace)
    rows = store.query(sql + " ORDER BY namespace, id", params)
    return [row_to_memory(r) for r in rows]
