"""The PostgreSQL side of ``transfer`` (:mod:`madohub_memory.store.copying` asks here for a server).

Why these differ from SQLite:

- Ids come from one sequence per table (``{table}_id_seq``); a copy moves it to the source's
  counter so an id the source gave to a deleted row is never handed out again.
- The read snapshot is a ``REPEATABLE READ`` transaction: one view of the source for the
  whole run while others keep writing to it.
- Foreign keys cannot be switched off without superuser rights. The only reference a copy
  can meet before its target row exists is a table's reference to itself (a conversation's
  parent sorts after it and arrives a batch later); for such a batch the constraint is
  dropped and added back ``NOT VALID`` in the batch's own transaction (a kill rolls both
  back), and validated once the copy is complete (:func:`foreign_key_problems`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from madohub_memory.store.pg.schema import ID_SEQUENCES


def sequence(store: Any, table: str) -> int | None:
    if table not in ID_SEQUENCES:
        return None
    row = store.raw.execute(f"SELECT last_value, is_called FROM {table}_id_seq".encode()).fetchone()
    return int(row[0]) if row and row[1] else 0


def advance_sequence(store: Any, table: str, value: int | None) -> None:
    current = sequence(store, table)
    if value is None or current is None or current >= value:
        return
    store.raw.execute(b"SELECT setval(%s::regclass, %s)", (f"{table}_id_seq", value))


@contextmanager
def read_snapshot(store: Any) -> Iterator[None]:
    store.raw.execute(b"BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
    try:
        yield
    finally:
        store.raw.execute(b"COMMIT")


def _self_references(store: Any, table: str) -> list[tuple[str, str]]:
    """(name, definition) of each foreign key of ``table`` that points at ``table`` itself."""
    rows = store.raw.execute(
        b"SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint WHERE contype = 'f'"
        b" AND conrelid = to_regclass(current_schema() || '.' || %s) AND confrelid = conrelid",
        (table,),
    ).fetchall()
    return [(str(name), str(definition)) for name, definition in rows]


@contextmanager
def self_references_unchecked(store: Any, table: str) -> Iterator[None]:
    """Inside the caller's transaction: ``table``'s references to itself are not checked
    for the rows written in the block (they are checked by :func:`foreign_key_problems`)."""
    references = _self_references(store, table)
    for name, _ in references:
        store.raw.execute(f'ALTER TABLE {table} DROP CONSTRAINT "{name}"'.encode())
    yield
    for name, definition in references:
        clean = definition.removesuffix(" NOT VALID")
        store.raw.execute(f'ALTER TABLE {table} ADD CONSTRAINT "{name}" {clean} NOT VALID'.encode())


def foreign_key_problems(store: Any) -> int:
    """Rows whose reference points nowhere, under every constraint not yet validated; each
    constraint that holds is validated (so it is a plain constraint again)."""
    problems = 0
    rows = store.raw.execute(
        b"SELECT c.conname, c.conrelid::regclass::text, a.attname, c.confrelid::regclass::text, f.attname"
        b" FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]"
        b" JOIN pg_attribute f ON f.attrelid = c.confrelid AND f.attnum = c.confkey[1]"
        b" WHERE c.contype = 'f' AND NOT c.convalidated AND c.connamespace = current_schema()::regnamespace"
    ).fetchall()
    for name, table, column, parent, parent_column in rows:
        orphans = int(store.raw.execute(
            f"SELECT count(*) FROM {table} c WHERE c.{column} IS NOT NULL AND NOT EXISTS"
            f" (SELECT 1 FROM {parent} p WHERE p.{parent_column} = c.{column})".encode()
        ).fetchone()[0])
        if orphans:
            problems += orphans
        else:
            store.raw.execute(f'ALTER TABLE {table} VALIDATE CONSTRAINT "{name}"'.encode())
    return problems
