"""What the instruction model reads of one sentence: the feature vector, in one place.

Training (``bench/train_instruction_model.py``) and scoring
(:mod:`madohub_memory.services.instruction_model`) both build it here, so the weights
shipped in ``resources/extraction/instruction_model.json`` always meet the features they
were fitted on (the file lists them; a mismatch is refused at load).

Per sentence: its USE multilingual embedding (e5-small measured better but too slow for
every draft: see :mod:`.instruction_model`), its word-class
frames (:mod:`madohub_memory.extraction.instruction_frames`) and, as 0/1 features, which
steering cues fire on it (:mod:`madohub_memory.extraction.instructions`) and whether they
flag it. The cues are evidence the model weighs, not a verdict.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from madohub_memory.extraction.instruction_frames import FEATURES as FRAMES
from madohub_memory.extraction.instruction_frames import frame_features
from madohub_memory.extraction.instructions import instruction_categories

EMBEDDERS: tuple[str, ...] = ("use-multilingual",)
EMBEDDING_DIMS = {"use-multilingual": 512, "e5-small": 384}
CUE_NAMES = (
    "access", "address", "agent", "answer", "channel", "deceive", "destructive", "direct", "dismiss",
    "exfiltration", "identity", "impersonation", "leak", "lowering", "manipulation", "marker", "memory",
    "override", "oversight", "permission", "persistence", "secrecy", "skip-hooks", "skip-tests", "tamper",
    "target", "trigger", "trust", "without",
)
FEATURES: tuple[str, ...] = (
    tuple(f"{name}[{i}]" for name in EMBEDDERS for i in range(EMBEDDING_DIMS[name]))
    + tuple(f"frame:{f}" for f in FRAMES) + tuple(f"cue:{c}" for c in CUE_NAMES) + ("cue_flag",)
)


def cue_features(text: str) -> list[float]:
    """1.0 for each cue of :data:`CUE_NAMES` that fires on ``text``, then 1.0 if any does."""
    found = set(instruction_categories(text))
    return [float(name in found) for name in CUE_NAMES] + [float(bool(found))]


def sentence_features(texts: Sequence[str], vectors: Sequence[np.ndarray]) -> np.ndarray:
    """The feature matrix of ``texts``, given their vectors from each of :data:`EMBEDDERS` in order."""
    if len(vectors) != len(EMBEDDERS):
        raise ValueError(f"need vectors from {len(EMBEDDERS)} embedders, got {len(vectors)}")
    if not texts:
        return np.zeros((0, len(FEATURES)))
    symbolic = np.array([list(frame_features(t)) + cue_features(t) for t in texts], dtype=np.float64)
    return np.hstack([np.asarray(v, dtype=np.float64) for v in vectors] + [symbolic])
