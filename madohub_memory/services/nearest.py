"""The approved memory nearest to a candidate, for the review pane: "is this new?".

It searches the vector index of the similarity model (:data:`SIMILARITY_MODEL`, whose
cosines :data:`THRESHOLD` was measured on; recall may rank with another model): in memory and
kept current by its change feed, one matrix product; from 20,000 memories a scan of the mapped
file's 64-dimension coarse copy and an exact rescoring of a shortlist
(:mod:`madohub_memory.recall.vector_index`), so the cost does not grow with a word-by-word scan
of every memory.

The candidate's own vector is the one semantic dedup stored when it arrived (the one
vector table); only a candidate without one is embedded here. A memory is shown only above :data:`THRESHOLD`,
with a word-level diff against the candidate. The first call loads the embedding model and
may embed memories that lack a vector: never call this on the GUI thread (the dashboard
runs it in a helper process).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from madohub_memory.core.text import fingerprint
from madohub_memory.recall.embeddings import SIMILARITY_MODEL
from madohub_memory.services.queue import word_diff
from madohub_memory.store import memories as memory_rows

if TYPE_CHECKING:
    from madohub_memory.services import Services

# Cosine (USE multilingual) from which a memory is worth showing beside a candidate.
# Measured on hand-made pairs: edits and paraphrases of one statement score 0.46-0.96 (also
# across English and Chinese), statements on neighbouring topics 0.3, unrelated ones 0.1.
# Below this the pane says the candidate adds something new.
THRESHOLD = 0.45
SAME_NAMESPACE_BONUS = 0.03
_SHORTLIST = 8


class NearestService:
    def __init__(self, svc: Services) -> None:
        self.svc = svc

    def nearest(self, content: str, namespace: str, candidate_id: int | None = None) -> dict[str, Any] | None:
        """The active memory most like ``content`` (its own namespace weighs a little more),
        with ``score`` (cosine) and ``diff``; ``None`` when nothing reaches the threshold."""
        cache = self.svc.recall.vectors(SIMILARITY_MODEL)  # THRESHOLD was measured on its cosines
        index = cache.index
        vector = cache.vector_of(self.svc.store, "candidate", candidate_id, content, fingerprint(content))
        with index.lock:
            index.refresh(self.svc.store, cache.embedder)
            if len(index) == 0:
                return None
            hits = index.search(vector, None, _SHORTLIST)
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
