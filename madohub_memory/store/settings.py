"""Key/value settings stored as JSON text."""

from __future__ import annotations

from typing import Any

from madohub_memory.store.database import Store


def get_raw(store: Store, key: str) -> Any | None:
    row = store.query_one("SELECT value FROM settings WHERE key = ?", (key,))
    if row is None:
        return None
    import json  # not at import: `pending` reads one unset key and never needs it

    return json.loads(row[0])


def all_raw(store: Store) -> dict[str, Any]:
    """Every stored setting in one query (a recall reads about ten of them)."""
    rows = store.query("SELECT key, value FROM settings")
    if not rows:
        return {}
    import json

    return {str(r[0]): json.loads(r[1]) for r in rows}


def set_raw(store: Store, key: str, value: Any, at: str) -> None:
    import json

    from madohub_memory.core.secrets import (
        redact_value,  # the scanner only for a write (reads are on `pending`'s path)
    )

    store.execute(
        "INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)"
        " ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
        (key, json.dumps(redact_value(value), ensure_ascii=False), at),
    )


def delete(store: Store, key: str) -> None:
    store.execute("DELETE FROM settings WHERE key = ?", (key,))
