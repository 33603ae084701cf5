"""Decision memory against a real database file: capture, decay, the scan gate, proposals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from madohub_memory.core.errors import NotFoundError
from madohub_memory.services import Services

pytestmark = pytest.mark.both_backends


def _ask(tool_id: str, questions: list[dict], session: str = "sess-1", ts: str = "2026-10-30T10:00:00.000Z") -> str:
    return json.dumps({
        "type": "assistant", "sessionId": session, "cwd": "/home/u/projects/shop", "timestamp": ts,
        "uuid": f"u-{tool_id}",
        "message": {"role": "assistant", "content": [
            {"type": "tool_use", "id": tool_id, "name": "AskUserQuestion", "input": {"questions": questions}},
        ]},
    })


def _answer(tool_id: str, answers: dict | str, session: str = "sess-1", is_error: bool = False,
            ts: str = "2026-10-30T10:01:00.000Z") -> str:
    text = ", ".join(f'"{q}"="{a}"' for q, a in answers.items()) if isinstance(answers, dict) else answers
    record = {
        "type": "user", "sessionId": session, "timestamp": ts, "uuid": f"r-{tool_id}",
        "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": tool_id, "is_error": is_error,
             "content": f"User has answered your questions: {text}."},
        ]},
    }
    if isinstance(answers, dict):
        record["toolUseResult"] = {"questions": [], "answers": answers}
    else:
        record["toolUseResult"] = answers
    return json.dumps(record, ensure_ascii=False)


Q_TIER = {"question": "Which tier?", "header": "Tier", "multiSelect": False,
          "options": [{"label": "Tier S"}, {"label": "Tier M (Recommended)"}, {"label": "Tier L"}]}
Q_LANG = {"question": "用哪种测试方式？", "header": "测试", "multiSelect": False,
          "options": [{"label": "TDD（推荐）"}, {"label": "DDD"}]}


@pytest.fixture
def transcript(tmp_path: Path) -> Path:
    lines = [
        _ask("t1", [Q_TIER, Q_LANG]),
        _answer("t1", {"Which tier?": "Tier M (Recommended)", "用哪种测试方式？": "DDD"}),
        _ask("t2", [Q_TIER]),
        _answer("t2", "User rejected tool use", is_error=True),  # not a decision
        _ask("t3", [Q_TIER], session="sess-2"),
        json.dumps({"type": "user", "sessionId": "sess-2", "timestamp": "2026-10-31T08:00:00.000Z",
                    "message": {"role": "user", "content": [
                        {"type": "tool_result", "tool_use_id": "t3",
                         "content": 'User has answered your questions: "Which tier?"="Tier L".'}]}}),
        '{"type": "user", "message": ',  # a torn last line of a live file
    ]
    path = tmp_path / "session.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_capture_small_transcript(svc, transcript):
    assert svc.decisions.capture_transcript(transcript) == 3
    assert svc.decisions.capture_transcript(transcript) == 0  # idempotent
    points = {p["question"]: p for p in svc.decisions.points()}
    tier = points["Which tier?"]
    assert tier["options"] == ["Tier S", "Tier M", "Tier L"]  # "(Recommended)" is not part of an option
    assert tier["tiers"]["all"] == {"Tier L": 1, "Tier M": 1}
    assert tier["tiers"]["session"] == {"Tier L": 1}  # the latest session is the current one
    assert points["用哪种测试方式？"]["tiers"]["all"] == {"DDD": 1}
    assert tier["precondition"].startswith("Recommended when")
    rec = svc.decisions.recommend("Which tier?", ["Tier S", "Tier M", "Tier L"])
    assert rec["option"] == "Tier M" and rec["stage"] == "static"  # the marked default


def test_capture_real_claude_code_file(svc, eval_dev):
    path = eval_dev / "claude_code" / "subagent.jsonl"
    assert svc.decisions.capture_transcript(path) == 2
    assert svc.decisions.capture_transcript(path) == 0
    points = {p["question"]: p for p in svc.decisions.points()}
    tools = points["Which tools should we set up?"]
    assert tools["options"] == ["All four", "Credo + Dialyxir + mix_audit", "Custom selection"]
    assert tools["tiers"]["all"] == {"Credo + Dialyxir + mix_audit": 1}
    rig = next(p for q, p in points.items() if q.startswith("Which rig"))
    assert rig["tiers"]["all"] == {"No rig": 1}
    # The user turned the first option ("spotter") down: it is not recommended back to them.
    assert rig["recommendation"] == "No rig" and rig["basis"] == "early_choice"
    assert rig["precondition"] == "Recommended when you chose it before (too few observations to personalise)"
    assert tools["recommendation"] == "Credo + Dialyxir + mix_audit"  # not the asker's "(Recommended)" All four
    stats = svc.decisions.stats()
    assert stats["records"] == 2 and stats["sessions"] == 1


def test_capture_missing_file_is_one_clear_error(svc, tmp_path):
    with pytest.raises(NotFoundError, match="does not exist"):
        svc.decisions.capture_transcript(tmp_path / "nope.jsonl")


def test_capture_tool_call_from_hook_payload(svc):
    tool_input = {"questions": [Q_TIER]}
    response = {"questions": [Q_TIER], "answers": {"Which tier?": "Tier S"}}
    assert svc.decisions.capture_tool_call(tool_input, response, ref="hook:s:t9", session="s") == 1
    assert svc.decisions.capture_tool_call(tool_input, response, ref="hook:s:t9", session="s") == 0


def test_transient_choices_expire_after_28_days(svc, clock):
    for _ in range(5):
        svc.decisions.record("Q?", ["A", "B"], "B", transient=True)
    for _ in range(5):
        svc.decisions.record("Q?", ["A", "B"], "A")
    clock.advance(days=10)
    assert svc.decisions.recommend("Q?", ["A", "B"])["observations"] == 10
    clock.advance(days=19)  # 29 days: the transient ones no longer count, even before the scan
    rec = svc.decisions.recommend("Q?", ["A", "B"])
    assert rec["observations"] == 5 and rec["option"] == "A" and rec["share"] == 1.0
    report = svc.decisions.decay_scan()
    assert report["ran"] and report["expired"] == 5
    assert svc.decisions.stats()["records"] == 5


def test_old_choices_weigh_less_then_stop_counting(svc, clock):
    for _ in range(6):
        svc.decisions.record("Q?", ["A", "B"], "A")
    clock.advance(days=200)
    for _ in range(5):
        svc.decisions.record("Q?", ["A", "B"], "B")
    rec = svc.decisions.recommend("Q?", ["A", "B"])
    assert rec["option"] == "B"  # 5 recent beat 6 old (power-law weight of the old ones ~0.13)
    assert rec["observations"] == 11
    clock.advance(days=400)  # the first six are now 600 days old: below the weight floor
    rec = svc.decisions.recommend("Q?", ["A", "B"])
    assert rec["observations"] == 5 and rec["share"] == 1.0
    assert rec["tiers"]["all"] == {"A": 6, "B": 5}  # they happened; they just no longer count


def test_decay_scan_runs_at_most_once_a_day(svc, clock, db_path):
    first = svc.decisions.decay_scan()
    assert first["ran"]
    clock.advance(hours=23)
    second = svc.decisions.decay_scan()
    assert not second["ran"] and second["last_run"] == first["last_run"]
    with Services.open(db_path, clock) as other:  # the gate is stored, not per process
        assert not other.decisions.decay_scan()["ran"]
        assert other.decisions.decay_scan(force=True)["ran"]
    clock.advance(hours=25)
    assert svc.decisions.decay_scan()["ran"]


def test_strong_stable_preference_becomes_a_candidate_once(svc, clock):
    for i in range(25):
        svc.decisions.record("Which tier?", ["Tier S", "Tier M", "Tier L"], "Tier M" if i % 6 else "Tier S",
                             session=f"s{i // 5}", context={"workspace": "shop"})
    report = svc.decisions.decay_scan()
    assert len(report["proposed"]) == 1
    candidate = svc.review.get(report["proposed"][0]["candidate_id"])
    assert candidate.kind == "preference" and candidate.status == "pending"
    assert candidate.namespace == "workspace:shop"
    assert "Tier M" in candidate.content and "workspace=shop" in candidate.content
    assert svc.memories.list(status=None) == []  # a candidate for review, never a memory directly
    clock.advance(days=2)
    assert svc.decisions.decay_scan()["proposed"] == []  # proposed once, not every day
    assert len(svc.review.pending()) == 1


def test_weak_preference_is_not_proposed(svc):
    for choice in ["A"] * 6 + ["B"] * 5:
        svc.decisions.record("Q?", ["A", "B"], choice)
    assert svc.decisions.decay_scan()["proposed"] == []
    assert svc.review.pending() == []


def test_export_import_round_trip_keeps_decisions(svc, tmp_path, clock):
    svc.decisions.record("Q?", ["A (Recommended)", "B"], "B", session="s", context={"phase": "x"},
                         transient=True)
    out = tmp_path / "export.jsonl"
    svc.transfer.export(out)
    with Services.open(tmp_path / "fresh.db", clock) as fresh:
        fresh.transfer.import_file(out)
        rec = fresh.decisions.recommend("Q?", ["A", "B"])
        assert rec["tiers"]["all"] == {"B": 1}
        assert fresh.decisions.stats()["transient"] == 1
