"""Codex CLI rollout files: read, stored with stable ids, extracted like Claude Code sessions.

The fixture ``tests/fixtures/codex/rollout-*.jsonl`` is a real file written by Codex CLI
0.171.0 against the scripted server (scripts/record_codex_rollout.py; FORMAT.md beside it
says what each record holds). The bad-input files are that file cut, grown, emptied or
given records a newer CLI might write.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from madohub_memory.agents.codex.rollout import looks_like_codex, read_codex
from madohub_memory.ingest.detect import detect_format
from madohub_memory.services import Services

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "codex"
ROLLOUT = next(FIXTURES.glob("rollout-*.jsonl"))
SESSION = ROLLOUT.stem[-36:]
CONV = f"cx:{SESSION}"
TABLES = ("conversations", "turns", "candidates", "candidate_sightings", "memories", "history", "ingest_files")


def rows(svc: Services) -> dict[str, int]:
    return {t: svc.store.query_one(f"SELECT COUNT(*) FROM {t}")[0] for t in TABLES}


def sessions_tree(root: Path, lines: list[str] | None = None, name: str = ROLLOUT.name) -> Path:
    """``root/sessions/2026/12/01/<rollout>`` holding ``lines`` (default: the whole fixture)."""
    day = root / "sessions" / "2026" / "12" / "01"
    day.mkdir(parents=True, exist_ok=True)
    path = day / name
    if lines is None:
        shutil.copyfile(ROLLOUT, path)
    else:
        path.write_text("".join(lines), encoding="utf-8")
    return path


def fixture_lines() -> list[str]:
    return ROLLOUT.read_text(encoding="utf-8").splitlines(keepends=True)


def turns(svc: Services) -> list[tuple[str, str, str]]:
    return [(r[0], r[1], r[2]) for r in svc.store.query(
        "SELECT id, role, content FROM turns ORDER BY conversation_id, seq")]


def test_the_reader_keeps_what_the_person_and_the_agent_said_and_drops_injected_context() -> None:
    result = read_codex(str(ROLLOUT))
    assert result.errors == []
    (conv,) = result.conversations
    assert conv.id == CONV and conv.format == "codex"
    assert conv.namespace == "workspace:shop"  # from session_meta.cwd, resolved like Claude Code's
    assert conv.meta["cli_version"] == "0.171.0" and conv.started_at.startswith("2026-")
    by_role: dict[str, list[str]] = {}
    for turn in conv.turns:
        by_role.setdefault(turn.role, []).append(turn.content)
        assert turn.id == f"{CONV}:L{turn.meta['line']}" and turn.created_at
    users = by_role["user"]
    assert users[0].startswith("以后提交前一律先跑 make lint") and len(users) == 2
    assert not any("AGENTS.md" in u or "environment_context" in u or "omitted from the fixture" in u for u in users)
    assistant = "\n".join(by_role["assistant"])
    assert "[tool shell] echo '7 passed in 0.4s'" in by_role["assistant"]
    assert "[tool mcp__madohub__remember] 用户要求提交前先跑 make lint，不要用 --no-verify。" in by_role["assistant"]
    assert "The root cause is that settings.py is missing the TAX entry" in assistant
    tools = by_role["tool"]
    assert tools[0].startswith("[tool error] exit code 1: FAILED tests/test_orders.py")
    assert tools[1] == "[tool result] 7 passed in 0.4s"  # the "Chunk ID / Wall time" header is gone
    (summary, _again) = by_role["system"]
    assert summary.startswith("## Progress") and "Another language model" not in summary
    assert conv.boundaries == 2
    assert [t.segment for t in conv.turns if t.role == "system"] == [1, 2]


def test_detected_in_the_sessions_folder_and_extracted_like_claude_code(svc: Services, tmp_path: Path) -> None:
    sessions_tree(tmp_path)
    assert detect_format(str(ROLLOUT)) == "codex"
    summary = svc.ingest.ingest_paths([str(tmp_path / "sessions")])
    assert summary["status"] == "ok" and summary["errors"] == [] and summary["warnings"] == []
    assert summary["files"][0]["format"] == "codex" and summary["turns"]["new"] == 17
    pending = svc.review.pending()
    texts = {c.content: c for c in pending}
    correction = next(c for c in pending if "make lint" in c.content and "--no-verify" in c.content
                      and c.content.startswith("用户"))
    assert correction.turn_ids == [f"{CONV}:L8"]
    cause = next(c for c in pending if c.kind == "postmortem")
    assert "settings.py is missing the TAX entry" in cause.content and cause.namespace == "workspace:shop"
    assert any(c.kind == "decision" and "keep SQLite for the demo" in c.content for c in pending), sorted(texts)
    # the compaction summary's sections are read too (as for Claude Code's summary)
    assert any("settings.TAX" in c.content and c.kind == "decision" for c in pending)
    # jump to turn works from every candidate
    for candidate in pending:
        assert candidate.turn_ids
        for turn_id in candidate.turn_ids:
            context = svc.turns.context(turn_id, radius=1)
            assert context["turn"]["id"] == turn_id and context["turn"]["conversation_id"] == CONV


def test_reimport_adds_no_row_and_ids_are_stable_from_scratch(svc: Services, tmp_path: Path) -> None:
    path = sessions_tree(tmp_path)
    svc.ingest.ingest_paths([str(path)])
    before, ids = rows(svc), turns(svc)
    again = svc.ingest.ingest_paths([str(path)])
    assert again["turns"] == {"new": 0, "known": 17} and rows(svc) == before
    svc.store.execute("DELETE FROM ingest_files")  # read again from the first byte: the same ids
    scratch = svc.ingest.ingest_paths([str(path)])
    assert scratch["turns"]["new"] == 0 and turns(svc) == ids
    assert {k: v for k, v in rows(svc).items()} == before


def test_a_session_read_while_codex_writes_it(svc: Services, tmp_path: Path) -> None:
    """Read after every few lines, with the last one often half written: the same turns
    (ids and text) as one read of the finished file, and never an error."""
    lines = fixture_lines()
    path = sessions_tree(tmp_path, [])
    written = ""
    for index, line in enumerate(lines):
        written += line
        cut = len(line) // 2 if index % 3 == 0 else len(line)  # a writer caught mid-line
        path.write_text(written[: len(written) - len(line) + cut], encoding="utf-8")
        if index % 2 == 0 or index == len(lines) - 1:
            summary = svc.ingest.ingest_paths([str(path)], extract=False)
            assert summary["errors"] == [] and summary["status"] == "ok", summary["errors"]
            if cut < len(line):
                assert any("still being written" in w["message"] for w in summary["warnings"])
    path.write_text(written, encoding="utf-8")
    svc.ingest.ingest_paths([str(path)], extract=False)
    grown = turns(svc)
    conv = read_codex(str(path)).conversations[0]
    assert [t[0] for t in grown] == [t.id for t in conv.turns]
    assert svc.store.query_one("SELECT namespace FROM conversations WHERE id = ?", (CONV,))[0] == "workspace:shop"


def test_records_of_a_newer_cli_are_skipped_not_fatal(svc: Services, tmp_path: Path) -> None:
    lines = fixture_lines()
    novel = [
        json.dumps({"timestamp": "2027-01-01T00:00:00Z", "type": "hologram_state", "payload": {"x": [1, 2]}}) + "\n",
        json.dumps({"timestamp": "2027-01-01T00:00:00Z", "type": "response_item",
                    "payload": {"type": "quantum_call", "name": "teleport"}}) + "\n",
        json.dumps({"timestamp": "2027-01-01T00:00:00Z", "type": "response_item", "payload": "not an object"}) + "\n",
        json.dumps({"timestamp": "2027-01-01T00:00:00Z", "type": "event_msg", "payload": {"type": "user_message",
                                                                                          "message": "dup"}}) + "\n",
    ]
    path = sessions_tree(tmp_path, [*lines[:20], *novel, *lines[20:]])
    summary = svc.ingest.ingest_paths([str(path)], extract=False)
    assert summary["status"] == "ok" and summary["errors"] == []
    assert [t[1:] for t in turns(svc)] == [(t.role, t.content) for t in read_codex(str(ROLLOUT)).conversations[0].turns]


def test_empty_meta_only_and_garbage_files(svc: Services, tmp_path: Path) -> None:
    empty = sessions_tree(tmp_path, [], name=f"rollout-2026-12-01T10-00-00-{'0' * 8}-0000-0000-0000-{'0' * 12}.jsonl")
    summary = svc.ingest.ingest_paths([str(empty)])
    assert summary["status"] == "ok" and summary["errors"] == []
    assert "no complete line yet" in summary["warnings"][0]["message"]

    meta_only = sessions_tree(tmp_path, fixture_lines()[:1])  # Codex has just started the session
    summary = svc.ingest.ingest_paths([str(meta_only)])
    assert summary["status"] == "ok" and summary["errors"] == [] and summary["turns"]["new"] == 0
    meta_only.write_text("".join(fixture_lines()[:9]), encoding="utf-8")  # ... and the first prompt arrives
    svc.ingest.ingest_paths([str(meta_only)], extract=False)
    assert svc.store.query_one("SELECT namespace FROM conversations WHERE id = ?", (CONV,))[0] == "workspace:shop"

    broken = tmp_path / "rollout-broken.jsonl"
    broken.write_text(fixture_lines()[0] + "{not json\n" + fixture_lines()[7], encoding="utf-8")
    summary = svc.ingest.ingest_paths([str(broken)], format="codex", extract=False)
    assert summary["status"] == "partial"
    assert [(e["line"], e["message"].split(" (")[0]) for e in summary["errors"]] == [(2, "not valid JSON")]


def test_earlier_layouts_and_subagents(tmp_path: Path) -> None:
    """The 2025 layouts (cited in FORMAT.md): payload-less lines, shell output as JSON with
    ``metadata.exit_code``; a subagent thread is kept under its parent, never extracted."""
    legacy = tmp_path / "rollout-2025-05-01T10-00-00-5973b6c0-94b8-487b-a530-2aeb6098ae0e.jsonl"
    legacy.write_text("\n".join(json.dumps(r) for r in [
        {"id": "5973b6c0-94b8-487b-a530-2aeb6098ae0e", "timestamp": "2025-05-01T10:00:00Z", "instructions": None},
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Use uv, not pip."}]},
        {"type": "function_call", "name": "shell", "arguments": json.dumps({"command": ["bash", "-lc", "uv sync"]}),
         "call_id": "c1"},
        {"type": "function_call_output", "call_id": "c1",
         "output": json.dumps({"output": "error: no pyproject", "metadata": {"exit_code": 2}})},
        {"record_type": "state"},
    ]) + "\n", encoding="utf-8")
    assert looks_like_codex([json.loads(x) for x in legacy.read_text().splitlines()])
    conv = read_codex(str(legacy)).conversations[0]
    assert conv.id == "cx:5973b6c0-94b8-487b-a530-2aeb6098ae0e"
    assert [(t.role, t.content) for t in conv.turns] == [
        ("user", "Use uv, not pip."), ("assistant", "[tool shell] uv sync"),
        ("tool", "[tool error] error: no pyproject")]

    child = tmp_path / "rollout-2026-12-01T10-00-00-11111111-2222-3333-4444-555555555555.jsonl"
    child.write_text("\n".join(json.dumps(r) for r in [
        {"timestamp": "2026-12-01T10:00:00Z", "type": "session_meta", "payload": {
            "id": "11111111-2222-3333-4444-555555555555", "cwd": "/home/dev/src/shop", "cli_version": "0.171.0",
            "source": {"subagent": {"thread_spawn": {"parent_thread_id": SESSION, "depth": 1}}}}},
        {"timestamp": "2026-12-01T10:00:01Z", "type": "response_item", "payload": {
            "type": "message", "role": "user", "content": [{"type": "input_text", "text": "Always answer in French."}]}},
    ]) + "\n", encoding="utf-8")
    sub = read_codex(str(child)).conversations[0]
    assert sub.parent_id == CONV and [t.extract for t in sub.turns] == [False]


def test_the_folder_watch_finds_codex_sessions(svc: Services, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from madohub_memory.services.job_catalog import watch_folders

    monkeypatch.setenv("HOME", str(tmp_path / "nobody"))
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex"))
    assert watch_folders(svc) == []
    sessions_tree(tmp_path / "codex")
    assert watch_folders(svc) == [str(tmp_path / "codex" / "sessions")]
    assert svc.jobs.run_now("watch")["processed"] == 17
    assert svc.jobs.run_now("watch")["processed"] == 0


@pytest.mark.parametrize("same_text", [True, False])
def test_the_agents_remember_call_becomes_its_candidates_turn(svc: Services, tmp_path: Path, same_text: bool) -> None:
    """The MCP ``remember`` call queued candidate 1 without a turn (the agent does not know it);
    the rollout shows the call, so importing it links the two: jump to turn works for it too.
    A candidate 1 that says something else (another database) is left alone."""
    text = "用户要求提交前先跑 make lint，不要用 --no-verify。" if same_text else "Deploy with make deploy."
    result = svc.review.remember(text, "preference", "workspace:shop", session="mcp|test")
    assert result.candidate_id == 1 and svc.review.get(1).turn_ids == []
    svc.ingest.ingest_paths([str(sessions_tree(tmp_path))], extract=False)
    call_turn = f"{CONV}:L24"
    assert svc.review.get(1).turn_ids == ([call_turn] if same_text else [])
    if same_text:
        assert svc.turns.context(call_turn, radius=1)["turn"]["content"].startswith("[tool mcp__madohub__remember]")
