"""The opt-in LLM extractor against a real local HTTP stub (127.0.0.1, port 0)."""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from madohub_memory.extraction.base import TurnView
from madohub_memory.extraction.llm import LLMExtractor
from madohub_memory.extraction.registry import build_extractor


class Stub:
    """What the fake endpoint answers next, and what it received."""

    def __init__(self) -> None:
        self.status = 200
        self.body: Any = None
        self.delay = 0.0
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []

    def reply(self, content: str) -> None:
        self.status = 200
        self.body = {"choices": [{"message": {"role": "assistant", "content": content}}]}


@pytest.fixture
def stub() -> Iterator[tuple[Stub, str]]:
    state = Stub()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", 0))
            state.requests.append(json.loads(self.rfile.read(length)))
            state.headers.append(dict(self.headers))
            if state.delay:
                time.sleep(state.delay)
            data = state.body if isinstance(state.body, bytes) else json.dumps(state.body).encode()
            try:
                self.send_response(state.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield state, f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()
    thread.join(5)


TURNS = [
    TurnView("t1", "user", "We decided to use SQLite because the app must work offline."),
    TurnView("t2", "assistant", "Understood, SQLite it is."),
]


def good_item(**changes: Any) -> dict[str, Any]:
    item = {"content": "User decided to use SQLite because the app must work offline.",
            "kind": "decision", "confidence": 0.8, "turn_ids": ["t1"]}
    item.update(changes)
    return item


def test_valid_reply_becomes_drafts_and_request_is_openai_shaped(stub, monkeypatch):
    state, url = stub
    state.reply(json.dumps({"memories": [good_item()]}))
    ex = LLMExtractor(url, "qwen2.5:7b", api_key="sk-test-key")
    drafts = ex.extract(TURNS, mode="compaction", namespace="workspace:demo")
    assert len(drafts) == 1
    d = drafts[0]
    assert (d.kind, d.source, d.namespace, d.turn_ids) == ("decision", "compaction", "workspace:demo", ("t1",))
    request = state.requests[0]
    assert request["model"] == "qwen2.5:7b"
    assert request["messages"][0]["role"] == "system"
    assert "[t1] user: We decided" in request["messages"][1]["content"]
    assert state.headers[0]["Authorization"] == "Bearer sk-test-key"


def test_invalid_items_are_dropped_and_logged(stub, caplog):
    state, url = stub
    items = [
        good_item(),
        good_item(kind="opinion"),  # not in the closed vocabulary
        good_item(kind="Decision"),  # strict: no case folding
        good_item(confidence=1.7),
        good_item(confidence="high"),
        good_item(content="   "),
        good_item(turn_ids=["t99"]),  # a turn that was never sent
        "just a string",
    ]
    state.reply(json.dumps({"memories": items}))
    with caplog.at_level(logging.WARNING, logger="madohub_memory.extraction.llm"):
        drafts = LLMExtractor(url, "m").extract(TURNS)
    assert [d.kind for d in drafts] == ["decision"]
    assert len([r for r in caplog.records if "dropped" in r.getMessage()]) == 7


@pytest.mark.parametrize("body", [
    b"this is not json at all",
    {"choices": []},
    {"choices": [{"message": {"content": "Sure! Here are your memories: none"}}]},
    {"choices": [{"message": {"content": "{\"memories\": \"none\"}"}}]},
])
def test_malformed_output_yields_nothing(stub, caplog, body):
    state, url = stub
    state.body = body
    with caplog.at_level(logging.WARNING, logger="madohub_memory.extraction.llm"):
        assert LLMExtractor(url, "m").extract(TURNS) == []
    assert caplog.records


def test_http_500_yields_nothing(stub, caplog):
    state, url = stub
    state.status = 500
    state.body = {"error": "model crashed"}
    with caplog.at_level(logging.WARNING, logger="madohub_memory.extraction.llm"):
        assert LLMExtractor(url, "m").extract(TURNS) == []
    assert "500" in caplog.text


def test_timeout_yields_nothing_quickly(stub, caplog):
    state, url = stub
    state.reply(json.dumps({"memories": [good_item()]}))
    state.delay = 2.0
    started = time.monotonic()
    with caplog.at_level(logging.WARNING, logger="madohub_memory.extraction.llm"):
        assert LLMExtractor(url, "m", timeout=0.3).extract(TURNS) == []
    assert time.monotonic() - started < 1.5
    assert "failed" in caplog.text


def test_fenced_json_and_bare_list_are_accepted(stub):
    state, url = stub
    state.reply("```json\n" + json.dumps([good_item(kind="fact")]) + "\n```")
    assert [d.kind for d in LLMExtractor(url, "m").extract(TURNS)] == ["fact"]


def test_registry_builds_llm_from_settings_and_drafts_pass_review(stub, svc, monkeypatch):
    state, url = stub
    state.reply(json.dumps({"memories": [good_item(content="User's key is sk-proj-abcdefghijklmnopqrstuvwx")]}))
    monkeypatch.setenv("MY_LLM_KEY", "secret-from-env")
    svc.settings.set("extraction.backend", "llm")
    svc.settings.set("extraction.llm.base_url", url)
    svc.settings.set("extraction.llm.model", "tiny")
    svc.settings.set("extraction.llm.api_key_env", "MY_LLM_KEY")
    ex = build_extractor(svc)
    assert ex.name == "llm"
    drafts = ex.extract(TURNS)
    assert state.headers[0]["Authorization"] == "Bearer secret-from-env"
    result = svc.review.submit(drafts[0])
    candidate = svc.review.get(result.candidate_id)
    assert "sk-proj-abcdefghijklmnopqrstuvwx" not in candidate.content
    assert "secret" in candidate.flags


def test_registry_defaults_to_offline(svc):
    assert build_extractor(svc).name == "offline"
