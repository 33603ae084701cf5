"""A read-only ``str -> int`` table in memory-mapped files, for dictionaries loaded at start-up.

Why: tokenizers keep a dict of hundreds of thousands of strings (USE's piece prefixes,
jieba's word frequencies). Building one costs 0.3 to 4 s, even unmarshalling it ~0.1 s: more
than a whole CLI call may take. Written once as a bucketed hash table over a blob of
UTF-8 keys, it opens in microseconds; a lookup hashes the key (crc32), reads its bucket from
int32 arrays (``memoryview`` casts of an ``mmap``) and compares bytes. Lookups are memoised,
and writes go to an overlay dict, so the object can stand in for the tokenizer's own dict.
"""

from __future__ import annotations

import mmap
import os
import sys
import zlib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

_MISSING = object()
_MEMO_LIMIT = 200_000


class MappedFiles:
    """Read-only files of one folder, mapped once; int32 views are ``memoryview`` casts."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._maps: list[mmap.mmap] = []

    def bytes(self, name: str) -> memoryview:
        with open(self.folder / name, "rb") as handle:
            mapped = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
        self._maps.append(mapped)
        return memoryview(mapped)

    def ints(self, name: str) -> memoryview:
        return self.bytes(name).cast("i")


def write_table(folder: Path, name: str, items: Iterable[tuple[str, int]]) -> None:
    """Write ``name.buckets/.offsets/.values/.keys`` for the (key, int32 value) pairs.

    Keys are grouped by bucket (crc32 of the UTF-8 key, about two buckets per key): bucket
    ``b`` holds entries ``buckets[b]`` to ``buckets[b + 1]``. Built with numpy in well under
    a second for jieba's 500,000 entries."""
    import numpy as np  # only to build; reading needs no numpy

    pairs = list(items)
    keys = [k.encode("utf-8") for k, _ in pairs]
    size = 1
    while size < 2 * max(1, len(keys)):
        size *= 2
    hashes = np.fromiter((zlib.crc32(k) for k in keys), dtype=np.uint32, count=len(keys)) & np.uint32(size - 1)
    order = np.argsort(hashes, kind="stable")
    buckets = np.zeros(size + 1, dtype=np.int32)
    np.cumsum(np.bincount(hashes, minlength=size), out=buckets[1:])
    ordered = [keys[i] for i in order]
    offsets = np.zeros(len(keys) + 1, dtype=np.int32)
    np.cumsum([len(k) for k in ordered], out=offsets[1:])
    values = np.asarray([v for _, v in pairs], dtype=np.int32)[order]
    (folder / f"{name}.buckets").write_bytes(buckets.tobytes())
    (folder / f"{name}.offsets").write_bytes(offsets.tobytes())
    (folder / f"{name}.values").write_bytes(values.tobytes())
    (folder / f"{name}.keys").write_bytes(b"".join(ordered))


class MappedTable:
    """The table ``name`` of ``files``, with the dict methods tokenizers use."""

    def __init__(self, files: MappedFiles, name: str) -> None:
        self._buckets = files.ints(f"{name}.buckets")
        self._offsets = files.ints(f"{name}.offsets")
        self._values = files.ints(f"{name}.values")
        self._keys = files.bytes(f"{name}.keys")
        self._mask = len(self._buckets) - 2
        self._memo: dict[str, Any] = {}

    def __len__(self) -> int:
        return len(self._values)

    def get(self, key: str, default: Any = None) -> Any:
        value = self._memo.get(key, _MISSING)
        if value is _MISSING:
            value = self._lookup(key.encode("utf-8"))
            if len(self._memo) < _MEMO_LIMIT:
                self._memo[key] = value
        return default if value is None else value

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self.get(key) is not None

    def __getitem__(self, key: str) -> int:
        value = self.get(key)
        if value is None:
            raise KeyError(key)
        return int(value)

    def __setitem__(self, key: str, value: int) -> None:  # e.g. jieba.add_word: kept in this process
        self._memo[key] = value

    def _lookup(self, key: bytes) -> int | None:
        offsets, keys = self._offsets, self._keys
        bucket = zlib.crc32(key) & self._mask
        for index in range(self._buckets[bucket], self._buckets[bucket + 1]):
            if keys[offsets[index]:offsets[index + 1]] == key:
                return self._values[index]
        return None


# -- cache folders ---------------------------------------------------------------------------

def cache_root() -> Path:
    """``$MADOHUB_CACHE_DIR/models``, else the user cache dir (XDG on Linux, read without
    importing platformdirs, which is used on other systems)."""
    env = os.environ.get("MADOHUB_CACHE_DIR")
    if env:
        return Path(env).expanduser() / "models"
    if sys.platform.startswith("linux"):
        xdg = os.environ.get("XDG_CACHE_HOME", "").strip()
        base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".cache"
        return base / "madohub-memory" / "models"
    import platformdirs

    return Path(platformdirs.user_cache_dir("madohub-memory", appauthor=False)) / "models"


def ensure(folder: Path, build_into: Callable[[Path], None]) -> Path:
    """``folder`` with a complete cache in it, built by ``build_into`` when missing.

    Built in a sibling temp folder, then renamed: a concurrent reader never sees half a
    cache, and two processes building at once both succeed."""
    if (folder / "manifest.json").is_file():
        return folder
    import shutil
    import tempfile

    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".build-", dir=folder.parent))
    try:
        build_into(staging)
        try:
            staging.rename(folder)
        except OSError:  # another process finished first, or a broken folder is in the way
            if (folder / "manifest.json").is_file():
                return folder
            broken = folder.with_name(f"{staging.name}-broken")
            folder.rename(broken)
            shutil.rmtree(broken, ignore_errors=True)
            staging.rename(folder)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    _remove_stale(folder)
    return folder


def _remove_stale(folder: Path, keep: int = 2) -> None:
    """Caches of the same model for other package versions: at most ``keep`` of them (another
    installation may still use one), none unused for a month; and builds killed a day ago."""
    import shutil
    import time

    now = time.time()
    family = folder.name.rsplit("-", 1)[0]
    others = []
    for old in folder.parent.glob(f"{family}-*"):
        try:
            if old != folder:
                others.append(((old / "manifest.json").stat().st_atime, old))
        except OSError:
            continue
    others.sort(reverse=True)
    for rank, (used, old) in enumerate(others):
        if rank >= keep or used < now - 30 * 86400:
            shutil.rmtree(old, ignore_errors=True)
    for old in folder.parent.glob(".build-*"):
        try:
            if old.stat().st_mtime < now - 86400:
                shutil.rmtree(old, ignore_errors=True)
        except OSError:
            continue
