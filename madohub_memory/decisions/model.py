"""Decision records, observations and the tunable thresholds.

A *record* is what was stored (one answer to one question); an *observation* is a
record as the recommender sees it at a given moment: its decay weight and whether it
still counts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any


@dataclass(frozen=True)
class DecisionConfig:
    """Thresholds of the recommender (defaults follow DESIGN.md; settings override them)."""

    min_observations: int = 5  # N: below this, the static default
    strong_observations: int = 20  # M: above this, a strong recommendation needs significance
    alpha: float = 0.05  # significance level of the binomial test
    decay_scale_days: float = 30.0  # power law: w = (1 + age / scale) ** -decay_exponent
    decay_exponent: float = 1.0
    weight_floor: float = 0.05  # below this weight an observation stops counting (~570 days)
    transient_ttl_days: float = 28.0  # transient observations expire after this many days
    auto_resolve_p: float = 0.9  # decide without asking when p >= this (or p <= 1 - this)
    ask_band: float = 0.15  # ask when |p - 0.5| <= this
    expert_sessions: int = 50  # more than this: expert, weak recommendation
    novice_sessions: int = 10  # fewer than this: novice, strong recommendation


@dataclass(frozen=True)
class Observation:
    """One past choice at a decision point, as the recommender weighs it."""

    choice: str  # an offered label, or the user's free-text answer
    at: datetime
    session: str | None = None
    transient: bool = False
    context: dict[str, Any] = field(default_factory=dict)
    weight: float = 1.0
    counts: bool = True  # False once expired or decayed below the floor
    expired: bool = False  # a transient observation past its TTL


TIERS = ("session", "recent", "all")
TIER_TITLES = {"session": "current session", "recent": "last 3 sessions", "all": "all time"}
