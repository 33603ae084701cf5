"""Reading back the candidates a compaction summary carries: from a transcript's
``isCompactSummary`` record, from ``PostCompact``'s ``compact_summary``, and both."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from test_ingest_helpers import (
    CWD,
    SESSION,
    _envelope,
    cc_assistant,
    cc_boundary,
    cc_user,
    disable_semantic_dedup,
    text,
    write_jsonl,
)

from madohub_memory.agents.claude_code.compaction_readback import store_summary, summary_turn_id
from madohub_memory.services import Services

LINES = [
    "- preference | persona | User wants pnpm, not npm.",
    "- decision | workspace | The API keeps snake_case keys because the mobile app parses them.",
    "- postmortem | workspace | Login failed because the session cookie lacked SameSite; it is set to Lax now.",
    "- fact | workspace | 部署用 make deploy，先在 staging 上验证。",
    "- opinion | workspace | Not one of the kinds.",
]
SECTION = "## Memory candidates\n" + "\n".join(LINES)


def record_text(section: str = SECTION) -> str:
    """The summary as the transcript keeps it (CLI 2.1.332)."""
    return ("This session is being continued from a previous conversation that ran out of context. The summary "
            "below covers the earlier portion of the conversation.\n\nSummary:\n1. Primary Request and Intent:\n"
            "   The user asked to fix the login flow.\n\n4. Errors and fixes:\n"
            "    - OAuth2Tokens type mismatch:\n      - Root cause: the token type was imported twice.\n"
            f"      - Fix: import it once from auth/types.ts.\n\n{section}\n\n"
            "If you need specific details from before compaction, read the full transcript at: /tmp/x.jsonl\n"
            "Continue the conversation from where it left off without asking the user any further questions.")


def compact_summary(section: str = SECTION) -> str:
    """The same summary as ``PostCompact`` receives it (the model's reply as written)."""
    return ("<analysis>\nThe user fixed the login flow.\n</analysis>\n\n<summary>\n1. Primary Request and Intent:\n"
            "   The user asked to fix the login flow.\n\n4. Errors and fixes:\n"
            "    - OAuth2Tokens type mismatch:\n      - Root cause: the token type was imported twice.\n"
            f"      - Fix: import it once from auth/types.ts.\n\n{section}\n</summary>")


def summary_record(uuid: str, content: str) -> dict[str, Any]:
    return _envelope("user", uuid, "b1", message={"role": "user", "content": content},
                     isCompactSummary=True, isVisibleInTranscriptOnly=True)


def session(path: Path, content: str | None = None) -> Path:
    records: list[Any] = [cc_user("u1", "Please fix the login flow."), cc_assistant("a1", "m1", [text("Fixed.")], "u1")]
    if content is not None:
        records += [cc_boundary("b1", "a1"), summary_record("sum1", content)]
    return write_jsonl(path / f"{SESSION}.jsonl", records)


def compaction_candidates(svc: Services) -> list[Any]:
    return [c for c in svc.review.pending() if c.source == "compaction"]


def test_an_imported_summary_with_the_section_gives_exactly_its_lines(svc: Services, tmp_path: Path) -> None:
    disable_semantic_dedup(svc)
    transcript = session(tmp_path, record_text())
    report = svc.ingest.ingest_paths([str(transcript)])
    assert report["status"] == "ok"
    found = compaction_candidates(svc)
    assert sorted((c.kind, c.namespace, c.content) for c in found) == sorted([
        ("preference", "persona:default", "User wants pnpm, not npm."),
        ("decision", "workspace:demo-app", "The API keeps snake_case keys because the mobile app parses them."),
        ("postmortem", "workspace:demo-app",
         "Login failed because the session cookie lacked SameSite; it is set to Lax now."),
        ("fact", "workspace:demo-app", "部署用 make deploy，先在 staging 上验证。"),
    ])
    assert {tuple(c.turn_ids) for c in found} == {("sum1",)}
    # nothing else is mined from that summary (its "Errors and fixes" included): 0 invented
    assert not [c for c in svc.review.pending() if "sum1" in c.turn_ids and c not in found]
    again = svc.ingest.ingest_paths([str(transcript)])
    assert again["candidates"] == {"new": 0, "seen_again": 0, "suppressed": 0, "reinforced": 0, "invalid": 0}
    assert [c.seen_count for c in compaction_candidates(svc)] == [1, 1, 1, 1]


def test_a_summary_without_the_section_is_mined_as_before(svc: Services, tmp_path: Path) -> None:
    disable_semantic_dedup(svc)
    svc.ingest.ingest_paths([str(session(tmp_path, record_text(section="")))])
    mined = [c for c in svc.review.pending() if "sum1" in c.turn_ids]
    assert mined and all(c.source == "compaction" for c in mined)
    assert any("OAuth2Tokens" in c.content and c.kind == "postmortem" for c in mined)


def test_a_section_with_only_malformed_lines_or_none_gives_nothing(svc: Services, tmp_path: Path) -> None:
    disable_semantic_dedup(svc)
    bad = "## Memory candidates\n- nothing | here | at all, really.\n- preference: User wants tabs."
    svc.ingest.ingest_paths([str(session(tmp_path, record_text(section=bad)))])
    assert not [c for c in svc.review.pending() if "sum1" in c.turn_ids]


def test_post_compact_then_the_import_of_the_record_adds_nothing_twice(svc: Services, tmp_path: Path) -> None:
    disable_semantic_dedup(svc)
    transcript = session(tmp_path)  # at PostCompact the transcript does not hold the summary yet
    svc.ingest.ingest_paths([str(transcript)], extract=False)
    conversation = svc.ingest.conversation_for_file(str(transcript))
    assert conversation == f"cc:{SESSION}"
    stored = store_summary(svc, conversation, compact_summary(), namespace="workspace:demo-app")
    assert stored is not None and stored["new"] and stored["lines"] == 4 and stored["skipped"] == 1
    assert store_summary(svc, conversation, compact_summary())["new"] is False  # the hook run twice
    svc.ingest.drain()
    first = compaction_candidates(svc)
    turn = stored["turn_id"]
    assert turn.startswith(f"cc:{SESSION}:compact:") and len(first) == 4
    assert {tuple(c.turn_ids) for c in first} == {(turn,)}
    # the next Stop hook imports the boundary and the record: the same summary, nothing new
    with open(transcript, "a", encoding="utf-8") as handle:
        for record in (cc_boundary("b1", "a1"), summary_record("sum1", record_text())):
            handle.write(json.dumps(record) + "\n")
    report = svc.ingest.ingest_paths([str(transcript)])
    assert report["candidates"]["new"] == 0 and report["candidates"]["seen_again"] == 0
    assert [(c.id, c.seen_count, c.turn_ids) for c in compaction_candidates(svc)] == [
        (c.id, 1, [turn]) for c in first]
    assert svc.turns.context(turn)["turn"]["content"].startswith("<summary>")  # the turn a reviewer jumps to


TOKEN = "ghp_" + "abcdefghijklmnopqrstuvwxyz0123456789"


def test_a_line_with_a_secret_is_read_once_masked_and_flagged(svc: Services, tmp_path: Path) -> None:
    """The record imported later is masked before it is read; PostCompact read the same lines,
    so it must key them the same way (else the secret's line and all its neighbours come twice)."""
    disable_semantic_dedup(svc)
    section = SECTION + f"\n- fact | workspace | The staging deploy uses the token {TOKEN} from the vault."
    transcript = session(tmp_path)
    svc.ingest.ingest_paths([str(transcript)], extract=False)
    conversation = f"cc:{SESSION}"
    stored = store_summary(svc, conversation, compact_summary(section), namespace="workspace:demo-app")
    assert stored is not None and stored["lines"] == 5
    svc.ingest.drain()
    first = compaction_candidates(svc)
    [secret] = [c for c in first if "staging deploy" in c.content]
    assert TOKEN not in secret.content and "[REDACTED]" in secret.content
    assert "secret" in secret.flags  # the reviewer is told, and auto-approve never takes it
    assert TOKEN not in svc.turns.context(stored["turn_id"])["turn"]["content"]
    with open(transcript, "a", encoding="utf-8") as handle:
        for record in (cc_boundary("b1", "a1"), summary_record("sum1", record_text(section))):
            handle.write(json.dumps(record) + "\n")
    report = svc.ingest.ingest_paths([str(transcript)])
    assert report["candidates"]["new"] == 0 and report["candidates"]["seen_again"] == 0
    assert [(c.id, c.seen_count) for c in compaction_candidates(svc)] == [(c.id, 1) for c in first]


def test_store_summary_without_the_section_stores_nothing(svc: Services) -> None:
    assert store_summary(svc, "cc:x", "<summary>\n1. Primary Request:\n  Fix it.\n</summary>") is None
    assert svc.store.query_one("SELECT COUNT(*) FROM turns")[0] == 0
    assert summary_turn_id("cc:x", "abc") == "cc:x:compact:abc"


def _hook(db: Path, log: Path, event: dict[str, Any]) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "MADOHUB_DB": str(db), "MADOHUB_HOOK_LOG": str(log), "MADOHUB_HOOK_INLINE": "1"}
    return subprocess.run([sys.executable, "-m", "madohub_memory", "hook"], input=json.dumps(event).encode(),
                          capture_output=True, env=env, timeout=180)


def test_the_hook_prints_the_instruction_at_pre_compact_and_reads_post_compact(db_path: Path, tmp_path: Path) -> None:
    transcript = session(tmp_path)
    log = tmp_path / "hook.log"
    base = {"session_id": SESSION, "cwd": CWD, "transcript_path": str(transcript)}
    done = _hook(db_path, log, {**base, "hook_event_name": "PreCompact", "trigger": "manual",
                                "custom_instructions": None})
    assert done.returncode == 0 and done.stderr == b""
    assert "## Memory candidates" in done.stdout.decode() and "KIND | SCOPE | SENTENCE" in done.stdout.decode()
    done = _hook(db_path, log, {**base, "hook_event_name": "PostCompact", "trigger": "manual",
                                "compact_summary": compact_summary()})
    assert done.returncode == 0 and done.stdout == b"", log.read_text()
    with Services.open(db_path) as svc:
        found = compaction_candidates(svc)
        assert len(found) == 4 and {c.namespace for c in found} == {"persona:default", "workspace:demo-app"}
    # which line was skipped and why, on the hook's own line (the drain runs detached, elsewhere)
    [post] = [line for line in log.read_text().splitlines() if "PostCompact: summary turn" in line]
    assert "4 candidate lines, 1 skipped (line " in post and "unknown kind 'opinion'" in post
    # a transcript that cannot be read (or a database problem) does not cost the summary its request
    done = _hook(db_path, log, {**base, "transcript_path": "/no/such.jsonl", "hook_event_name": "PreCompact"})
    assert done.returncode == 0 and "## Memory candidates" in done.stdout.decode()
    # a CLI that sends no compact_summary: one log line, nothing else
    done = _hook(db_path, log, {**base, "hook_event_name": "PostCompact", "trigger": "auto"})
    assert done.returncode == 0 and "no compact_summary in the event" in log.read_text()
