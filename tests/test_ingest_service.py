"""IngestService end to end on a real database file: ids, re-import, growth, compaction, subagents."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest
from test_ingest_helpers import (
    SESSION,
    PreferenceExtractor,
    _envelope,
    append_jsonl,
    cc_assistant,
    cc_boundary,
    cc_compact_summary,
    cc_queue,
    cc_tool_result,
    cc_user,
    disable_semantic_dedup,
    locomo_sample,
    small_session,
    text,
    tool_use,
    write_jsonl,
)

from madohub_memory.core.errors import UserError
from madohub_memory.services import Services
from madohub_memory.services.ingest import IngestService

pytestmark = pytest.mark.both_backends


@pytest.fixture
def extractor() -> PreferenceExtractor:
    return PreferenceExtractor()


@pytest.fixture
def ingest(svc: Services, extractor: PreferenceExtractor) -> IngestService:
    disable_semantic_dedup(svc)
    return IngestService(svc, extractor=extractor)


def _turn_ids(svc: Services) -> list[str]:
    return [r[0] for r in svc.store.query("SELECT id FROM turns ORDER BY conversation_id, seq")]


def test_import_extracts_and_reimport_adds_nothing(svc: Services, ingest: IngestService, tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / f"{SESSION}.jsonl", small_session())
    first = ingest.ingest_paths([str(path)])
    assert first["status"] == "ok" and first["errors"] == []
    assert first["turns"] == {"new": 6, "known": 0} and first["conversations"] == 1
    assert first["candidates"]["new"] == 2
    pending = svc.review.pending()
    by_text = {c.content: c for c in pending}
    assert set(by_text) == {"User prefers pnpm over npm for this repo.", "User prefers tabs over spaces."}
    assert all(c.namespace == "workspace:demo-app" and c.source == "turn" for c in pending)
    assert by_text["User prefers pnpm over npm for this repo."].turn_ids == ["u1"]
    # the candidate jumps back to its originating turn
    context = svc.turns.context("u1", radius=1)
    assert context["turn"]["content"] == "I prefer pnpm over npm for this repo."
    ids, calls = _turn_ids(svc), len(ingest._extractor.calls)

    again = ingest.ingest_paths([str(path)])
    assert again["turns"] == {"new": 0, "known": 6} and again["status"] == "ok"
    assert again["candidates"] == {"new": 0, "seen_again": 0, "suppressed": 0, "reinforced": 0, "invalid": 0}
    assert _turn_ids(svc) == ids and len(ingest._extractor.calls) == calls
    assert [c.seen_count for c in svc.review.pending()] == [1, 1]

    # the same file read from scratch (e.g. the copy moved) still adds nothing: ids are stable
    svc.store.execute("DELETE FROM ingest_files")
    scratch = ingest.ingest_paths([str(path)])
    assert scratch["turns"] == {"new": 0, "known": 6} and _turn_ids(svc) == ids


def test_grown_file_adds_only_new_lines_and_waits_for_a_half_written_line(
    svc: Services, ingest: IngestService, extractor: PreferenceExtractor, tmp_path: Path
) -> None:
    path = write_jsonl(tmp_path / f"{SESSION}.jsonl", small_session())
    ingest.ingest_paths([str(path)])
    before = set(_turn_ids(svc))
    extractor.calls.clear()
    append_jsonl(path, [cc_user("u9", "I prefer rebase over merge."), cc_assistant("a9", "m9", [text("Sure.")])])
    half = json.dumps(cc_user("u10", "I prefer Fridays off."))
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(half[:40])  # the agent is still writing this line
    grown = ingest.ingest_paths([str(path)])
    assert grown["turns"] == {"new": 2, "known": 6} and grown["candidates"]["new"] == 1
    assert grown["status"] == "partial"
    assert [(e["line"], e["message"].split(" (")[0]) for e in grown["errors"]] == [
        (19, "incomplete last line")]
    assert set(_turn_ids(svc)) - before == {"u9", "a9"}
    assert sorted(extractor.seen_ids()) == ["a9", "u9"]  # old turns were not extracted again

    with open(path, "a", encoding="utf-8") as handle:
        handle.write(half[40:] + "\n")
    done = ingest.ingest_paths([str(path)])
    assert done["status"] == "ok" and done["turns"] == {"new": 1, "known": 8}
    assert "User prefers Fridays off." in {c.content for c in svc.review.pending()}


def test_compaction_span_goes_through_the_compaction_pass(
    svc: Services, ingest: IngestService, extractor: PreferenceExtractor, tmp_path: Path
) -> None:
    records = [
        cc_user("u1", "I prefer short commit messages."),
        cc_assistant("a1", "m1", [text("OK.")], "u1"),
        cc_boundary("b1", "a1"),
        cc_compact_summary("sum1", "b1"),
        cc_user("u2", "I prefer squash merges."),
    ]
    summary = ingest.ingest_paths([str(write_jsonl(tmp_path / "s.jsonl", records))])
    assert summary["candidates"]["new"] == 2
    assert extractor.calls == [("compaction", ["u1", "a1"]), ("turn", ["sum1"]), ("turn", ["u2"])]
    sources = {c.content: c.source for c in svc.review.pending()}
    assert sources == {"User prefers short commit messages.": "compaction", "User prefers squash merges.": "turn"}
    # the model-written summary reaches the extractor as a system turn, never as user text
    # (its "I prefer summaries…" is not the person's)
    row = svc.store.query_one("SELECT role, extract_state FROM turns WHERE id = 'sum1'")
    assert tuple(row) == ("system", "done")


def test_pre_compact_pass_extracts_everything_pending_as_compaction(
    svc: Services, ingest: IngestService, extractor: PreferenceExtractor, tmp_path: Path
) -> None:
    path = write_jsonl(tmp_path / f"{SESSION}.jsonl", small_session())
    ingest.ingest_paths([str(path)], extract=False)
    assert extractor.calls == [] and ingest.pending()["pending"] == 5
    counts = ingest.compaction_pass(f"cc:{SESSION}")
    assert counts["turns"] == 5 and counts["new"] == 2
    assert {mode for mode, _ in extractor.calls} == {"compaction"}
    assert {c.source for c in svc.review.pending()} == {"compaction"}
    assert ingest.pending().get("pending", 0) == 0


def test_subagent_files_are_linked_to_the_parent_session(svc: Services, ingest: IngestService, tmp_path: Path) -> None:
    project = tmp_path / "projects" / "-home-ana-projects-demo-app"
    sub = cc_user("s1", "I prefer this prompt is not the user's", agentId="abc123", isSidechain=True)
    write_jsonl(project / SESSION / "subagents" / "agent-abc123.jsonl", [sub])
    # the subagent alone first: its parent exists as a placeholder until the session arrives
    first = ingest.ingest_paths([str(project / SESSION / "subagents" / "agent-abc123.jsonl")])
    assert first["status"] == "ok" and first["candidates"]["new"] == 0
    stub = svc.store.query_one("SELECT format, source_path FROM conversations WHERE id = ?", (f"cc:{SESSION}",))
    assert tuple(stub) == ("claude-code", None)
    write_jsonl(project / f"{SESSION}.jsonl", small_session())
    ingest.ingest_paths([str(project / f"{SESSION}.jsonl")])
    rows = {r["id"]: dict(r) for r in svc.store.query("SELECT * FROM conversations")}
    assert rows[f"cc:{SESSION}:agent-abc123"]["parent_id"] == f"cc:{SESSION}"
    assert rows[f"cc:{SESSION}"]["source_path"].endswith(f"{SESSION}.jsonl")
    assert rows[f"cc:{SESSION}"]["namespace"] == "workspace:demo-app"
    # a session file brings its subagents along when given alone
    svc.store.execute("DELETE FROM ingest_files")
    again = ingest.ingest_paths([str(project / f"{SESSION}.jsonl")])
    assert [Path(f["path"]).name for f in again["files"]] == [f"{SESSION}.jsonl", "agent-abc123.jsonl"]


def test_namespace_option_and_persona_default(svc: Services, ingest: IngestService, tmp_path: Path) -> None:
    path = tmp_path / "locomo.json"
    path.write_text(json.dumps(locomo_sample()))
    summary = ingest.ingest_paths([str(path)])
    assert summary["turns"]["new"] == 3 and summary["candidates"]["new"] == 2
    assert {c.namespace for c in svc.review.pending()} == {"persona:default"}
    chat = tmp_path / "chat.jsonl"
    chat.write_text('{"role": "user", "content": "I prefer green tea."}\n')
    ingest.ingest_paths([str(chat)], namespace="workspace:garden")
    assert {c.namespace for c in svc.review.pending() if "green" in c.content} == {"workspace:garden"}
    with pytest.raises(UserError, match="namespace"):
        ingest.ingest_paths([str(chat)], namespace="team:x")
    with pytest.raises(UserError, match="Unknown format"):
        ingest.ingest_paths([str(chat)], format="docx")


def test_a_failing_extractor_loses_nothing(svc: Services, tmp_path: Path) -> None:
    disable_semantic_dedup(svc)

    class Broken:
        name = "broken"

        def extract(self, turns, *, mode="turn", namespace=None):
            raise TimeoutError("LLM endpoint timed out")

    path = write_jsonl(tmp_path / f"{SESSION}.jsonl", small_session())
    summary = IngestService(svc, extractor=Broken()).ingest_paths([str(path)])
    assert summary["turns"]["new"] == 6 and summary["status"] == "ok"
    assert "timed out" in summary["warnings"][0]["message"]
    assert IngestService(svc).pending()["pending"] == 5
    later = IngestService(svc, extractor=PreferenceExtractor()).drain()
    assert later["turns"] == 5 and later["new"] == 2


def test_bad_lines_are_reported_and_valid_lines_kept(svc: Services, ingest: IngestService, tmp_path: Path) -> None:
    path = tmp_path / "mixed.jsonl"
    with open(path, "wb") as handle:
        handle.write(b'{"role": "user", "content": "I prefer vim."}\n')
        handle.write(b'{"role": "user", "content": "caf\xe9 latte"}\n')
        handle.write(b'["not", "an", "object"]\n')
        handle.write(b'{"role": "assistant", "content": "ok"}\n')
    summary = ingest.ingest_paths([str(path), str(tmp_path / "gone.jsonl")])
    assert summary["status"] == "partial" and summary["turns"]["new"] == 2
    assert [(Path(e["file"]).name, e["line"]) for e in summary["errors"]] == [
        ("gone.jsonl", None), ("mixed.jsonl", 2), ("mixed.jsonl", 3)]
    assert "UTF-8" in summary["errors"][1]["message"]
    nothing = ingest.ingest_paths([str(tmp_path / "gone.jsonl")])
    assert nothing["status"] == "failed"


@pytest.mark.eval
def test_dev_claude_code_folder_with_the_default_extractor(svc: Services, eval_dev: Path) -> None:
    """Every dev session, spotter (CLI 2.1.x) and the projects under more/ (CLI 2.0.x)."""
    folder = eval_dev / "claude_code"
    first = svc.ingest.ingest_paths([str(folder)])
    assert first["status"] == "ok", first["errors"]
    sessions = {p.stem for p in folder.rglob("*.jsonl") if p.parent.name != "subagents"}
    subagent_files = list(folder.rglob("subagents/*.jsonl"))
    assert first["conversations"] == len(sessions) + len(subagent_files)
    parents = dict(svc.store.query("SELECT id, parent_id FROM conversations WHERE parent_id IS NOT NULL"))
    assert set(parents.values()) == {"cc:258c7280-ae70-4798-800f-63464d01a85d"}
    assert len(parents) == len(subagent_files)
    queued = svc.store.query_one("SELECT content FROM turns WHERE id LIKE 'cc:258c7280%:q%' ORDER BY seq")
    assert queued[0] == "check again"
    # alignment-hive: one prompt re-enqueued 1,308 times by the CLI is one extractable turn
    whoops = svc.store.query("SELECT extract_state FROM turns WHERE content LIKE 'Whoops, keep going%'")
    assert sorted(r[0] for r in whoops).count("done") == 1
    # gmail-automation: the code-review subagent's prompt (a sidechain record inside the
    # session file) is context, not the person's words; the /implement arguments are theirs
    review = svc.store.query_one("SELECT role, extract_state FROM turns WHERE content LIKE 'Review the Gmail API%'")
    assert tuple(review) == ("user", "skipped")
    implement = svc.store.query_one("SELECT role FROM turns WHERE content LIKE 'T037.%API keys%'")
    assert implement[0] == "user"
    again = svc.ingest.ingest_paths([str(folder)])
    assert again["turns"]["new"] == 0 and again["candidates"] == {k: 0 for k in again["candidates"]}
    if importlib.util.find_spec("madohub_memory.services.decisions") is not None:
        # the session answers AskUserQuestion twice; captured once, not again on re-import
        assert first["decisions"] >= 1 and again["decisions"] == 0


def test_a_print_mode_session_gets_its_workspace_and_the_agents_remember_call_becomes_the_turn(
    svc: Services, ingest: IngestService, tmp_path: Path
) -> None:
    """``claude -p`` (2.1.x) opens the file with queue-operation records, which carry no cwd;
    the remember calls (two in one response, and one whose reply comes in the next read)
    become the originating turns of the candidates the MCP server queued."""
    first = svc.review.remember("The demo app deploys with make deploy.", "pattern", "workspace:demo-app", 0.9)
    second = svc.review.remember("User wants pnpm, not npm.", "preference", "persona:default", 0.9)
    third = svc.review.remember("The API keeps snake_case keys.", "decision", "workspace:demo-app", 0.9)
    plugin_tool = "mcp__plugin_madohub-memory_madohub__remember"

    def reply(outcome: dict[str, Any]) -> str:
        return json.dumps({"outcome": "new", "memory_id": None, "status": "pending", **outcome})

    path = write_jsonl(tmp_path / f"{SESSION}.jsonl", [
        cc_queue("Deploy it; we use pnpm."), cc_queue("", operation="dequeue"),
        cc_user("u1", "Deploy it; we use pnpm."),
        cc_assistant("a1", "m1", [tool_use("t1", "mcp__madohub__remember",
                                           {"content": "The demo app deploys with make deploy.", "kind": "pattern"})]),
        cc_assistant("a2", "m1", [tool_use("t2", plugin_tool, {"content": "User wants pnpm, not npm."})]),
        _envelope("user", "r1", "a2", message={"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": [{"type": "text", "text": reply(
                {"candidate_id": first.candidate_id})}]},
            {"type": "tool_result", "tool_use_id": "t2", "content": reply({"candidate_id": second.candidate_id})}]}),
        cc_assistant("a3", "m2", [tool_use("t3", "mcp__madohub__remember", {"content": "The API keeps snake_case keys."})]),
    ])
    ingest.ingest_paths([str(path)])
    [(namespace,)] = [tuple(r) for r in svc.store.query("SELECT namespace FROM conversations")]
    assert namespace == "workspace:demo-app"  # from the first record that names the folder
    append_jsonl(path, [cc_tool_result("r2", "t3", reply({"candidate_id": third.candidate_id})),
                        cc_tool_result("r3", "t9", reply({"candidate_id": third.candidate_id}))])
    ingest.ingest_paths([str(path)])
    turns = {c.id: c.turn_ids for c in svc.review.pending()}
    assert turns == {first.candidate_id: ["a1"], second.candidate_id: ["a1"], third.candidate_id: ["a3"]}
    assert svc.turns.context("a1", radius=0)["turn"]["content"] == (
        "[tool mcp__madohub__remember] The demo app deploys with make deploy.\n"
        f"[tool {plugin_tool}] User wants pnpm, not npm.")
