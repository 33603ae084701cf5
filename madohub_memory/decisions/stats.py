"""The statistics behind a recommendation: shares, the confidence signal and the test.

Significance test (used above M observations): an exact one-sided binomial test of the
top option's count x out of n against chance, H0: every one of the k offered options is
equally likely (p0 = 1/k), H1: the top option is preferred. Because the top option is
picked after looking at the data, the p-value is Bonferroni-adjusted for the k options:
p = min(1, k * P[X >= x]), X ~ Binomial(n, 1/k). Counts are decay-weighted and rounded to
whole observations, so old choices weigh less as evidence too. For two options this is
the sign test.
"""

from __future__ import annotations

import math

TEST_NAME = (
    "exact one-sided binomial test of the top option's share against chance (1/k), "
    "Bonferroni-adjusted for the k options"
)


def binomial_sf(x: int, n: int, p: float) -> float:
    """P[X >= x] for X ~ Binomial(n, p), computed in log space (exact, no overflow)."""
    if x <= 0:
        return 1.0
    if x > n:
        return 0.0
    if p <= 0.0:
        return 0.0
    if p >= 1.0:
        return 1.0
    log_p, log_q = math.log(p), math.log1p(-p)
    terms = [
        math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) + i * log_p + (n - i) * log_q
        for i in range(x, n + 1)
    ]
    top = max(terms)
    return min(1.0, math.exp(top) * sum(math.exp(t - top) for t in terms))


def top_option_p_value(top_count: float, total: float, k: int) -> float:
    """Adjusted p-value that the top of ``k`` options is chosen more often than chance."""
    n = round(total)
    x = min(n, round(top_count))
    if n <= 0 or k < 2:
        return 1.0
    return min(1.0, k * binomial_sf(x, n, 1.0 / k))


def evidence(n_effective: float, min_observations: int) -> float:
    """How much the number of observations supports a conclusion, 0..1 (saturating)."""
    return 1.0 - math.exp(-max(0.0, n_effective) / max(1, min_observations))


def confidence_score(share: float, n_effective: float, min_observations: int) -> float:
    """Observations x consistency: the top option's share times the evidence factor."""
    return max(0.0, min(1.0, share)) * evidence(n_effective, min_observations)


LEVELS = ("none", "low", "medium", "medium-high", "high")


def confidence_level(score: float, significant: bool) -> str:
    """Named level: "high" is reserved for a majority that passed the significance test."""
    if significant:
        return "high"
    if score >= 0.5:
        return "medium-high"
    if score >= 0.3:
        return "medium"
    return "low"


def entropy(probabilities: list[float]) -> float:
    """Expected information (bits) gained by asking, under the predicted answer distribution."""
    return -sum(p * math.log2(p) for p in probabilities if p > 0)
