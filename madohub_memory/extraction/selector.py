"""The learned selector: which units of a coding session are worth a reviewer's keystroke.

A logistic model over the unit's place and form (:mod:`.unit_features`) and, when the
sentence encoder it was trained with is at hand, the unit's sentence embedding. It was
trained on hand-labelled dev sessions (``bench/train_selector.py``; leave-one-project-out
figures in ``bench/extraction_coding.py``) and ships as ``resources/extraction/selector.json``.
A second, smaller model over the same features picks the kind of a chosen unit.

Why learned: hand-written cues fitted a handful of sessions and missed the next person's;
a model over structure and meaning, measured on projects it was not trained on, carries
further and replaces hundreds of lines of cues.

Selection keeps units above the model's threshold, at most a few per exchange (more for a
long autonomous run), and skips a unit that says what an already chosen one says (by
embedding, else by shared words).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from madohub_memory.extraction.unit_features import NAMES, features
from madohub_memory.extraction.units import Unit

KINDS = ("preference", "fact", "decision", "pattern", "postmortem", "event")
Encoder = Callable[[str, list[str]], np.ndarray]  # (model name, texts) -> L2-normalised vectors
MODEL_FILE = "selector.json"
_TOKEN = re.compile(r"\w+|[\u3400-\u9fff]")
SAME_COSINE = 0.82  # two chosen units this close say the same thing


@dataclass(frozen=True)
class Model:
    """Weights as trained: ``weights`` over the features (+ the embedding when ``embedded``)."""

    weights: np.ndarray
    threshold: float
    embedded: bool


@dataclass(frozen=True)
class Selector:
    full: Model | None  # features + embedding
    structural: Model  # features only (no encoder available)
    kinds: np.ndarray  # (len(KINDS), len(NAMES)) multinomial weights
    embedding: str  # the encoder the full model was trained with
    cap_scale: float  # at most cap_scale * sqrt(units) chosen per exchange
    info: dict[str, Any]

    def score(self, units: Sequence[Unit], vectors: np.ndarray | None) -> np.ndarray:
        """The probability that each unit is worth proposing."""
        if not units:
            return np.zeros(0)
        x = np.array([features(u) for u in units], dtype=np.float64)
        model = self.full if vectors is not None and self.full is not None else self.structural
        if model.embedded:
            assert vectors is not None
            x = np.hstack([x, vectors.astype(np.float64)])
        z = np.clip(x @ model.weights - _logit(model.threshold), -30, 30)
        return 1.0 / (1.0 + np.exp(-z))  # 0.5 at the model's threshold

    def kind(self, unit: Unit) -> str:
        if unit.kind_hint:
            return unit.kind_hint
        z = self.kinds @ np.array(features(unit), dtype=np.float64)
        return KINDS[int(np.argmax(z))]

    def choose(self, units: Sequence[Unit], probs: np.ndarray, vectors: np.ndarray | None) -> list[int]:
        """Indices of the units to propose, best first within each exchange."""
        chosen: list[int] = []
        per_exchange: dict[str, int] = {}
        caps = exchange_caps(units, self.cap_scale)
        for i in sorted(range(len(units)), key=lambda i: -probs[i]):
            if probs[i] < 0.5:
                break
            key = units[i].exchange
            if per_exchange.get(key, 0) >= caps[key]:
                continue
            if any(_same(units[i], units[j], vectors, i, j) for j in chosen):
                continue
            chosen.append(i)
            per_exchange[key] = per_exchange.get(key, 0) + 1
        return chosen


def exchange_caps(units: Sequence[Unit], scale: float) -> dict[str, int]:
    """How many units each exchange may give: a few for a short exchange, more for a long
    autonomous run (growing with the square root of its units)."""
    sizes: dict[str, int] = {}
    for unit in units:
        sizes[unit.exchange] = sizes.get(unit.exchange, 0) + 1
    return {key: max(2, math.ceil(scale * math.sqrt(n))) for key, n in sizes.items()}


def _logit(p: float) -> float:
    p = min(max(p, 1e-6), 1 - 1e-6)
    return math.log(p / (1 - p))


def _same(a: Unit, b: Unit, vectors: np.ndarray | None, i: int, j: int) -> bool:
    if vectors is not None:
        return float(vectors[i] @ vectors[j]) >= SAME_COSINE
    wa, wb = set(_TOKEN.findall(a.text.lower())), set(_TOKEN.findall(b.text.lower()))
    return bool(wa and wb) and len(wa & wb) >= 0.7 * min(len(wa), len(wb))


def from_dict(data: dict[str, Any]) -> Selector:
    """A selector from its JSON form; refuses weights trained on other features."""
    if data.get("features") != NAMES:
        raise ValueError("the selector weights were trained on other features; train them again")

    def model(spec: dict[str, Any] | None) -> Model | None:
        if not spec:
            return None
        return Model(np.array(spec["weights"], dtype=np.float64), float(spec["threshold"]), bool(spec["embedded"]))

    structural = model(data["structural"])
    assert structural is not None
    return Selector(model(data.get("full")), structural, np.array(data["kinds"], dtype=np.float64),
                    str(data.get("embedding", "")), float(data.get("cap_scale", 1.0)), dict(data.get("info", {})))


@lru_cache(maxsize=1)
def shipped() -> Selector:
    """The selector shipped in ``resources/extraction/``."""
    from madohub_memory.core.resources import resources_dir

    return load(resources_dir() / "extraction" / MODEL_FILE)


def load(path: Path) -> Selector:
    return from_dict(json.loads(path.read_text(encoding="utf-8")))
