"""The OpenAI-compatible LLM extractor against a real local HTTP stub (127.0.0.1, port 0):
strict replies, masked secrets, retries and Retry-After, bad JSON, and the daily budget."""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from test_ingest_helpers import SESSION, cc_assistant, cc_user, text, write_jsonl

from madohub_memory.extraction.base import TurnView
from madohub_memory.extraction.limits import ExtractionPostponed, RetryPolicy
from madohub_memory.extraction.llm import LLMExtractor, retry_after_seconds
from madohub_memory.extraction.llm_prompt import PROMPT_VERSION
from madohub_memory.extraction.offline import OfflineExtractor
from madohub_memory.extraction.registry import build_extractor
from madohub_memory.services import Services, extraction_backend


class Stub:
    """What the fake endpoint answers (a queue, then a default), and what it received."""

    def __init__(self) -> None:
        self.queue: list[tuple[int, Any, dict[str, str], float]] = []
        self.default: tuple[int, Any, dict[str, str], float] = (200, {"choices": []}, {}, 0.0)
        self.requests: list[dict[str, Any]] = []
        self.raw: list[bytes] = []
        self.headers: list[dict[str, str]] = []

    def reply(self, content: str, *, status: int = 200, headers: dict[str, str] | None = None,
              delay: float = 0.0, once: bool = False, usage: dict[str, int] | None = None) -> None:
        body: dict[str, Any] = {"choices": [{"message": {"role": "assistant", "content": content}}]}
        if usage:
            body["usage"] = usage
        self.respond(status, body, headers=headers, delay=delay, once=once)

    def respond(self, status: int, body: Any, *, headers: dict[str, str] | None = None, delay: float = 0.0,
                once: bool = False) -> None:
        entry = (status, body, headers or {}, delay)
        if once:
            self.queue.append(entry)
        else:
            self.default = entry


@pytest.fixture
def stub() -> Iterator[tuple[Stub, str]]:
    state = Stub()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", 0))
            raw = self.rfile.read(length)
            state.raw.append(raw)
            state.requests.append(json.loads(raw))
            state.headers.append(dict(self.headers))
            status, body, headers, delay = state.queue.pop(0) if state.queue else state.default
            if delay:
                time.sleep(delay)
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                for key, value in headers.items():
                    self.send_header(key, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    # a short poll: shutdown() waits for one, and every test stops a server
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    yield state, f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()
    thread.join(5)


TURNS = [
    TurnView("t1", "user", "We decided to use SQLite because the app must work offline.", created_at="2026-10-30T10:00:00Z"),
    TurnView("t2", "assistant", "Understood, SQLite it is."),
]


def good_item(**changes: Any) -> dict[str, Any]:
    item = {"content": "User decided to use SQLite because the app must work offline.",
            "kind": "decision", "scope": "workspace", "confidence": 0.8, "turn_ids": ["t1"]}
    item.update(changes)
    return item


def fast(retries: int = 2, delays: list[float] | None = None) -> dict[str, Any]:
    """Retries without real waiting: the delays asked for are recorded instead."""
    return {"retry": RetryPolicy(retries=retries), "sleep": (delays if delays is not None else []).append}


def test_valid_reply_becomes_drafts_and_request_is_openai_shaped(stub):
    state, url = stub
    state.reply(json.dumps({"memories": [good_item()]}))
    ex = LLMExtractor(url, "qwen2.5:7b", api_key="sk-test-key-000")
    drafts = ex.extract(TURNS, mode="compaction", namespace="workspace:demo")
    assert len(drafts) == 1
    d = drafts[0]
    assert (d.kind, d.source, d.namespace, d.turn_ids) == ("decision", "compaction", "workspace:demo", ("t1",))
    request = state.requests[0]
    assert request["model"] == "qwen2.5:7b" and request["temperature"] == 0
    assert request["messages"][0]["role"] == "system"
    for kind in ("preference", "fact", "decision", "pattern", "postmortem", "event"):
        assert kind in request["messages"][0]["content"]
    user = request["messages"][1]["content"]
    assert user.startswith(f"Prompt v{PROMPT_VERSION}.")
    assert "[t1] (2026-10-30) user: We decided" in user  # the date lets the model write absolute dates
    assert state.headers[0]["Authorization"] == "Bearer sk-test-key-000"


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
        good_item(turn_ids=[]),  # every memory names its turns
        good_item(scope="team"),
        "just a string",
    ]
    state.reply(json.dumps({"memories": items}))
    with caplog.at_level(logging.WARNING, logger="madohub_memory.extraction.llm_prompt"):
        drafts = LLMExtractor(url, "m").extract(TURNS)
    assert [d.kind for d in drafts] == ["decision"]
    assert len([r for r in caplog.records if "dropped" in r.getMessage()]) == 9


def test_persona_scope_goes_to_the_active_persona(stub):
    state, url = stub
    state.reply(json.dumps({"memories": [good_item(kind="preference", scope="persona",
                                                   content="User prefers pnpm over npm.")]}))
    [draft] = LLMExtractor(url, "m", persona="ana").extract(TURNS, namespace="workspace:demo")
    assert draft.namespace == "persona:ana"


def test_secrets_are_masked_before_anything_is_sent(stub):
    state, url = stub
    state.reply(json.dumps({"memories": []}))
    key = "sk-proj-" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4"
    turns = [TurnView("t1", "user", f"Deploy with OPENAI_API_KEY={key} and password: hunter22x please")]
    LLMExtractor(url, "m").extract(turns)
    sent = state.raw[0].decode()
    assert key not in sent and "hunter22x" not in sent
    assert "[REDACTED]" in sent


def test_fenced_json_prose_around_json_and_bare_list_are_accepted(stub):
    state, url = stub
    state.reply("```json\n" + json.dumps([good_item(kind="fact")]) + "\n```")
    assert [d.kind for d in LLMExtractor(url, "m").extract(TURNS)] == ["fact"]
    state.reply("Here are the memories:\n" + json.dumps({"memories": [good_item(kind="event")]}) + "\nDone.")
    assert [d.kind for d in LLMExtractor(url, "m").extract(TURNS)] == ["event"]


def test_429_with_a_short_retry_after_is_waited_out(stub):
    state, url = stub
    state.reply("", status=429, headers={"Retry-After": "1"}, once=True)
    state.reply(json.dumps({"memories": [good_item()]}))
    started = time.monotonic()
    drafts = LLMExtractor(url, "m", retry=RetryPolicy(retries=2)).extract(TURNS)  # real sleep
    assert len(drafts) == 1 and len(state.requests) == 2
    assert time.monotonic() - started >= 0.95


def test_429_with_a_long_retry_after_pauses_extraction(stub, svc):
    state, url = stub
    state.reply("", status=429, headers={"Retry-After": "3600"})
    ex = LLMExtractor(url, "m", budget=extraction_backend.StoreBudget(svc), **fast())
    with pytest.raises(ExtractionPostponed, match="asked to wait 3600 s"):
        ex.extract(TURNS)
    assert len(state.requests) == 1
    assert extraction_backend.usage_today(svc)["paused_until"] is not None
    with pytest.raises(ExtractionPostponed, match="paused until"):
        ex.extract(TURNS)
    assert len(state.requests) == 1  # nothing sent while paused
    svc.clock.advance(hours=1, minutes=1)
    state.reply(json.dumps({"memories": [good_item()]}))
    assert len(ex.extract(TURNS)) == 1


def test_retry_after_as_an_http_date():
    assert retry_after_seconds("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412480 - 30) == pytest.approx(30)
    assert retry_after_seconds("soon") is None and retry_after_seconds("12") == 12


def test_server_errors_are_retried_with_growing_backoff_then_postponed(stub):
    state, url = stub
    state.respond(500, {"error": "model crashed"})
    delays: list[float] = []
    with pytest.raises(ExtractionPostponed, match=r"failed 4 times .HTTP 500"):
        LLMExtractor(url, "m", **fast(retries=3, delays=delays)).extract(TURNS)
    assert len(state.requests) == 4
    assert len(delays) == 3 and delays[0] < delays[2]


def test_a_503_then_success_recovers(stub):
    state, url = stub
    state.respond(503, {"error": "loading model"}, once=True)
    state.reply(json.dumps({"memories": [good_item()]}))
    assert len(LLMExtractor(url, "m", **fast()).extract(TURNS)) == 1


def test_timeout_is_retried_then_postponed_quickly(stub):
    state, url = stub
    state.reply(json.dumps({"memories": [good_item()]}), delay=2.0)
    started = time.monotonic()
    with pytest.raises(ExtractionPostponed, match=r"no reply within 0.3 s"):
        LLMExtractor(url, "m", timeout=0.3, **fast(retries=1)).extract(TURNS)
    assert time.monotonic() - started < 1.8
    assert len(state.requests) == 2


def test_connection_refused_is_postponed():
    with pytest.raises(ExtractionPostponed, match="cannot reach it"):
        LLMExtractor("http://127.0.0.1:9/v1", "m", **fast(retries=1)).extract(TURNS)


@pytest.mark.parametrize(("status", "advice"), [(401, "API key was refused"), (404, "ends in /v1")])
def test_client_errors_are_not_retried_and_say_what_to_fix(stub, status, advice):
    state, url = stub
    state.respond(status, {"error": "no"})
    with pytest.raises(ExtractionPostponed, match=advice):
        LLMExtractor(url, "m", **fast()).extract(TURNS)
    assert len(state.requests) == 1


@pytest.mark.parametrize("body", [
    b"this is not json at all",
    {"choices": []},
    {"choices": [{"message": {"content": "Sure! Here are your memories: none"}}]},
    {"choices": [{"message": {"content": "{\"memories\": \"none\"}"}}]},
])
def test_unreadable_reply_is_asked_again_then_the_offline_extractor_takes_the_span(stub, caplog, body):
    state, url = stub
    state.respond(200, body)
    turns = [TurnView("t1", "user", "I always use pnpm instead of npm."), TurnView("t2", "assistant", "OK.")]
    with caplog.at_level(logging.WARNING):
        drafts = LLMExtractor(url, "m", fallback=OfflineExtractor()).extract(turns)
    assert len(state.requests) == 2
    assert [d.content for d in drafts] == ["User always uses pnpm instead of npm."]
    assert "offline extractor" in caplog.text


def test_unreadable_then_good_reply_uses_the_good_one(stub):
    state, url = stub
    state.reply("not json", once=True)
    state.reply(json.dumps({"memories": [good_item()]}))
    assert [d.kind for d in LLMExtractor(url, "m", fallback=OfflineExtractor()).extract(TURNS)] == ["decision"]


# -- through the services: settings, budget, nothing lost --------------------------------------


def _long_session(path: Path, exchanges: int) -> Path:
    records: list[dict[str, Any]] = []
    for i in range(exchanges):
        records.append(cc_user(f"u{i}", f"Rule {i}: keep the build green. " + "details " * 600))
        records.append(cc_assistant(f"a{i}", f"m{i}", [text(f"Noted rule {i}.")]))
    return write_jsonl(path / f"{SESSION}.jsonl", records)


def _use_stub(svc: Services, url: str, **limits: int) -> None:
    svc.settings.set("extraction.backend", "llm")
    svc.settings.set("extraction.llm.base_url", url)
    svc.settings.set("extraction.llm.retries", 0)
    for key, value in limits.items():
        svc.settings.set(f"extraction.llm.{key}", value)


def test_daily_budget_postpones_the_rest_and_loses_nothing(stub, svc, tmp_path):
    state, url = stub
    state.reply(json.dumps({"memories": [good_item(content="The project keeps the build green.", kind="pattern",
                                                   turn_ids=["u0"])]}))
    _use_stub(svc, url, daily_calls=1)
    summary = svc.ingest.ingest_paths([str(_long_session(tmp_path, 12))])
    assert len(state.requests) == 1
    assert any("budget is used up" in w["message"] for w in summary["warnings"])
    states = svc.ingest.pending()
    assert states.get("done", 0) > 0 and states.get("pending", 0) > 0 and not states.get("claimed")
    usage = extraction_backend.usage_today(svc)
    assert usage["calls"] == 1 and usage["daily_calls"] == 1 and usage["tokens"] > 0
    with pytest.raises(ExtractionPostponed, match="budget is used up"):
        svc.ingest.drain()
    assert len(state.requests) == 1  # nothing sent over budget
    pending_before = svc.ingest.pending()["pending"]
    svc.clock.advance(days=1)  # a new day: the budget starts again, and runs out after one call
    with pytest.raises(ExtractionPostponed, match="budget is used up"):
        svc.ingest.drain()
    assert len(state.requests) == 2
    assert 0 < svc.ingest.pending()["pending"] < pending_before  # the paid-for call's turns are kept
    svc.settings.set("extraction.llm.daily_calls", 0)  # 0 = no limit
    svc.ingest.drain()
    assert svc.ingest.pending().get("pending", 0) == 0
    assert [c.content for c in svc.review.pending()] == ["The project keeps the build green."]


def test_token_budget_counts_reported_usage(stub, svc):
    state, url = stub
    state.reply(json.dumps({"memories": []}), usage={"prompt_tokens": 900, "completion_tokens": 100,
                                                      "total_tokens": 1000})
    _use_stub(svc, url, daily_tokens=1500)
    ex = extraction_backend.build(svc)
    ex.extract(TURNS)
    assert extraction_backend.usage_today(svc)["tokens"] == 1000
    with pytest.raises(ExtractionPostponed, match="1,000 of 1500 tokens"):
        ex.extract([TurnView("t9", "user", "x " * 2000)])


def test_registry_builds_llm_from_settings_and_drafts_pass_review(stub, svc, monkeypatch):
    state, url = stub
    state.reply(json.dumps({"memories": [good_item(content="User's key is sk-proj-abcdefghijklmnopqrstuvwx")]}))
    monkeypatch.setenv("MY_LLM_KEY", "secret-from-env")
    svc.settings.set("extraction.backend", "llm")
    svc.settings.set("extraction.llm.base_url", url)
    svc.settings.set("extraction.llm.model", "tiny")
    svc.settings.set("extraction.llm.api_key_env", "MY_LLM_KEY")
    ex = extraction_backend.build(svc)
    assert ex.name == "llm"
    drafts = ex.extract(TURNS)
    assert state.headers[0]["Authorization"] == "Bearer secret-from-env"
    result = svc.review.submit(drafts[0])
    candidate = svc.review.get(result.candidate_id)
    assert "sk-proj-abcdefghijklmnopqrstuvwx" not in candidate.content
    assert "secret" in candidate.flags


def test_registry_takes_plain_values():
    assert build_extractor({}).name == "offline"
    ex = build_extractor({"extraction.backend": "llm", "extraction.llm.base_url": "http://127.0.0.1:1/v1",
                          "extraction.llm.model": "m", "extraction.llm.api_key_env": "K",
                          "extraction.llm.timeout": 7, "extraction.llm.retries": 4}, environ={"K": "v"})
    assert (ex.name, ex.api_key, ex.timeout, ex.retry.retries) == ("llm", "v", 7.0, 4)
    assert build_extractor({"extraction.backend": "claude-code"}).name == "claude-code"


def test_settings_reject_a_bad_url_and_accept_the_new_backend(svc):
    from madohub_memory.core.errors import ValidationError

    with pytest.raises(ValidationError, match="http:// or https://"):
        svc.settings.set("extraction.llm.base_url", "localhost:11434")
    assert svc.settings.set("extraction.backend", "claude-code") == "claude-code"


@pytest.mark.parametrize(("values", "target", "leaves"), [
    ({}, "nowhere", False),
    ({"extraction.backend": "llm", "extraction.llm.base_url": "http://127.0.0.1:11434/v1"}, "127.0.0.1:11434", False),
    ({"extraction.backend": "llm", "extraction.llm.base_url": "http://localhost:1234/v1"}, "localhost:1234", False),
    ({"extraction.backend": "llm", "extraction.llm.base_url": "https://api.openai.com/v1"}, "api.openai.com", True),
    ({"extraction.backend": "llm", "extraction.llm.base_url": "http://192.168.1.20:8000/v1"}, "192.168.1.20:8000",
     True),
    ({"extraction.backend": "claude-code"}, "Claude Code on this machine", True),
])
def test_destination_says_where_transcripts_go(values, target, leaves):
    where = extraction_backend.destination(values)
    assert where["target"] == target and where["leaves_machine"] is leaves
