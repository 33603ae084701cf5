"""Semantic dedup: a new candidate is equivalent to a known one of the same namespace and
kind when their embedding cosine reaches ``dedup.threshold`` (measured by
``bench/dedup_threshold.py``). Called by :func:`madohub_memory.services.dedup.find_equivalent`
only when the fingerprint finds nothing, and only while ``dedup.semantic`` is on.

The vectors come from the process's one vector cache
(:mod:`madohub_memory.recall.vector_cache`): its groups by namespace and kind, loaded once
from the ``embeddings`` table and kept current from the change feed. A cached match is
verified against the row before it is used (status, namespace, kind and text may have
changed since), so staleness costs at most a missed match, never a wrong one.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from madohub_memory.core.errors import ValidationError
from madohub_memory.core.types import Equivalent
from madohub_memory.recall.embeddings import SIMILARITY_MODEL
from madohub_memory.recall.vector_cache import VectorCache, vector_cache
from madohub_memory.recall.vector_groups import Group
from madohub_memory.services.edits import masked_content
from madohub_memory.store import candidates as candidate_rows
from madohub_memory.store import embeddings as vector_rows
from madohub_memory.store import memories as memory_rows
from madohub_memory.store.database import Store

if TYPE_CHECKING:
    from madohub_memory.services import Services

log = logging.getLogger(__name__)

# Embeddings are nearly blind to order, negation and numbers ("tabs over spaces" vs
# "spaces over tabs" score 0.99), so a cosine match must also pass these lexical checks.
_NEGATION = re.compile(r"\b(?:not|never|no|none|nothing|without)\b|n't\b|[不没别勿非未无]", re.I)
# Words that contain 不/没/无/非 but negate nothing ("not bad", "however", "different"...).
_NOT_NEGATION_ZH = re.compile(r"不错|不过|不同|不少|不断|不久|不仅|不管|不然|不得不|不一定|无论|非常|没准|并非")
# Words that turn a statement the other way without a "not": "keep X out of the summary" is
# the opposite of "report X in the summary". Counted with the negations.
_EXCLUSION = re.compile(
    r"\b(?:out of|leave out|left out|keep out|exclud(?:e|es|ed|ing)|omit(?:s|ted|ting)?|skip(?:s|ped|ping)?|"
    r"refrain(?:s|ed)? from|forbid(?:s|den)?|prohibit(?:s|ed)?|disabl(?:e|es|ed|ing))\b"
    r"|避免|排除|去掉|省略|禁止|跳过|跳過|不含|以外", re.I)
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_ORDERED = re.compile(
    r"(\w(?:[\w+#\-]|\.(?=\w))*)\s+(?:over|instead of|rather than|than|not|vs\.?|versus)\s+(\w(?:[\w+#\-]|\.(?=\w))*)"
    r"|用\s*([^，。,\s]+?)\s*(?:而不是|不用|代替|替代|取代)\s*(?:用)?\s*([^，。,\s]+)"
    r"|([^，。,\s]{1,10}?)\s*(?:比|胜过)\s*([^，。,\s]{1,10})",
    re.I,
)


_AVERSION = re.compile(r"\b(?:hates?|hated|dislikes?|disliked|detests?|can't stand|avoids?)\b|讨厌|厌恶|受不了|反感", re.I)


def _polarity(text: str) -> int:
    """0 or 1: whether the text says the opposite of itself without its negations and exclusions."""
    return (len(_NEGATION.findall(_NOT_NEGATION_ZH.sub("", text))) + len(_EXCLUSION.findall(text))) % 2


def compatible(a: str, b: str) -> bool:
    """False when two similar texts differ in polarity (a negation or an exclusion: "keep X
    out of" vs "report X in"), aversion ("likes" vs "hates"), numbers or the order of a
    comparison."""
    if bool(_AVERSION.search(a)) != bool(_AVERSION.search(b)):
        return False
    if _polarity(a) != _polarity(b):
        return False
    if sorted(_NUMBER.findall(a)) != sorted(_NUMBER.findall(b)):
        return False
    pairs_a = {tuple(x.lower() for x in m.groups() if x) for m in _ORDERED.finditer(a)}
    pairs_b = {tuple(x.lower() for x in m.groups() if x) for m in _ORDERED.finditer(b)}
    return not any((y, x) in pairs_b for x, y in pairs_a)

def _verify(store: Store, cache: VectorCache, group: Group, slot: int, namespace: str, kind: str,
            vector: np.ndarray) -> dict[str, Any] | None:
    """The current row behind ``slot`` if it still qualifies, with its fresh score."""
    entity, entity_id, fp = group.keys[slot]
    row = vector_rows.current(store, entity, entity_id)
    if row is None or row["namespace"] != namespace or row["kind"] != kind:
        group.kill(slot)  # moved or deleted: never matches again from this slot
        return None
    if entity == "memory" and row["status"] != "active":
        return None
    if entity == "candidate" and row["status"] == "archived":
        return None
    if row["fingerprint"] != fp:  # edited since it was loaded
        cache.groups.refresh_slot(store, cache.embed, group, slot, row["content"], row["fingerprint"])
    row["_score"] = float(group.matrix[slot] @ vector)
    return row


def _candidate_equivalent(store: Store, candidate_id: int) -> Equivalent:
    candidate = candidate_rows.get_row(store, candidate_id)
    assert candidate is not None
    if candidate["status"] == "approved" and candidate["memory_id"] is not None:
        memory = memory_rows.get_row(store, candidate["memory_id"])
        if memory is not None and memory["status"] == "active":
            return Equivalent(memory=memory)
    return Equivalent(candidate=candidate)


def match(store: Store, cache: VectorCache, content: str, namespace: str, kind: str,
          threshold: float) -> Equivalent | None:
    """The best equivalent of ``content`` in its namespace and kind: an active memory first,
    else a candidate; ``None`` below ``threshold`` or when the lexical guard objects."""
    groups = cache.groups
    vector = cache.embed([content])[0]
    cache.prefetch(groups.stale_texts(store, namespace, kind))  # a group's first load: embedded unlocked
    with groups.lock:
        groups.follow(store, cache.embed)
        group = groups.group(store, cache.embed, namespace, kind)
        best: dict[str, tuple[float, dict[str, Any]]] = {}
        for _score, slot in group.search(vector, threshold):
            entity = group.keys[slot][0]
            if entity in best:
                continue
            row = _verify(store, cache, group, slot, namespace, kind, vector)
            if row is None:
                continue
            if row["_score"] < threshold or not compatible(content, row["content"]):
                continue
            best[entity] = (row["_score"], row)
            if len(best) == len(vector_rows.ENTITIES):
                break
    groups.save(store)  # what the lock computed, written once it is released (core/lock_order.py)
    if "memory" in best:
        return Equivalent(memory=memory_rows.get_row(store, best["memory"][1]["id"]))
    if "candidate" in best:
        return _candidate_equivalent(store, best["candidate"][1]["id"])
    return None


def _cache(svc: Services) -> VectorCache | None:
    """The vector cache of the similarity model (``dedup.threshold`` was measured on its
    cosines; recall's model may differ and change); ``None`` (with a warning in the log) when
    the model cannot load: a broken model must not stop candidates from being stored."""
    model = SIMILARITY_MODEL
    try:
        return vector_cache(svc.store, model)
    except Exception as exc:  # any failure of a third-party model load: dedup by fingerprint only
        log.warning("semantic dedup disabled: cannot load embedding model %r (%s)", model, exc)
        return None


def match_semantic(svc: Services, content: str, kind: str, namespace: str) -> Equivalent | None:
    """The semantic matcher plugged into ``find_equivalent`` (``None`` when switched off)."""
    if not svc.settings.get("dedup.semantic"):
        return None
    cache = _cache(svc)
    if cache is None:
        return None
    return match(svc.store, cache, content, namespace, kind, float(svc.settings.get("dedup.threshold")))


def warm(svc: Services) -> None:
    """Load the embedding model (seconds) now, so that a later match inside a write
    transaction does not hold the lock while it loads."""
    if svc.settings.get("dedup.semantic"):
        _cache(svc)


def preload(svc: Services, contents: list[str], groups: set[tuple[str, str]]) -> None:
    """Make every match of a batch a lookup: load the model, embed ``contents`` (cleaned and
    masked as :meth:`ReviewService.validate` does; a text embedded already is not embedded
    again) and load the (namespace, kind) ``groups`` (whose first load may embed their rows),
    so that a batch matched inside one write transaction runs no model under the lock."""
    if not svc.settings.get("dedup.semantic"):
        return
    cache = _cache(svc)
    if cache is None:
        return
    stale = [text for namespace, kind in sorted(groups) for text in cache.groups.stale_texts(svc.store, namespace, kind)]
    cache.prefetch(stale)  # the model runs before the lock is taken (the batch's own texts last: kept longest)
    cache.prefetch(contents)
    with cache.groups.lock:
        cache.groups.follow(svc.store, cache.embed)
        for namespace, kind in sorted(groups):
            cache.groups.group(svc.store, cache.embed, namespace, kind)
    # the vectors the loads computed go to the table only now: a drain holding the write lock
    # may be waiting for the groups' lock (issue 33; core/lock_order.py)
    cache.groups.save(svc.store)


def primer(svc: Services) -> Callable[[list[str]], int] | None:
    """What :func:`prime` does, split for a worker thread: settings and the model's cache are
    resolved here, on the caller's thread (they read the database); the returned function
    touches no database, only masks texts and fills the vector cache, so it may run on
    another thread. ``None`` while semantic dedup is off or the model cannot load."""
    if not svc.settings.get("dedup.semantic"):
        return None
    cache = _cache(svc)
    if cache is None:
        return None

    def embed(contents: list[str]) -> int:
        texts = []
        for content in contents:
            try:
                texts.append(masked_content(content))
            except ValidationError:
                continue
        cache.prefetch(texts)
        return len(texts)

    return embed


def prime(svc: Services, contents: list[str]) -> int:
    """Embed many texts in one batch before they are submitted one by one (the one prefetch,
    used by ingest and benchmark fills): the matcher then finds their vectors cached. The
    texts get the same cleaning and masking as ``ReviewService.validate``, so the keys match;
    invalid ones are skipped. Returns how many texts were primed (0 while semantic dedup is
    off or the model cannot load).
    """
    if not contents:
        return 0
    embed = primer(svc)
    return embed(contents) if embed is not None else 0
