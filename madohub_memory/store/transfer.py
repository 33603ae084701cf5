"""Raw table access for the lossless JSONL export/import.

Tables are exported in dependency order. Other capabilities that keep user data append
their table names to ``EXPORT_TABLES`` (derived data such as embeddings or search indexes
is rebuilt, not exported).
"""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Iterator
from typing import Any

from madohub_memory.store.database import Store
from madohub_memory.store.redaction import redact_row

EXPORT_TABLES: list[str] = [
    "settings",
    "conversations",
    "turns",
    "candidates",
    "candidate_sightings",
    "memories",
    "history",
    "working_memory",
    "working_items",
    "decisions",
    "decision_proposals",
]


def existing_tables(store: Store) -> list[str]:
    names = store.tables()
    return [t for t in EXPORT_TABLES if t in names]


def columns(store: Store, table: str) -> list[str]:
    return store.columns(table)


def primary_key(store: Store, table: str) -> list[str]:
    return store.primary_key(table)


def iter_rows(store: Store, table: str) -> Iterator[dict[str, Any]]:
    order = ", ".join(primary_key(store, table)) or "rowid"
    for row in store.conn.execute(f"SELECT * FROM {table} ORDER BY {order}"):
        yield redact_row(table, dict(row))  # rows stored before a scanner update are masked too


def count_rows(store: Store, table: str) -> int:
    return int(store.scalar(f"SELECT COUNT(*) FROM {table}"))


def insert_row(store: Store, table: str, row: dict[str, Any]) -> None:
    """Insert one exported row as it was (secrets masked); raises sqlite3 errors on conflicts or bad values."""
    row = redact_row(table, row)
    names = list(row)
    store.execute(
        f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})",
        [row[n] for n in names],
    )


def __getattr__(name: str) -> Any:
    """``IntegrityError`` and ``DatabaseError`` of both backends (PostgreSQL's only once its
    driver is loaded: no store of it can exist before), for ``except raw.IntegrityError``."""
    if name in ("IntegrityError", "DatabaseError"):
        found: list[type[BaseException]] = [getattr(sqlite3, name)]
        driver = sys.modules.get("psycopg")
        if driver is not None:
            found.append(getattr(driver, name))
        return tuple(found)
    raise AttributeError(name)
