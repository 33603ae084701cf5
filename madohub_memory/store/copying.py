"""Store-to-store copying for ``transfer``: which tables, in what order, read and written by key.

Everything backend-specific about a copy is a function here (catalogue introspection,
sequences, the read snapshot, relaxed foreign keys), so a server backend replaces these
functions and the service (:mod:`madohub_memory.services.store_copy`) stays as it is.
Rows are read in primary-key order with keyset paging (``WHERE key > last ORDER BY key``),
so a batch is a bounded read however large the table, and the key of the last row copied
is all a resumed run needs.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from madohub_memory.store.database import Store
from madohub_memory.store.redaction import redact_row
from madohub_memory.store.transfer import EXPORT_TABLES, IntegrityError, columns, primary_key

__all__ = ["IntegrityError"]  # what a write that collides with a stored row raises (per backend)

# Copied, in dependency order (parents first). Everything a person or an agent put into the
# database, and what was computed from it at a cost (embeddings: the vector cache).
COPY_TABLES: list[str] = [
    *EXPORT_TABLES,  # what a person or an agent put into the database (the export's tables) ...
    "decision_state",  # ... and what was computed or kept beside it
    "embeddings",  # the vector cache, computed at a cost
    "recall_log",
    "recall_state",
    "ingest_files",
]

# Not copied, and why: each database keeps its own (a test checks every table is in one list).
NOT_COPIED: dict[str, str] = {
    "schema_migrations": "the target's own schema history",
    "sqlite_sequence": "advanced per table from the source's sequences",
    "memory_fts": "the keyword index, rebuilt by the target's triggers as memories arrive",
    "embedding_changes": "an in-process change feed, filled by the target's triggers",
    "jobs": "the status of this machine's background jobs",
    "transfer_state": "the progress of transfers into this database",
    "work_progress": "how far the imports running now on this database have come",
    # a server's own: its keyword index, its queue and statistics, its live-view counter
    "memory_terms": "the keyword index's postings, rebuilt as memories arrive",
    "fts_pending": "the keyword index's queue",
    "fts_stats": "the keyword index's statistics",
    "mh_data_version": "the server's live-view counter",
}

# Rows that stay behind: the source's identity (the target keeps its own).
ROW_FILTERS: dict[str, str] = {"recall_state": "key != 'index_id'"}


def _on_server(store: Store) -> bool:
    return store.backend == "postgresql"


def table_names(store: Store) -> set[str]:
    """Every table of the database (each backend asks its own catalogue)."""
    return store.tables()


def copied_tables(store: Store) -> list[str]:
    present = table_names(store)
    return [t for t in COPY_TABLES if t in present]


def schema_version(store: Store) -> int:
    return int(store.scalar("SELECT COALESCE(MAX(version), 0) FROM schema_migrations") or 0)


def database_id(store: Store) -> str | None:
    """The random id the database was given when it was created (m0004): two files with the
    same id are the same database (one is a copy of the other)."""
    value = store.scalar("SELECT value FROM recall_state WHERE key = 'index_id'")
    return None if value is None else str(value)


def key_columns(store: Store, table: str) -> list[str]:
    key = primary_key(store, table)
    if not key:
        raise RuntimeError(f"Table {table} has no primary key: it cannot be copied in key order.")
    return key


def column_names(store: Store, table: str) -> list[str]:
    return columns(store, table)


def _where(table: str, key: list[str], after: Sequence[Any] | None) -> tuple[str, list[Any]]:
    clauses: list[str] = []
    params: list[Any] = []
    if table in ROW_FILTERS:
        clauses.append(ROW_FILTERS[table])
    if after is not None:
        if len(key) == 1:
            clauses.append(f"{key[0]} > ?")
        else:  # a row value comparison: SQLite 3.15+ and PostgreSQL alike
            clauses.append(f"({', '.join(key)}) > ({', '.join('?' * len(key))})")
        params.extend(after)
    return (f" WHERE {' AND '.join(clauses)}" if clauses else ""), params


def count_rows(store: Store, table: str) -> int:
    where, params = _where(table, [], None)
    return int(store.scalar(f"SELECT COUNT(*) FROM {table}{where}", params) or 0)


def read_batch(
    store: Store, table: str, key: list[str], after: Sequence[Any] | None, limit: int,
) -> list[dict[str, Any]]:
    """The next ``limit`` rows after the key ``after`` (from the start when ``None``), in key order."""
    where, params = _where(table, key, after)
    rows = store.query(f"SELECT * FROM {table}{where} ORDER BY {', '.join(key)} LIMIT ?", [*params, limit])
    return [dict(r) for r in rows]


def insert_batch(store: Store, table: str, names: list[str], rows: list[dict[str, Any]]) -> None:
    """Insert rows as they are (ids kept), secrets masked as in an export; a row that is
    already there is an error (a resumed copy never writes one twice)."""
    sql = f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})"
    masked = [redact_row(table, row) for row in rows]
    if _on_server(store):
        from madohub_memory.store.pg import copying as pg

        with pg.self_references_unchecked(store, table):
            store.conn.executemany(sql, [[row.get(n) for n in names] for row in masked])
        return
    store.conn.executemany(sql, [[row.get(n) for n in names] for row in masked])


def sequence(store: Store, table: str) -> int | None:
    """The table's id counter (ids handed out so far, deleted ones included)."""
    if _on_server(store):
        from madohub_memory.store.pg import copying as pg

        return pg.sequence(store, table)
    if "sqlite_sequence" not in table_names(store):
        return None
    value = store.scalar("SELECT seq FROM sqlite_sequence WHERE name = ?", (table,))
    return None if value is None else int(value)


def advance_sequence(store: Store, table: str, value: int | None) -> None:
    """Make the target hand out ids after ``value``, as the source would: an id that the
    source gave to a deleted row (still named in history) is never given to another."""
    if _on_server(store):
        from madohub_memory.store.pg import copying as pg

        pg.advance_sequence(store, table, value)
        return
    if value is None or "sqlite_sequence" not in table_names(store):
        return
    current = store.scalar("SELECT seq FROM sqlite_sequence WHERE name = ?", (table,))
    if current is None:
        store.execute("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", (table, value))
    elif int(current) < value:
        store.execute("UPDATE sqlite_sequence SET seq = ? WHERE name = ?", (value, table))


@contextmanager
def read_snapshot(store: Store) -> Iterator[None]:
    """One consistent view of the source for a whole run, even while others write to it."""
    if _on_server(store):
        from madohub_memory.store.pg import copying as pg

        with pg.read_snapshot(store):
            yield
        return
    store.execute("BEGIN")
    try:
        yield
    finally:
        store.execute("COMMIT")


@contextmanager
def foreign_keys_relaxed(store: Store) -> Iterator[None]:
    """Foreign keys unchecked while copying: a conversation may sort before its parent and
    arrive one batch earlier. The copy is checked as a whole at the end
    (:func:`foreign_key_problems`). A server relaxes them per batch (:mod:`.pg.copying`)."""
    if _on_server(store):
        yield
        return
    store.execute("PRAGMA foreign_keys = OFF")
    try:
        yield
    finally:
        store.execute("PRAGMA foreign_keys = ON")


def foreign_key_problems(store: Store) -> int:
    if _on_server(store):
        from madohub_memory.store.pg import copying as pg

        return pg.foreign_key_problems(store)
    return len(store.query("PRAGMA foreign_key_check"))


def holds_data(store: Store) -> list[str]:
    """The copied tables that already hold rows (a fresh database holds none)."""
    return [t for t in copied_tables(store) if count_rows(store, t)]


# -- progress of a transfer into this database (m0014) -------------------------------------


def progress(store: Store) -> list[dict[str, Any]]:
    """The progress rows: {source_id, table_name, last_key (list), copied, done, source, updated_at}."""
    if "transfer_state" not in table_names(store):
        return []
    out: list[dict[str, Any]] = []
    for r in store.query("SELECT * FROM transfer_state ORDER BY source_id, table_name"):
        row = dict(r)
        row["last_key"] = json.loads(row["last_key"]) if row["last_key"] else None
        out.append(row)
    return out


def save_progress(
    store: Store, source_id: str, table: str, last_key: Sequence[Any] | None, copied: int, done: bool,
    source: str, at: str,
) -> None:
    store.execute(
        "INSERT INTO transfer_state (source_id, table_name, last_key, copied, done, source, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (source_id, table_name) DO UPDATE SET"
        " last_key = excluded.last_key, copied = excluded.copied, done = excluded.done,"
        " source = excluded.source, updated_at = excluded.updated_at",
        (source_id, table, None if last_key is None else json.dumps(list(last_key)), copied, int(done), source, at),
    )
