"""Fusing vector and keyword similarity, and the final score.

Each signal is divided by its best value among the candidates (max-normalisation), then
mixed with ``vector_share``; rank-only fusion (RRF) throws the score gaps away and did
worse than vectors alone on LoCoMo, a max-normalised weighted sum did better than both.
A memory missing from one list gets 0 for that signal, except that every candidate's
cosine is known (the whole vector index is scored), so vector similarity is never missing.

Final score = similarity × weight × freshness, freshness = 1 / (1 + age_days / 30), age
counted from the memory's last update (a reinforcement or edit refreshes it). Pinned
memories are core: they do not fade.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from madohub_memory.core.clock import parse_iso


@dataclass
class Hit:
    """One recalled memory, with its scores and provenance."""

    id: int
    score: float
    content: str
    kind: str
    namespace: str
    created_at: str
    updated_at: str
    pinned: bool
    weight: float
    similarity: float
    vector_score: float
    keyword_score: float
    freshness: float
    turn_ids: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def freshness(updated_at: str, now: datetime, pinned: bool = False) -> float:
    if pinned:
        return 1.0
    age_days = max(0.0, (now - parse_iso(updated_at)).total_seconds() / 86400.0)
    return 1.0 / (1.0 + age_days / 30.0)


def fuse(
    vector: dict[int, float], keyword: dict[int, float], vector_share: float
) -> dict[int, float]:
    """Similarity in [0, 1] for every id of either signal."""
    vmax = max((v for v in vector.values() if v > 0), default=0.0)
    kmax = max((v for v in keyword.values() if v > 0), default=0.0)
    share = vector_share if kmax > 0 else 1.0
    if vmax <= 0:
        share = 0.0
    out: dict[int, float] = {}
    for memory_id in set(vector) | set(keyword):
        v = max(0.0, vector.get(memory_id, 0.0)) / vmax if vmax > 0 else 0.0
        k = max(0.0, keyword.get(memory_id, 0.0)) / kmax if kmax > 0 else 0.0
        out[memory_id] = share * v + (1.0 - share) * k
    return out


def rank(
    rows: dict[int, dict[str, Any]],
    vector: dict[int, float],
    keyword: dict[int, float],
    similarity: dict[int, float],
    now: datetime,
    k: int,
) -> list[Hit]:
    """Score every candidate row; keep the best ``k``.

    Pinned memories are guaranteed a place among the ``k`` as long as one place is left
    for the best other match (so ``k = 1`` is simply the best match)."""
    hits: list[Hit] = []
    for memory_id, row in rows.items():
        fresh = freshness(row["updated_at"], now, bool(row["pinned"]))
        sim = similarity.get(memory_id, 0.0)
        hits.append(
            Hit(
                id=memory_id, score=sim * float(row["weight"]) * fresh, content=row["content"],
                kind=row["kind"], namespace=row["namespace"], created_at=row["created_at"],
                updated_at=row["updated_at"], pinned=bool(row["pinned"]), weight=float(row["weight"]),
                similarity=sim, vector_score=vector.get(memory_id, 0.0),
                keyword_score=keyword.get(memory_id, 0.0), freshness=fresh,
                turn_ids=list(row.get("turn_ids") or []),
            )
        )
    hits.sort(key=lambda h: (-h.score, -h.id))
    chosen = hits[:k]
    pinned_out = [h for h in hits[k:] if h.pinned]
    if pinned_out and k > 1:
        keep_pinned = [h for h in chosen if h.pinned]
        others = [h for h in chosen if not h.pinned]
        slots = max(0, k - 1 - len(keep_pinned))
        added = pinned_out[:slots]
        chosen = keep_pinned + added + others[: k - len(keep_pinned) - len(added)]
        chosen.sort(key=lambda h: (-h.score, -h.id))
    return chosen
