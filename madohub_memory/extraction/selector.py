"""The learned selector: which units of a coding session are worth a reviewer's keystroke.

A logistic model over the unit's place in the session and the form of its sentence
(:mod:`.unit_features`), trained on hand-labelled dev sessions (``bench/train_selector.py``)
and shipped as ``resources/extraction/selector.json``; a second, multinomial model over the
same features picks the kind of a chosen unit.

Why learned, and why these features only: hand-written cues fitted a handful of sessions
and missed the next person's. Trained on some projects and measured on another
(leave-one-project-out, ``bench/extraction_coding.py``), a model of structure carries over;
adding the units' sentence embeddings (USE multilingual) did not raise the held-out
figures, so the selector needs no encoder and works with whatever embedding model recall
is set to use.

Selection keeps units above the model's threshold, at most a few per exchange (more for a
long autonomous run, growing with the square root of its units) and per pass (growing with
the square root of the pass), and skips a unit that repeats most of the words of one
already chosen.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from madohub_memory.extraction.unit_features import NAMES, features
from madohub_memory.extraction.units import Unit

KINDS = ("preference", "fact", "decision", "pattern", "postmortem", "event")
MODEL_FILE = "selector.json"
_TOKEN = re.compile(r"\w+|[\u3400-\u9fff]")


@dataclass(frozen=True)
class Selector:
    weights: np.ndarray  # over the features of :data:`.unit_features.NAMES`
    threshold: float  # probability a unit needs
    cap_scale: float  # at most cap_scale * sqrt(units) chosen per exchange
    pass_scale: float  # at most pass_scale * sqrt(units) chosen per pass
    kinds: np.ndarray  # (len(KINDS), len(NAMES)) multinomial weights
    info: dict[str, Any]

    def score(self, units: Sequence[Unit]) -> np.ndarray:
        """The probability that each unit is worth proposing."""
        if not units:
            return np.zeros(0)
        x = np.array([features(u) for u in units], dtype=np.float64)
        return 1.0 / (1.0 + np.exp(-np.clip(x @ self.weights, -30, 30)))

    def kind(self, unit: Unit) -> str:
        """The kind: what an answer or a routine was written as; what the structure says
        where it says it (the person's standing rule or own preference; an established root
        cause, or an item under a summary's errors and fixes; an item under its decisions);
        else the kind model's choice."""
        if unit.kind_hint:
            return unit.kind_hint
        x = dict(zip(NAMES, features(unit), strict=True))
        if x["user_prefers"] or (x["standing_rule"] and not x["user_task"] and not x["decided"]):
            return "preference"
        if x["established_cause"] or x["sec_errors"] or (x["sec_solving"] and (x["cause"] or x["fix"])):
            return "postmortem"
        if x["sec_decisions"] or x["decided"]:
            return "decision"
        return KINDS[int(np.argmax(self.kinds @ np.array(list(x.values()), dtype=np.float64)))]

    def choose(self, units: Sequence[Unit], probs: np.ndarray) -> list[int]:
        """Indices of the units to propose, best first."""
        return choose(units, probs, self.threshold, self.cap_scale, self.pass_scale)


def choose(units: Sequence[Unit], probs: np.ndarray, threshold: float, cap_scale: float, pass_scale: float,
           skip_repeats: bool = True) -> list[int]:
    """The units above ``threshold``, best first, at most a few per exchange
    (:func:`exchange_caps`) and at most ``pass_scale * sqrt(units)`` in the whole pass, so
    that a day-long session gives a few times more candidates than an hour, not twenty
    times more; a unit repeating most of the words of one already chosen is skipped."""
    chosen: list[int] = []
    taken: dict[str, int] = {}
    caps = exchange_caps(units, cap_scale)
    budget = max(4, math.ceil(pass_scale * math.sqrt(len(units)))) if math.isfinite(pass_scale) else len(units)
    words = [set(_TOKEN.findall(u.text.lower())) for u in units] if skip_repeats else []
    for i in sorted(range(len(units)), key=lambda i: -probs[i]):
        if probs[i] < threshold or len(chosen) >= budget:
            break
        key = units[i].exchange
        if taken.get(key, 0) >= caps[key] or (skip_repeats and any(_repeats(words[i], words[j]) for j in chosen)):
            continue
        chosen.append(i)
        taken[key] = taken.get(key, 0) + 1
    return chosen


def exchange_caps(units: Sequence[Unit], scale: float) -> dict[str, int]:
    """How many units each exchange may give: a few for a short exchange, more for a long
    autonomous run (growing with the square root of its units)."""
    sizes: dict[str, int] = {}
    for unit in units:
        sizes[unit.exchange] = sizes.get(unit.exchange, 0) + 1
    return {key: max(2, math.ceil(scale * math.sqrt(n))) for key, n in sizes.items()}


def _repeats(a: set[str], b: set[str]) -> bool:
    """Most of the shorter one's words are in the other: the same statement twice."""
    return bool(a and b) and len(a & b) >= 0.8 * min(len(a), len(b))


def from_dict(data: dict[str, Any]) -> Selector:
    """A selector from its JSON form; refuses weights trained on other features."""
    if data.get("features") != NAMES:
        raise ValueError("the selector weights were trained on other features; train them again")
    return Selector(np.array(data["weights"], dtype=np.float64), float(data["threshold"]), float(data["cap_scale"]),
                    float(data.get("pass_scale", math.inf)), np.array(data["kinds"], dtype=np.float64),
                    dict(data.get("info", {})))


@lru_cache(maxsize=1)
def shipped() -> Selector:
    """The selector shipped in ``resources/extraction/``."""
    from madohub_memory.core.resources import resources_dir

    return load(resources_dir() / "extraction" / MODEL_FILE)


def load(path: Path) -> Selector:
    return from_dict(json.loads(path.read_text(encoding="utf-8")))
