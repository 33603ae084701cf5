"""The Claude Code headless backend against a stub ``claude`` executable put on PATH (a real
process): the flags it is run with, the masked prompt on stdin, and every way it can fail."""

from __future__ import annotations

import json
import os
import stat
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from test_ingest_helpers import SESSION, cc_assistant, cc_user, text, write_jsonl

from madohub_memory.extraction.base import TurnView
from madohub_memory.extraction.claude_cli import ClaudeCodeExtractor
from madohub_memory.extraction.limits import ExtractionPostponed, RetryPolicy
from madohub_memory.extraction.offline import OfflineExtractor
from madohub_memory.services import Services, extraction_backend

STUB = r'''#!{python}
"""A stand-in for `claude -p`: plays the behaviours in $STUB_CLAUDE_SCRIPT in order."""
import json, os, sys, time
script = json.load(open(os.environ["STUB_CLAUDE_SCRIPT"]))
counter = os.environ["STUB_CLAUDE_SCRIPT"] + ".n"
n = int(open(counter).read()) if os.path.exists(counter) else 0
open(counter, "w").write(str(n + 1))
step = script[min(n, len(script) - 1)]
prompt = sys.stdin.read()
with open(os.environ["STUB_CLAUDE_LOG"], "a") as log:
    log.write(json.dumps({{"argv": sys.argv[1:], "stdin": prompt, "cwd": os.getcwd(), "pid": os.getpid(),
                          "hook_disabled": os.environ.get("MADOHUB_HOOK_DISABLE")}}) + "\n")
time.sleep(step.get("sleep", 0))
out = step.get("stdout", "")
sys.stdout.write(out if isinstance(out, str) else json.dumps(out))
sys.stderr.write(step.get("stderr", ""))
sys.exit(step.get("code", 0))
'''

TURNS = [
    TurnView("t1", "user", "Don't commit with --no-verify; fix the hook findings instead.", created_at="2026-10-30T10:00:00Z"),
    TurnView("t2", "assistant", "Understood, I will fix the lint findings first."),
]
ITEM = {"content": "User wants hook findings fixed instead of committing with --no-verify.",
        "kind": "preference", "scope": "persona", "confidence": 0.9, "turn_ids": ["t1"]}


def result(text_: str, **extra: Any) -> dict[str, Any]:
    return {"type": "result", "subtype": "success", "is_error": False, "duration_ms": 1200, "num_turns": 1,
            "result": text_, "session_id": "abc", "total_cost_usd": 0.001,
            "usage": {"input_tokens": 1500, "output_tokens": 80, "cache_read_input_tokens": 0,
                      "cache_creation_input_tokens": 0}, **extra}


class Claude:
    """The stub's script and log."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.script = folder / "script.json"
        self.log = folder / "calls.jsonl"
        self.program = folder / "bin" / "claude"

    def play(self, *steps: dict[str, Any]) -> None:
        self.script.write_text(json.dumps(list(steps)), encoding="utf-8")
        Path(str(self.script) + ".n").unlink(missing_ok=True)

    @property
    def calls(self) -> list[dict[str, Any]]:
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text(encoding="utf-8").splitlines()]


@pytest.fixture
def claude(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Claude:
    stub = Claude(tmp_path / "claude-stub")
    stub.program.parent.mkdir(parents=True)
    stub.program.write_text(STUB.format(python=sys.executable), encoding="utf-8")
    stub.program.chmod(stub.program.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{stub.program.parent}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("STUB_CLAUDE_SCRIPT", str(stub.script))
    monkeypatch.setenv("STUB_CLAUDE_LOG", str(stub.log))
    stub.play({"stdout": result(json.dumps({"memories": []}))})
    return stub


def quick(**options: Any) -> dict[str, Any]:
    return {"retry": RetryPolicy(retries=options.pop("retries", 2)), "sleep": lambda _s: None, **options}


def test_runs_headless_with_isolation_flags_and_the_masked_prompt_on_stdin(claude: Claude) -> None:
    claude.play({"stdout": result(json.dumps({"memories": [ITEM]}))})
    key = "ghp_" + "x1Y2z3A4b5C6d7E8f9G0h1I2j3K4l5M6n7O8"
    turns = [*TURNS, TurnView("t3", "user", f"The token is {key}")]
    [draft] = ClaudeCodeExtractor(model="haiku", persona="ana").extract(turns, namespace="workspace:shop")
    assert (draft.kind, draft.namespace, draft.turn_ids) == ("preference", "persona:ana", ("t1",))
    [call] = claude.calls
    argv = call["argv"]
    assert argv[:3] == ["-p", "--output-format", "json"]
    assert argv[argv.index("--tools") + 1] == ""
    for flag in ("--no-session-persistence", "--strict-mcp-config", "--system-prompt"):
        assert flag in argv
    assert argv[argv.index("--model") + 1] == "haiku" and argv[argv.index("--max-turns") + 1] == "1"
    assert "Don't commit with --no-verify" in call["stdin"]  # the transcript goes on stdin ...
    assert not any("no-verify; fix" in a for a in argv)  # ... never on the command line
    assert key not in call["stdin"] and "[REDACTED]" in call["stdin"]
    assert call["hook_disabled"] == "1"
    assert call["cwd"].endswith("madohub-claude-extractor")


def test_verbose_array_output_is_read(claude: Claude) -> None:
    claude.play({"stdout": [{"type": "system", "subtype": "init"}, {"type": "assistant"},
                            result(json.dumps({"memories": [ITEM]}))]})
    assert len(ClaudeCodeExtractor().extract(TURNS)) == 1


def test_rate_limit_is_retried_then_succeeds(claude: Claude) -> None:
    claude.play({"stdout": result("API Error: 429 rate_limit_error", is_error=True, subtype="error_during_execution"),
                 "code": 1},
                {"stdout": result(json.dumps({"memories": [ITEM]}))})
    assert len(ClaudeCodeExtractor(**quick()).extract(TURNS)) == 1
    assert len(claude.calls) == 2


def test_usage_limit_with_a_far_reset_pauses_extraction(claude: Claude, svc: Services) -> None:
    reset = int(time.time()) + 5 * 3600
    claude.play({"stdout": result(f"Claude AI usage limit reached|{reset}", is_error=True), "code": 1})
    ex = ClaudeCodeExtractor(budget=extraction_backend.StoreBudget(svc), **quick())
    with pytest.raises(ExtractionPostponed, match="asked to wait"):
        ex.extract(TURNS)
    with pytest.raises(ExtractionPostponed, match="paused until"):
        ex.extract(TURNS)
    assert len(claude.calls) == 1


def test_timeout_kills_the_process_and_postpones(claude: Claude) -> None:
    claude.play({"sleep": 30, "stdout": result("{}")})
    started = time.monotonic()
    with pytest.raises(ExtractionPostponed, match="no reply within 1 s"):
        ClaudeCodeExtractor(timeout=1, **quick(retries=1)).extract(TURNS)
    assert time.monotonic() - started < 8
    assert len(claude.calls) == 2
    for call in claude.calls:
        with pytest.raises(ProcessLookupError):
            os.kill(call["pid"], 0)


def test_unreadable_reply_twice_goes_to_the_offline_extractor(claude: Claude) -> None:
    claude.play({"stdout": result("I could not find anything worth remembering, sorry!")})
    turns = [TurnView("t1", "user", "I always use pnpm instead of npm."), TurnView("t2", "assistant", "OK.")]
    drafts = ClaudeCodeExtractor(fallback=OfflineExtractor()).extract(turns)
    assert [d.content for d in drafts] == ["User always uses pnpm instead of npm."]
    assert len(claude.calls) == 2


@pytest.mark.parametrize(("step", "message"), [
    ({"stderr": "error: unknown option '--no-session-persistence'\n", "code": 1}, "too old .*`claude update`"),
    ({"stderr": "Invalid API key · Please run /login\n", "code": 1}, "not logged in"),
])
def test_problems_the_user_must_fix_are_not_retried(claude: Claude, step: dict[str, Any], message: str) -> None:
    claude.play(step)
    with pytest.raises(ExtractionPostponed, match=message):
        ClaudeCodeExtractor(**quick()).extract(TURNS)
    assert len(claude.calls) == 1


def test_missing_program_says_how_to_fix_it(claude: Claude) -> None:
    with pytest.raises(ExtractionPostponed, match=r"not found .*extraction.claude.executable"):
        ClaudeCodeExtractor(executable="/no/such/claude").extract(TURNS)


def test_crash_without_json_is_retried_then_postponed(claude: Claude) -> None:
    claude.play({"stderr": "Segmentation fault\n", "code": 139})
    with pytest.raises(ExtractionPostponed, match=r"failed 3 times .exit status 139: Segmentation fault"):
        ClaudeCodeExtractor(**quick()).extract(TURNS)


def test_ingest_with_the_claude_code_backend_counts_the_budget(claude: Claude, svc: Services, tmp_path: Path) -> None:
    claude.play({"stdout": result(json.dumps({"memories": [
        {"content": "The shop project uses pnpm, not npm.", "kind": "fact", "scope": "workspace",
         "confidence": 0.9, "turn_ids": ["u1"]}]}))})
    svc.settings.set("extraction.backend", "claude-code")
    session = write_jsonl(tmp_path / "p" / f"{SESSION}.jsonl", [
        cc_user("u1", "We use pnpm, not npm, in this repo."), cc_assistant("a1", "m1", [text("OK, pnpm.")])])
    summary = svc.ingest.ingest_paths([str(session)])
    assert summary["candidates"]["new"] == 1 and not summary["warnings"]
    [candidate] = svc.review.pending()
    assert candidate.namespace == "workspace:demo-app" and candidate.turn_ids == ["u1"]
    usage = extraction_backend.usage_today(svc)
    assert usage["calls"] == 1 and usage["tokens"] == 1580  # as Claude Code reported


def test_the_hook_ignores_events_from_the_headless_run(tmp_path: Path, db_path: Path) -> None:
    import subprocess

    event = json.dumps({"hook_event_name": "SessionStart", "cwd": "/home/ana/src/shop", "source": "startup"})
    env = {**os.environ, "MADOHUB_DB": str(db_path), "MADOHUB_HOOK_DISABLE": "1",
           "MADOHUB_HOOK_LOG": str(tmp_path / "hook.log")}
    done = subprocess.run([sys.executable, "-m", "madohub_memory", "hook"], input=event.encode(),
                          capture_output=True, env=env, timeout=60)
    assert done.returncode == 0 and done.stdout == b""
    assert not db_path.exists()
