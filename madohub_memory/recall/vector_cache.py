"""The one vector cache of a process: per database and embedding model, the embedder, the
texts embedded lately, recall's matrix of active memories and semantic dedup's groups.

Recall (:mod:`.vector_index`), semantic dedup (:mod:`.vector_groups`, matched in
:mod:`madohub_memory.services.semantic_dedup`) and the dashboard's nearest-memory view all
read vectors through here: one table (``embeddings``), one change feed, one blob codec
(:func:`~madohub_memory.recall.embeddings.to_blob`), one registry (:func:`vector_cache`)
and one prefetch (:meth:`VectorCache.prefetch`), so a text is embedded once per process
and a vector once per file.

The first call for a model loads it (seconds for MiniLM): never on the GUI thread.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from madohub_memory.core.lock_order import Level, OrderedLock
from madohub_memory.recall.embeddings import Embedder, from_blob, get_embedder
from madohub_memory.recall.vector_groups import VectorGroups
from madohub_memory.recall.vector_index import VectorIndex
from madohub_memory.store import embeddings as vector_rows
from madohub_memory.store import recall as recall_rows
from madohub_memory.store.database import Store

TEXT_CACHE_SIZE = 4096


class VectorCache:
    """What one process keeps of one database's vectors for one model."""

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder
        self.model = embedder.name
        self.dim = embedder.dim
        self.index = VectorIndex(self.model, self.dim)
        self.groups = VectorGroups(self.model, self.dim)
        self._texts: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = OrderedLock("a vector cache's texts", Level.TEXTS)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors of ``texts``, reusing those embedded lately (a candidate is embedded once
        to be matched, and not again when a group or the nearest view picks up its row)."""
        with self._lock:
            missing = [t for t in dict.fromkeys(texts) if t not in self._texts]
        computed = self.embedder.encode(missing) if missing else None
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        with self._lock:
            if computed is not None:
                for text, vector in zip(missing, computed, strict=True):
                    self._texts[text] = vector
            for i, text in enumerate(texts):
                vector = self._texts.get(text)
                if vector is None:  # pushed out by a concurrent caller's batch
                    vector = self._texts[text] = self.embedder.encode([text])[0]
                out[i] = vector
                self._texts.move_to_end(text)
            while len(self._texts) > TEXT_CACHE_SIZE:
                self._texts.popitem(last=False)
        return out

    def prefetch(self, texts: Sequence[str]) -> int:
        """Embed a batch now, before its texts are submitted one by one.

        A single-text encode costs about 2-3 ms here, a batched one under 1 ms per text; the
        matcher then finds the vectors cached. Returns how many texts were embedded.
        """
        batch = list(dict.fromkeys(t for t in texts if t))[-TEXT_CACHE_SIZE // 2:]
        if batch:
            self.embed(batch)
        return len(batch)

    def cached(self, text: str) -> bool:
        with self._lock:
            return text in self._texts

    def vector_of(self, store: Store, entity: str, entity_id: int | None, content: str,
                  fingerprint: str) -> np.ndarray:
        """The stored vector of an entity when it encodes ``content`` (by fingerprint), else
        ``content`` embedded now."""
        if entity_id is not None:
            stored = vector_rows.stored(store, entity, entity_id, self.model)
            if stored is not None and stored[0] == fingerprint:
                vector = from_blob(stored[1])
                if vector.shape[0] == self.dim:
                    return vector
        return self.embed([content])[0]

    def memory_index(self, store: Store) -> VectorIndex:
        """Recall's matrix of active memories, brought up to date (embeds what is missing)."""
        self.index.refresh(store, self.embedder)
        return self.index


_caches: dict[tuple[str, str], VectorCache] = {}
_caches_lock = OrderedLock("the vector caches' registry", Level.LEAF)


def vector_cache(store: Store, model: str) -> VectorCache:
    """The process-wide cache of one database (identified by its stored id; on a server, and
    the role reading it) and model; the first call for a model loads it."""
    database = recall_rows.index_id(store)
    role = getattr(store, "default_person", None)  # a server shows each role its own rows (row-level security)
    key = (f"{database}@{role()}" if role else database, model)
    cache = _caches.get(key)
    if cache is None:
        embedder = get_embedder(model)  # outside the registry lock: loading takes seconds
        with _caches_lock:
            cache = _caches.setdefault(key, VectorCache(embedder))
    return cache


def forget_all() -> None:
    """Drop every cache of this process (the next use reloads from the file)."""
    with _caches_lock:
        _caches.clear()
