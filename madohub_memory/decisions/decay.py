"""Power-law decay of past choices and the 28-day expiry of transient ones.

A power law (rather than an exponential) keeps an old, often-repeated habit visible for
months while letting this week's choices dominate: weight = (1 + age/scale) ** -k. An
observation whose weight falls below ``weight_floor``, or a transient one older than its
TTL, stops counting altogether.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from madohub_memory.decisions.model import DecisionConfig, Observation


def age_days(at: datetime, now: datetime) -> float:
    return max(0.0, (now - at).total_seconds() / 86400.0)


def weight(age: float, config: DecisionConfig) -> float:
    return (1.0 + max(0.0, age) / config.decay_scale_days) ** (-config.decay_exponent)


def is_expired(obs: Observation, now: datetime, config: DecisionConfig) -> bool:
    return obs.transient and age_days(obs.at, now) > config.transient_ttl_days


def weigh(obs: Observation, now: datetime, config: DecisionConfig) -> Observation:
    """The observation with its weight at ``now`` and whether it still counts."""
    w = weight(age_days(obs.at, now), config)
    expired = is_expired(obs, now, config)
    counts = w >= config.weight_floor and not expired
    return replace(obs, weight=w if counts else 0.0, counts=counts, expired=expired)


def weigh_all(observations: list[Observation], now: datetime, config: DecisionConfig) -> list[Observation]:
    return [weigh(o, now, config) for o in observations]
