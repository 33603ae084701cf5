"""The ``instruction`` flag on phrasings the cues were not written for: a learned second opinion.

The cue scorer (:mod:`madohub_memory.extraction.instructions`) knows the phrasings it was
written against and little else: on a set written after its last change it found 0.55 of
the injections (issue 25). This model reads each sentence of a candidate as a sentence
embedding (USE multilingual, the default recall model: meaning, in English or Chinese,
whatever the wording) and as what kind of act it is
(:mod:`madohub_memory.extraction.instruction_frames`: weakening a safeguard, hiding
something from the user, claiming a result regardless, obeying someone else's text, sending
something out, …), and weighs both with a logistic regression learned from the corpus in
``bench/`` (``python bench/train_instruction_model.py`` writes
:mod:`.instruction_weights`). A candidate is flagged when any of its sentences scores at
least the frozen threshold, or when the cues flag it.

The USE model is the one recall and semantic dedup already load (memory-mapped, ~15 ms);
a sentence costs a few milliseconds, and a drain round embeds its drafts' sentences in one
batch (:func:`warm`). Measured in ``bench/safety.py`` (section ``injection``).
"""

from __future__ import annotations

import base64
import functools
import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from madohub_memory.extraction.instruction_frames import FEATURES, frame_features
from madohub_memory.extraction.instructions import is_instruction
from madohub_memory.services import instruction_weights as trained

if TYPE_CHECKING:
    from madohub_memory.services import Services

MAX_SENTENCES = 12
_SENTENCES = re.compile(r"(?<=[.!?;])\s+|(?<=[。！？；])|\n+")
_CACHE_SIZE = 4096
_cache: OrderedDict[str, float] = OrderedDict()
_lock = threading.Lock()


@functools.lru_cache(maxsize=1)
def _weights() -> tuple[np.ndarray, float]:
    if tuple(trained.FEATURES) != FEATURES:
        raise RuntimeError("instruction_weights.py was trained on other features: run bench/train_instruction_model.py")
    weights = np.frombuffer(base64.b64decode(trained.WEIGHTS), dtype="<f4").astype(np.float64)
    return weights, float(trained.BIAS)


def sentences(text: str) -> list[str]:
    """The sentences of ``text`` the model reads (at most :data:`MAX_SENTENCES`, each cut to 400)."""
    parts = [p.strip() for p in _SENTENCES.split(text) if p and p.strip()]
    return [p[:400] for p in parts if len(p) >= 8][:MAX_SENTENCES] or ([text.strip()[:400]] if text.strip() else [])


def _encode(texts: list[str], svc: Services | None) -> np.ndarray:
    """USE vectors of ``texts``: through the process's vector cache when the database's
    model is USE (a one-sentence draft was embedded there already for semantic dedup)."""
    if svc is not None and svc.settings.get("embedding.model") == trained.EMBEDDER:
        from madohub_memory.recall.vector_cache import vector_cache

        return vector_cache(svc.store, trained.EMBEDDER).embed(texts)
    from madohub_memory.recall.embeddings import get_embedder

    return get_embedder(trained.EMBEDDER).encode(texts)


def sentence_scores(items: Sequence[str], svc: Services | None = None) -> list[float]:
    """The model's probability that each sentence steers the agent or the reviewer."""
    weights, bias = _weights()
    with _lock:
        known = {s: _cache[s] for s in items if s in _cache}
    todo = [s for s in dict.fromkeys(items) if s not in known]
    if todo:
        vectors = _encode(todo, svc)
        features = np.array([frame_features(s) for s in todo], dtype=np.float64)
        logits = np.hstack([features, vectors.astype(np.float64)]) @ weights + bias
        for sentence, value in zip(todo, 1.0 / (1.0 + np.exp(-logits)), strict=True):
            known[sentence] = float(value)
        with _lock:
            _cache.update((s, known[s]) for s in todo)
            while len(_cache) > _CACHE_SIZE:
                _cache.popitem(last=False)
    return [known[s] for s in items]


def warm(texts: Sequence[str], svc: Services | None = None) -> None:
    """Score the sentences of many texts in one batch (a drain round's drafts)."""
    pending = [s for text in texts for s in sentences(text)]
    if pending:
        sentence_scores(pending, svc)


def score(text: str, svc: Services | None = None) -> float:
    """The highest sentence score of ``text`` (0 for empty text)."""
    parts = sentences(text)
    return max(sentence_scores(parts, svc), default=0.0)


def model_flags(text: str, svc: Services | None = None) -> bool:
    """True when the model scores a sentence of ``text`` at least the frozen threshold (the
    cues are asked separately: :func:`madohub_memory.extraction.flags.scan`)."""
    return bool(text and text.strip()) and score(text, svc) >= float(trained.THRESHOLD)


def flags_instruction(text: str, svc: Services | None = None) -> bool:
    """True when ``text`` tries to steer the agent or the reviewer: the cues say so, or the
    model scores one of its sentences at least :data:`instruction_weights.THRESHOLD`."""
    if not text or not text.strip():
        return False
    return is_instruction(text) or model_flags(text, svc)
