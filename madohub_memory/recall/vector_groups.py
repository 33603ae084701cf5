"""Vectors of memories and candidates grouped by (namespace, kind), for near-duplicate search.

Semantic dedup scores a new text against everything known in its namespace and kind, on
every submit: that must cost one small matrix product, not a query plus a decode of every
stored vector. A group is loaded from the table the first time it is asked for (missing
vectors are computed and stored), then follows the change feed: a new, edited, moved or
deleted row of a loaded group is put where it now belongs. Staleness is still possible
between two looks at the feed, so the caller verifies a match against the row before it
uses it (:mod:`madohub_memory.services.semantic_dedup`).

Memories are loaded while active, candidates in every status (a rejected one must still
suppress its equivalents).

Lock order (:mod:`madohub_memory.core.lock_order`): a drain matches inside its write
transaction, so :attr:`VectorGroups.lock` comes after the database's write lock, and no
thread may wait for the write lock while it holds this one. Vectors computed under the lock
are therefore queued, and :meth:`VectorGroups.save` writes them once the lock is released.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from madohub_memory.core.errors import DatabaseBusyError, ReadOnlyDatabaseError
from madohub_memory.core.lock_order import Level, OrderedLock
from madohub_memory.recall.embeddings import from_blob, to_blob
from madohub_memory.store import embeddings as vector_rows
from madohub_memory.store.database import Store

Encode = Callable[[list[str]], np.ndarray]
Key = tuple[str, int, str]  # (entity, id, fingerprint of the text the row's vector encodes)
BULK_CHANGE = 5_000  # more changes than this since the last look: drop the groups, reload lazily
UNSAVED_MAX = 20_000  # vectors queued for the table at most (a cache: beyond it a later load recomputes)
SAVE_WAIT_S = 2.0  # a save outside any transaction waits this long for the write lock, then keeps its queue

log = logging.getLogger(__name__)


@dataclass
class Group:
    """Vectors of one (namespace, kind): rows of ``matrix`` pair with ``keys``."""

    dim: int
    matrix: np.ndarray = field(init=False)
    keys: list[Key] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.matrix = np.zeros((64, self.dim), dtype=np.float32)

    @property
    def size(self) -> int:
        return len(self.keys)

    def add(self, key: Key, vector: np.ndarray) -> int:
        if self.size == len(self.matrix):  # amortised O(1) growth
            grown = np.zeros((len(self.matrix) * 2, self.dim), dtype=np.float32)
            grown[: self.size] = self.matrix[: self.size]
            self.matrix = grown
        self.matrix[self.size] = vector
        self.keys.append(key)
        return self.size - 1

    def kill(self, slot: int) -> None:
        """A dead slot never reaches a threshold again."""
        entity, entity_id, _ = self.keys[slot]
        self.matrix[slot] = 0.0
        self.keys[slot] = (entity, entity_id, "")

    def search(self, vector: np.ndarray, threshold: float) -> list[tuple[float, int]]:
        """(score, slot) pairs at or above ``threshold``, best first."""
        if not self.size:
            return []
        scores = self.matrix[: self.size] @ vector
        idx = np.flatnonzero(scores >= threshold)
        return sorted(((float(scores[i]), int(i)) for i in idx), reverse=True)


class VectorGroups:
    """The groups loaded so far in this process, kept current from the change feed."""

    def __init__(self, model: str, dim: int) -> None:
        self.model = model
        self.dim = dim
        self.lock = OrderedLock("semantic dedup's vector groups", Level.GROUPS, reentrant=True)
        self.groups: dict[tuple[str, str], Group] = {}
        self._unsaved: list[tuple[str, int, str, bytes]] = []  # (entity, id, fingerprint, vector) for the table
        # where each loaded row lives, to move it when an edit changes its text/kind/namespace
        self.where: dict[tuple[str, int], tuple[tuple[str, str], int]] = {}
        self.seq = -1

    def _save(self, store: Store, entity: str, rows: list[tuple[int, str, np.ndarray]]) -> None:
        """Queue vectors for the table (called under the lock; :meth:`save` writes them)."""
        if store.readonly:
            return
        room = UNSAVED_MAX - len(self._unsaved)
        self._unsaved.extend((entity, i, fp, to_blob(v)) for i, fp, v in rows[:max(0, room)])

    def save(self, store: Store) -> int:
        """Write the vectors computed under the lock to the ``embeddings`` table; returns how
        many. Called without the lock (or any in-process lock): inside a write transaction it
        joins it, else it waits at most :data:`SAVE_WAIT_S` for the write lock and, when the
        database stays busy, keeps them for the next call."""
        with self.lock:
            queued, self._unsaved = self._unsaved, []
        if not queued:
            return 0
        try:
            with store.waits_at_most(SAVE_WAIT_S), store.transaction():
                for entity in vector_rows.ENTITIES:
                    vector_rows.put(store, entity, self.model,
                                    [(i, fp, blob) for e, i, fp, blob in queued if e == entity])
        except (DatabaseBusyError, ReadOnlyDatabaseError) as exc:  # they are a cache: kept for later
            log.info("vectors of semantic dedup not stored yet (%s)", exc)
            with self.lock:
                self._unsaved[:0] = queued[: max(0, UNSAVED_MAX - len(self._unsaved))]
            return 0
        return len(queued)

    def stale_texts(self, store: Store, namespace: str, kind: str) -> list[str]:
        """The texts loading the group of (namespace, kind) would embed (none once it is
        loaded): embedded before the lock is taken, the load under it is a lookup."""
        with self.lock:
            if (namespace, kind) in self.groups:
                return []
        return [text for entity in vector_rows.ENTITIES
                for text in vector_rows.stale_group_texts(store, entity, namespace, kind, self.model)]

    def _reset(self) -> None:
        self.groups.clear()
        self.where.clear()

    def follow(self, store: Store, encode: Encode) -> None:
        """Apply what the change feed recorded since the last look (any process wrote it)."""
        with self.lock:
            last = vector_rows.last_change(store)
            if last == self.seq:
                return
            if self.seq < 0 or last < self.seq or vector_rows.first_change(store) > self.seq + 1:
                self._reset()  # first look, a replaced file, or a feed pruned past us
                self.seq = last
                return
            changed = vector_rows.changed_since(store, self.seq, last)
            self.seq = last
            if len(changed) > BULK_CHANGE:
                self._reset()
                return
            for entity, entity_id in changed:
                self._move(store, encode, entity, entity_id)

    def _move(self, store: Store, encode: Encode, entity: str, entity_id: int) -> None:
        row = vector_rows.current(store, entity, entity_id)
        loc = self.where.get((entity, entity_id))
        if loc is not None:
            key, slot = loc
            group = self.groups[key]
            if row is not None and (row["namespace"], row["kind"]) == key and group.keys[slot][2] == row["fingerprint"]:
                return
            group.kill(slot)
            del self.where[(entity, entity_id)]
        if row is None:
            return
        key = (row["namespace"], row["kind"])
        target = self.groups.get(key)
        if target is None:
            return  # the first load of that group reads the row as it is then
        vector = encode([row["content"]])[0]
        self._save(store, entity, [(entity_id, row["fingerprint"], vector)])
        self.where[(entity, entity_id)] = (key, target.add((entity, entity_id, row["fingerprint"]), vector))

    def group(self, store: Store, encode: Encode, namespace: str, kind: str) -> Group:
        """The group of (namespace, kind), loaded (and its missing vectors computed) on first use."""
        with self.lock:
            key = (namespace, kind)
            loaded = self.groups.get(key)
            if loaded is not None:
                return loaded
            group = self.groups[key] = Group(self.dim)
            for entity in vector_rows.ENTITIES:
                rows = vector_rows.group_rows(store, entity, namespace, kind, self.model)
                stale = [r for r in rows if r["vector"] is None or r["vfp"] != r["fingerprint"]]
                fresh: dict[int, np.ndarray] = {}
                if stale:
                    vectors = encode([r["content"] for r in stale])
                    fresh = {r["id"]: v for r, v in zip(stale, vectors, strict=True)}
                    self._save(store, entity, [(r["id"], r["fingerprint"], fresh[r["id"]]) for r in stale])
                for r in rows:
                    vector = fresh[r["id"]] if r["id"] in fresh else from_blob(r["vector"])
                    self.where[(entity, r["id"])] = (key, group.add((entity, r["id"], r["fingerprint"]), vector))
            return group

    def refresh_slot(self, store: Store, encode: Encode, group: Group, slot: int, content: str,
                     fingerprint: str) -> None:
        """Re-embed the row behind ``slot`` whose text was edited since it was loaded."""
        with self.lock:
            entity, entity_id, _ = group.keys[slot]
            vector = encode([content])[0]
            group.matrix[slot] = vector
            group.keys[slot] = (entity, entity_id, fingerprint)
            self._save(store, entity, [(entity_id, fingerprint, vector)])
