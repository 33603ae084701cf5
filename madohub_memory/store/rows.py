"""Generic single-row writes by id, shared by the candidate and memory tables.

Column names come from each table module's fixed column list, never from input, so the
f-strings below only ever interpolate known identifiers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from madohub_memory.store.database import Store


def by_ids(store: Store, select: str, id_column: str, ids: Sequence[int]) -> dict[int, dict[str, Any]]:
    """``select`` (a query without its WHERE) for ``ids``, as rows keyed by id: a lazy
    table's page of rows, fetched in chunks that stay under SQLite's variable limit."""
    result: dict[int, dict[str, Any]] = {}
    for start in range(0, len(ids), 500):
        chunk = list(ids[start : start + 500])
        for row in store.query(f"{select} WHERE {id_column} IN ({', '.join('?' * len(chunk))})", chunk):
            result[row["id"]] = dict(row)
    return result


def insert(store: Store, table: str, columns: Sequence[str], values: dict[str, Any]) -> int:
    from madohub_memory.store.redaction import redact_row  # not at import: reads need no scanner

    values = redact_row(table, values)
    names = [c for c in columns if c in values]
    cur = store.execute(
        f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})",
        [values[c] for c in names],
    )
    return int(cur.lastrowid or 0)


def update(store: Store, table: str, row_id: int, values: dict[str, Any]) -> None:
    if not values:
        return
    from madohub_memory.store.redaction import redact_row

    values = redact_row(table, values)
    assignments = ", ".join(f"{c} = ?" for c in values)
    store.execute(f"UPDATE {table} SET {assignments} WHERE id = ?", [*values.values(), row_id])


def upsert(store: Store, table: str, columns: Sequence[str], row: dict[str, Any]) -> None:
    """Insert or overwrite a row by id (an UPSERT, so ON DELETE CASCADE never fires)."""
    from madohub_memory.store.redaction import redact_row

    row = redact_row(table, row)
    names = [c for c in columns if c in row]
    updates = ", ".join(f"{c} = excluded.{c}" for c in names if c != "id")
    store.execute(
        f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})"
        f" ON CONFLICT(id) DO UPDATE SET {updates}",
        [row[c] for c in names],
    )


def delete(store: Store, table: str, row_id: int) -> None:
    store.execute(f"DELETE FROM {table} WHERE id = ?", (row_id,))
