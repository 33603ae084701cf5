"""The three tiers a person sees per decision point: this session, the last 3, all time.

Tiers count every stored answer that has not expired (a transient one past its TTL),
one per answer, unweighted, so a person can check them against their own memory; decay
changes how much an answer weighs in the recommendation, not whether it happened. "Last 3
sessions" means the three most recent sessions in which this decision point came up.
Answers recorded without a session appear only under "all time".
"""

from __future__ import annotations

from collections.abc import Sequence

from madohub_memory.decisions.model import Observation

RECENT_SESSIONS = 3


def _count(observations: Sequence[Observation]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for obs in observations:
        counts[obs.choice] = counts.get(obs.choice, 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def recent_sessions(observations: Sequence[Observation], current: str | None = None) -> list[str]:
    """The last sessions (newest first) in which these observations were made."""
    latest: dict[str, float] = {}
    for obs in observations:
        if obs.session is not None:
            stamp = obs.at.timestamp()
            latest[obs.session] = max(latest.get(obs.session, stamp), stamp)
    ordered = sorted(latest, key=lambda s: latest[s], reverse=True)
    if current is not None and current not in ordered:
        ordered.insert(0, current)
    return ordered[:RECENT_SESSIONS]


def tiers(observations: Sequence[Observation], current: str | None = None) -> dict[str, dict[str, int]]:
    live = [o for o in observations if not o.expired]
    recent = set(recent_sessions(live, current))
    return {
        "session": _count([o for o in live if current is not None and o.session == current]),
        "recent": _count([o for o in live if o.session in recent]),
        "all": _count(live),
    }
