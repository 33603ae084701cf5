"""Vectors of candidates and memories used by semantic dedup (table ``dedup_embeddings``).

Keyed by (entity, id, model); each row keeps the fingerprint of the text it encodes, so a
vector whose text was edited since is recognised as stale. The rows are derived data:
they are not exported and are recomputed when missing.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable
from typing import Any

from madohub_memory.store.database import Store
from madohub_memory.store.migrations.m0003_extraction import SCHEMA

_ENSURED: weakref.WeakSet[Store] = weakref.WeakSet()


def ensure_table(store: Store) -> None:
    """Create the table if an older file skipped migration 3 (migrations landed out of order)."""
    if store in _ENSURED:
        return
    store.execute(SCHEMA)
    _ENSURED.add(store)


def rows_after(store: Store, entity: str, after_id: int, upto_id: int, namespace: str, kind: str,
               model: str) -> list[dict[str, Any]]:
    """Entities of one (namespace, kind) with ``after_id < id <= upto_id``, with stored vectors if any.

    Memories count only while active; candidates in every status (a rejected one must
    still suppress its equivalents).
    """
    ensure_table(store)
    table = "candidates" if entity == "candidate" else "memories"
    active = " AND t.status = 'active'" if entity == "memory" else ""
    rows = store.query(
        f"SELECT t.id, t.content, t.fingerprint, e.fingerprint AS vfp, e.vector"
        f" FROM {table} t LEFT JOIN dedup_embeddings e"
        f"  ON e.entity = ? AND e.entity_id = t.id AND e.model = ?"
        f" WHERE t.id > ? AND t.id <= ? AND t.namespace = ? AND t.kind = ?{active} ORDER BY t.id",
        (entity, model, after_id, upto_id, namespace, kind),
    )
    return [dict(r) for r in rows]


def max_id(store: Store, entity: str) -> int:
    table = "candidates" if entity == "candidate" else "memories"
    row = store.query_one(f"SELECT COALESCE(MAX(id), 0) FROM {table}")
    return int(row[0]) if row else 0


def current(store: Store, entity: str, entity_id: int) -> dict[str, Any] | None:
    """The entity's current namespace, kind, fingerprint and status (to verify a cached match)."""
    table = "candidates" if entity == "candidate" else "memories"
    row = store.query_one(
        f"SELECT id, namespace, kind, fingerprint, status, content FROM {table} WHERE id = ?",
        (entity_id,),
    )
    return dict(row) if row else None


def save(store: Store, entity: str, items: Iterable[tuple[int, str, bytes]], model: str) -> None:
    """Store (id, fingerprint, vector) rows, replacing older vectors of the same ids."""
    ensure_table(store)
    rows = [(entity, entity_id, model, fp, blob) for entity_id, fp, blob in items]
    if not rows:
        return
    with store.transaction():
        store.conn.executemany(
            "INSERT OR REPLACE INTO dedup_embeddings (entity, entity_id, model, fingerprint, vector)"
            " VALUES (?, ?, ?, ?, ?)",
            rows,
        )


def count(store: Store) -> int:
    ensure_table(store)
    row = store.query_one("SELECT COUNT(*) FROM dedup_embeddings")
    return int(row[0]) if row else 0


# History actions that never change the text, kind or namespace of a row.
_TEXT_PRESERVING = ("create", "seen_again", "suppressed", "reinforce", "approve", "reject",
                    "restore", "archive")


def last_history_id(store: Store) -> int:
    row = store.query_one("SELECT COALESCE(MAX(id), 0) FROM history")
    return int(row[0]) if row else 0


def changed_since(store: Store, after_history_id: int) -> tuple[int, list[tuple[str, int]]]:
    """Candidates and memories whose text, kind or namespace may have changed (edits, undo,
    deletes) since history row ``after_history_id``; and the newest history id."""
    rows = store.query(
        # "+entity" keeps SQLite on the rowid range: with the entity index it would read
        # every candidate's history on each call, so submits slowed as the store grew.
        "SELECT id, entity, entity_id, action FROM history WHERE id > ?"
        " AND +entity IN ('candidate', 'memory') ORDER BY id",
        (after_history_id,),
    )
    if not rows:
        return after_history_id, []
    changed = {(r["entity"], int(r["entity_id"])) for r in rows if r["action"] not in _TEXT_PRESERVING}
    return int(rows[-1]["id"]), sorted(changed)
