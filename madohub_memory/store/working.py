"""Working memory rows: one ``working_memory`` row per workspace plus its ``working_items``.

Items are decisions (with a reason), rejected approaches (with a reason), constraints,
pending to-dos (open or resolved) and files touched.
"""

from __future__ import annotations

from typing import Any

from madohub_memory.store.database import Store
from madohub_memory.store.redaction import redact_text


def get(store: Store, workspace: str) -> dict[str, Any] | None:
    row = store.query_one("SELECT * FROM working_memory WHERE workspace = ?", (workspace,))
    return dict(row) if row else None


def ensure(store: Store, workspace: str, now: str) -> None:
    store.execute(
        "INSERT INTO working_memory (workspace, updated_at) VALUES (?, ?)"
        " ON CONFLICT(workspace) DO UPDATE SET updated_at = excluded.updated_at",
        (workspace, now),
    )


def set_task(store: Store, workspace: str, task: str | None, now: str) -> None:
    store.execute(
        "UPDATE working_memory SET task = ?, task_started_at = ?, updated_at = ? WHERE workspace = ?",
        (redact_text(task), now if task else None, now, workspace),
    )


def add_item(store: Store, workspace: str, item: str, text: str, reason: str | None, now: str) -> int:
    cur = store.execute(
        "INSERT INTO working_items (workspace, item, text, reason, status, created_at, updated_at)"
        " VALUES (?, ?, ?, ?, 'open', ?, ?)",
        (workspace, item, redact_text(text), redact_text(reason), now, now),
    )
    return int(cur.lastrowid or 0)


def find_open(store: Store, workspace: str, item: str, text: str) -> dict[str, Any] | None:
    row = store.query_one(
        "SELECT * FROM working_items WHERE workspace = ? AND item = ? AND text = ? AND status = 'open'",
        (workspace, item, redact_text(text)),
    )
    return dict(row) if row else None


def touch_item(store: Store, item_id: int, now: str) -> None:
    store.execute("UPDATE working_items SET updated_at = ? WHERE id = ?", (now, item_id))


def items(store: Store, workspace: str, item: str | None = None, status: str | None = None) -> list[dict[str, Any]]:
    sql = "SELECT * FROM working_items WHERE workspace = ?"
    params: list[Any] = [workspace]
    if item:
        sql += " AND item = ?"
        params.append(item)
    if status:
        sql += " AND status = ?"
        params.append(status)
    return [dict(r) for r in store.query(sql + " ORDER BY id", params)]


def get_item(store: Store, item_id: int) -> dict[str, Any] | None:
    row = store.query_one("SELECT * FROM working_items WHERE id = ?", (item_id,))
    return dict(row) if row else None


def resolve(store: Store, item_id: int, now: str) -> None:
    store.execute("UPDATE working_items SET status = 'resolved', updated_at = ? WHERE id = ?", (now, item_id))


def clear_task_items(store: Store, workspace: str) -> None:
    """Forget what belonged to the finished task; hard constraints stay with the workspace."""
    store.execute("DELETE FROM working_items WHERE workspace = ? AND item != 'constraint'", (workspace,))


def workspaces(store: Store) -> list[str]:
    return [r[0] for r in store.query("SELECT workspace FROM working_memory ORDER BY updated_at DESC")]
