"""Queries behind recall: keyword search, hits, log, decay state (vectors: :mod:`.embeddings`).

Only active memories are ever returned by the search queries here (DESIGN invariant 1):
every one of them filters on ``memories.status = 'active'``.
"""

from __future__ import annotations

import json
import weakref
from collections.abc import Iterable, Sequence
from typing import Any

from madohub_memory.store.database import Store
from madohub_memory.store.redaction import redact_text

_SQL_VARS = 500
FIRST_POOL_FACTOR = 4  # keyword search: BM25's best limit × this are checked for status and scope first


def _chunks(ids: Sequence[int]) -> Iterable[Sequence[int]]:
    for start in range(0, len(ids), _SQL_VARS):
        yield ids[start : start + _SQL_VARS]


def _scope(namespaces: Sequence[str] | None, alias: str = "m") -> tuple[str, list[Any]]:
    if not namespaces:
        return "", []
    marks = ", ".join("?" * len(namespaces))
    return f" AND {alias}.namespace IN ({marks})", list(namespaces)


# -- state ----------------------------------------------------------------------------


def state_get(store: Store, key: str) -> str | None:
    row = store.query_one("SELECT value FROM recall_state WHERE key = ?", (key,))
    return None if row is None else str(row[0])


def index_id(store: Store) -> str:
    """The database's id (made once, when it was created), read once per open connection:
    it names the database in the process-wide caches of every recall."""
    known = _INDEX_IDS.get(store)
    if known is None:
        known = _INDEX_IDS[store] = state_get(store, "index_id") or str(store.path)
    return known


_INDEX_IDS: weakref.WeakKeyDictionary[Store, str] = weakref.WeakKeyDictionary()


def state_set(store: Store, key: str, value: str) -> None:
    store.execute(
        "INSERT INTO recall_state (key, value) VALUES (?, ?)"
        " ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        (key, value),
    )


# -- keyword search -------------------------------------------------------------------


def bm25_search(
    store: Store, match: str, namespaces: Sequence[str] | None, limit: int,
    wanted: Sequence[int] = (),
) -> list[tuple[int, float]]:
    """Top ``limit`` active memories for an FTS5 MATCH string, best first (score > 0).

    ``wanted`` ids (candidates another signal found) also get their score if they match,
    in the same pass: FTS5 scores every match of a query anyway, so asking twice would
    cost twice.
    """
    scope, params = _scope(namespaces)
    wanted = list(wanted)[:_SQL_VARS * 4]
    if store.backend == "postgresql":
        from madohub_memory.store.pg import keyword

        return _wanted_first(keyword.bm25_search(store, match, scope, params, limit, wanted), wanted, limit)
    marks = ", ".join("?" * len(wanted))
    # First the best matches by BM25 alone (wanted ones first), and only those looked up in
    # memories: joining every match to its row costs as much as scoring it (a term in 1% of
    # a million memories: 45 ms instead of 20). Exact whenever enough of them are active and
    # in scope, or when they are every match; otherwise every match is joined.
    first = limit * FIRST_POOL_FACTOR + len(wanted)
    flag = f"(rowid IN ({marks})) DESC, " if wanted else ""
    rows = store.query(
        f"SELECT f.id, f.score, (m.status = 'active'{scope}) AS usable FROM"
        " (SELECT rowid AS id, -bm25(memory_fts) AS score FROM memory_fts WHERE memory_fts MATCH ?"
        f" ORDER BY {flag}score DESC LIMIT ?) AS f"
        " LEFT JOIN memories m ON m.id = f.id ORDER BY f.score DESC",
        (*params, match, *wanted, first),
    )
    found = _wanted_first([(int(r[0]), float(r[1])) for r in rows if r[2]], wanted, limit)
    known = set(wanted)
    if len(rows) < first or sum(1 for i, _ in found if i not in known) >= limit:
        return found
    order = f"(m.id IN ({marks})) DESC, score DESC" if wanted else "score DESC"
    rows = store.query(
        "SELECT m.id, -bm25(memory_fts) AS score FROM memory_fts"
        " JOIN memories m ON m.id = memory_fts.rowid"
        f" WHERE memory_fts MATCH ? AND m.status = 'active'{scope}"
        f" ORDER BY {order} LIMIT ?",
        (match, *params, *wanted, limit + len(wanted)),
    )
    return _wanted_first([(int(r[0]), float(r[1])) for r in rows], wanted, limit)


def _wanted_first(rows: list[tuple[int, float]], wanted: Sequence[int], limit: int) -> list[tuple[int, float]]:
    keep = set(wanted)
    return [r for r in rows if r[0] in keep] + [r for r in rows if r[0] not in keep][:limit]


def substring_search(
    store: Store, needles: Sequence[str], namespaces: Sequence[str] | None, limit: int
) -> list[int]:
    """Active memories containing any needle verbatim (a fallback for very short terms)."""
    if not needles:
        return []
    scope, params = _scope(namespaces)
    cond = " OR ".join("instr(m.content, ?) > 0" for _ in needles)
    rows = store.query(
        f"SELECT m.id FROM memories m WHERE m.status = 'active'{scope} AND ({cond})"
        " ORDER BY m.id DESC LIMIT ?",
        (*params, *needles, limit),
    )
    return [int(r[0]) for r in rows]


# -- candidate pools and rows ---------------------------------------------------------


def pool_ids(store: Store, namespaces: Sequence[str] | None, limit: int) -> list[int]:
    """The recall working set, in one query: the ``limit`` most recently created or used
    active memories (newest first), then the pinned ones."""
    scope, params = _scope(namespaces)
    # "+m" keeps the planner on the time index (read newest first, stop after `limit`)
    # instead of the namespace index, which would sort every memory in scope.
    recent_scope, recent_params = _scope(namespaces, alias="+m")
    parts = [
        f"SELECT * FROM (SELECT m.id, m.{column} AS stamp FROM memories m WHERE m.status = 'active'"
        f" AND m.{column} IS NOT NULL{recent_scope} ORDER BY m.{column} DESC LIMIT ?) AS by_{column}"
        for column in ("created_at", "last_hit_at")
    ] if limit > 0 else []
    parts.append(f"SELECT m.id, NULL AS stamp FROM memories m WHERE m.pinned = 1 AND m.status = 'active'{scope}")
    args = [*recent_params, limit, *recent_params, limit, *params] if limit > 0 else params
    found: dict[int, str] = {}
    pinned: list[int] = []
    for memory_id, stamp in store.query(" UNION ALL ".join(parts), args):
        if stamp is None:
            pinned.append(int(memory_id))
        else:
            found[int(memory_id)] = max(found.get(int(memory_id), ""), stamp)
    recent = sorted(found, key=lambda i: (found[i], i), reverse=True)[:limit]
    return recent + [i for i in pinned if i not in recent]


def context_rows(
    store: Store, namespace: str, *, kinds: Sequence[str] = (), pinned: bool | None = None, limit: int = 200,
) -> list[dict[str, Any]]:
    """Active memories of one namespace for the session-start context, most used first
    (hit count, then the newest). One query per kind, each read in order from the
    ``memories_context`` index and stopped at ``limit``, then merged."""
    columns = "id, content, kind, namespace, pinned, weight, hit_count, last_hit_at, created_at, updated_at"
    sql = f"SELECT {columns} FROM memories WHERE namespace = ? AND status = 'active'"
    params: list[Any] = [namespace]
    if pinned is not None:
        sql += " AND pinned = ?"
        params.append(int(pinned))
    sql_kind = sql + " AND kind = ? ORDER BY hit_count DESC, id DESC LIMIT ?"
    rows: list[dict[str, Any]] = []
    if kinds:
        for kind in dict.fromkeys(kinds):
            rows += [dict(r) for r in store.query(sql_kind, (*params, kind, limit))]
    else:
        rows = [dict(r) for r in store.query(sql + " ORDER BY hit_count DESC, id DESC LIMIT ?", (*params, limit))]
    rows.sort(key=lambda r: (r["hit_count"], r["id"]), reverse=True)
    return rows[:limit]


def turn_dates(store: Store, ids: Sequence[int]) -> dict[int, str]:
    """The time of each memory's earliest originating turn, for those that have one."""
    out: dict[int, str] = {}
    for chunk in _chunks(list(ids)):
        marks = ", ".join("?" * len(chunk))
        for row in store.query(
            "SELECT m.id, MIN(t.created_at) FROM memories m"
            " JOIN candidate_sightings s ON s.candidate_id = m.candidate_id"
            f" JOIN turns t ON t.id = s.turn_id WHERE m.id IN ({marks}) GROUP BY m.id",
            chunk,
        ):
            if row[1]:
                out[int(row[0])] = str(row[1])
    return out


def term_doc_count(store: Store, match: str) -> int:
    """How many memories (any status) a one-term MATCH string hits."""
    if store.backend == "postgresql":
        from madohub_memory.store.pg import keyword

        return keyword.term_doc_count(store, match)
    return int(store.scalar("SELECT count(*) FROM memory_fts WHERE memory_fts MATCH ?", (match,)))


def memory_count_estimate(store: Store) -> int:
    return int(store.scalar("SELECT COALESCE(MAX(id), 0) FROM memories"))


def active_rows(store: Store, ids: Sequence[int]) -> dict[int, dict[str, Any]]:
    """Rows of the given ids that are still active, with their originating turn ids and
    ``turn_date``, the time of the earliest originating turn that has one (or None)."""
    out: dict[int, dict[str, Any]] = {}
    for chunk in _chunks(list(ids)):
        marks = ", ".join("?" * len(chunk))
        for row in store.query(
            f"SELECT * FROM memories WHERE status = 'active' AND id IN ({marks})", chunk
        ):
            out[int(row["id"])] = {**dict(row), "turn_ids": [], "turn_date": None}
        for row in store.query(
            "SELECT m.id, s.turn_id, t.created_at FROM memories m"
            " JOIN candidate_sightings s ON s.candidate_id = m.candidate_id"
            " LEFT JOIN turns t ON t.id = s.turn_id"
            f" WHERE m.id IN ({marks}) AND s.turn_id IS NOT NULL ORDER BY s.id",
            chunk,
        ):
            entry = out.get(int(row[0]))
            if entry is None:
                continue
            if row[1] not in entry["turn_ids"]:
                entry["turn_ids"].append(row[1])
            if row[2] and (entry["turn_date"] is None or row[2] < entry["turn_date"]):
                entry["turn_date"] = row[2]
    return out


def record_hits(store: Store, ids: Sequence[int], now: str, restore_weight_kinds: Sequence[str]) -> None:
    """Count a recall hit; an idle-demoted weight comes back to 1 for non-transient kinds."""
    kinds = list(restore_weight_kinds) or [""]
    marks = ", ".join("?" * len(kinds))
    for chunk in _chunks(sorted(set(ids))):  # one statement per chunk (a round trip on a server)
        store.execute(
            "UPDATE memories SET hit_count = hit_count + 1, last_hit_at = ?,"
            f" weight = CASE WHEN weight < 1.0 AND kind IN ({marks}) THEN 1.0 ELSE weight END"
            f" WHERE id IN ({', '.join('?' * len(chunk))}) AND status = 'active'",
            (now, *kinds, *chunk),
        )


def log_recall(
    store: Store, *, at: str, source: str, query: str, namespace: str | None,
    memory_ids: Sequence[int], token_estimate: int,
) -> int:
    cur = store.execute(
        "INSERT INTO recall_log (at, source, query, namespace, memory_ids, token_estimate)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        # masked before it is cut, so a cut never leaves part of a secret
        (at, source, (redact_text(query) or "")[:500], namespace, json.dumps(list(memory_ids)), token_estimate),
    )
    return int(cur.lastrowid or 0)


def recent_log(store: Store, limit: int = 20) -> list[dict[str, Any]]:
    rows = store.query("SELECT * FROM recall_log ORDER BY id DESC LIMIT ?", (limit,))
    return [{**dict(r), "memory_ids": json.loads(r["memory_ids"])} for r in rows]


# -- decay ----------------------------------------------------------------------------


def decay_rows(store: Store) -> list[dict[str, Any]]:
    """Every active memory with the fields the decay rules read."""
    rows = store.query(
        "SELECT id, kind, pinned, weight, hit_count, last_hit_at, created_at, updated_at"
        " FROM memories WHERE status = 'active' ORDER BY weight, id"
    )
    return [dict(r) for r in rows]


# -- the trigram comparison (bench only) ----------------------------------------------


def build_trigram_index(store: Store) -> None:
    """A throwaway trigram index over active memories, for ``bench/recall_quality.py``."""
    with store.transaction():
        store.execute("DROP TABLE IF EXISTS bench_trigram")
        store.execute("CREATE VIRTUAL TABLE bench_trigram USING fts5(text, tokenize = 'trigram')")
        store.execute(
            "INSERT INTO bench_trigram (rowid, text) SELECT id, content FROM memories"
            " WHERE status = 'active'"
        )


def trigram_search(store: Store, match: str, limit: int) -> list[tuple[int, float]]:
    rows = store.query(
        "SELECT rowid, -bm25(bench_trigram) AS s FROM bench_trigram WHERE bench_trigram MATCH ?"
        " ORDER BY s DESC LIMIT ?",
        (match, limit),
    )
    return [(int(r[0]), float(r[1])) for r in rows]
