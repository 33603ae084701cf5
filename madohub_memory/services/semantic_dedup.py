"""Semantic dedup: a new candidate is equivalent to a known one of the same namespace and
kind when their embedding cosine reaches ``dedup.threshold`` (measured by
``bench/dedup_threshold.py``). Called by :func:`madohub_memory.services.dedup.find_equivalent`
only when the fingerprint finds nothing, and only while ``dedup.semantic`` is on.

Why a per-process matrix: scoring a new text against every known one must not cost a
query plus a decode of every stored vector; each (namespace, kind) keeps an in-memory
matrix that is filled once from ``dedup_embeddings`` (computing missing vectors lazily)
and then grows incrementally with the rows whose id is above its watermarks. A cached
match is verified against the row before it is used (status, namespace, kind and text may
have changed since), so staleness costs at most a missed match, never a wrong one.
"""

from __future__ import annotations

import logging
import re
import threading
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from madohub_memory.recall.embeddings import Embedder, get_embedder
from madohub_memory.services.dedup import Equivalent
from madohub_memory.store import embeddings_dedup as rows
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
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_ORDERED = re.compile(
    r"(\w(?:[\w+#\-]|\.(?=\w))*)\s+(?:over|instead of|rather than|than|not|vs\.?|versus)\s+(\w(?:[\w+#\-]|\.(?=\w))*)"
    r"|用\s*([^，。,\s]+?)\s*(?:而不是|不用|代替|替代|取代)\s*(?:用)?\s*([^，。,\s]+)"
    r"|([^，。,\s]{1,10}?)\s*(?:比|胜过)\s*([^，。,\s]{1,10})",
    re.I,
)


_AVERSION = re.compile(r"\b(?:hates?|hated|dislikes?|disliked|detests?|can't stand|avoids?)\b|讨厌|厌恶|受不了|反感", re.I)


def compatible(a: str, b: str) -> bool:
    """False when two similar texts differ in negation, aversion ("likes" vs "hates"), numbers
    or the order of a comparison."""
    if bool(_AVERSION.search(a)) != bool(_AVERSION.search(b)):
        return False
    a_neg = _NEGATION.findall(_NOT_NEGATION_ZH.sub("", a))
    b_neg = _NEGATION.findall(_NOT_NEGATION_ZH.sub("", b))
    if len(a_neg) % 2 != len(b_neg) % 2:
        return False
    if sorted(_NUMBER.findall(a)) != sorted(_NUMBER.findall(b)):
        return False
    pairs_a = {tuple(x.lower() for x in m.groups() if x) for m in _ORDERED.finditer(a)}
    pairs_b = {tuple(x.lower() for x in m.groups() if x) for m in _ORDERED.finditer(b)}
    return not any((y, x) in pairs_b for x, y in pairs_a)

ENTITIES = ("memory", "candidate")


def to_blob(vector: np.ndarray) -> bytes:
    """Stored as float16 (1 KB for 512 dims): halves the file; cosine error ~1e-3."""
    return np.asarray(vector, dtype=np.float16).tobytes()


def from_blob(blob: bytes) -> np.ndarray:
    return np.frombuffer(blob, dtype=np.float16).astype(np.float32)
_TEXT_CACHE_SIZE = 4096


@dataclass
class _Partition:
    """Vectors of one (namespace, kind): rows of ``matrix`` pair with ``keys``."""

    dim: int
    matrix: np.ndarray = field(init=False)
    keys: list[tuple[str, int, str]] = field(default_factory=list)  # (entity, id, fingerprint)
    watermarks: dict[str, int] = field(default_factory=lambda: {e: 0 for e in ENTITIES})

    def __post_init__(self) -> None:
        self.matrix = np.zeros((64, self.dim), dtype=np.float32)

    @property
    def size(self) -> int:
        return len(self.keys)

    def add(self, key: tuple[str, int, str], vector: np.ndarray) -> int:
        if self.size == len(self.matrix):  # amortised O(1) growth
            grown = np.zeros((len(self.matrix) * 2, self.dim), dtype=np.float32)
            grown[: self.size] = self.matrix[: self.size]
            self.matrix = grown
        self.matrix[self.size] = vector
        self.keys.append(key)
        return self.size - 1

    def scores(self, vector: np.ndarray) -> np.ndarray:
        return self.matrix[: self.size] @ vector


class SemanticIndex:
    """The per-store, per-model cache of partitions (one per namespace and kind)."""

    def __init__(self, store: Store, embedder: Embedder) -> None:
        self.store = store
        self.embedder = embedder
        self.partitions: dict[tuple[str, str], _Partition] = {}
        # where each cached row lives, to move it when an edit changes its text/kind/namespace
        self.where: dict[tuple[str, int], tuple[tuple[str, str], int]] = {}
        self.history_mark = rows.last_history_id(store)
        self._texts: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.RLock()

    # -- vectors -----------------------------------------------------------------------

    def embed(self, texts: list[str]) -> np.ndarray:
        """Vectors for ``texts``, reusing recently computed ones (a candidate is embedded
        once to be matched and not again when the index picks up its row)."""
        missing = [t for t in dict.fromkeys(texts) if t not in self._texts]
        if missing:
            for text, vec in zip(missing, self.embedder.encode(missing), strict=True):
                self._texts[text] = vec
        out = np.zeros((len(texts), self.embedder.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            out[i] = self._texts[text]
            self._texts.move_to_end(text)
        while len(self._texts) > _TEXT_CACHE_SIZE:
            self._texts.popitem(last=False)
        return out

    def refresh(self, namespace: str, kind: str) -> _Partition:
        """Bring one partition up to date with rows added since its watermarks."""
        part = self.partitions.get((namespace, kind))
        if part is None:
            part = self.partitions[(namespace, kind)] = _Partition(self.embedder.dim)
        for entity in ENTITIES:
            # Up to the newest id of the whole table, so a quiet partition does not rescan.
            upto = rows.max_id(self.store, entity)
            if upto <= part.watermarks[entity]:
                continue
            new = rows.rows_after(
                self.store, entity, part.watermarks[entity], upto, namespace, kind, self.embedder.name
            )
            part.watermarks[entity] = upto
            if not new:
                continue
            stale = [r for r in new if r["vector"] is None or r["vfp"] != r["fingerprint"]]
            if stale:
                vectors = self.embed([r["content"] for r in stale])
                for r, vec in zip(stale, vectors, strict=True):
                    r["vector"] = to_blob(vec)
                rows.save(self.store, entity,
                          [(r["id"], r["fingerprint"], r["vector"]) for r in stale], self.embedder.name)
            for r in new:
                slot = part.add((entity, r["id"], r["fingerprint"]), from_blob(r["vector"]))
                self.where[(entity, r["id"])] = ((namespace, kind), slot)
        return part

    def apply_changes(self) -> None:
        """Follow edits, undos and deletes recorded in history since the last look (any process)."""
        self.history_mark, changed = rows.changed_since(self.store, self.history_mark)
        for entity, entity_id in changed:
            row = rows.current(self.store, entity, entity_id)
            loc = self.where.get((entity, entity_id))
            if loc is not None:
                key, slot = loc
                part = self.partitions[key]
                if row is not None and (row["namespace"], row["kind"]) == key \
                        and part.keys[slot][2] == row["fingerprint"]:
                    continue
                part.matrix[slot] = 0.0  # a dead slot never reaches a threshold
                part.keys[slot] = (entity, entity_id, "")
                del self.where[(entity, entity_id)]
            if row is None:
                continue
            key = (row["namespace"], row["kind"])
            part = self.partitions.get(key)
            if part is None or entity_id > part.watermarks[entity]:
                continue  # the next load of that partition reads the row as it is now
            vector = self.embed([row["content"]])[0]
            rows.save(self.store, entity, [(entity_id, row["fingerprint"], to_blob(vector))],
                      self.embedder.name)
            self.where[(entity, entity_id)] = (key, part.add((entity, entity_id, row["fingerprint"]), vector))

    @staticmethod
    def search(part: _Partition, vector: np.ndarray, threshold: float) -> list[tuple[float, int]]:
        """(score, row index) pairs at or above ``threshold``, best first."""
        if not part.size:
            return []
        scores = part.scores(vector)
        idx = np.flatnonzero(scores >= threshold)
        return sorted(((float(scores[i]), int(i)) for i in idx), reverse=True)

    # -- matching ----------------------------------------------------------------------

    def match(self, content: str, namespace: str, kind: str, threshold: float) -> Equivalent | None:
        with self._lock:
            vector = self.embed([content])[0]
            self.apply_changes()
            part = self.refresh(namespace, kind)
            best: dict[str, tuple[float, dict]] = {}
            for _score, i in self.search(part, vector, threshold):
                entity = part.keys[i][0]
                if entity in best:
                    continue
                row = self._verify(part, i, namespace, kind, vector)
                if row is None:
                    continue
                if row["_score"] < threshold or not compatible(content, row["content"]):
                    continue
                best[entity] = (row["_score"], row)
                if len(best) == len(ENTITIES):
                    break
            if "memory" in best:
                return Equivalent(memory=memory_rows.get_row(self.store, best["memory"][1]["id"]))
            if "candidate" in best:
                return self._candidate_equivalent(best["candidate"][1]["id"])
            return None

    def _verify(self, part: _Partition, i: int, namespace: str, kind: str, vector: np.ndarray
                ) -> dict | None:
        """The current row behind cache row ``i`` if it still qualifies, with its fresh score."""
        entity, entity_id, fp = part.keys[i]
        row = rows.current(self.store, entity, entity_id)
        if row is None or row["namespace"] != namespace or row["kind"] != kind:
            part.matrix[i] = 0.0  # moved or deleted: never matches again from this slot
            return None
        if entity == "memory" and row["status"] != "active":
            return None
        if entity == "candidate" and row["status"] == "archived":
            return None
        if row["fingerprint"] != fp:  # edited since it was cached
            fresh = self.embed([row["content"]])[0]
            part.matrix[i] = fresh
            part.keys[i] = (entity, entity_id, row["fingerprint"])
            rows.save(self.store, entity, [(entity_id, row["fingerprint"], to_blob(fresh))],
                      self.embedder.name)
        row["_score"] = float(part.matrix[i] @ vector)
        return row

    def _candidate_equivalent(self, candidate_id: int) -> Equivalent:
        from madohub_memory.store import candidates as candidate_rows

        candidate = candidate_rows.get_row(self.store, candidate_id)
        assert candidate is not None
        if candidate["status"] == "approved" and candidate["memory_id"] is not None:
            memory = memory_rows.get_row(self.store, candidate["memory_id"])
            if memory is not None and memory["status"] == "active":
                return Equivalent(memory=memory)
        return Equivalent(candidate=candidate)


_indexes: weakref.WeakKeyDictionary[Store, dict[str, SemanticIndex]] = weakref.WeakKeyDictionary()
_indexes_lock = threading.Lock()


def index_for(store: Store, model: str) -> SemanticIndex:
    """The shared index of ``store`` for ``model`` (the embedder is loaded once per process)."""
    with _indexes_lock:
        per_store = _indexes.setdefault(store, {})
        if model not in per_store:
            per_store[model] = SemanticIndex(store, get_embedder(model))
        return per_store[model]


def match_semantic(svc: Services, content: str, kind: str, namespace: str) -> Equivalent | None:
    """The semantic matcher plugged into ``find_equivalent`` (``None`` when switched off)."""
    if not svc.settings.get("dedup.semantic"):
        return None
    threshold = float(svc.settings.get("dedup.threshold"))
    model = svc.settings.get("embedding.model")
    try:
        index = index_for(svc.store, model)
    except Exception as exc:  # a broken model must not stop candidates from being stored
        log.warning("semantic dedup disabled: cannot load embedding model %r (%s)", model, exc)
        return None
    return index.match(content, namespace, kind, threshold)


def warm(svc: Services) -> None:
    """Load the embedding model (seconds) now, so that a later match inside a write
    transaction does not hold the lock while it loads."""
    if not svc.settings.get("dedup.semantic"):
        return
    try:
        index_for(svc.store, svc.settings.get("embedding.model"))
    except Exception as exc:
        log.warning("semantic dedup disabled: cannot load embedding model (%s)", exc)


def prime(svc: Services, contents: list[str]) -> int:
    """Embed many texts in one batch before they are submitted one by one.

    A single-text encode costs about 2-3 ms here, a batched one under 1 ms per text, so a
    caller holding a batch of drafts (ingest, a benchmark fill) can call this first; the
    matcher then finds the vectors cached. Returns how many texts were primed.
    """
    if not contents or not svc.settings.get("dedup.semantic"):
        return 0
    from madohub_memory.core.errors import ValidationError
    from madohub_memory.services.edits import masked_content

    texts = []
    for content in contents:
        try:  # the same cleaning and masking as ReviewService.validate, so the keys match
            texts.append(masked_content(content))
        except ValidationError:
            continue
    index = index_for(svc.store, svc.settings.get("embedding.model"))
    with index._lock:
        index.embed(texts[-_TEXT_CACHE_SIZE // 2:])
    return len(texts)
