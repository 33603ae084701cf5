"""Lossless JSONL export and all-or-nothing import.

Secrets are masked in every export (also in rows stored before a scanner update); with
``redact_pii`` personal data in every free-text field is replaced by ``[PII:kind]`` too
(the default export is a lossless backup, so it keeps personal data).

Line 1 is a header ``{"format": "madohub-memory-export", "version": 1}``; every other line
is ``{"table": NAME, "row": {...}}``. Importing an export into an empty file and exporting
again gives the same bytes. An import is one transaction: a broken line aborts it and the
error names the line.
"""

from __future__ import annotations

import errno
import json
import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

from madohub_memory.core.errors import ImportFileError, UserError
from madohub_memory.core.pii import redact_pii, redact_pii_value
from madohub_memory.core.text import fingerprint, replace_surrogates, shown
from madohub_memory.store import transfer as raw
from madohub_memory.store.files import private_output
from madohub_memory.store.fts_text import warm as warm_keyword_index
from madohub_memory.store.redaction import free_text_columns

if TYPE_CHECKING:
    from madohub_memory.services import Services

FORMAT = "madohub-memory-export"
VERSION = 1


def _storable(value: Any) -> bool:
    """A value SQLite takes as it is: text without lone surrogates, a 64-bit integer, a finite
    number, or null (a JSON list, an object or a 2^64 would fail half-way through the import)."""
    if value is None or isinstance(value, bool):
        return True
    if isinstance(value, int):
        return -(2**63) <= value < 2**63
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, str):
        return replace_surrogates(value) == value
    return False


def _dump(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def _without_pii(table: str, row: dict[str, Any]) -> dict[str, Any]:
    """The row with personal data replaced in its free-text columns (fingerprints follow)."""
    out = dict(row)
    for column, kind in free_text_columns(table).items():
        value = out.get(column)
        if not isinstance(value, str) or not value:
            continue
        if kind == "text":
            out[column] = redact_pii(value)
        else:
            try:
                out[column] = _dump(redact_pii_value(json.loads(value)))
            except ValueError:
                out[column] = redact_pii(value)
    if out.get("content") != row.get("content") and "fingerprint" in out:
        out["fingerprint"] = fingerprint(out["content"])
    return out


class TransferService:
    def __init__(self, svc: Services) -> None:
        self.svc = svc

    def export(self, path: str | Path, *, redact_pii: bool = False) -> dict[str, int]:
        """Write everything to ``path`` (0600, through a ``.part`` file renamed into place;
        a ``.part`` left by a killed export is removed)."""
        store = self.svc.store
        counts: dict[str, int] = {}
        target = Path(path)
        try:
            with private_output(target) as out:
                out.write(_dump({"format": FORMAT, "version": VERSION}) + "\n")
                store.execute("BEGIN")  # one consistent snapshot even while others write
                try:
                    for table in raw.existing_tables(store):
                        counts[table] = 0
                        for row in raw.iter_rows(store, table):
                            if redact_pii:
                                row = _without_pii(table, row)
                            out.write(_dump({"table": table, "row": row}) + "\n")
                            counts[table] += 1
                finally:
                    store.execute("COMMIT")
        except OSError as exc:
            if exc.errno == errno.ENOSPC:
                raise UserError(f"The disk holding {target} is full: free some space and export again.") from None
            raise UserError(f"Cannot write {target}: {exc.strerror or exc}.") from None
        return counts

    def import_file(self, path: str | Path) -> dict[str, int]:
        source = Path(path)
        try:
            data = source.read_bytes()
        except OSError as exc:
            raise UserError(f"Cannot read {source}: {exc.strerror or exc}.") from None
        store = self.svc.store
        tables = set(raw.existing_tables(store))
        columns = {t: set(raw.columns(store, t)) for t in tables}
        records: list[tuple[int, str, dict[str, Any]]] = []
        for number, line in enumerate(data.split(b"\n"), start=1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line.decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
                raise ImportFileError(f"Line {number} of {source} is not valid JSON; nothing was imported.", number) from None
            if number == 1:
                if not isinstance(obj, dict) or obj.get("format") != FORMAT:
                    raise ImportFileError(f"{source} is not a MadoHub Memory export (line 1 has no export header); nothing was imported.", 1)
                if obj.get("version") != VERSION:
                    raise ImportFileError(f"{source} is export version {obj.get('version')!r}, this program reads version {VERSION}; nothing was imported.", 1)
                continue
            if not isinstance(obj, dict) or not isinstance(obj.get("row"), dict):
                raise ImportFileError(f"Line {number} of {source} is not a table row; nothing was imported.", number)
            table = obj.get("table")
            if not isinstance(table, str) or table not in tables:
                raise ImportFileError(f"Line {number} of {source} names an unknown table {shown(table)}; nothing was imported.", number)
            bad = next((k for k, v in obj["row"].items() if not _storable(v)), None)
            if bad is not None:
                raise ImportFileError(
                    f"Line {number} of {source} has a value of field {shown(bad)} that cannot be stored"
                    " (not text, a number or null); nothing was imported.", number)
            unknown = set(obj["row"]) - columns[table]
            if unknown:
                raise ImportFileError(f"Line {number} of {source} has an unknown field {sorted(unknown)[0]!r} for {table}; nothing was imported.", number)
            records.append((number, table, obj["row"]))
        if not data.strip():
            raise ImportFileError(f"{source} is empty; nothing was imported.", None)
        counts: dict[str, int] = {}
        warm_keyword_index(*(row.get("content") for _, table, row in records[:200] if table == "memories"))
        with store.transaction():
            for number, table, row in records:
                try:
                    raw.insert_row(store, table, row)
                except raw.IntegrityError as exc:
                    raise ImportFileError(
                        f"Line {number} of {source} conflicts with stored data or breaks a rule ({exc}); nothing was imported.",
                        number,
                    ) from None
                except raw.DatabaseError as exc:
                    raise ImportFileError(f"Line {number} of {source} cannot be stored ({exc}); nothing was imported.", number) from None
                counts[table] = counts.get(table, 0) + 1
        return counts
