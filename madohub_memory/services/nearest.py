"""The approved memory nearest to a candidate, for the review pane: "is this new?".

One matrix product over the recall vector index (:mod:`madohub_memory.recall.vector_index`,
already in memory and kept current by its change feed), so the cost does not grow with a
word-by-word scan of every memory. The candidate's own vector is the one semantic dedup
stored when it arrived; only a candidate without one is embedded here. A memory is shown
only above :data:`THRESHOLD`, with a word-level diff against the candidate.

The first call loads the embedding model and may embed memories that lack a vector: never
call this on the GUI thread (the dashboard runs it on its own thread, apart from decisions).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING, Any

import numpy as np

from madohub_memory.core.text import fingerprint
from madohub_memory.recall.embeddings import get_embedder
from madohub_memory.recall.vector_index import shared_index
from madohub_memory.services.queue import word_diff
from madohub_memory.store import memories as memory_rows
from madohub_memory.store import memory_list

if TYPE_CHECKING:
    from madohub_memory.services import Services

# Cosine (USE multilingual) from which a memory is worth showing beside a candidate.
# Measured on hand-made pairs: edits and paraphrases of one statement score 0.46-0.96 (also
# across English and Chinese), statements on neighbouring topics 0.3, unrelated ones 0.1.
# Below this the pane says the candidate adds something new.
THRESHOLD = 0.45
SAME_NAMESPACE_BONUS = 0.03
_SHORTLIST = 8
_TEXT_CACHE = 512


class NearestService:
    def __init__(self, svc: Services) -> None:
        self.svc = svc
        self._texts: OrderedDict[str, np.ndarray] = OrderedDict()

    def _vector(self, candidate_id: int | None, content: str, embedder: Any) -> np.ndarray:
        fp = fingerprint(content)
        if candidate_id is not None:
            stored = memory_list.stored_candidate_vector(self.svc.store, candidate_id, embedder.name)
            if stored is not None and stored[0] == fp:
                vector = np.frombuffer(stored[1], dtype=np.float16).astype(np.float32)
                if vector.shape[0] == embedder.dim:
                    return vector
        cached = self._texts.get(content)
        if cached is None:
            cached = self._texts[content] = embedder.encode([content])[0]
            while len(self._texts) > _TEXT_CACHE:
                self._texts.popitem(last=False)
        return cached

    def nearest(self, content: str, namespace: str, candidate_id: int | None = None) -> dict[str, Any] | None:
        """The active memory most like ``content`` (its own namespace weighs a little more),
        with ``score`` (cosine) and ``diff``; ``None`` when nothing reaches the threshold."""
        embedder = get_embedder(self.svc.recall.model_name())
        index = shared_index(self.svc.store, embedder.name, embedder.dim)
        index.refresh(self.svc.store, embedder)
        if len(index) == 0:
            return None
        hits = index.search(self._vector(candidate_id, content, embedder), None, _SHORTLIST)
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
            "namespace": best["namespace"], "score": best["score"],
            "diff": word_diff(best["content"], content),
        }
