"""The real Codex CLI (pinned in package.json) with ``setup codex``, offline, end to end.

Codex talks to the scripted Responses endpoint on 127.0.0.1 (tests/responses_server.py)
in a HOME and CODEX_HOME of the test's own. Checked as a user would see it: the guide
reaches the model's first request, the agent's ``remember`` call lands a candidate in the
right namespace, the finished turn is imported through ``notify`` and extracted, the
rollout file Codex wrote is what ``ingest`` reads, and ``setup codex --uninstall`` gives
Codex back its config byte for byte (the next session has neither our guide nor our tools).
Waits are on conditions (a request arrived, a row exists) with generous deadlines.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

from agent_clients import require_client
from cli_runner import invoke
from codex_client import codex_home, configure, run_codex
from responses_server import ResponsesServer, function_outputs, message, request_text, tool_names

from madohub_memory.services import Services

GUIDE_WORDS = "call the `remember` tool"
REQUIRED = ("mcp_servers.madohub.required=true",)  # the first request waits for our tools
PROMPT = "以后提交前一律先跑 make lint，不要用 --no-verify。Please fix the failing test."


def wait_for(check: Callable[[], bool], what: str, timeout: float = 180.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


def remember_call(request) -> list[dict[str, object]]:  # type: ignore[no-untyped-def]
    """The model calls our MCP tool, as Codex 0.171 names it: namespace ``mcp__madohub``."""
    assert "mcp__madohubremember" in tool_names(request), tool_names(request)
    arguments = {"content": "用户要求提交前先跑 make lint，不要用 --no-verify。", "kind": "preference",
                 "namespace": "workspace:shop"}
    return [{"type": "function_call", "name": "remember", "namespace": "mcp__madohub",
             "arguments": json.dumps(arguments, ensure_ascii=False)}]


def count(db: Path, sql: str) -> int:
    if not db.exists():
        return 0
    with Services.open(db) as svc:
        return int(svc.store.query_one(sql)[0])


def test_a_codex_session_reaches_the_queue(tmp_path: Path) -> None:
    codex = require_client("codex")
    target = codex_home(tmp_path)
    db = tmp_path / "memory.db"
    with ResponsesServer([remember_call, [message("Fixed: settings.py now defines TAX; 7 tests pass.")]]) as server:
        configure(target, server.base_url)
        done = invoke("--db", str(db), "setup", "codex", env=target.env)
        assert done.returncode == 0, done.stderr
        run_codex(codex, target, PROMPT, overrides=REQUIRED)
        requests = server.wait_for(lambda r: r.method == "POST" and r.path.endswith("/responses"), 2)
        first, second = requests[0], requests[1]

    # the guide (AGENTS.md in CODEX_HOME) is in the very first request Codex sends
    assert GUIDE_WORDS in request_text(first) and "workspace:<repo>" in request_text(first)
    assert PROMPT in request_text(first)
    # the agent's remember call landed one pending candidate, in the project's namespace
    (output,) = function_outputs(second)
    assert '"outcome":"new"' in str(output["output"]).replace(" ", "")
    with Services.open(db) as svc:
        (remembered,) = [c for c in svc.review.pending() if c.source == "remember"]
    assert (remembered.namespace, remembered.kind, remembered.status) == ("workspace:shop", "preference", "pending")
    assert remembered.content == "用户要求提交前先跑 make lint，不要用 --no-verify。"

    # notify imported the finished turn from the rollout file Codex wrote, and extraction ran
    (rollout,) = target.rollouts()
    session = rollout.stem[-36:]
    wait_for(lambda: count(db, f"SELECT COUNT(*) FROM turns WHERE conversation_id = 'cx:{session}'") >= 4,
             "the notify import")
    wait_for(lambda: count(db, "SELECT COUNT(*) FROM turns WHERE extract_state IN ('pending', 'claimed')") == 0,
             "the background extraction")
    with Services.open(db) as svc:
        (conversation,) = svc.store.query("SELECT namespace, format FROM conversations")
        assert tuple(conversation) == ("workspace:shop", "codex")
        turns = [tuple(r) for r in svc.store.query("SELECT role, content FROM turns ORDER BY seq")]
        assert turns[0] == ("user", PROMPT)
        assert ("assistant", "[tool mcp__madohub__remember] 用户要求提交前先跑 make lint，不要用 --no-verify。") in turns
        # the agent's remember call, read back from the rollout, is now its candidate's turn
        call_turn = svc.store.query_one("SELECT id FROM turns WHERE content LIKE '[tool mcp__madohub__remember]%'")[0]
        assert call_turn in svc.review.get(remembered.id).turn_ids
        prompt_turn = svc.store.query_one("SELECT id FROM turns WHERE role = 'user'")[0]
        # the extractor found the rule in the person's own words too: a candidate (or a second
        # sighting of the agent's) traces back to the prompt
        assert any(prompt_turn in c.turn_ids for c in svc.review.pending())
        for candidate in svc.review.pending():
            for turn_id in candidate.turn_ids:
                assert svc.turns.context(turn_id, radius=1)["turn"]["id"] == turn_id
    assert "codex-notify" in (tmp_path / "hook.log").read_text()

    # importing the same rollout by hand afterwards adds nothing
    before = count(db, "SELECT COUNT(*) FROM turns")
    done = invoke("--db", str(db), "--json", "ingest", str(target.sessions()), env=target.env)
    assert json.loads(done.stdout)["turns"]["new"] == 0 and count(db, "SELECT COUNT(*) FROM turns") == before


def test_setup_and_uninstall_round_trip_with_the_real_client(tmp_path: Path) -> None:
    codex = require_client("codex")
    target = codex_home(tmp_path)
    db = tmp_path / "memory.db"
    with ResponsesServer() as server:
        config = configure(target, server.base_url, extra="# my own comment\n")
        original = config.read_bytes()
        assert invoke("--db", str(db), "setup", "codex", env=target.env).returncode == 0
        installed = config.read_bytes()
        assert invoke("--db", str(db), "setup", "codex", env=target.env).returncode == 0
        assert config.read_bytes() == installed  # twice: byte-identical
        run_codex(codex, target, "Hello.", overrides=REQUIRED)
        (with_us,) = server.turns()
        assert GUIDE_WORDS in request_text(with_us) and "mcp__madohubremember" in tool_names(with_us)

        done = invoke("--db", str(db), "setup", "codex", "--uninstall", env=target.env)
        assert done.returncode == 0 and "removed" in done.stdout
        assert config.read_bytes() == original and not (target.codex_home / "AGENTS.md").exists()
        run_codex(codex, target, "Hello again.")
        without = server.turns()[-1]
        assert GUIDE_WORDS not in request_text(without)
        assert not any("madohub" in name for name in tool_names(without))
