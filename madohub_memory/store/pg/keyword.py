"""The keyword index on PostgreSQL: Chinese segmented as on SQLite, ranked by BM25 as FTS5 does.

PostgreSQL cannot call the Python segmenter from a trigger, so the index is written by the
store: a trigger queues every inserted, edited or deleted memory in ``fts_pending``; a write
transaction of the store that changed memories indexes its queue before it commits
(:func:`index_pending`), and :func:`catch_up` (run before each keyword query, cheap when the
queue is empty) takes care of any other writer (a hand edit in psql). Both segment the texts with the same :func:`~madohub_memory.store.fts_text.index_text` as SQLite's
trigger and stores ``to_tsvector('english', …)`` (stemmed, like FTS5's ``porter``) with
the token count. Any writer (another machine, a hand edit in psql) is caught up this way.

Scores are FTS5's BM25 (k1 = 1.2, b = 0.75, idf = ln((N - n + 0.5) / (n + 0.5)), at least
1e-6), computed from the term frequencies the tsvector keeps, so the hybrid ranking's
keyword signal has the same scale and order on both backends.
"""

from __future__ import annotations

import unicodedata
import weakref
from collections.abc import Sequence
from typing import Any

from madohub_memory.core.errors import DatabaseBusyError
from madohub_memory.store.database import Store
from madohub_memory.store.fts_text import index_text

K1 = 1.2
B = 0.75
CONFIG = "english"
_BATCH = 500
_CATCH_UP_WAIT_S = 0.5


def fold(text: str) -> str:
    """Diacritics removed (FTS5's ``remove_diacritics 2``): ``café`` is found by ``cafe``."""
    if text.isascii():
        return text
    decomposed = unicodedata.normalize("NFKD", text)
    return unicodedata.normalize("NFC", "".join(c for c in decomposed if not unicodedata.combining(c)))


def catch_up(store: Store) -> None:
    """Index the memories queued since the last call (a recall on a read-only role skips it)."""
    if store.readonly or store.query_one("SELECT 1 FROM fts_pending LIMIT 1") is None:
        return
    try:
        while True:
            with store.transaction(wait_s=_CATCH_UP_WAIT_S):
                rows = store.query(
                    "SELECT p.memory_id, m.content FROM fts_pending p LEFT JOIN memories m ON m.id = p.memory_id"
                    f" ORDER BY p.memory_id LIMIT {_BATCH}"
                )
                if not rows:
                    return
                _apply(store, [(int(r[0]), r[1]) for r in rows])
            if len(rows) < _BATCH:
                return
    except DatabaseBusyError:
        return  # a long write holds the lock: answer from the index as it is


def index_pending(store: Store) -> None:
    """Inside a write transaction that changed memories: index what it queued, before it
    commits (the keyword index is then current for every reader, read-only roles too)."""
    while True:
        rows = store.query(
            "SELECT p.memory_id, m.content FROM fts_pending p LEFT JOIN memories m ON m.id = p.memory_id"
            f" ORDER BY p.memory_id LIMIT {_BATCH}"
        )
        if rows:
            _apply(store, [(int(r[0]), r[1]) for r in rows])
        if len(rows) < _BATCH:
            return


def _apply(store: Store, rows: list[tuple[int, str | None]]) -> None:
    ids = [r[0] for r in rows]
    marks = ", ".join("?" * len(ids))
    old = store.query(f"SELECT count(*), COALESCE(SUM(len), 0) FROM memory_fts WHERE memory_id IN ({marks})", ids)
    store.execute(f"DELETE FROM memory_fts WHERE memory_id IN ({marks})", ids)
    store.execute(f"DELETE FROM memory_terms WHERE memory_id IN ({marks})", ids)
    present = [(mid, fold(index_text(content))) for mid, content in rows if content is not None]
    if present:
        store.conn.executemany(
            f"INSERT INTO memory_fts (memory_id, tsv, len) SELECT ?, v, (SELECT COALESCE(max(p), 0)"
            f" FROM unnest(v) u, unnest(u.positions) p) FROM to_tsvector('{CONFIG}', ?) v",
            present,
        )
        store.execute(
            "INSERT INTO memory_terms (lexeme, memory_id, tf, len, status, namespace) SELECT u.lexeme, f.memory_id,"
            " greatest(1, cardinality(u.positions)), f.len, m.status, m.namespace"
            " FROM memory_fts f JOIN memories m ON m.id = f.memory_id, unnest(f.tsv) u"
            f" WHERE f.memory_id IN ({marks})",
            ids,
        )
    new = store.query(f"SELECT count(*), COALESCE(SUM(len), 0) FROM memory_fts WHERE memory_id IN ({marks})", ids)
    store.execute(
        "UPDATE fts_stats SET docs = docs + ?, total_len = total_len + ? WHERE one = 1",
        (int(new[0][0]) - int(old[0][0]), int(new[0][1]) - int(old[0][1])),
    )
    store.execute(f"DELETE FROM fts_pending WHERE memory_id IN ({marks})", ids)


def parse_match(match: str) -> list[str]:
    """The terms of an FTS5 MATCH string made by ``fts_text.match_expression`` ("a" OR "b")."""
    terms: list[str] = []
    i = 0
    while i < len(match):
        if match[i] != '"':
            i += 1
            continue
        j, buf = i + 1, []
        while j < len(match):
            if match[j] == '"':
                if j + 1 < len(match) and match[j + 1] == '"':
                    buf.append('"')
                    j += 2
                    continue
                break
            buf.append(match[j])
            j += 1
        terms.append("".join(buf))
        i = j + 1
    return terms


def _lexemes(store: Store, terms: Sequence[str]) -> list[str]:
    """The stemmed lexemes of query terms; each term is asked of the server once per
    connection (``to_tsvector`` of a fixed configuration always gives the same answer)."""
    known = _LEXEME_CACHE.setdefault(store, {})
    folded = [fold(t) for t in terms]
    missing = [t for t in dict.fromkeys(folded) if t not in known]
    if missing:
        if len(known) > 20_000:
            known.clear()
        found: dict[str, list[str]] = {t: [] for t in missing}
        for term, lexeme in store.query(
            "SELECT t, u.lexeme FROM unnest(?::text[]) t, unnest(to_tsvector('" + CONFIG + "', t)) u",
            (_array(missing),),
        ):
            found[str(term)].append(str(lexeme))
        known.update({t: tuple(v) for t, v in found.items()})
    return sorted({lexeme for t in folded for lexeme in known[t]})


_LEXEME_CACHE: weakref.WeakKeyDictionary[Store, dict[str, tuple[str, ...]]] = weakref.WeakKeyDictionary()


def _array(values: Sequence[str]) -> str:
    """A PostgreSQL text array literal (parameters go untyped, so arrays go as text)."""
    return "{" + ",".join('"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"' for v in values) + "}"


def bm25_search(
    store: Store, match: str, scope: str, scope_params: list[Any], limit: int, wanted: Sequence[int],
) -> list[tuple[int, float]]:
    """Active memories matching any term, with FTS5's BM25 score, wanted ids first then best first.

    Only the postings of the query's lexemes are read (``memory_terms``), never whole
    documents; each lexeme's idf and the mean length are computed in the same statement
    (``MATERIALIZED``: once per lexeme, not once per posting)."""
    catch_up(store)
    lexemes = _lexemes(store, parse_match(match))
    if not lexemes:
        return []
    order = f"(t.memory_id IN ({', '.join('?' * len(wanted))})) DESC, score DESC" if wanted else "score DESC"
    rows = store.query(
        "WITH st AS (SELECT coalesce(max(docs), 0)::float8 AS docs, coalesce(max(total_len), 0)::float8 AS len"
        " FROM fts_stats WHERE one = 1),"
        " n AS MATERIALIZED (SELECT l.lexeme, (SELECT count(*) FROM memory_terms c WHERE c.lexeme = l.lexeme)::float8 AS n"
        " FROM unnest(?::text[]) AS l(lexeme)),"
        " q AS MATERIALIZED (SELECT n.lexeme, CASE WHEN (st.docs - n.n + 0.5) / (n.n + 0.5) > 1"
        " THEN ln((st.docs - n.n + 0.5) / (n.n + 0.5)) ELSE 1e-6 END AS idf,"
        " CASE WHEN st.docs > 0 THEN st.len / st.docs ELSE 1.0 END AS avgdl FROM n, st)"
        f" SELECT t.memory_id, SUM(q.idf * t.tf * {K1 + 1}::float8 / (t.tf + {K1}::float8 * ({1 - B}::float8"
        f" + {B}::float8 * t.len / q.avgdl))) AS score"
        " FROM q JOIN memory_terms t ON t.lexeme = q.lexeme"
        f" WHERE t.status = 'active'{scope.replace(' m.namespace', ' t.namespace')}"
        f" GROUP BY t.memory_id ORDER BY {order}, t.memory_id LIMIT ?",
        (_array(lexemes), *scope_params, *wanted, limit + len(wanted)),
    )
    return [(int(r[0]), float(r[1])) for r in rows]


def term_doc_count(store: Store, match: str) -> int:
    """How many memories (any status) a one-term MATCH string hits."""
    catch_up(store)
    lexemes = _lexemes(store, parse_match(match))
    if not lexemes:
        return 0
    return int(store.scalar(
        "SELECT count(DISTINCT memory_id) FROM memory_terms WHERE lexeme = ANY(?::text[])", (_array(lexemes),),
    ))
