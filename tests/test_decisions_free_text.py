"""AskUserQuestion answered in the user's own words: mapped to the option it means, or kept
as the user's own answer, and never a recommendation of the option the user turned down."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from madohub_memory.decisions import engine
from madohub_memory.decisions.free_text import match_free_text
from madohub_memory.decisions.model import DecisionConfig, Observation
from madohub_memory.services import Services

NOW = datetime(2026, 11, 1, 9, tzinfo=UTC)
QUESTION = "The pre-commit hook fails on issues that were already on main. How should I proceed?"
SKIP = "Skip hook (--no-verify)"
FIX = "Fix pre-existing issues"
OPTIONS = [
    {"label": f"{SKIP} (Recommended)", "description": "Commit with --no-verify; the findings predate this change"},
    {"label": FIX, "description": "Fix the lint findings first, then commit normally"},
]


def _session(tmp_path: Path, answer: str, tool_id: str = "toolu_01") -> Path:
    """A Claude Code transcript with one AskUserQuestion call and a typed (free-text) answer."""
    base = {"isSidechain": False, "userType": "external", "cwd": "/home/ana/src/shop",
            "sessionId": "s-1", "version": "2.1.39", "gitBranch": "main"}
    ask = {**base, "type": "assistant", "uuid": "a1", "timestamp": "2026-10-30T10:00:00.000Z",
           "message": {"id": "m1", "role": "assistant", "content": [
               {"type": "tool_use", "id": tool_id, "name": "AskUserQuestion",
                "input": {"questions": [{"question": QUESTION, "header": "Hook", "multiSelect": False,
                                         "options": OPTIONS}]}}]}}
    reply = {**base, "type": "user", "uuid": "u2", "timestamp": "2026-10-30T10:01:00.000Z",
             "message": {"role": "user", "content": [
                 {"type": "tool_result", "tool_use_id": tool_id,
                  "content": f'User has answered your questions: "{QUESTION}"="{answer}". You can now continue.'}]},
             "toolUseResult": {"questions": [], "answers": {QUESTION: answer}}}
    path = tmp_path / "session.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in (ask, reply)) + "\n", encoding="utf-8")
    return path


def _stored_choices(svc: Services) -> list[str]:
    return [r[0] for r in svc.store.query("SELECT user_choice FROM decisions ORDER BY timestamp")]


def test_free_text_answer_maps_to_the_option_it_means_and_that_option_is_recommended(
    svc: Services, tmp_path: Path
) -> None:
    assert svc.decisions.capture_transcript(_session(tmp_path, "main was clean; fix the issues")) == 1
    assert _stored_choices(svc) == [FIX]  # not a third option
    rec = svc.decisions.recommend(QUESTION, [f"{SKIP} (Recommended)", FIX])
    assert rec["option"] == FIX
    assert rec["label"].startswith(f"{FIX} (Recommended)")
    assert rec["basis"] == "early_choice" and "turned down the static default" in rec["label"]


def test_unmatched_free_text_is_the_users_own_answer_and_nothing_is_recommended(
    svc: Services, tmp_path: Path
) -> None:
    svc.decisions.capture_transcript(_session(tmp_path, "Neither: let me look at it tomorrow"))
    assert _stored_choices(svc) == ["Neither: let me look at it tomorrow"]
    rec = svc.decisions.recommend(QUESTION, [f"{SKIP} (Recommended)", FIX])
    assert rec["basis"] == "own_answer" and rec["action"] == "ask"
    assert rec["label"].startswith("No recommendation") and "(Recommended)" not in rec["label"]
    assert rec["option"] in (SKIP, FIX)  # still an offered option for callers, but not recommended


def test_a_hook_payload_with_free_text_is_mapped_too(svc: Services) -> None:
    tool_input = {"questions": [{"question": QUESTION, "options": OPTIONS, "multiSelect": False}]}
    assert svc.decisions.capture_tool_call(tool_input, {"answers": {QUESTION: "don't skip the hook"}},
                                           ref="hook:s:t1", session="s") == 1
    assert _stored_choices(svc) == [FIX]


def test_an_explicit_record_stays_strict(svc: Services) -> None:
    from madohub_memory.core.errors import ValidationError

    with pytest.raises(ValidationError, match="not one of the options"):
        svc.decisions.record(QUESTION, [SKIP, FIX], "fix the issues")


def test_the_static_default_that_the_only_observation_rejected_is_never_recommended() -> None:
    config = DecisionConfig()
    rec = engine.recommend("Q?", ["A", "B"], [Observation("B", NOW)], config, default="A")
    assert rec.option == "B" and rec.basis == "early_choice"
    kept = engine.recommend("Q?", ["A", "B"], [Observation("A", NOW), Observation("B", NOW)], config, default="A")
    assert kept.option == "A" and kept.basis == "static_default"  # A was chosen once: the design's default stands
    own = engine.recommend("Q?", ["A", "B"], [Observation("something else", NOW)] * 6, config, default="A")
    assert own.basis == "own_answer" and own.action == "ask"
    off = engine.recommend("Q?", ["A", "B"], [Observation("B", NOW)], config, default="A", personalise=False)
    assert off.option == "A"  # personalisation switched off: the asker's default, as requested


@pytest.mark.parametrize(("answer", "expected"), [
    ("main was clean; fix the issues", FIX),
    ("no, fix them first", FIX),
    ("don't skip the hook", FIX),
    ("just skip it this time", SKIP),
    ("use --no-verify", SKIP),
    ("Fix pre-existing issues, please", FIX),
    ("let us talk about it tomorrow", None),
    ("neither, I will do it myself", None),
])
def test_words_and_negation(answer: str, expected: str | None) -> None:
    descriptions = {o["label"].replace(" (Recommended)", ""): o["description"] for o in OPTIONS}
    assert match_free_text(answer, [SKIP, FIX], descriptions).option == expected


def test_chinese_answers() -> None:
    options = ["跳过钩子", "修复已有问题"]
    assert match_free_text("别跳过，先修复问题", options).option == "修复已有问题"
    assert match_free_text("这次就跳过钩子吧", options).option == "跳过钩子"
    assert match_free_text("我明天再看", options).option is None


def test_embedding_similarity_decides_only_without_negation() -> None:
    def similarity(_text: str, _others: object) -> list[float]:
        return [0.9, 0.1]  # the model would pick the first option

    options = ["Postgres", "SQLite"]
    assert match_free_text("the relational server one", options, similarity=similarity).option == "Postgres"
    assert match_free_text("not the relational server one", options, similarity=similarity).option is None


def test_real_dev_transcript_answers_are_unchanged(svc: Services, eval_dev: Path) -> None:
    svc.decisions.capture_transcript(eval_dev / "claude_code" / "subagent.jsonl")
    assert set(_stored_choices(svc)) >= {"No rig", "Credo + Dialyxir + mix_audit"}


def test_dashboard_names_the_earlier_choice_not_the_turned_down_default(qtbot, svc: Services, tmp_path: Path) -> None:
    pytest.importorskip("PySide6")
    from madohub_memory.gui.decisions_view import COL_PRECONDITION, DecisionsView

    svc.decisions.capture_transcript(_session(tmp_path, "main was clean; fix the issues"))
    view = DecisionsView()
    qtbot.addWidget(view)
    view.set_points(svc.decisions.points())
    item = view.tree.topLevelItem(0)
    view.tree.setCurrentItem(item)
    assert f"{FIX} (Recommended) — your earlier choice" in view.detail.text()
    assert SKIP not in view.detail.text()
    assert item.text(COL_PRECONDITION).startswith("Recommended when you chose it before")
