"""Rows and cursors that behave like sqlite3's for the store modules' callers.

A :class:`Row` is indexed by position and by column name, unpacks as a tuple and turns into
a dict (``dict(row)``, ``row.keys()``), as ``sqlite3.Row`` does. Values come back as SQLite
would hand them: ``numeric`` (``SUM`` of integers) as ``int``/``float``, never ``Decimal``.
Parameters go to the server untyped (as SQLite's are): ``'5'`` and ``5`` compare with a text
and an integer column alike, booleans are stored as 0/1.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from decimal import Decimal
from typing import Any

from psycopg import adapt, pq
from psycopg.adapt import AdaptersMap


class Row(tuple[Any, ...]):
    """One result row: ``row[0]``, ``row["name"]``, ``dict(row)``, ``a, b = row``."""

    _names: dict[str, int]
    _keys: list[str]

    def __new__(cls, values: Sequence[Any], names: dict[str, int], keys: list[str]) -> Row:
        row = super().__new__(cls, values)
        row._names = names
        row._keys = keys
        return row

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            try:
                return tuple.__getitem__(self, self._names[key.lower()])
            except KeyError:
                raise IndexError(f"No item with that key: {key}") from None
        return tuple.__getitem__(self, key)

    def keys(self) -> list[str]:
        return list(self._keys)


def row_factory(hidden: frozenset[str] = frozenset()) -> Any:
    """A psycopg row factory making :class:`Row` objects (``hidden`` columns left out)."""

    def factory(cursor: Any) -> Any:
        description = cursor.description or []
        keep = [i for i, col in enumerate(description) if col.name not in hidden]
        keys = [description[i].name for i in keep]
        names: dict[str, int] = {}
        for pos, key in enumerate(keys):
            names.setdefault(key.lower(), pos)
        if len(keep) == len(description):
            return lambda values: Row(values, names, keys)
        return lambda values: Row([values[i] for i in keep], names, keys)

    return factory


class _Untyped(adapt.Dumper):
    """A Python value sent as an untyped literal: the server gives it the column's type."""

    oid = 0
    format = pq.Format.TEXT

    def dump(self, obj: Any) -> bytes:
        return str(obj).encode()


class _Bool(_Untyped):
    def dump(self, obj: Any) -> bytes:
        return b"1" if obj else b"0"


class _Float(_Untyped):
    def dump(self, obj: Any) -> bytes:
        return repr(float(obj)).encode()


class _Numeric(adapt.Loader):
    def load(self, data: Any) -> Any:
        value = Decimal(bytes(data).decode())
        return int(value) if value == value.to_integral_value() else float(value)


def configure(adapters: AdaptersMap) -> None:
    """Register the SQLite-like adapters on a connection's (or a context's) adapters map."""
    adapters.register_dumper(int, _Untyped)
    adapters.register_dumper(bool, _Bool)
    adapters.register_dumper(float, _Float)
    adapters.register_loader("numeric", _Numeric)


class Cursor:
    """The result of one statement: rows, ``rowcount`` and ``lastrowid`` (from ``RETURNING id``)."""

    def __init__(self, rows: list[Row], rowcount: int, lastrowid: int | None) -> None:
        self._rows = rows
        self._pos = 0
        self.rowcount = rowcount
        self.lastrowid = lastrowid

    def fetchall(self) -> list[Row]:
        rest = self._rows[self._pos :]
        self._pos = len(self._rows)
        return rest

    def fetchone(self) -> Row | None:
        if self._pos >= len(self._rows):
            return None
        self._pos += 1
        return self._rows[self._pos - 1]

    def fetchmany(self, size: int = 1) -> list[Row]:
        chunk = self._rows[self._pos : self._pos + size]
        self._pos += len(chunk)
        return chunk

    def __iter__(self) -> Iterator[Row]:
        while (row := self.fetchone()) is not None:
            yield row
