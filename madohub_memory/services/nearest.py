"""The approved memory nearest to a candidate, for the review pane: "is this new?".

It reads the recall vector index (:mod:`madohub_memory.recall.vector_index`, in memory and
kept current by its change feed): one matrix product, so the cost does not grow with a
word-by-word scan of every memory. From 20,000 memories the index keeps a 192-dimension
projection of every row; this view keeps a contiguous copy of its first 64 dimensions (the
strongest principal directions), scans that (2 ms at 100,000 memories on one core instead
of 7), and rescores the best few hundred exactly. The copy follows the index row by row
(appends, moves, edits from the change feed), never by a full rebuild after each approval.

The candidate's own vector is the one semantic dedup stored when it arrived (the one
vector table); only a candidate without one is embedded here. A memory is shown only above :data:`THRESHOLD`,
with a word-level diff against the candidate. The first call loads the embedding model and
may embed memories that lack a vector: never call this on the GUI thread (the dashboard
runs it in a helper process).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from madohub_memory.core.text import fingerprint
from madohub_memory.recall.vector_index import VectorIndex
from madohub_memory.services.queue import word_diff
from madohub_memory.store import embeddings as vector_rows
from madohub_memory.store import memories as memory_rows
from madohub_memory.store.database import Store

if TYPE_CHECKING:
    from madohub_memory.services import Services

# Cosine (USE multilingual) from which a memory is worth showing beside a candidate.
# Measured on hand-made pairs: edits and paraphrases of one statement score 0.46-0.96 (also
# across English and Chinese), statements on neighbouring topics 0.3, unrelated ones 0.1.
# Below this the pane says the candidate adds something new.
THRESHOLD = 0.45
SAME_NAMESPACE_BONUS = 0.03
_SHORTLIST = 8
COARSE_DIM = 64
COARSE_RERANK = 256


class _Coarse:
    """A contiguous copy of the first ``COARSE_DIM`` projected dimensions of an index's rows."""

    def __init__(self, index: VectorIndex) -> None:
        self.index = index
        self.proj_source = index.proj
        assert index.proj is not None
        self.proj = np.ascontiguousarray(index.proj[:, :COARSE_DIM])
        n = len(index)
        self.rows = np.ascontiguousarray(index.reduced[:n, :COARSE_DIM])
        self.ids = index.ids[:n].copy()
        self.seq = index.seq

    def follow(self, store: Store) -> bool:
        """Catch up with the index; False when it was rebuilt and this copy must be too."""
        index = self.index
        if index.proj is not self.proj_source:
            return False
        if index.seq == self.seq:
            return True
        n = len(index)
        if n != len(self.ids):
            grown = np.zeros((n, COARSE_DIM), dtype=np.float32)
            keep = min(n, len(self.ids))
            grown[:keep] = self.rows[:keep]
            ids = np.full(n, -1, dtype=np.int64)
            ids[:keep] = self.ids[:keep]
            self.rows, self.ids = grown, ids
        moved = np.flatnonzero(self.ids != index.ids[:n])  # appended or moved into a freed row
        edited = vector_rows.changed_since(store, self.seq, index.seq, "memory")  # same row, new text
        positions = set(moved.tolist()) | {index.position[i] for _, i in edited if i in index.position}
        for pos in positions:
            self.rows[pos] = index.reduced[pos, :COARSE_DIM]
            self.ids[pos] = index.ids[pos]
        self.seq = index.seq
        return True

    def search(self, query: np.ndarray, k: int) -> list[tuple[int, float]]:
        index = self.index
        approx = self.rows @ (query @ self.proj)
        shortlist = min(len(approx), COARSE_RERANK)
        rows = np.argpartition(-approx, shortlist - 1)[:shortlist] if len(approx) > shortlist else np.arange(len(approx))
        return index.top(self.ids[rows], index.matrix[rows] @ query, k)


_coarse: dict[int, _Coarse] = {}


class NearestService:
    def __init__(self, svc: Services) -> None:
        self.svc = svc

    def _search(self, index: VectorIndex, vector: np.ndarray) -> list[tuple[int, float]]:
        if index.proj is None or len(index) <= COARSE_RERANK * 4:
            return index.search(vector, None, _SHORTLIST)
        coarse = _coarse.get(id(index))
        if coarse is None or coarse.index is not index or not coarse.follow(self.svc.store):
            coarse = _coarse[id(index)] = _Coarse(index)
        return coarse.search(vector, _SHORTLIST)

    def nearest(self, content: str, namespace: str, candidate_id: int | None = None) -> dict[str, Any] | None:
        """The active memory most like ``content`` (its own namespace weighs a little more),
        with ``score`` (cosine) and ``diff``; ``None`` when nothing reaches the threshold."""
        cache = self.svc.recall.vectors()
        index = cache.index
        vector = cache.vector_of(self.svc.store, "candidate", candidate_id, content, fingerprint(content))
        with index.lock:
            index.refresh(self.svc.store, cache.embedder)
            if len(index) == 0:
                return None
            hits = self._search(index, vector)
        best: dict[str, Any] | None = None
        best_rank = -1.0
        for memory_id, cosine in hits:
            if cosine < THRESHOLD:
                continue
            row = memory_rows.get_row(self.svc.store, memory_id)
            if row is None or row["status"] != "active":
                continue
            rank = cosine + (SAME_NAMESPACE_BONUS if row["namespace"] == namespace else 0.0)
            if rank > best_rank:
                best, best_rank = {**row, "score": round(min(1.0, cosine), 3)}, rank
        if best is None:
            return None
        return {
            "id": best["id"], "content": best["content"], "kind": best["kind"],
            "namespace": best["namespace"], "score": best["score"], "approved_by": best.get("approved_by"),
            "created_at": best["created_at"],
            "diff": word_diff(best["content"], content),
        }
