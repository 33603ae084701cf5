"""The recommendation: what the user keeps choosing, and how sure we are.

Three stages by the number n of observations that still count:

* n < N: the static default (the option the asker marked "(Recommended)", else the
  first one), with the disclosure "based on static default, N observations needed for
  personalization".
* N <= n <= M, or n > M without significance: the observed (decay-weighted) majority,
  with a confidence signal = share x evidence(n) (see :mod:`.stats`).
* n > M and the majority significant at 95% (:data:`.stats.TEST_NAME`): strong.

The recommended option is always one of the options offered now: a free-text answer or
an option that is no longer offered counts in the denominator but is never named. An
option that every counted observation turned down is never recommended: below N the
option actually chosen is named instead (``early_choice``); when every answer was the
user's own, nothing is recommended and the action is ``ask`` (``own_answer``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from madohub_memory.decisions import asking, precondition, stats
from madohub_memory.decisions.model import DecisionConfig, Observation

STATIC_DISCLOSURE = "based on static default, {n} observations needed for personalization"
OFF_DISCLOSURE = "personalisation is switched off for this session; static default"


@dataclass
class Recommendation:
    question: str
    options: list[str]
    option: str
    stage: str  # static | partial | strong
    basis: str  # static_default | personalisation_off | observed_majority | significant_majority
    observations: int
    effective_observations: float
    share: float | None
    confidence: float
    confidence_level: str
    strength: str  # weak | medium | strong (by the user's expertise)
    expertise: str  # expert | intermediate | novice
    precondition: str
    label: str
    text: str
    disclosure: str | None = None
    test: dict[str, Any] | None = None
    distribution: dict[str, float] = field(default_factory=dict)
    p: float | None = None
    action: str = "ask"
    fisher_information: float = 0.25
    information_gain: float = 0.0
    context_mismatch: list[str] = field(default_factory=list)
    shared_context: dict[str, Any] = field(default_factory=dict)  # what the precondition names

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def expertise(sessions: int, config: DecisionConfig) -> tuple[str, str]:
    """``(expertise, strength)``: experts get a weak nudge, novices a strong, explained one."""
    if sessions > config.expert_sessions:
        return "expert", "weak"
    if sessions < config.novice_sessions:
        return "novice", "strong"
    return "intermediate", "medium"


def _weighted_counts(observations: Sequence[Observation]) -> tuple[dict[str, float], float, int]:
    counts: dict[str, float] = {}
    total = 0.0
    n = 0
    for obs in observations:
        if not obs.counts:
            continue
        counts[obs.choice] = counts.get(obs.choice, 0.0) + obs.weight
        total += obs.weight
        n += 1
    return counts, total, n


def _top(counts: Mapping[str, float], options: Sequence[str], default: str,
         observations: Sequence[Observation]) -> str:
    """The offered option with the largest weight; ties go to the most recent choice, then the default."""
    best = max((counts.get(o, 0.0) for o in options), default=0.0)
    tied = [o for o in options if counts.get(o, 0.0) >= best - 1e-9]
    if len(tied) == 1:
        return tied[0]
    live = [(obs.at, index, obs.choice) for index, obs in enumerate(observations) if obs.counts]
    for _, _, choice in sorted(live, reverse=True):  # newest first; input order breaks time ties
        if choice in tied:
            return choice
    return default if default in tied else tied[0]


def recommend(
    question: str,
    options: Sequence[str],
    observations: Sequence[Observation],
    config: DecisionConfig,
    *,
    default: str | None = None,
    sessions: int = 0,
    personalise: bool = True,
    query_context: Mapping[str, Any] | None = None,
) -> Recommendation:
    """Recommend one of ``options`` from weighed ``observations`` (see :func:`.decay.weigh`)."""
    options = list(options)
    static_option = default if default in options else options[0]
    counts, total, n = _weighted_counts(observations)
    level_of_user, strength = expertise(sessions, config)
    live = [o for o in observations if o.counts]
    shared = precondition.shared_context(o.context for o in live)
    offered_counts = {o: counts.get(o, 0.0) for o in options}
    predictive = asking.smoothed(offered_counts, options)
    distribution = {o: (offered_counts[o] / total if total else 0.0) for o in options}

    offered_weight = sum(offered_counts.values())
    if personalise and n and offered_weight <= 0:
        return _own_answers(question, options, static_option, n, total, level_of_user, strength,
                            distribution, predictive, query_context)
    if personalise and n < config.min_observations and counts.get(static_option, 0.0) <= 0:
        return _early_choice(question, options, observations, counts, static_option, n, total, config,
                             level_of_user, strength, distribution, predictive, query_context)

    if not personalise or n < config.min_observations:
        disclosure = (OFF_DISCLOSURE if not personalise
                      else STATIC_DISCLOSURE.format(n=config.min_observations))
        pre = (precondition.describe({}, static=True, query=query_context) if personalise
               else "Recommended when personalisation is switched off (the asker's default)")
        label = f"{static_option} (Recommended) — {disclosure}"
        reason = f"{n} of {config.min_observations} observations recorded so far" if personalise else None
        text = _text(strength, static_option, label, pre, reason=reason, disclosure=disclosure)
        return Recommendation(
            question=question, options=options, option=static_option, stage="static",
            basis="static_default" if personalise else "personalisation_off",
            observations=n, effective_observations=round(total, 3), share=None, confidence=0.0,
            confidence_level="none", strength=strength, expertise=level_of_user, precondition=pre,
            label=label, text=text, disclosure=disclosure, distribution=distribution, p=None,
            action="ask", fisher_information=0.25,
            information_gain=asking.information_gain(predictive),
        )

    top = _top(counts, options, static_option, observations)
    share = counts.get(top, 0.0) / total if total else 0.0
    score = stats.confidence_score(share, total, config.min_observations)
    test = None
    significant = False
    if n > config.strong_observations:
        p_value = stats.top_option_p_value(counts.get(top, 0.0), total, len(options))
        significant = p_value < config.alpha
        test = {"name": stats.TEST_NAME, "p_value": p_value, "alpha": config.alpha,
                "significant": significant, "k": len(options),
                "count": round(counts.get(top, 0.0)), "n": round(total)}
    level = stats.confidence_level(score, significant)
    pre = precondition.describe(shared, static=False)
    pct = round(100 * share)
    label = f"{top} (Recommended) — {pct}% of recent choices"
    reason = (f"you chose {top} in {pct}% of your {n} recent decisions here "
              f"({level} confidence" + (", statistically significant" if significant else "") + ")")
    p = predictive[top]
    return Recommendation(
        question=question, options=options, option=top,
        stage="strong" if significant else "partial",
        basis="significant_majority" if significant else "observed_majority",
        observations=n, effective_observations=round(total, 3), share=round(share, 4),
        confidence=round(score, 4), confidence_level=level, strength=strength,
        expertise=level_of_user, precondition=pre, label=label, shared_context=dict(shared),
        text=_text(strength, top, label, pre, reason=reason), test=test,
        distribution={o: round(v, 4) for o, v in distribution.items()}, p=round(p, 4),
        action=asking.action(p, config), fisher_information=round(asking.fisher_information(p), 4),
        information_gain=round(asking.information_gain(predictive), 4),
        context_mismatch=precondition.mismatches(shared, query_context),
    )


def _early_choice(
    question: str, options: list[str], observations: Sequence[Observation], counts: Mapping[str, float],
    static_option: str, n: int, total: float, config: DecisionConfig, level_of_user: str, strength: str,
    distribution: dict[str, float], predictive: dict[str, float], query_context: Mapping[str, Any] | None,
) -> Recommendation:
    """Too few observations to personalise, but every one turned the static default down:
    recommending it would go against the only evidence there is, so name what was chosen."""
    top = _top(counts, options, static_option, observations)
    share = counts.get(top, 0.0) / total if total else 0.0
    disclosure = (f"based on {n} observation{'s' if n != 1 else ''}, which turned down the static default "
                  f"{static_option!r}; {config.min_observations} needed for personalization")
    pre = "Recommended when you chose it before (too few observations to personalise)"
    label = f"{top} (Recommended) — {disclosure}"
    text = _text(strength, top, label, pre, reason=f"you chose {top} when last asked", disclosure=disclosure)
    return Recommendation(
        question=question, options=options, option=top, stage="static", basis="early_choice",
        observations=n, effective_observations=round(total, 3), share=round(share, 4), confidence=0.0,
        confidence_level="none", strength=strength, expertise=level_of_user, precondition=pre,
        label=label, text=text, disclosure=disclosure, distribution=distribution, p=None,
        action="suggest", fisher_information=0.25, information_gain=asking.information_gain(predictive),
        context_mismatch=precondition.mismatches({}, query_context),
    )


def _own_answers(
    question: str, options: list[str], static_option: str, n: int, total: float, level_of_user: str,
    strength: str, distribution: dict[str, float], predictive: dict[str, float],
    query_context: Mapping[str, Any] | None,
) -> Recommendation:
    """Every counted answer was the user's own, none of the offered options: recommend none, ask.

    ``option`` still names an offered option (callers rely on it), but the action is ``ask``
    and the text says that nothing is recommended."""
    disclosure = (f"the user answered in their own words {n} time{'s' if n != 1 else ''}, "
                  "not with any offered option")
    pre = "Ask: no offered option has been chosen here"
    label = f"No recommendation — {disclosure}"
    return Recommendation(
        question=question, options=options, option=static_option, stage="static", basis="own_answer",
        observations=n, effective_observations=round(total, 3), share=0.0, confidence=0.0,
        confidence_level="none", strength=strength, expertise=level_of_user, precondition=pre,
        label=label, text=f"{label}. {pre}.", disclosure=disclosure, distribution=distribution, p=None,
        action="ask", fisher_information=0.25, information_gain=asking.information_gain(predictive),
        context_mismatch=precondition.mismatches({}, query_context),
    )


def _text(strength: str, option: str, label: str, pre: str, reason: str | None,
          disclosure: str | None = None) -> str:
    """What a person sees: experts only the inferred preference, novices label and reason."""
    if strength == "weak":
        note = f" — {disclosure}" if disclosure else ""
        return f"{option}{note}. {pre}."
    if strength == "strong" and reason:
        return f"{label}. Why: {reason}. {pre}."
    return f"{label}. {pre}."
