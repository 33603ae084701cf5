"""The history table: every change to a candidate, memory or setting, for audit and undo."""

from __future__ import annotations

import json
from typing import Any

from madohub_memory.store.database import Store
from madohub_memory.store.redaction import ENTITY_TABLES, redact_row, redact_snapshot


def record(
    store: Store,
    *,
    entity: str,
    entity_id: int | str,
    action: str,
    actor: str,
    at: str,
    before: dict[str, Any] | None,
    after: dict[str, Any] | None,
    batch: str,
    origin: str = "",
    person: str | None = None,
) -> int:
    if entity in ENTITY_TABLES:
        before, after = redact_snapshot(entity, before), redact_snapshot(entity, after)
    else:
        masked = redact_row("history", {"before": before, "after": after})
        before, after = masked["before"], masked["after"]
    cur = store.execute(
        "INSERT INTO history (entity, entity_id, action, actor, at, before, after, batch, origin, person)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            entity, str(entity_id), action, actor, at,
            None if before is None else json.dumps(before, ensure_ascii=False, sort_keys=True),
            None if after is None else json.dumps(after, ensure_ascii=False, sort_keys=True),
            batch, origin, person,
        ),
    )
    return int(cur.lastrowid or 0)


def last_undoable_batch(store: Store, origin: str) -> str | None:
    """The newest batch of human changes to candidates or memories made by ``origin`` that is
    not undone yet (settings are never taken back by undo)."""
    row = store.query_one(
        "SELECT batch FROM history WHERE undone = 0 AND action != 'undo' AND actor = 'human'"
        " AND entity != 'setting' AND origin = ? ORDER BY id DESC LIMIT 1",
        (origin,),
    )
    return row[0] if row else None


def undoable_batch_rows(store: Store, batch: str, origin: str) -> list[dict[str, Any]]:
    """The rows of ``batch`` when it is an undoable human batch of ``origin``, else ``[]``."""
    rows = store.query(
        "SELECT * FROM history WHERE batch = ? AND origin = ? AND undone = 0 AND action != 'undo'"
        " AND actor = 'human' AND entity != 'setting' ORDER BY id",
        (batch, origin),
    )
    return [decode(dict(r)) for r in rows]


def auto_created_memories(store: Store, memory_ids: list[int]) -> set[int]:
    """Which of ``memory_ids`` the auto-approve policy created (shown as such in the dashboard)."""
    found: set[int] = set()
    for start in range(0, len(memory_ids), 500):
        chunk = [str(i) for i in memory_ids[start : start + 500]]
        rows = store.query(
            "SELECT entity_id FROM history WHERE entity = 'memory' AND action = 'create' AND actor = 'auto'"
            f" AND entity_id IN ({', '.join('?' * len(chunk))})",
            chunk,
        )
        found.update(int(r[0]) for r in rows)
    return found


def auto_archives_after(store: Store, after: int) -> list[tuple[int, int]]:
    """(memory id, history id) of every memory the decay archived or evicted in a history row
    after ``after``, oldest first (read along the ``(actor, id)`` index)."""
    rows = store.query(
        "SELECT entity_id, id FROM history WHERE actor = 'auto' AND id > ? AND entity = 'memory'"
        " AND action IN ('archive', 'evict') ORDER BY id",
        (after,),
    )
    return [(int(r[0]), int(r[1])) for r in rows]


def batch_rows(store: Store, batch: str) -> list[dict[str, Any]]:
    rows = store.query("SELECT * FROM history WHERE batch = ? ORDER BY id", (batch,))
    return [decode(dict(r)) for r in rows]


def mark_undone(store: Store, batch: str) -> None:
    store.execute("UPDATE history SET undone = 1 WHERE batch = ?", (batch,))


def decode(row: dict[str, Any]) -> dict[str, Any]:
    for key in ("before", "after"):
        if row.get(key) is not None and isinstance(row[key], str):
            row[key] = json.loads(row[key])
    return row


def for_entity(store: Store, entity: str, entity_id: int | str) -> list[dict[str, Any]]:
    rows = store.query(
        "SELECT * FROM history WHERE entity = ? AND entity_id = ? ORDER BY id",
        (entity, str(entity_id)),
    )
    return [decode(dict(r)) for r in rows]


def recent(
    store: Store, *, entity: str | None = None, entity_id: int | str | None = None, person: str | None = None,
    limit: int = 50,
) -> list[dict[str, Any]]:
    """The newest changes, newest first (optionally of one entity or by one person)."""
    clauses: list[str] = []
    params: list[Any] = []
    if entity is not None:
        clauses.append("entity = ?")
        params.append(entity)
    if entity_id is not None:
        clauses.append("entity_id = ?")
        params.append(str(entity_id))
    if person is not None:
        clauses.append("person = ?")
        params.append(person)
    where = f" WHERE {' AND '.join(clauses)}" if clauses else ""
    rows = store.query(f"SELECT * FROM history{where} ORDER BY id DESC LIMIT ?", (*params, limit))
    return [decode(dict(r)) for r in rows]


def of_memory(store: Store, memory_id: int, limit: int = 50) -> list[dict[str, Any]]:
    """The changes of one memory and of the candidate it was approved from, newest first."""
    rows = store.query(
        "SELECT * FROM history WHERE (entity = 'memory' AND entity_id = ?) OR (entity = 'candidate'"
        " AND entity_id = (SELECT CAST(candidate_id AS TEXT) FROM memories WHERE id = ?)) ORDER BY id DESC LIMIT ?",
        (str(memory_id), memory_id, limit),
    )
    return [decode(dict(r)) for r in rows]
