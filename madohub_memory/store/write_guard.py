"""The one choke point: every write through a store connection masks free text.

The store's write functions mask their rows (:func:`.redaction.redact_row`), and this guard
makes that true of *every* write, also one a future function forgets: each ``INSERT``,
``REPLACE`` and ``UPDATE`` sent through the connection (``store.conn.execute``,
``executemany``, ``Store.execute``; SQLite by the connection class below, PostgreSQL in
:class:`madohub_memory.store.pg.store.PgStore`) is read once (its table, and which column
each ``?`` or ``:name`` fills) and the values bound to the table's free-text columns
(:data:`.redaction.FREE_TEXT`) are masked before SQLite sees them. Values of structural
columns (ids, keys, fingerprints, timestamps) are left alone: they are looked up by their
exact value, and masking them would break the lookup, not protect anything.

A write statement that names a free-text table but cannot be read is counted in
:data:`UNREAD` (``tests/test_write_guard.py`` runs the program's writes and asserts none),
and its string values are masked whole, as the safe side.
"""

from __future__ import annotations

import functools
import re
import sqlite3
from collections.abc import Iterable, Mapping
from typing import Any

from madohub_memory.store.free_text import FREE_TEXT

_HEAD = re.compile(r"\s*(INSERT|REPLACE|UPDATE)\b", re.I)
_INSERT = re.compile(
    r"\s*(?:INSERT|REPLACE)(?:\s+OR\s+\w+)?\s+INTO\s+(?P<table>\w+)\s*\((?P<cols>[^)]*)\)\s*VALUES\s*\(", re.I
)
_INSERT_SELECT = re.compile(r"\s*(?:INSERT|REPLACE)(?:\s+OR\s+\w+)?\s+INTO\s+(?P<table>\w+)\b(?!\s*\([^)]*\)\s*VALUES)",
                            re.I)
_UPDATE = re.compile(r"\s*UPDATE\s+(?:OR\s+\w+\s+)?(?P<table>\w+)\s+SET\s+", re.I)
_PARAM = re.compile(r"\?|:(\w+)")

# (table, columns by positional index, columns by name) of a statement; None: nothing to mask.
Plan = tuple[str, dict[int, str], dict[str, str]]
UNREAD: set[str] = set()


def _split_top(text: str) -> tuple[list[str], int]:
    """Comma-separated items up to the closing parenthesis; returns (items, end index)."""
    items, depth, start, quote = [], 0, 0, ""
    for i, c in enumerate(text):
        if quote:
            quote = "" if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c == "(":
            depth += 1
        elif c == ")":
            if depth == 0:
                items.append(text[start:i])
                return items, i
            depth -= 1
        elif c == "," and depth == 0:
            items.append(text[start:i])
            start = i + 1
    items.append(text[start:])
    return items, len(text)


def _assign(items: Iterable[tuple[str, str]], plan: tuple[dict[int, str], dict[str, str]], first: int) -> int:
    """Record which column each parameter in ``items`` (column, expression) fills."""
    positional, named = plan
    at = first
    for column, expression in items:
        for p in _PARAM.finditer(expression):
            if p.group(1):
                named[p.group(1)] = column
            else:
                positional[at] = column
                at += 1
    return at


@functools.lru_cache(maxsize=1024)
def plan(sql: str) -> Plan | None:
    """Which free-text column each parameter of a write statement fills (cached per text)."""
    if not _HEAD.match(sql):
        return None
    positional: dict[int, str] = {}
    named: dict[str, str] = {}
    insert = _INSERT.match(sql)
    if insert:
        table = insert.group("table")
        if table not in FREE_TEXT:
            return None
        columns = [c.strip().strip('"') for c in insert.group("cols").split(",")]
        values, _ = _split_top(sql[insert.end():])
        if len(values) != len(columns):
            UNREAD.add(sql)
            return table, {}, {}
        _assign(zip(columns, values, strict=True), (positional, named), 0)
        return table, positional, named
    update = _UPDATE.match(sql)
    if update:
        table = update.group("table")
        if table not in FREE_TEXT:
            return None
        rest = sql[update.end():]
        where = re.search(r"\sWHERE\s", rest, re.I)
        assignments, _ = _split_top(rest[: where.start()] if where else rest)
        pairs = []
        for item in assignments:
            column, _, expression = item.partition("=")
            pairs.append((column.strip().strip('"'), expression))
        _assign(pairs, (positional, named), 0)
        return table, positional, named
    select = _INSERT_SELECT.match(sql)
    if select and select.group("table") in FREE_TEXT and _PARAM.search(sql):
        UNREAD.add(sql)
        return select.group("table"), {}, {}
    return None


def mask_column(table: str, column: str, value: Any) -> Any:
    from madohub_memory.store.redaction import mask_column as mask  # the scanner: only for a write

    return mask(table, column, value)


def _mask_all(params: Any) -> Any:
    if isinstance(params, Mapping):
        return {k: mask_column("", "", v) for k, v in params.items()}
    return [mask_column("", "", v) for v in params]


def guard(sql: str, params: Any) -> Any:
    """``params`` with the values bound to free-text columns masked."""
    found = plan(sql)
    if found is None or not params:
        return params
    table, positional, named = found
    if not positional and not named:
        return _mask_all(params)  # a statement this guard cannot read: mask every string
    if isinstance(params, Mapping):
        if not named:
            return params
        return {k: mask_column(table, named[k], v) if k in named else v for k, v in params.items()}
    if isinstance(params, (list, tuple)) and positional:
        return [mask_column(table, positional[i], v) if i in positional else v for i, v in enumerate(params)]
    return params


def guard_many(sql: str, rows: Iterable[Any]) -> Iterable[Any]:
    if plan(sql) is None:
        return rows
    return (guard(sql, row) for row in rows)


class GuardedConnection(sqlite3.Connection):
    """A SQLite connection whose writes pass :func:`guard` (``sqlite3.connect(factory=…)``)."""

    def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:
        return super().execute(sql, guard(sql, parameters))

    def executemany(self, sql: str, parameters: Iterable[Any], /) -> sqlite3.Cursor:
        return super().executemany(sql, guard_many(sql, parameters))
