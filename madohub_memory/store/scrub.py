"""Masking secrets that an older version stored, in place, and leaving no copy on disk.

Every write masks secrets (``store/redaction.py``), but a database written before a
format was known to the scanner can still hold one. :func:`scrub` re-masks every
free-text column, rebuilds the keyword index from the masked memories, and compacts the
file (``VACUUM`` after a WAL checkpoint) so the old text is not left in free pages.
"""

from __future__ import annotations

from typing import Any

from madohub_memory.store.database import Store
from madohub_memory.store.redaction import FREE_TEXT, redact_row

_BATCH = 500


def _tables(store: Store) -> set[str]:
    return store.tables()


def _row_key(store: Store, table: str) -> str:
    """What identifies a row: SQLite's rowid (a PostgreSQL table: its one-column primary key,
    else the row's physical address, which an update moves forward: masked rows met again
    are left alone)."""
    if store.backend == "sqlite":
        return "rowid"
    key = store.primary_key(table)
    return key[0] if len(key) == 1 else "ctid"


def scrub(store: Store) -> dict[str, int]:
    """Re-mask every free-text column; returns the number of rows changed per table."""
    changed: dict[str, int] = {}
    present = _tables(store)
    for table, columns in FREE_TEXT.items():
        if table not in present:
            continue
        names = [c for c in columns if c in set(store.columns(table))]
        if not names:
            continue
        key = _row_key(store, table)
        last: Any = None
        while True:
            after = "" if last is None else f" WHERE {key} > ?"
            rows = store.query(
                f"SELECT {key}, {', '.join(names)} FROM {table}{after} ORDER BY {key} LIMIT ?",
                (*(() if last is None else (last,)), _BATCH),
            )
            if not rows:
                break
            last = rows[-1][0]
            updates: list[tuple[Any, ...]] = []
            for row in rows:
                values = {n: row[n] for n in names}
                masked = redact_row(table, values)
                if masked != values:
                    updates.append((*[masked[n] for n in names], row[0]))
            if updates:
                with store.transaction():
                    store.conn.executemany(
                        f"UPDATE {table} SET {', '.join(f'{n} = ?' for n in names)} WHERE {key} = ?", updates
                    )
                changed[table] = changed.get(table, 0) + len(updates)
    if changed and "memory_fts" in present and store.backend == "sqlite":
        with store.transaction():  # a clean index: no segment keeps the old tokens
            store.execute("INSERT INTO memory_fts (memory_fts) VALUES ('rebuild')")
    return changed


def compact(store: Store) -> None:
    """Checkpoint the WAL and rewrite the file, so freed pages keep no old text."""
    if store.backend != "sqlite":
        store.execute("VACUUM")  # the server's own WAL and backups are its administrator's
        return
    store.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.execute("VACUUM")
    store.execute("PRAGMA wal_checkpoint(TRUNCATE)")
