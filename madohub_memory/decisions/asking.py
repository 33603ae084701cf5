"""Ask or decide: only put a question to the user when the answer is genuinely uncertain.

With the predicted probability p of the top option, a question whose answer is near
certain (p near 1, or near 0 for a yes/no prediction) is resolved automatically; one
near p = 0.5, where the Fisher information p(1-p) of a Bernoulli answer is maximal, is
asked. Several questions are ordered by the expected information gain of asking, the
entropy of the predicted answer distribution, most informative first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from madohub_memory.decisions.model import DecisionConfig
from madohub_memory.decisions.stats import entropy


def smoothed(counts: Mapping[str, float], options: Sequence[str]) -> dict[str, float]:
    """Predictive distribution over the offered options (Laplace add-one on weighted counts)."""
    total = sum(counts.get(o, 0.0) for o in options) + len(options)
    return {o: (counts.get(o, 0.0) + 1.0) / total for o in options}


def fisher_information(p: float) -> float:
    return p * (1.0 - p)


def action(p: float | None, config: DecisionConfig) -> str:
    """``decide`` (resolve automatically), ``ask`` (most informative) or ``suggest`` (ask, pre-selected)."""
    if p is None:
        return "ask"
    if p >= config.auto_resolve_p or p <= 1.0 - config.auto_resolve_p:
        return "decide"
    if abs(p - 0.5) <= config.ask_band:
        return "ask"
    return "suggest"


def information_gain(distribution: Mapping[str, float]) -> float:
    return entropy(list(distribution.values()))


def order_questions(items: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Questions to ask first: highest expected information gain, then Fisher information.

    Each item carries ``information_gain``, ``fisher_information`` and ``action``; items to
    ``decide`` go last (they need no question), and the original order breaks ties.
    """
    indexed = list(enumerate(items))
    indexed.sort(
        key=lambda pair: (
            pair[1].get("action") == "decide",
            -float(pair[1].get("information_gain") or 0.0),
            -float(pair[1].get("fisher_information") or 0.0),
            pair[0],
        )
    )
    return [dict(item) for _, item in indexed]
