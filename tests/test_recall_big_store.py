"""Recall's shortcuts for a big store give the answers of the plain, slower way.

* the vector shortlist (``best_rows``) is the set ``argpartition`` would choose, whatever
  the scores (masked rows at -inf, ties, a scope that keeps few rows);
* keyword search looks up only BM25's best matches in ``memories`` first and falls back to
  every match when too few of them are active and in scope: the answer is the full join's.
"""

from __future__ import annotations

import numpy as np
import pytest

from madohub_memory.recall.vector_index import best_rows
from madohub_memory.services import Services
from madohub_memory.store import recall as recall_rows


@pytest.mark.parametrize("seed", range(6))
def test_shortlist_is_the_full_partitions_set(seed: int) -> None:
    rng = np.random.default_rng(seed)
    scores = rng.standard_normal(200_000).astype(np.float32)
    if seed % 2:
        scores[rng.random(len(scores)) < 0.97] = -np.inf  # a narrow scope: most rows masked
    if seed == 4:
        scores = np.round(scores, 1)  # many ties
    for n in (1, 10, 2_500, 6_000):
        got = best_rows(scores, n)
        assert len(got) == n == len(set(got.tolist()))
        assert np.sort(scores[got])[::-1].tolist() == np.sort(scores)[::-1][:n].tolist()
    assert sorted(best_rows(scores[:50], 100).tolist()) == list(range(50))


def _memory(svc: Services, content: str, namespace: str, status: str = "active") -> int:
    cur = svc.store.execute(
        "INSERT INTO memories (content, kind, namespace, fingerprint, status, created_at, updated_at)"
        " VALUES (?, 'fact', ?, ?, ?, '2026-11-01T09:00:00.000Z', '2026-11-01T09:00:00.000Z')",
        (content, namespace, f"fp-{content}-{namespace}", status),
    )
    return int(cur.lastrowid or 0)


def _full_join(svc: Services, match: str, scope: list[str] | None, limit: int) -> list[tuple[int, float]]:
    where = f" AND m.namespace IN ({', '.join('?' * len(scope))})" if scope else ""
    rows = svc.store.query(
        "SELECT m.id, -bm25(memory_fts) AS score FROM memory_fts JOIN memories m ON m.id = memory_fts.rowid"
        f" WHERE memory_fts MATCH ? AND m.status = 'active'{where} ORDER BY score DESC LIMIT ?",
        (match, *(scope or []), limit),
    )
    return [(int(r[0]), float(r[1])) for r in rows]


def test_keyword_search_finds_what_the_best_matches_leave_out(svc: Services) -> None:
    """The best Kafka matches are archived or in another workspace: the few active ones in
    scope, which BM25 ranks far below, are still found, in order, with the wanted ids' scores."""
    with svc.store.transaction():
        for i in range(120):  # short texts: the best BM25 scores
            _memory(svc, f"Kafka topic {i}", "workspace:busy", "archived" if i % 2 else "active")
        quiet = [_memory(svc, f"Kafka is used here for event number {i} of the quiet project, among other tools",
                         "workspace:quiet") for i in range(8)]
        other = _memory(svc, "Nothing about streams at all", "workspace:quiet")
    match = '"kafka"'
    for scope in (["workspace:quiet"], ["workspace:busy"], None):
        for limit in (3, 5, 50):
            found = recall_rows.bm25_search(svc.store, match, scope, limit)
            assert found == _full_join(svc, match, scope, limit)
    found = recall_rows.bm25_search(svc.store, match, ["workspace:quiet"], 5)
    assert {i for i, _ in found} <= set(quiet) and len(found) == 5
    # wanted ids come first with their own score, the rest of the top after them
    wanted = [quiet[-1], other]
    found = recall_rows.bm25_search(svc.store, match, None, 4, wanted)
    scores = dict(_full_join(svc, match, None, 500))
    assert found[0] == (quiet[-1], pytest.approx(scores[quiet[-1]]))
    assert found[1:] == _full_join(svc, match, None, 4) and other not in dict(found)
