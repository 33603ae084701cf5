"""Queries on decision records, preference proposals and the decay-scan gate."""

from __future__ import annotations

import json
from typing import Any

from madohub_memory.store.database import Store
from madohub_memory.store.redaction import redact_row, redact_text

COLUMNS = (
    "decision_id", "timestamp", "point_key", "question", "user_choice", "all_options",
    "static_default", "context", "session", "transient", "source", "source_ref",
)


def _decode(row: Any) -> dict[str, Any]:
    data = dict(row)
    data["all_options"] = json.loads(data["all_options"])
    data["context"] = json.loads(data["context"] or "{}")
    data["transient"] = bool(data["transient"])
    return data


def insert(store: Store, record: dict[str, Any]) -> bool:
    """Insert one record; False when its ``source_ref`` was already captured."""
    values = redact_row("decisions", record)
    values["all_options"] = json.dumps(values["all_options"], ensure_ascii=False)
    values["context"] = json.dumps(values.get("context") or {}, ensure_ascii=False, sort_keys=True)
    values["transient"] = 1 if values.get("transient") else 0
    names = [c for c in COLUMNS if c in values]
    cursor = store.execute(
        f"INSERT OR IGNORE INTO decisions ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})",
        [values[n] for n in names],
    )
    return cursor.rowcount == 1


def known_refs(store: Store, refs: list[str]) -> set[str]:
    """Which of ``refs`` were captured already (so a re-read transcript costs no matching)."""
    found: set[str] = set()
    for start in range(0, len(refs), 500):
        chunk = refs[start:start + 500]
        marks = ", ".join("?" * len(chunk))
        found.update(r[0] for r in store.query(f"SELECT source_ref FROM decisions WHERE source_ref IN ({marks})", chunk))
    return found


def get(store: Store, decision_id: str) -> dict[str, Any] | None:
    row = store.query_one("SELECT * FROM decisions WHERE decision_id = ?", (decision_id,))
    return _decode(row) if row else None


def for_point(store: Store, point_key: str) -> list[dict[str, Any]]:
    rows = store.query(
        "SELECT * FROM decisions WHERE point_key = ? ORDER BY timestamp, rowid", (point_key,)
    )
    return [_decode(r) for r in rows]


def all_records(store: Store) -> list[dict[str, Any]]:
    rows = store.query("SELECT * FROM decisions ORDER BY point_key, timestamp, rowid")
    return [_decode(r) for r in rows]


def point_keys(store: Store) -> list[str]:
    rows = store.query(
        "SELECT point_key FROM decisions GROUP BY point_key ORDER BY MAX(timestamp) DESC"
    )
    return [r[0] for r in rows]


def session_count(store: Store) -> int:
    return int(store.scalar("SELECT COUNT(DISTINCT session) FROM decisions WHERE session IS NOT NULL"))


def latest_session(store: Store) -> str | None:
    row = store.query_one(
        "SELECT session FROM decisions WHERE session IS NOT NULL ORDER BY timestamp DESC, rowid DESC LIMIT 1"
    )
    return row[0] if row else None


def counts(store: Store) -> dict[str, int]:
    row = store.query_one(
        "SELECT COUNT(*), COUNT(DISTINCT point_key), COALESCE(SUM(transient), 0) FROM decisions"
    )
    assert row is not None  # an aggregate always has its row
    return {"records": int(row[0]), "points": int(row[1]), "transient": int(row[2])}


def delete_transient_before(store: Store, cutoff_iso: str) -> int:
    """Delete transient records older than ``cutoff_iso``; returns how many."""
    cursor = store.execute(
        "DELETE FROM decisions WHERE transient = 1 AND timestamp < ?", (cutoff_iso,)
    )
    return int(cursor.rowcount)


def proposal(store: Store, point_key: str, choice: str) -> dict[str, Any] | None:
    row = store.query_one(
        "SELECT * FROM decision_proposals WHERE point_key = ? AND choice = ?", (point_key, redact_text(choice))
    )
    return dict(row) if row else None


def add_proposal(store: Store, point_key: str, choice: str, candidate_id: int | None, at: str) -> None:
    store.execute(
        "INSERT OR IGNORE INTO decision_proposals (point_key, choice, candidate_id, proposed_at)"
        " VALUES (?, ?, ?, ?)",
        (point_key, redact_text(choice), candidate_id, at),
    )


def get_state(store: Store, key: str) -> str | None:
    row = store.query_one("SELECT value FROM decision_state WHERE key = ?", (key,))
    return row[0] if row else None


def set_state(store: Store, key: str, value: str) -> None:
    store.execute(
        "INSERT INTO decision_state (key, value) VALUES (?, ?)"
        " ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        (key, value),
    )
