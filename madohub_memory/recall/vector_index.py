"""Recall's index of active memories' vectors for one model, refreshed incrementally.

Two parts, searched together:

* a **base**: from :data:`FILE_MIN` memories, the memory-mapped int8 file of
  :mod:`.vector_file` (written once, shared by every process on the machine, a cold start maps
  it instead of reading every blob); a search scans its coarse copy and rescores a shortlist
  exactly. Rows superseded since the file was written are marked dead.
* a **delta** in memory (float32): every memory of a small store, and in a big one the
  memories added or changed since the file was written.

The index follows the change feed (the store's triggers append to it on every insert,
delete or content/status/namespace change, whoever the writer is): a refresh reads only the
memories changed since the last one. Vectors a memory lacks are computed lazily, in batches,
and stored in the one vector table keyed by entity, id, model and text fingerprint. A feed
pruned past us, a replaced file, or a bulk change reloads (and, when big, rewrites the file).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from madohub_memory.core.lock_order import Level, OrderedLock
from madohub_memory.recall import vector_file
from madohub_memory.recall.embeddings import Embedder, from_blob, to_blob
from madohub_memory.recall.vector_file import VectorFile
from madohub_memory.store import embeddings as vector_rows
from madohub_memory.store import recall as recall_rows
from madohub_memory.store.database import Store

EMBED_BATCH = 256
BULK_CHANGE = 5_000
FILE_MIN = 20_000  # from this many memories, the base is a mapped file
SHORTLIST_MIN = 1_000  # rows of the coarse scan rescored exactly (more in a bigger file)
SHORTLIST_SHARE = 1 / 400
SHORTLIST_FACTOR = 20
SCOPE_MASKS = 16  # scopes whose row mask of the file is kept (a million rows: 1 MB each)
SAMPLE_STEP = 64  # best_rows estimates its threshold from every 64th score


class VectorIndex:
    """Memory ids → vectors of one model; ``namespaces`` codes let a search keep only some."""

    def __init__(self, model: str, dim: int) -> None:
        self.model = model
        self.dim = dim
        self.lock = OrderedLock("recall's vector index", Level.INDEX, reentrant=True)
        self.seq = -1
        self.file_min = FILE_MIN
        self.namespaces: dict[str, int] = {}
        self.base: VectorFile | None = None
        self.dead = np.zeros(0, dtype=bool)
        self._base_live = 0
        # the delta: contiguous live rows [0, _size)
        self.ids = np.zeros(0, dtype=np.int64)
        self.matrix = np.zeros((0, dim), dtype=np.float32)
        self.ns_codes = np.zeros(0, dtype=np.int32)
        self.position: dict[int, int] = {}
        self._size = 0
        self._scope_masks: dict[tuple[int, tuple[int, ...]], np.ndarray] = {}

    def __len__(self) -> int:
        return self._base_live + self._size

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
        after = 0
        while limit is None or done < limit:
            batch = EMBED_BATCH if limit is None else min(EMBED_BATCH, limit - done)
            rows = vector_rows.missing_memory_vectors(store, self.model, batch, after=after)
            if not rows:
                break
            after = int(rows[-1]["id"])
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
        """Bring the index up to date with the database (one point query when unchanged)."""
        with self.lock:
            last = vector_rows.last_change(store)
            if last == self.seq:
                return
            first = vector_rows.first_change(store)
            if self.seq < 0 or last < self.seq or (first > self.seq + 1 and first > 1):
                self._load(store, embedder, last)
                return
            changed = [i for _, i in vector_rows.changed_since(store, self.seq, last, "memory")]
            if len(changed) > max(BULK_CHANGE, len(self) // 4):
                # A bulk import: stream everything rather than hold the changed blobs at once.
                self._load(store, embedder, last, rewrite=True)
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

    def _folder(self, store: Store) -> Path:
        role = getattr(store, "default_person", None)
        return vector_file.folder_for(recall_rows.index_id(store), f"{store.path}@{role() if role else ''}",
                                      self.model)

    def _load(self, store: Store, embedder: Embedder, last: int, rewrite: bool = False) -> None:
        """Everything anew: the mapped file when it is current (plus the changes since: only
        they can lack a vector, the file was written when none did), else every missing vector
        embedded and (a big store) a new file, or (a small one) every vector into the delta."""
        self._reset()
        folder = self._folder(store)
        mapped = None if rewrite else vector_file.open_file(folder)
        if mapped is not None and self._usable(store, mapped, last):
            self._adopt(mapped)
            changed = [i for _, i in vector_rows.changed_since(store, mapped.seq, last, "memory")]
            self._embed_ids(store, embedder, changed)
            self._apply(store, changed)
            self.seq = last
            return
        self.embed_missing(store, embedder)
        n = vector_rows.count_active_memory_vectors(store, self.model)
        if n >= self.file_min:
            rows = ((int(r["id"]), str(r["namespace"]), from_blob(r["vector"]))
                    for r in vector_rows.iter_active_memory_vectors(store, self.model))
            written = vector_file.write_file(folder, rows, n, self.dim, last,
                                             vector_rows.change_key(store, last))
            if written is not None:
                self._adopt(written)
                # written from a stream that started at `last`: rows changed since come next refresh
                self.seq = last
                return
        self._reserve(n)
        for row in vector_rows.iter_active_memory_vectors(store, self.model):
            self._put(int(row["id"]), from_blob(row["vector"]), row["namespace"])
        self.seq = last

    def _usable(self, store: Store, mapped: VectorFile, last: int) -> bool:
        """The file was written from this database's feed, which still reaches back to it."""
        if mapped.seq > last or vector_rows.change_key(store, mapped.seq) != mapped.seq_key:
            return False
        first = vector_rows.first_change(store)
        if first > mapped.seq + 1 and first > 1:
            return False
        return len(vector_rows.changed_since(store, mapped.seq, last, "memory")) <= max(BULK_CHANGE, len(mapped) // 4)

    def _reset(self) -> None:
        self.base = None
        self.dead = np.zeros(0, dtype=bool)
        self._base_live = 0
        self.namespaces = {}
        self.ids = np.zeros(0, dtype=np.int64)
        self.matrix = np.zeros((0, self.dim), dtype=np.float32)
        self.ns_codes = np.zeros(0, dtype=np.int32)
        self.position = {}
        self._size = 0

    def _adopt(self, mapped: VectorFile) -> None:
        self.base = mapped
        self._scope_masks = {}
        self.dead = np.zeros(len(mapped), dtype=bool)
        self._base_live = len(mapped)
        self.namespaces = {name: code for code, name in enumerate(mapped.namespaces)}

    def _apply(self, store: Store, changed: Sequence[int]) -> None:
        if not changed:
            return
        fresh = {int(r["id"]): r for r in vector_rows.active_memory_vectors(store, self.model, changed)}
        if self.base is not None:  # the file's row of a changed memory is superseded either way
            rows = self.base.rows_of(np.asarray(list(changed), dtype=np.int64))
            rows = rows[rows >= 0]
            newly = rows[~self.dead[rows]]
            self.dead[newly] = True
            self._base_live -= len(newly)
        self._reserve(self._size + sum(1 for i in fresh if i not in self.position))
        for memory_id in changed:
            row = fresh.get(memory_id)
            if row is None:
                pos = self.position.get(memory_id)
                if pos is not None:
                    self._remove(pos)
                continue
            self._put(memory_id, from_blob(row["vector"]), row["namespace"])

    def _put(self, memory_id: int, vector: np.ndarray, namespace: str) -> None:
        pos = self.position.get(memory_id)
        if pos is None:
            if self._size == len(self.ids):
                self._reserve(self._size + 1)
            pos = self._size
            self._size += 1
            self.position[memory_id] = pos
            self.ids[pos] = memory_id
        self.matrix[pos] = vector
        self.ns_codes[pos] = self._code(namespace)

    def _reserve(self, size: int) -> None:
        """Grow the delta's arrays once to hold ``size`` rows (plus a tenth of headroom)."""
        if size <= len(self.ids):
            return
        capacity = size + max(1024, size // 10)
        grow = capacity - len(self.ids)
        self.matrix = np.concatenate([self.matrix[: len(self.ids)], np.zeros((grow, self.dim), dtype=np.float32)])
        self.ids = np.concatenate([self.ids, np.full(grow, -1, dtype=np.int64)])
        self.ns_codes = np.concatenate([self.ns_codes, np.full(grow, -1, dtype=np.int32)])

    def _remove(self, pos: int) -> None:
        """Move the last delta row into ``pos`` so the live rows stay contiguous."""
        last = self._size - 1
        removed = int(self.ids[pos])
        if pos != last:
            moved = int(self.ids[last])
            self.matrix[pos] = self.matrix[last]
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
            if len(self) == 0 or k <= 0:
                return []
            q = np.asarray(query, dtype=np.float32).reshape(-1)
            codes = self._scope_codes(namespaces)
            found_ids: list[np.ndarray] = []
            found_sims: list[np.ndarray] = []
            n = self._size
            if n:
                sims = self.matrix[:n] @ q
                if codes is not None:
                    sims[~np.isin(self.ns_codes[:n], codes)] = -np.inf
                found_ids.append(self.ids[:n])
                found_sims.append(sims)
            if self.base is not None and self._base_live:
                ids, sims = self._search_base(q, codes, k)
                found_ids.append(ids)
                found_sims.append(sims)
            if not found_ids:
                return []
            return self.top(np.concatenate(found_ids), np.concatenate(found_sims), k)

    def _search_base(self, q: np.ndarray, codes: np.ndarray | None, k: int) -> tuple[np.ndarray, np.ndarray]:
        """The file's best rows: a scan of the coarse copy, then the shortlist rescored exactly."""
        base = self.base
        assert base is not None
        approx = np.asarray(base.coarse @ (q @ base.proj))
        if self._base_live < len(base):
            approx[self.dead] = -np.inf
        if codes is not None:
            approx[~self._in_scope(base, codes)] = -np.inf
        shortlist = min(len(approx), max(SHORTLIST_MIN, int(len(approx) * SHORTLIST_SHARE), k * SHORTLIST_FACTOR))
        rows = best_rows(approx, shortlist)
        rows = rows[approx[rows] > -np.inf]
        return np.asarray(base.ids[rows]), base.exact(rows, q)

    def _in_scope(self, base: VectorFile, codes: np.ndarray) -> np.ndarray:
        """The file's rows in the namespaces ``codes`` (kept per scope: the file never changes)."""
        key = (id(base), tuple(codes.tolist()))
        mask = self._scope_masks.get(key)
        if mask is None:
            if len(self._scope_masks) >= SCOPE_MASKS:
                self._scope_masks.clear()
            mask = self._scope_masks[key] = np.isin(base.ns, codes)
        return mask

    def _scope_codes(self, namespaces: Sequence[str] | None) -> np.ndarray | None:
        """Namespace codes in scope (``None``: every row)."""
        if not namespaces:
            return None
        codes = [self.namespaces[ns] for ns in namespaces if ns in self.namespaces]
        if len(codes) == len(self.namespaces):
            return None
        return np.asarray(codes, dtype=np.int32)

    def cosines(self, query: np.ndarray, ids: Sequence[int]) -> dict[int, float]:
        """Cosine of ``query`` with each given memory the index holds."""
        with self.lock:
            out: dict[int, float] = {}
            delta = [(i, self.position[i]) for i in ids if i in self.position]
            if delta:
                sims = self.matrix[[pos for _, pos in delta]] @ query
                out.update({i: float(s) for (i, _), s in zip(delta, sims, strict=True)})
            rest = [i for i in ids if i not in self.position]
            if rest and self.base is not None:
                rows = self.base.rows_of(np.asarray(rest, dtype=np.int64))
                keep = (rows >= 0)
                keep[keep] &= ~self.dead[rows[keep]]
                sims = self.base.exact(rows[keep], np.asarray(query, dtype=np.float32))
                out.update({int(i): float(s) for i, s in zip(np.asarray(rest)[keep], sims, strict=True)})
            return out

    def vector(self, memory_id: int) -> np.ndarray | None:
        """The vector the index holds for one memory (None when it holds none)."""
        with self.lock:
            pos = self.position.get(memory_id)
            if pos is not None:
                return np.array(self.matrix[pos])
            if self.base is not None:
                row = int(self.base.rows_of(np.asarray([memory_id], dtype=np.int64))[0])
                if row >= 0 and not self.dead[row]:
                    return self.base.vector(row)
            return None

    def live_ids(self) -> np.ndarray:
        """Every memory id the index holds (file rows not superseded, then the delta's)."""
        with self.lock:
            parts = [self.ids[: self._size]]
            if self.base is not None:
                parts.insert(0, np.asarray(self.base.ids)[~self.dead])
            return np.concatenate(parts)

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


def best_rows(scores: np.ndarray, n: int) -> np.ndarray:
    """Positions of the ``n`` highest ``scores`` (unordered), as ``argpartition`` finds them.

    Why not ``argpartition`` alone: over a million scores it costs 15-60 ms on this machine,
    more than the scan that made them. A threshold read from a strided sample (every
    :data:`SAMPLE_STEP`-th score, placed so that about twice ``n`` scores pass it) keeps a
    few thousand; those are partitioned. The result is the same set: when fewer than ``n``
    pass (an unlucky sample), the full partition runs.
    """
    total = len(scores)
    if total <= n:
        return np.arange(total)
    if total < 16 * n or total < 64 * SAMPLE_STEP:
        return np.argpartition(-scores, n - 1)[:n]
    sample = scores[::SAMPLE_STEP]
    place = min(len(sample) - 1, 2 * n // SAMPLE_STEP + 8)  # about 2n scores lie above it
    threshold = np.partition(sample, len(sample) - 1 - place)[len(sample) - 1 - place]
    passed = np.flatnonzero(scores >= threshold)
    if len(passed) < n:
        return np.argpartition(-scores, n - 1)[:n]
    return passed[np.argpartition(-scores[passed], n - 1)[:n]]
