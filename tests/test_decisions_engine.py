"""Decision memory: the worked examples, labels, statistics and ask-or-decide."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from madohub_memory.core.errors import ValidationError
from madohub_memory.decisions import asking, engine, labels, stats
from madohub_memory.decisions.model import DecisionConfig, Observation

NOW = datetime(2026, 11, 1, 9, tzinfo=UTC)
TIERS = ["Tier S", "Tier M", "Tier L"]


def record_all(svc, question, options, choices, **kw):
    for choice in choices:
        svc.decisions.record(question, options, choice, **kw)


# -- the worked examples from the issue ----------------------------------------------------


def test_tier_example_recommends_m_with_60_percent_medium_high(svc):
    record_all(svc, "Which tier should this task get?", TIERS,
               ["Tier S"] * 3 + ["Tier M"] * 6 + ["Tier L"], session="s1")
    rec = svc.decisions.recommend("Which tier should this task get?", TIERS)
    assert rec["option"] == "Tier M"
    assert rec["share"] == pytest.approx(0.6)
    assert rec["confidence_level"] == "medium-high"
    assert rec["stage"] == "partial"
    assert rec["label"] == "Tier M (Recommended) — 60% of recent choices"
    assert rec["disclosure"] is None
    assert rec["text"].startswith("Tier M (Recommended) — 60% of recent choices")


def test_tdd_example_recommends_tdd_at_medium(svc):
    record_all(svc, "Which approach?", ["TDD", "DDD", "other"], ["TDD"] * 5 + ["DDD"] * 4 + ["other"])
    rec = svc.decisions.recommend("Which approach?", ["TDD", "DDD", "other"])
    assert rec["option"] == "TDD"
    assert rec["share"] == pytest.approx(0.5)
    assert rec["confidence_level"] == "medium"
    assert "50% of recent choices" in rec["label"]


def test_short_of_threshold_gives_static_default_with_disclosure(svc):
    # 4 choices: one short of N = 5. The user picked Merge 3 times, but that is not enough yet
    # (the default was chosen once; one the user always turned down is never recommended:
    # see test_decisions_free_text.py).
    record_all(svc, "Commit style?", ["Squash (Recommended)", "Merge", "Rebase"], ["Squash"] + ["Merge"] * 3)
    rec = svc.decisions.recommend("Commit style?", ["Squash", "Merge", "Rebase"])
    assert rec["option"] == "Squash"  # the asker's marked default, remembered from last time
    assert rec["stage"] == "static"
    assert rec["disclosure"] == "based on static default, 5 observations needed for personalization"
    assert "based on static default, 5 observations needed for personalization" in rec["text"]
    assert rec["confidence_level"] == "none"
    svc.decisions.record("Commit style?", ["Squash", "Merge", "Rebase"], "Merge")
    rec = svc.decisions.recommend("Commit style?", ["Squash", "Merge", "Rebase"])
    assert rec["option"] == "Merge" and rec["stage"] == "partial"


def test_above_m_strong_only_when_significant(svc):
    opts = ["A", "B", "C"]
    record_all(svc, "Strong?", opts, ["A"] * 18 + ["B"] * 5 + ["C"] * 2)
    rec = svc.decisions.recommend("Strong?", opts)
    assert rec["stage"] == "strong" and rec["confidence_level"] == "high"
    assert rec["test"]["p_value"] < 0.05 and "binomial" in rec["test"]["name"]
    record_all(svc, "Weak?", opts, ["A"] * 9 + ["B"] * 7 + ["C"] * 5)
    rec = svc.decisions.recommend("Weak?", opts)
    assert rec["observations"] == 21
    assert rec["option"] == "A" and rec["stage"] == "partial"
    assert rec["test"]["p_value"] >= 0.05 and rec["confidence_level"] != "high"


def test_precondition_comes_from_shared_context(svc):
    for i, choice in enumerate(["B"] * 4 + ["A"]):
        svc.decisions.record("Q?", ["A", "B"], choice, context={"workflow": "spec", "phase": "design",
                                                               "ticket": str(i)})
    rec = svc.decisions.recommend("Q?", ["A", "B"], context={"phase": "review"})
    assert rec["precondition"] == "Recommended when phase=design and workflow=spec"
    assert rec["context_mismatch"] == ["phase"]
    assert rec["precondition"] in rec["text"]


def test_strength_adapts_to_expertise(svc):
    record_all(svc, "Q?", ["A", "B"], ["A"] * 6, session="s0")
    novice = svc.decisions.recommend("Q?", ["A", "B"])
    assert novice["strength"] == "strong" and "Why:" in novice["text"]
    for i in range(1, 12):
        svc.decisions.record("Other?", ["X", "Y"], "X", session=f"s{i}")
    medium = svc.decisions.recommend("Q?", ["A", "B"])
    assert medium["strength"] == "medium" and "Why:" not in medium["text"]
    assert medium["text"].startswith("A (Recommended) — 100% of recent choices")
    for i in range(12, 52):
        svc.decisions.record("Other?", ["X", "Y"], "X", session=f"s{i}")
    expert = svc.decisions.recommend("Q?", ["A", "B"])
    assert expert["strength"] == "weak" and expert["expertise"] == "expert"
    assert expert["text"].startswith("A.") and "(Recommended)" not in expert["text"]
    assert "Recommended when" in expert["text"]


def test_personalisation_off_for_this_session_only(svc, db_path, clock):
    from madohub_memory.services import Services

    record_all(svc, "Q?", ["A", "B"], ["B"] * 6)
    svc.decisions.set_personalisation(False)
    rec = svc.decisions.recommend("Q?", ["A", "B"])
    assert rec["option"] == "A" and rec["basis"] == "personalisation_off"
    with Services.open(db_path, clock) as other:  # another session: not affected, nothing persisted
        assert other.decisions.recommend("Q?", ["A", "B"])["option"] == "B"
    svc.decisions.set_personalisation(True)
    assert svc.decisions.recommend("Q?", ["A", "B"])["option"] == "B"


# -- labels and keys ----------------------------------------------------------------------


def test_recommended_suffixes_are_stripped():
    assert labels.split_label("All four (Recommended)") == ("All four", True)
    assert labels.split_label("方案A（推荐）") == ("方案A", True)
    assert labels.split_label("Tier M (recommended) ") == ("Tier M", True)
    assert labels.split_label("Plain") == ("Plain", False)
    opts, default = labels.normalise_options(["A (Recommended)", "B", "a"])
    assert opts == ["A", "B"] and default == "A"


def test_point_key_ignores_order_marker_and_case():
    k1 = labels.point_key("Which tier?", ["S", "M (Recommended)", "L"])
    assert k1 == labels.point_key("which tier", ["L", "S", "M"])
    assert k1 != labels.point_key("Which tier?", ["S", "M"])
    assert labels.point_key("anything", ["A", "B"], key="tier") == labels.point_key("other", ["X", "Y"], key="tier")


@pytest.mark.parametrize("options", [["A"], ["A", "a"], ["", "B"]])
def test_bad_options_are_rejected(options):
    with pytest.raises(ValidationError):
        labels.normalise_options(options)


def test_bad_input_stores_nothing(svc):
    with pytest.raises(ValidationError, match="not one of the options"):
        svc.decisions.record("Q?", ["A", "B"], "C")
    with pytest.raises(ValidationError):
        svc.decisions.record("  ", ["A", "B"], "A")
    with pytest.raises(ValidationError):
        svc.decisions.record("Q?", ["A", "B"], "A", context={"k": [1, 2]})
    assert svc.decisions.stats()["records"] == 0


# -- statistics ---------------------------------------------------------------------------


def test_binomial_tail_matches_hand_computation():
    # P[X >= 9], X ~ Bin(10, 0.5) = (10 + 1) / 1024
    assert stats.binomial_sf(9, 10, 0.5) == pytest.approx(11 / 1024)
    assert stats.binomial_sf(0, 10, 0.3) == 1.0
    assert stats.binomial_sf(2000, 4000, 0.5) == pytest.approx(0.5, abs=0.01)  # no overflow


def test_free_text_answers_count_but_are_never_recommended():
    config = DecisionConfig()
    observations = [Observation("Something else", NOW)] * 8 + [Observation("B", NOW)] * 2
    rec = engine.recommend("Q?", ["A", "B"], observations, config)
    assert rec.option == "B" and rec.share == pytest.approx(0.2)


# -- ask or decide ------------------------------------------------------------------------


def test_ask_near_half_decide_near_certain():
    config = DecisionConfig()
    assert asking.action(0.5, config) == "ask"
    assert asking.action(0.95, config) == "decide"
    assert asking.action(0.03, config) == "decide"
    assert asking.action(0.75, config) == "suggest"
    assert asking.action(0.75, DecisionConfig(ask_band=0.3)) == "ask"  # thresholds configurable
    assert asking.fisher_information(0.5) == 0.25


def test_several_questions_ordered_by_information_gain(svc):
    record_all(svc, "Certain?", ["A", "B"], ["A"] * 30)
    record_all(svc, "Split?", ["A", "B"], ["A", "B"] * 5)
    record_all(svc, "Lean?", ["A", "B"], ["A"] * 8 + ["B"] * 2)
    ordered = svc.decisions.triage([
        {"question": "Certain?", "options": ["A", "B"]},
        {"question": "Lean?", "options": ["A", "B"]},
        {"question": "Split?", "options": ["A", "B"]},
    ])
    assert [r["question"] for r in ordered] == ["Split?", "Lean?", "Certain?"]
    assert ordered[-1]["action"] == "decide" and ordered[0]["action"] == "ask"


def test_threshold_settings_are_used(svc):
    svc.settings.set("decisions.min_observations", 3)
    record_all(svc, "Q?", ["A", "B"], ["B"] * 3)
    assert svc.decisions.recommend("Q?", ["A", "B"])["option"] == "B"


def test_tie_goes_to_the_most_recent_choice(svc, clock):
    for choice in ["A", "B", "A", "B", "B", "A"]:  # 3:3 at one instant, A recorded last
        svc.decisions.record("Tie?", ["A", "B"], choice)
    assert svc.decisions.recommend("Tie?", ["A", "B"])["option"] == "A"
    for choice in ["B", "A", "A", "B", "B", "A"]:
        svc.decisions.record("Tie2?", ["A", "B"], choice)
    assert svc.decisions.recommend("Tie2?", ["A", "B"])["option"] == "A"
    clock.advance(days=1)
    svc.decisions.record("Tie2?", ["A", "B"], "B")
    svc.decisions.record("Tie2?", ["A", "B"], "A")  # 4:4 in count, equal recent weight, A last
    assert svc.decisions.recommend("Tie2?", ["A", "B"])["option"] == "A"
    svc.decisions.record("Tie2?", ["A", "B"], "B")  # 5:4
    assert svc.decisions.recommend("Tie2?", ["A", "B"])["option"] == "B"
