"""jieba's dictionary from a memory-mapped cache: a Chinese query without jieba's start-up.

Chinese keyword search segments text with jieba, whose first use builds a dict of ~500,000
words and prefixes from ``dict.txt`` or unmarshals it from ``/tmp/jieba.cache`` (0.3 s to
several seconds): more than a whole ``recall`` may take. Here the default dictionary is
written once as a :class:`~madohub_memory.store.mapped_table.MappedTable` under the model
cache (``<user cache>/madohub-memory/models/jieba-<key>/``) and jieba's default tokenizer
reads it in place: the same words, the same segmentation (``tests/test_model_cache.py``).

jieba also imports ``pkg_resources`` when it can, only to open its own files; in a Python 3.11
venv (which ships setuptools) that import alone costs ~0.3 s. It is imported with
``pkg_resources`` hidden, so it opens them directly, as it does where setuptools is absent.
"""

from __future__ import annotations

import json
import logging
import sys
import zlib
from pathlib import Path
from types import ModuleType
from typing import cast

from madohub_memory.store.mapped_table import MappedFiles, MappedTable, cache_root, ensure, write_table

log = logging.getLogger(__name__)

FORMAT = 2


def import_jieba() -> ModuleType:
    if "jieba" in sys.modules or "pkg_resources" in sys.modules:
        import jieba

        return cast(ModuleType, jieba)
    sys.modules["pkg_resources"] = None  # type: ignore[assignment]  # an ImportError for jieba
    try:
        import jieba
    finally:
        del sys.modules["pkg_resources"]
    return cast(ModuleType, jieba)


def default_dictionary(jieba: ModuleType) -> Path:
    return Path(str(jieba.__file__)).resolve().parent / str(jieba.DEFAULT_DICT_NAME)


def cache_key(dictionary: Path) -> str:
    stat = dictionary.stat()
    return "jieba-" + format(zlib.crc32(f"f{FORMAT}/{stat.st_size}-{stat.st_mtime_ns}".encode()), "08x")


def build(folder: Path, dictionary: Path, jieba: ModuleType) -> None:
    with open(dictionary, "rb") as handle:
        freq, total = jieba.Tokenizer.gen_pfdict(handle)
    write_table(folder, "freq", freq.items())
    (folder / "manifest.json").write_text(json.dumps({"format": FORMAT, "total": total}), encoding="utf-8")


def initialize(jieba: ModuleType) -> None:
    """Give jieba's default tokenizer the mapped dictionary (its own loader when that fails)."""
    tokenizer = jieba.dt
    if tokenizer.initialized:
        return
    try:
        if tokenizer.dictionary not in (None, jieba.DEFAULT_DICT):  # someone chose another dictionary
            raise ValueError("not the default dictionary")
        dictionary = default_dictionary(jieba)
        folder = ensure(cache_root() / cache_key(dictionary), lambda into: build(into, dictionary, jieba))
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
        if manifest.get("format") != FORMAT:
            raise ValueError("jieba cache of another format")
        with tokenizer.lock:
            tokenizer.FREQ = MappedTable(MappedFiles(folder), "freq")
            tokenizer.total = int(manifest["total"])
            tokenizer.initialized = True
    except Exception as exc:  # a read-only home, another jieba: its own (slower) loader still works
        log.warning("jieba cache unavailable (%s); loading jieba's dictionary", exc)
        jieba.initialize()
