"""Today's model-extraction usage (calls, tokens) and a pause, as one row of the settings table.

Kept under a key that is not a setting (the settings registry does not list it, so
``settings list`` does not show it and ``settings set`` refuses it). Every process that
extracts (worker, hook, CLI, dashboard) counts in the same row; the check and the count
happen in one write transaction, so two processes cannot both take the last call.
"""

from __future__ import annotations

import json
from typing import Any

from madohub_memory.store.database import Store

KEY = "_state.extraction.llm_usage"


def _read(store: Store) -> dict[str, Any]:
    row = store.query_one("SELECT value FROM settings WHERE key = ?", (KEY,))
    try:
        data = json.loads(row[0]) if row else {}
    except ValueError:
        data = {}
    return data if isinstance(data, dict) else {}


def _write(store: Store, data: dict[str, Any], at: str) -> None:
    store.execute(
        "INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)"
        " ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
        (KEY, json.dumps(data, sort_keys=True), at),
    )


def today(store: Store, day: str) -> dict[str, Any]:
    """``{"day", "calls", "tokens", "paused_until", "pause_reason"}`` for ``day`` (zeros on a new day)."""
    data = _read(store)
    fresh = data.get("day") != day
    return {
        "day": day,
        "calls": 0 if fresh else int(data.get("calls", 0)),
        "tokens": 0 if fresh else int(data.get("tokens", 0)),
        "paused_until": data.get("paused_until"),
        "pause_reason": data.get("pause_reason"),
    }


def take_call(store: Store, day: str, max_calls: int, max_tokens: int, estimate: int, at: str) -> tuple[bool, dict[str, Any]]:
    """Count one call if the day's limits allow it (0 = no limit); returns (allowed, usage)."""
    with store.transaction():
        usage = today(store, day)
        over_calls = max_calls > 0 and usage["calls"] >= max_calls
        over_tokens = max_tokens > 0 and usage["tokens"] + estimate > max_tokens
        if over_calls or over_tokens:
            return False, usage
        usage["calls"] += 1
        _write(store, usage, at)
        return True, usage


def add_tokens(store: Store, day: str, tokens: int, at: str) -> None:
    with store.transaction():
        usage = today(store, day)
        usage["tokens"] += max(0, int(tokens))
        _write(store, usage, at)


def pause(store: Store, day: str, until: str | None, reason: str | None, at: str) -> None:
    with store.transaction():
        usage = today(store, day)
        usage["paused_until"], usage["pause_reason"] = until, reason
        _write(store, usage, at)
