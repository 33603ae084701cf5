"""Property tests of the recommender (pure logic, no database)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from madohub_memory.decisions import decay, engine, stats
from madohub_memory.decisions.model import DecisionConfig, Observation

NOW = datetime(2026, 11, 1, 9, tzinfo=UTC)
CONFIG = DecisionConfig()
LEVEL_RANK = {name: i for i, name in enumerate(stats.LEVELS)}

option_sets = st.lists(st.sampled_from(list("ABCDEFG")), min_size=2, max_size=5, unique=True)


@st.composite
def histories(draw):
    offered = draw(option_sets)
    pool = offered + draw(st.lists(st.sampled_from(["X", "free text", "Z"]), max_size=2))
    choices = draw(st.lists(st.sampled_from(pool), max_size=40))
    ages = draw(st.lists(st.floats(0, 400), min_size=len(choices), max_size=len(choices)))
    transient = draw(st.lists(st.booleans(), min_size=len(choices), max_size=len(choices)))
    observations = [
        Observation(c, NOW - timedelta(days=a), session=f"s{i % 4}", transient=t)
        for i, (c, a, t) in enumerate(zip(choices, ages, transient, strict=True))
    ]
    return offered, decay.weigh_all(observations, NOW, CONFIG)


@given(histories(), st.booleans())
def test_never_recommends_an_option_not_offered(history, personalise):
    offered, observations = history
    rec = engine.recommend("Q?", offered, observations, CONFIG, personalise=personalise)
    assert rec.option in offered
    assert set(rec.distribution) == set(offered)


@st.composite
def counts_and_move(draw):
    k = draw(st.integers(2, 4))
    counts = draw(st.lists(st.integers(0, 15), min_size=k, max_size=k))
    return counts


def _observations(counts):
    return [Observation(f"O{i}", NOW) for i, c in enumerate(counts) for _ in range(c)]


@given(counts_and_move())
def test_more_consistent_history_never_lowers_confidence(counts):
    """Moving one choice from another option to the top one (same n) never lowers confidence."""
    options = [f"O{i}" for i in range(len(counts))]
    before = engine.recommend("Q?", options, _observations(counts), CONFIG)
    top = options.index(before.option)
    donors = [i for i, c in enumerate(counts) if c > 0 and i != top]
    if not donors:
        return
    moved = list(counts)
    moved[donors[0]] -= 1
    moved[top] += 1
    after = engine.recommend("Q?", options, _observations(moved), CONFIG)
    assert after.option == before.option or before.stage == "static"
    assert after.confidence >= before.confidence
    assert LEVEL_RANK[after.confidence_level] >= LEVEL_RANK[before.confidence_level]
    # and one more agreeing observation never lowers it either
    more = list(counts)
    more[top] += 1
    grown = engine.recommend("Q?", options, _observations(more), CONFIG)
    assert grown.confidence >= before.confidence


@given(histories(), st.lists(st.sampled_from(list("ABCDEFG")), max_size=15),
       st.floats(29, 365), st.floats(600, 5000))
def test_decayed_and_expired_observations_stop_counting(history, extra, transient_age, old_age):
    offered, observations = history
    base = engine.recommend("Q?", offered, observations, CONFIG)
    stale = [Observation(c, NOW - timedelta(days=transient_age), transient=True) for c in extra]
    ancient = [Observation(c, NOW - timedelta(days=old_age)) for c in extra]
    with_old = observations + decay.weigh_all(stale + ancient, NOW, CONFIG)
    after = engine.recommend("Q?", offered, with_old, CONFIG)
    assert (after.option, after.observations, after.share, after.stage) == (
        base.option, base.observations, base.share, base.stage)
    assert all(not o.counts and o.weight == 0 for o in decay.weigh_all(stale + ancient, NOW, CONFIG))


@given(st.floats(0, 3000), st.floats(0, 3000))
def test_weight_decays_monotonically(a, b):
    young, old = sorted((a, b))
    assert decay.weight(old, CONFIG) <= decay.weight(young, CONFIG) <= 1.0
