"""The smaller defects of issue 14, item 8: MCP lines that got no answer, a setting that
broke every recall, ids past 2^63, joiners stripped from emoji and Persian, "ok" for files
without turns, and error messages that echoed huge inputs."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from cli_runner import CliResult, invoke

from madohub_memory.core.errors import UserError, ValidationError
from madohub_memory.core.text import clean_text
from madohub_memory.services import Services

ROOT = Path(__file__).resolve().parents[1]


def _cli(db: Path, *args: str) -> CliResult:
    return invoke(*args, "--db", str(db), cwd=ROOT)


def _mcp_exchange(db: Path, lines: list[str], replies: int) -> list[dict]:
    """Write raw lines to the MCP server's stdin and read ``replies`` JSON lines back."""
    proc = subprocess.Popen([sys.executable, "-m", "madohub_memory", "mcp", "--db", str(db)], cwd=ROOT,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdin is not None and proc.stdout is not None
    out: list[dict] = []
    try:
        for line in lines:
            proc.stdin.write(line + "\n")
        proc.stdin.flush()
        lines_read: queue.Queue[str] = queue.Queue()
        threading.Thread(target=lambda: [lines_read.put(t) for t in proc.stdout], daemon=True).start()
        deadline = time.time() + 60
        while len(out) < replies and time.time() < deadline:
            try:
                out.append(json.loads(lines_read.get(timeout=max(0.01, deadline - time.time()))))
            except queue.Empty:
                break  # no answer: the line was dropped
    finally:
        proc.kill()
        proc.communicate()
    return out


INIT = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}})
INITIALIZED = json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"})


def test_mcp_answers_a_call_whose_arguments_hold_a_lone_surrogate(db_path: Path) -> None:
    call = ('{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "remember",'
            ' "arguments": {"content": "The user likes pizza \\ud83d", "kind": "preference"}}}')
    replies = _mcp_exchange(db_path, [INIT, INITIALIZED, call], 2)
    answer = next(r for r in replies if r.get("id") == 2)
    assert answer["result"]["structuredContent"]["outcome"] == "new"
    with Services.open(db_path) as svc:
        assert svc.review.pending()[0].content == "The user likes pizza \ufffd"


def test_mcp_answers_a_line_that_is_not_json_with_a_parse_error(db_path: Path) -> None:
    replies = _mcp_exchange(db_path, [INIT, INITIALIZED, "this is not json"], 2)
    error = next(r for r in replies if "error" in r)
    assert error["id"] is None and error["error"]["code"] == -32700


def test_an_unknown_embedding_model_is_refused(db_path: Path) -> None:
    Services.open(db_path).close()
    run = _cli(db_path, "settings", "set", "embedding.model", "gpt-9")
    assert run.returncode == 1 and "'gpt-9' is not allowed: use one of use-multilingual, e5-small, minilm" in run.stderr
    assert _cli(db_path, "settings", "get", "embedding.model").stdout.strip() == "e5-small"


@pytest.mark.parametrize("command", [["approve", "9223372036854775808"], ["memory", "show", "99999999999999999999"],
                                     ["reject", "18446744073709551616"]])
def test_ids_past_2_63_are_one_sentence(db_path: Path, command: list[str]) -> None:
    Services.open(db_path).close()
    run = _cli(db_path, *command)
    assert run.returncode != 0 and "Traceback" not in run.stderr
    assert "is not an id" in run.stderr


def test_a_huge_number_inside_a_service_call_is_one_sentence(svc: Services) -> None:
    svc.working.update("workspace:shop", "add_pending", "write the report")
    with pytest.raises(ValidationError, match="too large"):
        svc.working.update("workspace:shop", "resolve_pending", item_id=2**70)


def test_joiners_of_emoji_and_persian_words_are_kept() -> None:
    family = "👨\u200d👩\u200d👧"
    persian = "می\u200cخواهم"
    assert clean_text(f"My family {family}") == f"My family {family}"
    assert clean_text(persian) == persian
    assert clean_text("sk-\u200dabc\u200cdef") == "sk-abcdef"  # between ASCII letters they only hide things


@pytest.mark.parametrize(("name", "content", "fmt"), [
    ("chat.json", [{"id": "c1", "mapping": {"n1": {"id": "n1", "children": [], "message": None}}}], "chatgpt"),
    ("lme.json", [{"haystack_sessions": {"not": "a list"}}], "longmemeval"),
    ("locomo.json", [{"conversation": {"speaker_a": "A"}}], "locomo"),
])
def test_a_wrongly_shaped_file_is_not_ok_with_zero_turns(svc: Services, tmp_path: Path, name: str,
                                                         content: object, fmt: str) -> None:
    path = tmp_path / name
    path.write_text(json.dumps(content))
    summary = svc.ingest.ingest_paths([str(path)], format=fmt)
    assert summary["status"] != "ok"
    assert any("no conversation turns found" in e["message"] for e in summary["errors"])


@pytest.mark.parametrize("args", [
    ["settings", "set", "recall.k", "x" * 20_000],
    ["add", "fine text", "--kind", "k" * 20_000],
    ["add", "fine text", "--kind", "fact", "--namespace", "n" * 20_000],
])
def test_error_messages_do_not_echo_huge_inputs(db_path: Path, args: list[str]) -> None:
    Services.open(db_path).close()
    run = _cli(db_path, *args)
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert len(run.stderr) < 500, run.stderr[:200]


def test_restoring_an_archived_candidate_never_makes_two_pending_copies(svc: Services, clock) -> None:
    first = svc.review.remember("Use pnpm", "preference").candidate_id
    clock.advance(days=31)
    svc.sweep.run()  # archived
    second = svc.review.remember("use pnpm", "preference").candidate_id
    assert second != first
    with pytest.raises(UserError, match=f"same as pending candidate {second}"):
        svc.review.restore(first)
    assert [c.id for c in svc.review.pending()] == [second]
