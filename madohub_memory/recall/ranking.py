"""Fusing vector and keyword similarity with a date fit and a length prior; the final order.

Relevance of a candidate (hybrid recall) =

    0.6 × cosine / best cosine  +  0.4 × BM25 / best BM25          (the two signals)
    + 0.13 × date fit           (when the query names a date: 1 for a memory of that date)
    + 0.09 × ln(1 + min(words, 64))                                 (a length prior)

For a model whose cosines sit in a narrow band (e5-small) the cosine term is measured
from a floor (0.7, or 0.05 below the weakest candidate) instead of from 0
(``fuse(..., floor=...)``): divided by the best, every e5 candidate would score about 0.9-1.

The weights are those of a logistic regression of "links to an evidence turn" on these
four features, fitted on a declared training split (LoCoMo dev conversations conv-26 and
conv-44 only) and rounded; they are checked on the other LoCoMo conversations,
LongMemEval and the Chinese check (``bench/recall_ideas.py`` measures every alternative
tried: z-score, min-max and rank fusion, calibrated BM25, other BM25 parameters, query
rewriting, pseudo-relevance feedback, diversity, entity boosts). Max-normalisation stayed:
no calibration did better on held-out data. A longer memory holds more facts, so at equal
similarity it is more often the one that answers; the prior saturates at 64 words so a
pasted document does not win on length.

Neither signal may bury what the other is sure of: each signal's best match is placed
within the top three (LongMemEval questions whose answer shares no word with the question
are found by vectors alone).

Weight and freshness (1 / (1 + age_days / 30), from the last update; pinned memories do
not fade) only break near-ties: score = relevance × (1 − s + s × weight × freshness) with
``s = recall.freshness_share`` (0.01). As a full multiplier (s = 1) they cost most of the
accuracy on memories of different ages whose age says nothing about relevance (LoCoMo
with real session dates, ``bench/recall_quality.py --dated``: hit@1 0.44 → 0.10, hit@10
0.71 → 0.52), and recall order would follow whatever was recalled last.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from madohub_memory.core.cjk import CJK_CHAR
from madohub_memory.core.clock import date_said, parse_iso
from madohub_memory.core.errors import ValidationError
from madohub_memory.recall import temporal

DATE_WEIGHT = 0.13
LENGTH_WEIGHT = 0.09
LENGTH_CAP = 64
GUARANTEE_WITHIN = 3

_WORD = re.compile(r"[^\W\d_]+|\d+", re.UNICODE)
_LETTERS = re.compile(r"[^\W\d_]+", re.UNICODE)
_CJK = CJK_CHAR


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
    turn_date: str | None = None
    store: str | None = None  # the store it came from, when namespaces are kept in several

    def to_dict(self) -> dict[str, Any]:
        out = dict(self.__dict__)
        if out["store"] is None:
            del out["store"]
        return out

    @property
    def ref(self) -> str:
        """The id to act on it by: ``12``, or ``team:12`` for a memory of another store."""
        return f"{self.store}:{self.id}" if self.store and self.store != "local" else str(self.id)

    @property
    def said_on(self) -> str:
        return date_said(self.turn_date, self.updated_at)


def freshness(updated_at: str, now: datetime, pinned: bool = False) -> float:
    if pinned:
        return 1.0
    age_days = max(0.0, (now - parse_iso(updated_at)).total_seconds() / 86400.0)
    return 1.0 / (1.0 + age_days / 30.0)


def word_count(text: str) -> int:
    """Words of ``text``; a Chinese word is about two characters."""
    cjk = len(_CJK.findall(text))
    return len(_WORD.findall(_CJK.sub(" ", text))) + (cjk + 1) // 2


@functools.lru_cache(maxsize=8192)
def length_prior(text: str) -> float:
    return math.log1p(min(word_count(text), LENGTH_CAP))


def vector_share_for(query: str, share: float, share_chinese: float) -> float:
    """The vector signal's share for ``query``: ``share_chinese`` for a query in Chinese,
    ``share`` for any other, a blend by the share of Chinese words (two characters each)
    among the words of either script for mixed scripts (digits count for neither).

    Why by script: the keyword signal of a Chinese query is only as good as the segmenter's
    agreement between a question and the statement that answers it (jieba cuts the two
    differently), so BM25 is the less reliable signal there. On the Chinese tuning split
    (``bench/_recall_data.py`` CN_TUNE, the only Chinese questions a choice is made on),
    BM25 alone finds the answer first for 0.04 of the questions against 0.13 for e5, and
    the share 0.8 beat 0.6 and 0.7 at hit@10 (0.870 / 0.826 / 0.826) with hit@1 and @5 equal
    (``bench/recall_models.py``). The English weights stay those fitted on LoCoMo train.
    """
    cjk = len(_CJK.findall(query))
    if not cjk:
        return share
    chinese = (cjk + 1) // 2
    other = len(_LETTERS.findall(_CJK.sub(" ", query)))  # digits belong to no script
    part = chinese / (chinese + other)
    return share + (share_chinese - share) * part


FLOOR_MARGIN = 0.05  # a floor stays this far below the weakest candidate: none scores 0 for being last


def fuse(
    vector: dict[int, float], keyword: dict[int, float], vector_share: float, floor: float | None = None,
) -> dict[int, float]:
    """Max-normalised weighted sum, in [0, 1], for every id of either signal.

    ``floor``: for a model whose cosines sit in a narrow band (e5: about 0.7-0.9 for any two
    texts, so divided by the best one every candidate scores about 1 and the vector signal
    hardly separates them), the cosine is measured from that floor instead of from 0:
    ``(cos - f) / (best - f)`` with ``f = min(floor, weakest - 0.05)``, so the weakest
    candidate still scores above 0 (:data:`~madohub_memory.recall.embeddings.COSINE_FLOORS`)."""
    vmax = max((v for v in vector.values() if v > 0), default=0.0)
    kmax = max((v for v in keyword.values() if v > 0), default=0.0)
    share = vector_share if kmax > 0 else 1.0
    if vmax <= 0:
        share = 0.0
    base = 0.0
    if floor is not None and vector:
        base = max(0.0, min(floor, min(vector.values()) - FLOOR_MARGIN))
    out: dict[int, float] = {}
    for memory_id in set(vector) | set(keyword):
        v = max(0.0, vector.get(memory_id, 0.0) - base) / (vmax - base) if vmax > base else 0.0
        k = max(0.0, keyword.get(memory_id, 0.0)) / kmax if kmax > 0 else 0.0
        out[memory_id] = share * v + (1.0 - share) * k
    return out


def memory_date(row: dict[str, Any]) -> date | None:
    """When a memory was said: its originating turn's time, else when it was created. A turn
    time an importer kept as it came ("1.5", "yesterday") is skipped, never an error."""
    for stamp in (row.get("turn_date"), row.get("created_at")):
        if not stamp:
            continue
        try:
            return parse_iso(stamp).date()
        except (ValueError, ValidationError):
            continue
    return None


def date_fits(rows: dict[int, dict[str, Any]], window: temporal.Window | None) -> dict[int, float]:
    """Date fit of every row; empty when the query names no date or no row is of that date
    (then the date says nothing and must not reorder anything)."""
    if window is None:
        return {}
    fits = {i: temporal.fit(memory_date(row), window) for i, row in rows.items()}
    return fits if any(f > 0.5 for f in fits.values()) else {}


def relevance(
    rows: dict[int, dict[str, Any]], similarity: dict[int, float], fits: dict[int, float],
    priors: bool,
) -> dict[int, float]:
    """Fused similarity plus (hybrid only) the date fit and the length prior."""
    out: dict[int, float] = {}
    for memory_id, row in rows.items():
        value = similarity.get(memory_id, 0.0)
        if priors and value > 0:
            value += DATE_WEIGHT * fits.get(memory_id, 0.0) + LENGTH_WEIGHT * length_prior(row["content"])
        out[memory_id] = value
    return out


def rank(
    rows: dict[int, dict[str, Any]],
    vector: dict[int, float],
    keyword: dict[int, float],
    scores: dict[int, float],
    now: datetime,
    k: int,
    *,
    freshness_share: float = 0.01,
    similarity: dict[int, float] | None = None,
    sure: Sequence[int] = (),
) -> list[Hit]:
    """Order every candidate row; keep the best ``k``.

    ``scores``: relevance per id. ``sure``: ids a single signal ranks first, kept within the
    top :data:`GUARANTEE_WITHIN`. Pinned memories are guaranteed a place among the ``k`` as
    long as one place is left for the best other match (so ``k = 1`` is simply the best match).
    """
    similarity = similarity if similarity is not None else scores
    score: dict[int, float] = {}
    fresh: dict[int, float] = {}
    for memory_id, row in rows.items():
        fresh[memory_id] = freshness(row["updated_at"], now, bool(row["pinned"]))
        multiplier = 1.0 - freshness_share + freshness_share * min(1.0, float(row["weight"])) * fresh[memory_id]
        score[memory_id] = scores.get(memory_id, 0.0) * multiplier
    order = _keep_sure(sorted(rows, key=lambda i: (-score[i], -i)), sure, score)
    chosen = order[:k]
    pinned_out = [i for i in order[k:] if rows[i]["pinned"]]
    if pinned_out and k > 1:
        keep_pinned = [i for i in chosen if rows[i]["pinned"]]
        others = [i for i in chosen if not rows[i]["pinned"]]
        slots = max(0, k - 1 - len(keep_pinned))
        added = pinned_out[:slots]
        kept = others[: k - len(keep_pinned) - len(added)]
        position = {i: p for p, i in enumerate(order)}
        chosen = sorted(keep_pinned + added + kept, key=position.__getitem__)
    return [
        Hit(
            id=i, score=score[i], content=rows[i]["content"], kind=rows[i]["kind"],
            namespace=rows[i]["namespace"], created_at=rows[i]["created_at"], updated_at=rows[i]["updated_at"],
            pinned=bool(rows[i]["pinned"]), weight=float(rows[i]["weight"]),
            similarity=similarity.get(i, 0.0), vector_score=vector.get(i, 0.0),
            keyword_score=keyword.get(i, 0.0), freshness=fresh[i],
            turn_ids=list(rows[i].get("turn_ids") or []), turn_date=rows[i].get("turn_date"),
        )
        for i in chosen
    ]


def _keep_sure(order: list[int], sure: Sequence[int], score: dict[int, float]) -> list[int]:
    """Move each ``sure`` id that fell below the top few up to the last places within them."""
    position = {i: p for p, i in enumerate(order)}
    late = [i for i in dict.fromkeys(sure) if position.get(i, -1) >= GUARANTEE_WITHIN and score[i] > 0]
    if not late:
        return order
    rest = [i for i in order if i not in set(late)]
    cut = max(0, GUARANTEE_WITHIN - len(late))
    return rest[:cut] + late + rest[cut:]
