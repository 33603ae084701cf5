"""An in-process matrix of normalised memory embeddings, refreshed incrementally.

Searching 100,000 memories is one float32 matrix-vector product (about 10 ms on two
cores), so no approximate index is needed. The matrix is built once per process and
database (:mod:`.vector_cache` holds it), then kept current from the change feed (which
the store's triggers append to on every insert, delete or content/status/namespace change,
whoever the writer is): a refresh reads only the memories changed since the last one.
Vectors a memory lacks are computed lazily, in batches, and stored in the one vector table
keyed by entity, id, model and text fingerprint.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

import numpy as np

from madohub_memory.recall.embeddings import Embedder, from_blob, to_blob
from madohub_memory.store import embeddings as vector_rows
from madohub_memory.store.database import Store

EMBED_BATCH = 256
BULK_CHANGE = 5_000
REDUCE_MIN = 20_000  # from this many rows, search a projected copy first
REDUCED_DIM = 192
RERANK_MIN = 200
RERANK_FACTOR = 4


class VectorIndex:
    """Rows are memory ids; ``namespace_codes`` lets a search keep only some namespaces."""

    def __init__(self, model: str, dim: int) -> None:
        self.model = model
        self.dim = dim
        self.lock = threading.RLock()
        self.ids = np.zeros(0, dtype=np.int64)
        self.matrix = np.zeros((0, dim), dtype=np.float32)
        self.ns_codes = np.zeros(0, dtype=np.int32)
        self.namespaces: dict[str, int] = {}
        self.position: dict[int, int] = {}
        self.seq = -1
        self._size = 0
        # Above ``reduce_min`` rows: a projection on the top principal directions (of the
        # uncentred second moment, which best preserves dot products) and the projected rows.
        # A search scans the 192-dim copy (a third less memory traffic than 512 dims, the
        # bottleneck of a matrix-vector product), then rescores the best few hundred exactly.
        self.reduce_min = REDUCE_MIN
        self.proj: np.ndarray | None = None
        self.reduced = np.zeros((0, REDUCED_DIM), dtype=np.float32)

    def __len__(self) -> int:
        return self._size

    # -- maintenance ----------------------------------------------------------------

    def embed_missing(
        self, store: Store, embedder: Embedder, limit: int | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> int:
        """Compute and store embeddings for active memories lacking one; return how many.

        A read-only file cannot store them: its memories without a stored vector are found
        by keyword only.
        """
        if store.readonly:
            return 0
        done = 0
        while limit is None or done < limit:
            batch = EMBED_BATCH if limit is None else min(EMBED_BATCH, limit - done)
            rows = vector_rows.missing_memory_vectors(store, self.model, batch)
            if not rows:
                break
            vectors = embedder.encode([r["content"] for r in rows])
            vector_rows.put(
                store, "memory", self.model,
                ((int(r["id"]), r["fingerprint"], to_blob(v)) for r, v in zip(rows, vectors, strict=True)),
            )
            done += len(rows)
            if progress:
                progress(done)
        return done

    def refresh(self, store: Store, embedder: Embedder) -> None:
        """Bring the matrix up to date with the database (one point query when unchanged)."""
        with self.lock:
            last = vector_rows.last_change(store)
            if last == self.seq:
                return
            first = vector_rows.first_change(store)
            if self.seq < 0 or last < self.seq or (first > self.seq + 1 and first > 1):
                self.embed_missing(store, embedder)
                self._load_all(store)
                self.seq = last
                return
            changed = [i for _, i in vector_rows.changed_since(store, self.seq, last, "memory")]
            if len(changed) > max(BULK_CHANGE, self._size // 4):
                # A bulk import: stream everything rather than hold the changed blobs at once.
                self.embed_missing(store, embedder)
                self._load_all(store)
                self.seq = last
                return
            self._embed_ids(store, embedder, changed)
            self._apply(store, changed)
            self.seq = last

    def _embed_ids(self, store: Store, embedder: Embedder, ids: Sequence[int]) -> None:
        if store.readonly:
            return
        rows = vector_rows.missing_memory_vectors_for(store, self.model, ids)
        for start in range(0, len(rows), EMBED_BATCH):
            batch = rows[start : start + EMBED_BATCH]
            vectors = embedder.encode([r["content"] for r in batch])
            vector_rows.put(
                store, "memory", self.model,
                ((int(r["id"]), r["fingerprint"], to_blob(v)) for r, v in zip(batch, vectors, strict=True)),
            )

    def _code(self, namespace: str) -> int:
        code = self.namespaces.get(namespace)
        if code is None:
            code = self.namespaces[namespace] = len(self.namespaces)
        return code

    def _load_all(self, store: Store) -> None:
        # Size the matrix first and stream the rows into it: holding every blob in a list
        # as well would double the peak memory at 100,000 memories.
        n = vector_rows.count_active_memory_vectors(store, self.model)
        capacity = n + max(1024, n // 10)
        self.matrix = np.zeros((0, self.dim), dtype=np.float32)  # free the old matrix before the new one
        self.matrix = np.zeros((capacity, self.dim), dtype=np.float32)
        self.ids = np.full(capacity, -1, dtype=np.int64)
        self.ns_codes = np.full(capacity, -1, dtype=np.int32)
        self.position = {}
        self._size = 0
        self.proj = None
        self.reduced = np.zeros((0, REDUCED_DIM), dtype=np.float32)
        for row in vector_rows.iter_active_memory_vectors(store, self.model):
            pos = self._append()
            memory_id = int(row["id"])
            self.matrix[pos] = from_blob(row["vector"])
            self.ids[pos] = memory_id
            self.ns_codes[pos] = self._code(row["namespace"])
            self.position[memory_id] = pos
        self._maybe_fit()

    def _maybe_fit(self) -> None:
        """Fit the projection once the index is big enough (again after a full reload)."""
        if self.proj is not None or self._size < self.reduce_min or self.dim <= REDUCED_DIM:
            return
        n = self._size
        rng = np.random.default_rng(0)
        sample = self.matrix[rng.choice(n, size=min(n, 20_000), replace=False)]
        _, vectors = np.linalg.eigh(sample.T @ sample)
        self.proj = np.ascontiguousarray(vectors[:, ::-1][:, :REDUCED_DIM], dtype=np.float32)
        self.reduced = np.zeros((len(self.ids), REDUCED_DIM), dtype=np.float32)
        for start in range(0, n, 20_000):
            stop = min(n, start + 20_000)
            self.reduced[start:stop] = self.matrix[start:stop] @ self.proj

    def _set_row(self, pos: int, vector: np.ndarray) -> None:
        self.matrix[pos] = vector
        if self.proj is not None:
            self.reduced[pos] = self.matrix[pos] @ self.proj

    def _apply(self, store: Store, changed: Sequence[int]) -> None:
        if not changed:
            return
        fresh = {int(r["id"]): r for r in vector_rows.active_memory_vectors(store, self.model, changed)}
        self._reserve(self._size + sum(1 for i in fresh if i not in self.position))
        for memory_id in changed:
            row = fresh.get(memory_id)
            pos = self.position.get(memory_id)
            if row is None:
                if pos is not None:
                    self._remove(pos)
                continue
            if pos is None:
                pos = self._append()
                self.position[memory_id] = pos
                self.ids[pos] = memory_id
            self._set_row(pos, from_blob(row["vector"]))
            self.ns_codes[pos] = self._code(row["namespace"])
        self._maybe_fit()

    def _reserve(self, size: int) -> None:
        """Grow the arrays once to hold ``size`` rows (plus a tenth of headroom)."""
        if size <= len(self.ids):
            return
        capacity = size + max(1024, size // 10)
        grow = capacity - len(self.ids)
        self.matrix = np.concatenate([self.matrix, np.zeros((grow, self.dim), dtype=np.float32)])
        self.ids = np.concatenate([self.ids, np.full(grow, -1, dtype=np.int64)])
        self.ns_codes = np.concatenate([self.ns_codes, np.full(grow, -1, dtype=np.int32)])
        if self.proj is not None:
            self.reduced = np.concatenate([self.reduced, np.zeros((grow, REDUCED_DIM), dtype=np.float32)])

    def _append(self) -> int:
        if self._size == len(self.ids):
            self._reserve(self._size + 1)
        self._size += 1
        return self._size - 1

    def _remove(self, pos: int) -> None:
        """Move the last row into ``pos`` so the live rows stay contiguous."""
        last = self._size - 1
        removed = int(self.ids[pos])
        if pos != last:
            moved = int(self.ids[last])
            self.matrix[pos] = self.matrix[last]
            if self.proj is not None:
                self.reduced[pos] = self.reduced[last]
            self.ids[pos] = moved
            self.ns_codes[pos] = self.ns_codes[last]
            self.position[moved] = pos
        self.ids[last] = -1
        self.ns_codes[last] = -1
        self.position.pop(removed, None)
        self._size = last

    # -- search ---------------------------------------------------------------------

    def search(self, query: np.ndarray, namespaces: Sequence[str] | None, k: int) -> list[tuple[int, float]]:
        """The ``k`` memories in scope most similar to ``query``: (id, cosine), best first."""
        with self.lock:
            n = self._size
            if n == 0 or k <= 0:
                return []
            q = np.asarray(query, dtype=np.float32).reshape(-1)
            mask = self._scope_mask(namespaces, n)
            shortlist = max(RERANK_MIN, k * RERANK_FACTOR)
            if self.proj is not None and n > shortlist:
                approx = self.reduced[:n] @ (q @ self.proj)
                if mask is not None:
                    approx[~mask] = -np.inf
                rows = np.argpartition(-approx, shortlist - 1)[:shortlist]
                rows = rows[approx[rows] > -np.inf]
                return self.top(self.ids[rows], self.matrix[rows] @ q, k)
            sims = self.matrix[:n] @ q
            if mask is not None:
                sims[~mask] = -np.inf
            return self.top(self.ids[:n], sims, k)

    def _scope_mask(self, namespaces: Sequence[str] | None, n: int) -> np.ndarray | None:
        """Rows in scope (``None``: every row)."""
        if not namespaces:
            return None
        codes = [self.namespaces[ns] for ns in namespaces if ns in self.namespaces]
        if len(codes) == len(self.namespaces):
            return None
        return np.isin(self.ns_codes[:n], codes)

    @staticmethod
    def top(ids: np.ndarray, sims: np.ndarray, k: int) -> list[tuple[int, float]]:
        """The ``k`` best (id, cosine) pairs; rows at -inf (out of scope) never count."""
        if k <= 0 or len(ids) == 0:
            return []
        k = min(k, int(np.count_nonzero(sims > -np.inf)))
        if k <= 0:
            return []
        part = np.argpartition(-sims, k - 1)[:k] if len(ids) > k else np.arange(len(ids))
        order = part[np.argsort(-sims[part], kind="stable")]
        return [(int(ids[i]), float(sims[i])) for i in order]
