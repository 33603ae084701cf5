"""Secrets never reach the database file: the one rule every write in ``store`` applies.

Every column that can hold free text someone typed or pasted is listed in
:data:`FREE_TEXT` (:mod:`.free_text`); the write functions in ``store`` pass their values
through :func:`redact_row` (or :func:`redact_text`), which masks secrets with
:func:`madohub_memory.core.secrets.redact`, and the connection's write guard
(:mod:`.write_guard`) masks those columns again on every INSERT and UPDATE, so a write
function that forgets is still masked. Turns are masked a conversation at a time
(:func:`redact_turns`). So a secret in a prompt, a tool result, an
agent's ``remember`` call, a working-memory reason, a decision's options, a conversation
title, a recall query or a job's error message is stored as ``[REDACTED]``, and therefore
never reaches the keyword index, the history, an export or a backup either.

Every other text column is listed in :data:`STRUCTURAL` (ids, names from a closed
vocabulary, timestamps, hashes, paths). ``tests/test_secret_sinks.py`` checks that every
text column of the schema is in one of the two lists, so a new column cannot be added
without deciding which it is.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from madohub_memory.core.secret_turns import mask_turns
from madohub_memory.core.secrets import redact, redact_value
from madohub_memory.store.free_text import FREE_TEXT, STRUCTURAL

__all__ = ["FREE_TEXT", "STRUCTURAL", "free_text_columns", "mask_column", "redact_row", "redact_snapshot",
           "redact_text", "redact_turns"]

# Long texts already masked in this process, by (length, hash): the writer masks a 5 MB
# pasted log before it takes the write lock, and the store's pass inside the transaction
# then costs a lookup instead of a second scan (seconds) with the lock held.
_CLEAN_MIN_CHARS = 2048
_CLEAN_MAX_ENTRIES = 512
_clean: OrderedDict[tuple[int, int], None] = OrderedDict()


def _redact_str(text: str) -> str:
    if len(text) < _CLEAN_MIN_CHARS:
        return redact(text) or ""
    key = (len(text), hash(text))
    if key in _clean:
        _clean.move_to_end(key)
        return text
    masked = redact(text) or ""
    _clean[(len(masked), hash(masked))] = None
    while len(_clean) > _CLEAN_MAX_ENTRIES:
        _clean.popitem(last=False)
    return masked


def redact_text(text: str | None) -> str | None:
    """Free text as it may be stored (call it before taking the write lock for long texts:
    the store's own pass then finds them already clean)."""
    return None if text is None else _redact_str(text)


def _redact_json(value: Any) -> Any:
    if isinstance(value, str):
        try:
            decoded = json.loads(value)
        except ValueError:
            return redact(value)
        masked = redact_value(decoded)
        return value if masked == decoded else json.dumps(masked, ensure_ascii=False, sort_keys=True)
    return redact_value(value)


# The table a history entry's before/after rows come from.
ENTITY_TABLES = {"candidate": "candidates", "memory": "memories", "setting": "settings"}


def redact_snapshot(entity: str, row: Mapping[str, Any] | None) -> Any:
    """A row copied into history, masked: its table's free-text columns as that table masks
    them, its structural columns (ids, hashes, timestamps: never typed text) as they are, and
    any other key as free text. Masking every string of every snapshot scanned each row's
    fingerprint and timestamps on every change, for nothing."""
    table = ENTITY_TABLES.get(entity)
    if row is None or table is None or not isinstance(row, Mapping):
        return _redact_json(row) if row is not None else None
    columns = FREE_TEXT.get(table, {})
    structural = STRUCTURAL.get(table, set()) | {"id"}
    out: dict[str, Any] = {}
    for key, value in row.items():
        if value is None or isinstance(value, (int, float)) or (key in structural and key not in columns):
            out[key] = value
        elif key in columns:
            out[key] = _redact_str(value) if columns[key] == "text" and isinstance(value, str) else _redact_json(value)
        else:
            out[(redact(key) or key) if isinstance(key, str) else key] = redact_value(value)
    return out


def mask_column(table: str, column: str, value: Any) -> Any:
    """A value bound to ``table.column`` as it may be stored (the write guard's one step):
    free text masked by its kind, structural values as they are; an unknown column
    (``table`` empty) masks any string."""
    if not isinstance(value, str) or len(value) < 6:
        return value
    if not table:
        return _redact_str(value)
    kind = FREE_TEXT.get(table, {}).get(column)
    if kind is None:
        return value
    if kind == "text":
        return _redact_str(value)
    return _guard_json(value)


# Keys of a JSON value that hold structure, never typed text (a history snapshot's ids,
# hashes, timestamps, closed vocabularies): the guard does not scan them again.
_STRUCTURAL_KEYS = frozenset({"id", "fingerprint", "kind", "namespace", "source", "status", "flags", "created_at",
                              "updated_at", "decided_by", "approved_by", "edited_by", "edited_at", "last_hit_at",
                              "candidate_id", "memory_id", "turn_ids", "batch", "origin", "person", "actor"}
                             | {c for columns in STRUCTURAL.values() for c in columns})


def _guard_value(value: Any, key: str = "") -> Any:
    if isinstance(value, str):
        return value if key in _STRUCTURAL_KEYS or len(value) < 6 else redact(value)
    if isinstance(value, dict):
        return {k: _guard_value(v, k if isinstance(k, str) else "") for k, v in value.items()}
    if isinstance(value, list):
        return [_guard_value(v) for v in value]
    return value


def _guard_json(text: str) -> str:
    """JSON text as the write guard lets it pass: every string value that can hold typed
    text masked (keys of structure skipped), re-encoded only when something changed."""
    try:
        decoded = json.loads(text)
    except ValueError:
        return redact(text) or text
    masked = _guard_value(decoded)
    return text if masked == decoded else json.dumps(masked, ensure_ascii=False, sort_keys=True)


def redact_turns(texts: list[str], previous: str | None = None) -> list[str]:
    """The turns of one conversation, in order, masked together: a value given in the turn
    after the one that asks for it, and a value masked once and repeated later, are masked
    too (:func:`madohub_memory.core.secrets.mask_turns`). ``previous``: the conversation's
    last stored turn, when these continue it."""
    masked = mask_turns(texts, previous, clean=lambda t: len(t) >= _CLEAN_MIN_CHARS and (len(t), hash(t)) in _clean)
    for text in masked:
        if len(text) >= _CLEAN_MIN_CHARS:
            _clean[(len(text), hash(text))] = None
    while len(_clean) > _CLEAN_MAX_ENTRIES:
        _clean.popitem(last=False)
    return masked


def free_text_columns(table: str) -> dict[str, str]:
    """The free-text columns of ``table`` and their kind ("text" or "json")."""
    return dict(FREE_TEXT.get(table, {}))


def redact_row(table: str, values: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of ``values`` with the free-text columns of ``table`` masked."""
    columns = FREE_TEXT.get(table)
    out = dict(values)
    if not columns:
        return out
    for column, kind in columns.items():
        value = out.get(column)
        if value is None or value == "":
            continue
        out[column] = _redact_str(value) if kind == "text" and isinstance(value, str) else _redact_json(value)
    return out
