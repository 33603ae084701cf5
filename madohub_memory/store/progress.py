"""Rows of ``work_progress``: how far each running import or extraction has come (m0016)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from madohub_memory.store.database import Store
from madohub_memory.store.redaction import redact_row


def put(store: Store, owner: str, work: str, done: int, total: int, detail: dict[str, Any], now: str) -> None:
    row = redact_row("work_progress", {"detail": json.dumps(detail, ensure_ascii=False)})
    with store.transaction():
        store.execute(
            "INSERT INTO work_progress (owner, work, done, total, detail, started_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(owner) DO UPDATE SET work = excluded.work,"
            " done = excluded.done, total = excluded.total, detail = excluded.detail,"
            " updated_at = excluded.updated_at",
            (owner, work, done, total, row["detail"], now, now),
        )


def remove(store: Store, owners: Sequence[str]) -> None:
    if not owners:
        return
    with store.transaction():
        store.execute(f"DELETE FROM work_progress WHERE owner IN ({','.join('?' * len(owners))})", tuple(owners))


def rows(store: Store) -> list[dict[str, Any]]:
    """Every row, oldest first."""
    out = []
    for r in store.query("SELECT * FROM work_progress ORDER BY started_at, owner"):
        row = dict(r)
        try:
            row["detail"] = json.loads(row["detail"] or "{}")
        except ValueError:
            row["detail"] = {}
        out.append(row)
    return out
