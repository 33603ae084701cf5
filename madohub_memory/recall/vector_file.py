"""A big store's memory vectors in a memory-mapped file: int8, one scale per row, and a coarse copy.

Why: at a million memories a float32 matrix is 1.5-2 GB of RAM, read from SQLite blob by blob
at every start (about 30 s). Here each process maps one file written once:

* ``vectors.npy``: every row quantised to int8 (``round(127 · v / max|v|)``) with its scale in
  ``scales.npy``; a cosine computed from it differs from the float one by under 0.005;
* ``coarse.npy``: float32 rows projected on the :data:`COARSE_DIM` strongest principal
  directions (``proj.npy``, of the uncentred second moment, which best keeps dot products).
  A search scans only this (one matrix-vector product over a quarter or a sixth of the
  bytes), then rescores a shortlist exactly from the int8 rows;
* ``ids.npy`` (ascending, so a row is found by bisection, no dictionary of a million
  entries) and ``ns.npy`` (namespace codes; ``meta.json`` lists the namespaces).

A cold start maps the files (milliseconds); only the coarse copy is read whole, by the first
search, and the int8 rows only where a shortlist lands. ``meta.json`` records the change-feed
position the file was written at and that feed row's key: a process applies the changes made
since on top (:mod:`.vector_index`), and a file whose feed row does not match (another copy of
the database, a restore, a pruned feed) is rebuilt. Files are derived data in the user's cache
folder: deleting them costs one rebuild.

Writing: into a new folder, then ``current`` is replaced atomically to point at it; a process
still mapping the old folder keeps reading it (Linux keeps unlinked files alive).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from madohub_memory.store.mapped_table import cache_root

FORMAT = 1
COARSE_DIM = 64
CHUNK = 20_000
SAMPLE = 20_000


def folder_for(database: str, location: str, model: str) -> Path:
    """The cache folder of one database (its id and where it is) and model."""
    key = hashlib.sha1(f"{database}\0{location}\0{model}".encode()).hexdigest()[:20]
    return cache_root().parent / "vectors" / f"{model}-{key}"


def quantise(vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(int8 rows, float32 scale per row) with ``rows * scale ≈ vectors``."""
    vectors = np.asarray(vectors, dtype=np.float32)
    peak = np.abs(vectors).max(axis=1)
    peak[peak == 0] = 1.0
    scale = (peak / 127.0).astype(np.float32)
    return np.rint(vectors / scale[:, None]).astype(np.int8), scale


@dataclass
class VectorFile:
    """One mapped file set (read-only arrays)."""

    folder: Path
    ids: np.ndarray
    ns: np.ndarray
    vectors: np.ndarray
    scales: np.ndarray
    coarse: np.ndarray
    proj: np.ndarray
    namespaces: list[str]
    seq: int
    seq_key: list[Any]

    def __len__(self) -> int:
        return len(self.ids)

    def rows_of(self, ids: np.ndarray) -> np.ndarray:
        """Row of each id, -1 where the file does not have it."""
        ids = np.asarray(ids, dtype=np.int64)
        if len(self.ids) == 0 or len(ids) == 0:
            return np.full(len(ids), -1, dtype=np.int64)
        pos = np.searchsorted(self.ids, ids)
        pos = np.minimum(pos, len(self.ids) - 1)
        return np.where(self.ids[pos] == ids, pos, -1)

    def exact(self, rows: np.ndarray, query: np.ndarray) -> np.ndarray:
        """Cosines of ``rows`` with ``query`` from the int8 rows."""
        if len(rows) == 0:
            return np.zeros(0, dtype=np.float32)
        order = np.argsort(rows)  # ascending reads of the mapped file
        block = self.vectors[rows[order]].astype(np.float32)
        out = np.empty(len(rows), dtype=np.float32)
        out[order] = (block @ query) * self.scales[rows[order]]
        return out

    def vector(self, row: int) -> np.ndarray:
        return np.asarray(self.vectors[row], dtype=np.float32) * float(self.scales[row])


def open_file(folder: Path) -> VectorFile | None:
    """The current file set of ``folder`` mapped, or None when absent or unreadable."""
    try:
        current = (folder / "current").read_text(encoding="utf-8").strip()
        version = folder / current
        meta = json.loads((version / "meta.json").read_text(encoding="utf-8"))
        if meta.get("format") != FORMAT:
            return None

        def load(name: str) -> np.ndarray:
            return np.load(version / f"{name}.npy", mmap_mode="r")

        return VectorFile(version, load("ids"), load("ns"), load("vectors"), load("scales"), load("coarse"),
                          np.asarray(load("proj")), list(meta["namespaces"]), int(meta["seq"]),
                          list(meta.get("seq_key") or []))
    except (OSError, ValueError, KeyError):
        return None


def write_file(folder: Path, rows: Iterable[tuple[int, str, np.ndarray]], count: int, dim: int, seq: int,
               seq_key: list[Any]) -> VectorFile | None:
    """Write (id ascending, namespace, float32 vector) rows as a new file set of ``folder``
    and make it current; ``count`` is how many rows at most. None when the folder cannot be
    written (a read-only cache: the caller keeps its vectors in memory)."""
    version = folder / f"v{seq}-{os.getpid()}-{os.urandom(3).hex()}"
    try:
        version.mkdir(parents=True, mode=0o700)
        return _write(folder, version, rows, count, dim, seq, seq_key)
    except OSError:
        shutil.rmtree(version, ignore_errors=True)
        return None


def _write(folder: Path, version: Path, rows: Iterable[tuple[int, str, np.ndarray]], count: int, dim: int,
           seq: int, seq_key: list[Any]) -> VectorFile | None:
    def create(name: str, dtype: Any, shape: tuple[int, ...]) -> np.memmap[Any, Any]:
        made: np.memmap[Any, Any] = np.lib.format.open_memmap(version / f"{name}.npy", mode="w+", dtype=dtype,
                                                               shape=shape)
        return made

    capacity = max(1, count)
    ids = np.zeros(capacity, dtype=np.int64)
    ns = np.zeros(capacity, dtype=np.int32)
    scales = np.zeros(capacity, dtype=np.float32)
    vectors = create("vectors", np.int8, (capacity, dim))
    namespaces: dict[str, int] = {}
    sample: list[np.ndarray] = []
    n = 0
    for chunk in _chunked(rows, CHUNK):
        block = np.stack([v for _, _, v in chunk]).astype(np.float32)
        take = min(len(chunk), capacity - n)
        if take <= 0:
            break
        q, s = quantise(block[:take])
        vectors[n:n + take] = q
        scales[n:n + take] = s
        for j, (memory_id, namespace, _) in enumerate(chunk[:take]):
            ids[n + j] = memory_id
            ns[n + j] = namespaces.setdefault(namespace, len(namespaces))
        if sum(len(b) for b in sample) < SAMPLE:
            sample.append(block[: SAMPLE // 4])
        n += take
    vectors.flush()
    del vectors
    if n < capacity:  # fewer rows than counted (deleted meanwhile): a right-sized copy
        full = np.load(version / "vectors.npy", mmap_mode="r")
        trimmed = create("vectors.tmp", np.int8, (max(1, n), dim))
        trimmed[:n] = full[:n]
        trimmed.flush()
        del trimmed, full
        os.replace(version / "vectors.tmp.npy", version / "vectors.npy")
    rows_n = max(1, n)
    np.save(version / "ids.npy", ids[:rows_n] if n else np.zeros(0, dtype=np.int64))
    np.save(version / "ns.npy", ns[:rows_n] if n else np.zeros(0, dtype=np.int32))
    np.save(version / "scales.npy", scales[:rows_n])
    proj = _projection(np.concatenate(sample) if sample else np.eye(dim, dtype=np.float32), dim)
    np.save(version / "proj.npy", proj)
    coarse = create("coarse", np.float32, (rows_n, proj.shape[1]))
    stored = np.load(version / "vectors.npy", mmap_mode="r")
    for start in range(0, n, CHUNK):
        stop = min(n, start + CHUNK)
        coarse[start:stop] = (stored[start:stop].astype(np.float32) * scales[start:stop, None]) @ proj
    coarse.flush()
    del coarse, stored
    meta = {"format": FORMAT, "seq": seq, "seq_key": seq_key, "count": n, "dim": dim,
            "namespaces": sorted(namespaces, key=namespaces.__getitem__)}
    (version / "meta.json").write_text(json.dumps(meta), encoding="utf-8")
    pointer = folder / f"current.{os.getpid()}.tmp"
    pointer.write_text(version.name, encoding="utf-8")
    os.replace(pointer, folder / "current")
    for old in folder.iterdir():  # earlier versions: mapped ones stay readable until unmapped
        if old.is_dir() and old.name != version.name:
            shutil.rmtree(old, ignore_errors=True)
    return open_file(folder)


def _chunked(rows: Iterable[tuple[int, str, np.ndarray]], size: int) -> Iterator[list[tuple[int, str, np.ndarray]]]:
    chunk: list[tuple[int, str, np.ndarray]] = []
    for row in rows:
        chunk.append(row)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _projection(sample: np.ndarray, dim: int) -> np.ndarray:
    """The top :data:`COARSE_DIM` eigenvectors of the sample's uncentred second moment."""
    width = min(COARSE_DIM, dim)
    _, vectors = np.linalg.eigh(sample.T @ sample)
    return np.ascontiguousarray(vectors[:, ::-1][:, :width], dtype=np.float32)
