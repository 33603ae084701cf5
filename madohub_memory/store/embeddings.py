"""The vector cache's rows (table ``embeddings``) and its change feed (``embedding_changes``).

One table serves recall, semantic dedup and the dashboard's nearest-memory view: a row
holds the vector of one memory or candidate for one embedding model, with the fingerprint
of the text it encodes, so a vector whose text was edited since is recognised as stale and
recomputed. The rows are derived data: never exported, recomputed when missing. The feed is
appended to by triggers (migration 12) on every insert, delete or change of the text, kind
or namespace of a memory or candidate and the status of a memory, whoever the writer is.

The blob codec is not here (the store knows no numpy): see
:mod:`madohub_memory.recall.vector_cache`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from madohub_memory.store.database import Store

ENTITIES = ("memory", "candidate")
_TABLES = {"memory": "memories", "candidate": "candidates"}
_SQL_VARS = 500


def _chunks(ids: Sequence[int]) -> Iterator[Sequence[int]]:
    for start in range(0, len(ids), _SQL_VARS):
        yield ids[start : start + _SQL_VARS]


def _table(entity: str) -> str:
    return _TABLES[entity]


# -- change feed ----------------------------------------------------------------------


def last_change(store: Store) -> int:
    row = store.query_one("SELECT COALESCE(MAX(seq), 0) FROM embedding_changes")
    return int(row[0]) if row else 0


def first_change(store: Store) -> int:
    row = store.query_one("SELECT COALESCE(MIN(seq), 0) FROM embedding_changes")
    return int(row[0]) if row else 0


def changed_since(store: Store, after: int, upto: int, entity: str | None = None) -> list[tuple[str, int]]:
    """Distinct (entity, id) changed in ``after < seq <= upto`` (of one entity if given), sorted."""
    sql = "SELECT DISTINCT entity, entity_id FROM embedding_changes WHERE seq > ? AND seq <= ?"
    params: tuple[Any, ...] = (after, upto)
    if entity is not None:
        sql += " AND entity = ?"
        params += (entity,)
    return sorted((str(r[0]), int(r[1])) for r in store.query(sql, params))


def change_key(store: Store, seq: int) -> list[Any]:
    """[entity, id] of the feed row ``seq`` ([] when there is none): with ``seq`` it tells
    whether a vector file was written from this database's feed (:mod:`madohub_memory.recall.vector_file`)."""
    row = store.query_one("SELECT entity, entity_id FROM embedding_changes WHERE seq = ?", (seq,))
    return [] if row is None else [str(row[0]), int(row[1])]


def prune_changes(store: Store, keep: int = 200_000) -> None:
    """Forget all but the newest ``keep`` changes (a reader further behind reloads everything)."""
    store.execute(
        "DELETE FROM embedding_changes WHERE seq <= (SELECT MAX(seq) FROM embedding_changes) - ?", (keep,)
    )


# -- vectors --------------------------------------------------------------------------


def put(store: Store, entity: str, model: str, rows: Iterable[tuple[int, str, bytes]]) -> None:
    """Store (id, fingerprint, vector) rows, replacing older vectors of the same ids."""
    values = [(entity, entity_id, model, fp, blob) for entity_id, fp, blob in rows]
    if not values:
        return
    with store.transaction():
        store.conn.executemany(
            "INSERT INTO embeddings (entity, entity_id, model, fingerprint, vector) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT(entity, entity_id, model) DO UPDATE SET fingerprint = excluded.fingerprint,"
            " vector = excluded.vector",
            values,
        )


def stored(store: Store, entity: str, entity_id: int, model: str) -> tuple[str, bytes] | None:
    """(fingerprint, vector) stored for one entity and model, if any."""
    row = store.query_one(
        "SELECT fingerprint, vector FROM embeddings WHERE entity = ? AND entity_id = ? AND model = ?",
        (entity, entity_id, model),
    )
    return None if row is None else (str(row[0]), bytes(row[1]))


def count(store: Store, model: str | None = None) -> int:
    if model is None:
        row = store.query_one("SELECT COUNT(*) FROM embeddings")
    else:
        row = store.query_one("SELECT COUNT(*) FROM embeddings WHERE model = ?", (model,))
    return int(row[0]) if row else 0


def current(store: Store, entity: str, entity_id: int) -> dict[str, Any] | None:
    """The entity's current namespace, kind, fingerprint, status and text (to verify a cached match)."""
    row = store.query_one(
        f"SELECT id, namespace, kind, fingerprint, status, content FROM {_table(entity)} WHERE id = ?",
        (entity_id,),
    )
    return dict(row) if row else None


def group_rows(store: Store, entity: str, namespace: str, kind: str, model: str) -> list[dict[str, Any]]:
    """Every entity of one (namespace, kind) with its stored vector, if any (``vfp``: the
    fingerprint that vector was computed from). Memories count only while active; candidates
    in every status (a rejected one must still suppress its equivalents)."""
    active = " AND t.status = 'active'" if entity == "memory" else ""
    rows = store.query(
        f"SELECT t.id, t.content, t.fingerprint, e.fingerprint AS vfp, e.vector FROM {_table(entity)} t"
        " LEFT JOIN embeddings e ON e.entity = ? AND e.entity_id = t.id AND e.model = ?"
        f" WHERE t.namespace = ? AND t.kind = ?{active} ORDER BY t.id",
        (entity, model, namespace, kind),
    )
    return [dict(r) for r in rows]


def stale_group_texts(store: Store, entity: str, namespace: str, kind: str, model: str) -> list[str]:
    """The texts of the rows of one (namespace, kind) that :func:`group_rows` would return
    without a current vector (none stored, or one of an older text): what loading the group
    embeds."""
    active = " AND t.status = 'active'" if entity == "memory" else ""
    rows = store.query(
        f"SELECT t.content FROM {_table(entity)} t"
        " LEFT JOIN embeddings e ON e.entity = ? AND e.entity_id = t.id AND e.model = ?"
        "  AND e.fingerprint = t.fingerprint"
        f" WHERE t.namespace = ? AND t.kind = ?{active} AND e.entity_id IS NULL ORDER BY t.id",
        (entity, model, namespace, kind),
    )
    return [str(r[0]) for r in rows]


# -- active memories (recall) ---------------------------------------------------------

_MISSING = (
    "SELECT m.id, m.content, m.fingerprint FROM memories m"
    " LEFT JOIN embeddings e ON e.entity = 'memory' AND e.entity_id = m.id AND e.model = ?"
    "  AND e.fingerprint = m.fingerprint"
    " WHERE m.status = 'active' AND e.entity_id IS NULL"
)
_ACTIVE = (
    "SELECT m.id, m.namespace, e.vector FROM memories m JOIN embeddings e"
    " ON e.entity = 'memory' AND e.entity_id = m.id AND e.model = ? AND e.fingerprint = m.fingerprint"
    " WHERE m.status = 'active'"
)


def missing_memory_vectors(store: Store, model: str, limit: int, after: int = 0) -> list[sqlite3.Row]:
    """Active memories with no vector for ``model`` matching their current text (ids above
    ``after``: a long pass pages on instead of scanning what it already did)."""
    return store.query(_MISSING + " AND m.id > ? ORDER BY m.id LIMIT ?", (model, after, limit))


def count_active_memories(store: Store) -> int:
    row = store.query_one("SELECT count(*) FROM memories WHERE status = 'active'")
    return int(row[0]) if row else 0


def models_of_newest_memory(store: Store) -> list[str]:
    """The models the newest memory with any vector has vectors of (two index lookups): which
    model a store's vectors are of, without counting them."""
    row = store.query_one("SELECT MAX(entity_id) FROM embeddings WHERE entity = 'memory'")
    if row is None or row[0] is None:
        return []
    return [str(r[0]) for r in store.query(
        "SELECT model FROM embeddings WHERE entity = 'memory' AND entity_id = ?", (int(row[0]),))]


def missing_memory_vectors_for(store: Store, model: str, ids: Sequence[int]) -> list[sqlite3.Row]:
    """Like :func:`missing_memory_vectors`, among ``ids`` only (the incremental path)."""
    out: list[sqlite3.Row] = []
    for chunk in _chunks(list(ids)):
        out += store.query(_MISSING + f" AND m.id IN ({', '.join('?' * len(chunk))})", (model, *chunk))
    return out


def count_active_memory_vectors(store: Store, model: str) -> int:
    row = store.query_one(
        "SELECT count(*) FROM memories m JOIN embeddings e ON e.entity = 'memory' AND e.entity_id = m.id"
        " AND e.model = ? AND e.fingerprint = m.fingerprint WHERE m.status = 'active'",
        (model,),
    )
    return int(row[0]) if row else 0


def iter_active_memory_vectors(store: Store, model: str) -> Iterator[sqlite3.Row]:
    """(id, namespace, vector) of every active memory whose vector matches its text, streamed
    (no list of 100,000 blobs)."""
    yield from store.conn.execute(_ACTIVE + " ORDER BY m.id", (model,))


def active_memory_vectors(store: Store, model: str, ids: Sequence[int]) -> list[sqlite3.Row]:
    """Like :func:`iter_active_memory_vectors`, among ``ids`` only."""
    out: list[sqlite3.Row] = []
    for chunk in _chunks(list(ids)):
        out += store.query(_ACTIVE + f" AND m.id IN ({', '.join('?' * len(chunk))})", (model, *chunk))
    return out
