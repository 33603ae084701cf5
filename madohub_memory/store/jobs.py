"""Background job status rows (one per job name) and the run lock between processes."""

from __future__ import annotations

import json
from typing import Any

from madohub_memory.store.database import Store
from madohub_memory.store.redaction import redact_text


def _decoded(row: Any) -> dict[str, Any]:
    out = dict(row)
    out["counts"] = json.loads(out["counts"]) if out.get("counts") else None
    return out


def get(store: Store, name: str) -> dict[str, Any] | None:
    row = store.query_one("SELECT * FROM jobs WHERE name = ?", (name,))
    return _decoded(row) if row else None


def all_rows(store: Store) -> dict[str, dict[str, Any]]:
    """Every job's row; ``counts`` decoded (what its last run did per action, or ``None``)."""
    return {r["name"]: _decoded(r) for r in store.query("SELECT * FROM jobs")}


def try_start(
    store: Store, name: str, owner: str, now: str, stale_before: str, *, orphan: str | None = None,
) -> bool:
    """Mark a job as running by ``owner`` unless another live owner runs it already.

    ``orphan``: a run mark whose process is known to be gone, taken over whatever its age.
    """
    with store.transaction():
        store.execute("INSERT OR IGNORE INTO jobs (name) VALUES (?)", (name,))
        changed = store.execute(
            "UPDATE jobs SET running_by = ?, running_since = ? WHERE name = ?"
            " AND (running_by IS NULL OR running_by = ? OR running_by = ? OR running_since < ?)",
            (owner, now, name, owner, orphan, stale_before),
        ).rowcount
    return changed == 1


def finish(
    store: Store, name: str, owner: str, *, now: str, next_run: str | None, processed: int,
    error: str | None, duration_ms: int, counts: dict[str, int] | None = None,
) -> None:
    with store.transaction():
        store.execute("INSERT OR IGNORE INTO jobs (name) VALUES (?)", (name,))
        store.execute(
            "UPDATE jobs SET last_run = ?, next_run = COALESCE(?, next_run), processed = ?, counts = ?,"
            " total_processed = total_processed + ?, runs = runs + 1, last_duration_ms = ?,"
            " last_error = ?,"
            " last_error_at = CASE WHEN CAST(? AS TEXT) IS NULL THEN last_error_at ELSE ? END,"  # typed for PostgreSQL
            " running_by = CASE WHEN running_by = ? THEN NULL ELSE running_by END,"
            " running_since = CASE WHEN running_by = ? THEN NULL ELSE running_since END"
            " WHERE name = ?",
            (now, next_run, processed, None if counts is None else json.dumps(counts, sort_keys=True), processed,
             duration_ms, redact_text(error), error, now,
             owner, owner, name),
        )


def set_next_run(store: Store, name: str, next_run: str | None) -> None:
    with store.transaction():
        store.execute("INSERT OR IGNORE INTO jobs (name) VALUES (?)", (name,))
        store.execute("UPDATE jobs SET next_run = ? WHERE name = ?", (next_run, name))
