"""Key/value settings stored as JSON text."""

from __future__ import annotations

import json
from typing import Any

from madohub_memory.core.secrets import redact_value
from madohub_memory.store.database import Store


def get_raw(store: Store, key: str) -> Any | None:
    row = store.query_one("SELECT value FROM settings WHERE key = ?", (key,))
    return json.loads(row[0]) if row else None


def set_raw(store: Store, key: str, value: Any, at: str) -> None:
    store.execute(
        "INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)"
        " ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
        (key, json.dumps(redact_value(value), ensure_ascii=False), at),
    )


def delete(store: Store, key: str) -> None:
    store.execute("DELETE FROM settings WHERE key = ?", (key,))
