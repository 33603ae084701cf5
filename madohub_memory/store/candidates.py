"""Queries on candidates and their sightings."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, Any

from madohub_memory.store import rows
from madohub_memory.store.database import Store

if TYPE_CHECKING:
    from madohub_memory.core.types import Candidate

CANDIDATE_COLUMNS = (
    "id", "content", "kind", "namespace", "source", "confidence", "seen_count", "status",
    "flags", "fingerprint", "memory_id", "created_at", "updated_at", "decided_by",
)
SIGHTING_COLUMNS = ("id", "candidate_id", "turn_id", "source", "confidence", "actor", "seen_at", "session",
                    "source_key")


def candidate_fields(row: sqlite3.Row, turn_ids: list[str] | None = None) -> dict[str, Any]:
    """A candidate row as the fields of :class:`~madohub_memory.core.types.Candidate`, in the
    class's order (``flags`` a tuple). Listing the queue builds these plain dicts: the
    ``pending`` command imports no dataclass machinery (start-up time, issue 11)."""
    return {
        "id": row["id"], "content": row["content"], "kind": row["kind"], "namespace": row["namespace"],
        "source": row["source"], "confidence": row["confidence"], "seen_count": row["seen_count"],
        "status": row["status"], "flags": tuple(f for f in row["flags"].split(",") if f),
        "fingerprint": row["fingerprint"], "created_at": row["created_at"],
        "updated_at": row["updated_at"], "memory_id": row["memory_id"], "turn_ids": turn_ids or [],
        "decided_by": row["decided_by"],
    }


def row_to_candidate(row: sqlite3.Row, turn_ids: list[str] | None = None) -> Candidate:
    from madohub_memory.core.types import Candidate  # loaded by the first caller that wants objects

    return Candidate(**candidate_fields(row, turn_ids))


def get_row(store: Store, candidate_id: int) -> dict[str, Any] | None:
    row = store.query_one("SELECT * FROM candidates WHERE id = ?", (candidate_id,))
    return dict(row) if row else None


def get(store: Store, candidate_id: int) -> Candidate | None:
    row = store.query_one("SELECT * FROM candidates WHERE id = ?", (candidate_id,))
    if row is None:
        return None
    return row_to_candidate(row, turn_ids(store, candidate_id))


def turn_ids(store: Store, candidate_id: int) -> list[str]:
    rows = store.query(
        "SELECT turn_id FROM candidate_sightings"  # GROUP BY, not DISTINCT: PostgreSQL too
        " WHERE candidate_id = ? AND turn_id IS NOT NULL GROUP BY turn_id ORDER BY MIN(id)",
        (candidate_id,),
    )
    return [r[0] for r in rows]


def find_by_fingerprint(
    store: Store, fp: str, namespace: str, kind: str
) -> sqlite3.Row | None:
    """The candidate with this fingerprint; an approved or rejected one wins over a pending one."""
    return store.query_one(
        "SELECT * FROM candidates WHERE fingerprint = ? AND namespace = ? AND kind = ?"
        " AND status != 'archived'"
        " ORDER BY CASE status WHEN 'approved' THEN 0 WHEN 'rejected' THEN 1 ELSE 2 END, id"
        " LIMIT 1",
        (fp, namespace, kind),
    )


def pending_twin(store: Store, row: dict[str, Any]) -> int | None:
    """Another pending candidate with the same text, namespace and kind as ``row``."""
    found = store.query_one(
        "SELECT id FROM candidates WHERE fingerprint = ? AND namespace = ? AND kind = ? AND status = 'pending'"
        " AND id != ? LIMIT 1",
        (row["fingerprint"], row["namespace"], row["kind"], row["id"]),
    )
    return int(found[0]) if found else None


def pending_starting_with(store: Store, prefix: str, namespace: str, kind: str) -> sqlite3.Row | None:
    """The oldest pending candidate of this namespace and kind whose text starts with ``prefix``."""
    return store.query_one(
        "SELECT * FROM candidates WHERE namespace = ? AND kind = ? AND status = 'pending'"
        " AND substr(content, 1, ?) = ? ORDER BY id LIMIT 1",
        (namespace, kind, len(prefix), prefix),
    )


def insert(store: Store, values: dict[str, Any]) -> int:
    return rows.insert(store, "candidates", CANDIDATE_COLUMNS, values)


def update(store: Store, row_id: int, values: dict[str, Any]) -> None:
    rows.update(store, "candidates", row_id, values)


def upsert_row(store: Store, row: dict[str, Any]) -> None:
    rows.upsert(store, "candidates", CANDIDATE_COLUMNS, row)


def delete(store: Store, row_id: int) -> None:
    rows.delete(store, "candidates", row_id)


def add_sighting(store: Store, values: dict[str, Any]) -> int:
    return rows.insert(store, "candidate_sightings", SIGHTING_COLUMNS, values)


def known_source_keys(store: Store, candidate_id: int, keys: list[str]) -> set[str]:
    """Which of ``keys`` already have a sighting on the candidate (m0009)."""
    if not keys:
        return set()
    found = store.query(
        f"SELECT DISTINCT source_key FROM candidate_sightings WHERE candidate_id = ?"
        f" AND source_key IN ({', '.join('?' * len(keys))})",
        (candidate_id, *keys),
    )
    return {r[0] for r in found}


def turn_conversations(store: Store, turn_ids: list[str]) -> dict[str, str]:
    """The conversation of each stored turn among ``turn_ids`` (unknown ids are left out)."""
    if not turn_ids:
        return {}
    found = store.query(
        f"SELECT id, conversation_id FROM turns WHERE id IN ({', '.join('?' * len(turn_ids))})",
        tuple(turn_ids),
    )
    return {r[0]: r[1] for r in found}


def fields_by_status(
    store: Store,
    status: str = "pending",
    *,
    kind: str | None = None,
    namespace: str | None = None,
    limit: int | None = None,
) -> list[dict[str, Any]]:
    """The candidates in ``status`` (optionally of one kind and namespace), oldest first, as
    :func:`candidate_fields` dicts with their turn ids."""
    sql = "SELECT * FROM candidates WHERE status = ?"
    params: list[Any] = [status]
    if kind:
        sql += " AND kind = ?"
        params.append(kind)
    if namespace:
        sql += " AND namespace = ?"
        params.append(namespace)
    sql += " ORDER BY id"
    if limit:
        sql += " LIMIT ?"
        params.append(limit)
    rows = store.query(sql, params)
    ids = [r["id"] for r in rows]
    turns = turn_ids_for(store, ids)
    return [candidate_fields(r, turns.get(r["id"], [])) for r in rows]


def turn_ids_for(store: Store, candidate_ids: list[int]) -> dict[int, list[str]]:
    result: dict[int, list[str]] = {}
    for start in range(0, len(candidate_ids), 500):
        chunk = candidate_ids[start : start + 500]
        rows = store.query(
            "SELECT candidate_id, turn_id FROM candidate_sightings WHERE turn_id IS NOT NULL"
            f" AND candidate_id IN ({', '.join('?' * len(chunk))}) ORDER BY id",
            chunk,
        )
        for cid, tid in rows:
            ids = result.setdefault(cid, [])
            if tid not in ids:
                ids.append(tid)
    return result


def stale_pending_ids(store: Store, cutoff_iso: str) -> list[int]:
    rows = store.query(
        "SELECT id FROM candidates WHERE status = 'pending' AND updated_at < ? ORDER BY id",
        (cutoff_iso,),
    )
    return [r[0] for r in rows]


def auto_approve_ids(
    store: Store, min_seen: int, min_confidence: float, excluded_kinds: list[str],
    only: list[int] | None = None,
) -> list[int]:
    """Pending candidates the auto-approve policy promotes (among ``only`` when given).

    Sightings must come from ``min_seen`` distinct sessions (conversations or agent
    sessions): one agent repeating ``remember`` cannot promote its own text (m0009)."""
    sql = (
        "SELECT id FROM candidates WHERE status = 'pending' AND flags = ''"
        " AND seen_count >= ? AND confidence >= ?"
        " AND (SELECT COUNT(DISTINCT COALESCE(s.session, 'sighting:' || s.id)) FROM candidate_sightings s"
        "      WHERE s.candidate_id = candidates.id) >= ?"
    )
    params: list[Any] = [min_seen, min_confidence, min_seen]
    if only is not None:
        sql += f" AND id IN ({', '.join('?' * len(only))})" if only else " AND 0"
        params.extend(only)
    if excluded_kinds:
        sql += f" AND kind NOT IN ({', '.join('?' * len(excluded_kinds))})"
        params.extend(excluded_kinds)
    return [r[0] for r in store.query(sql + " ORDER BY id", params)]


def link_remember_sighting(store: Store, candidate_id: int, turn_id: str) -> bool:
    """Give the first ``remember`` sighting of a candidate that came without a turn (an agent's
    MCP call) the turn of that call, read later from the agent's transcript. True if one was."""
    cursor = store.execute(
        "UPDATE candidate_sightings SET turn_id = ? WHERE id = (SELECT MIN(id) FROM candidate_sightings"
        " WHERE candidate_id = ? AND source = 'remember' AND turn_id IS NULL)", (turn_id, candidate_id))
    return bool(cursor.rowcount)
