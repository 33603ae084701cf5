"""What the Stop hook pays for on every turn stays small, and still captures decisions (issue 11)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from test_decisions_service import Q_TIER, _answer, _ask
from test_ingest_helpers import CWD, SESSION, cc_assistant, cc_user, text, write_jsonl

from madohub_memory.services import Services
from madohub_memory.services.transcript_files import mentions as _mentions

PROBE = """
import io, json, sys
from madohub_memory.cli import main
sys.stdin = io.TextIOWrapper(io.BytesIO(sys.argv[2].encode()))
main(["--db", sys.argv[1], "hook"])
print(json.dumps(sorted(m for m in sys.modules if m.startswith("madohub_memory") or m == "numpy")))
"""


def test_a_needle_across_the_chunk_boundary_is_found(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_bytes(b"x" * 10 + b"AskUserQuestion" + b"y" * 10)
    for chunk in (4, 12, 17, 64):
        assert _mentions(str(path), b"AskUserQuestion", chunk)
    assert not _mentions(str(path), b"AskUserQuestions", 8)


def test_stop_hook_imports_only_what_it_uses(tmp_path: Path) -> None:
    """No other command's module, no numpy and, without an AskUserQuestion, no decision memory."""
    transcript = write_jsonl(tmp_path / f"{SESSION}.jsonl", [
        cc_user("u1", "Always run the linter before pushing."),
        cc_assistant("a1", "m1", [text("Understood, lint first.")], "u1")])
    event = json.dumps({"session_id": SESSION, "hook_event_name": "Stop", "cwd": CWD,
                        "transcript_path": str(transcript)})
    db = tmp_path / "memory.db"
    done = subprocess.run([sys.executable, "-c", PROBE, str(db), event], capture_output=True, text=True,
                          timeout=120, env={"MADOHUB_HOOK_LOG": str(tmp_path / "hook.log"), "PATH": "/usr/bin:/bin",
                                            **{k: v for k, v in __import__("os").environ.items() if k == "PYTHONPATH"}})
    assert done.returncode == 0, done.stderr
    loaded = set(json.loads(done.stdout.splitlines()[-1]))
    assert "madohub_memory.agents.claude_code.hook" in loaded
    assert not {"madohub_memory.cli.review_cmd", "madohub_memory.cli.recall_cmd", "madohub_memory.cli.gui_cmd"} & loaded
    assert "madohub_memory.services.decisions" not in loaded
    assert "numpy" not in loaded  # ~100 ms of a 200 ms budget; the instruction model imports it when it scores
    with Services.open(db) as svc:
        assert svc.store.query_one("SELECT COUNT(*) FROM turns")[0] == 2


def test_a_transcript_that_asks_still_records_the_decision(tmp_path: Path) -> None:
    transcript = tmp_path / "asks.jsonl"
    transcript.write_text("\n".join([_ask("t1", [Q_TIER]), _answer("t1", {"Which tier?": "Tier L"})]) + "\n",
                          encoding="utf-8")
    with Services.open(tmp_path / "memory.db") as svc:
        summary = svc.ingest.ingest_paths([str(transcript)], format="claude-code", extract=False)
        assert summary["decisions"] == 1
        assert svc.decisions.stats()


def _run_stop_hook(tmp_path: Path, transcript: Path) -> set[str]:
    """One ``Stop`` hook in a fresh process; the ``madohub_memory`` modules it loaded."""
    event = json.dumps({"session_id": SESSION, "hook_event_name": "Stop", "cwd": CWD,
                        "transcript_path": str(transcript)})
    env = {"MADOHUB_HOOK_LOG": str(tmp_path / "hook.log"), "PATH": "/usr/bin:/bin",
           **{k: v for k, v in __import__("os").environ.items() if k == "PYTHONPATH"}}
    done = subprocess.run([sys.executable, "-c", PROBE, str(tmp_path / "memory.db"), event], capture_output=True,
                          text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout.splitlines()[-1]))


def test_turns_after_a_decision_do_not_parse_the_session_again(tmp_path: Path) -> None:
    """Once a session has asked one question, later turns without one cost no decision parse."""
    transcript = tmp_path / f"{SESSION}.jsonl"
    transcript.write_text("\n".join([_ask("t1", [Q_TIER]), _answer("t1", {"Which tier?": "Tier L"})]) + "\n",
                          encoding="utf-8")
    assert "madohub_memory.services.decisions" in _run_stop_hook(tmp_path, transcript)
    with transcript.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(cc_user("u2", "Always run the linter before pushing.")) + "\n")
    assert "madohub_memory.services.decisions" not in _run_stop_hook(tmp_path, transcript)
    with Services.open(tmp_path / "memory.db") as svc:
        assert svc.decisions.stats()["records"] == 1


def test_an_answer_read_after_its_question_is_still_recorded(tmp_path: Path) -> None:
    """The question came with one turn, the answer with the next: the decision is recorded."""
    transcript = tmp_path / f"{SESSION}.jsonl"
    transcript.write_text(_ask("t1", [Q_TIER]) + "\n", encoding="utf-8")
    with Services.open(tmp_path / "memory.db") as svc:
        svc.ingest.ingest_paths([str(transcript)], format="claude-code", extract=False)
        with transcript.open("a", encoding="utf-8") as handle:
            handle.write(_answer("t1", {"Which tier?": "Tier L"}) + "\n")
        summary = svc.ingest.ingest_paths([str(transcript)], format="claude-code", extract=False)
        assert summary["decisions"] == 1


def test_a_transcript_that_did_not_grow_is_not_written_again(tmp_path: Path) -> None:
    """Stop and SubagentStop for the same turn: the second import changes no row (no write lock, no sync)."""
    transcript = write_jsonl(tmp_path / f"{SESSION}.jsonl", [
        cc_user("u1", "Always run the linter before pushing."),
        cc_assistant("a1", "m1", [text("Understood, lint first.")], "u1")])
    with Services.open(tmp_path / "memory.db") as svc:
        svc.ingest.ingest_paths([str(transcript)], format="claude-code", extract=False)
        changes = svc.store.conn.total_changes
        summary = svc.ingest.ingest_paths([str(transcript)], format="claude-code", extract=False)
        assert summary["turns"] == {"new": 0, "known": 2}
        assert svc.store.conn.total_changes == changes
        with transcript.open("a", encoding="utf-8") as handle:  # it grows again: read on from there
            handle.write(json.dumps(cc_user("u2", "Use pnpm, not npm.", parent="a1")) + "\n")
        assert svc.ingest.ingest_paths([str(transcript)], format="claude-code", extract=False)["turns"]["new"] == 1
