"""A scripted Anthropic Messages server for the real Claude Code CLI (on tests/scripted_http.py).

The test writes the model's side as a function of the request: ``script(request) -> list of
blocks`` (``text("...")``, ``tool_use("name", {...})``), and :class:`AnthropicServer` turns
it into what ``POST /v1/messages`` returns: the streaming form (``message_start``,
``content_block_*``, ``message_delta`` with ``stop_reason`` ``tool_use`` or ``end_turn``,
``message_stop``) when the request says ``"stream": true``, the plain JSON message
otherwise. ``/v1/messages/count_tokens`` gets a rough count; anything else a 404.

Claude Code sends more than the session's own turns (a title for the session, a quota
probe, compaction): helpers below tell them apart (:func:`is_compaction`,
:func:`offers_tools`, :func:`tool_results`), so a script answers only what it means to.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from typing import Any

from scripted_http import Recorded, RecordingServer, Reply

Request = Recorded
Block = dict[str, Any]
Script = Callable[[Request], list[Block]]
_ids = itertools.count(1)


def text(value: str) -> Block:
    return {"type": "text", "text": value}


def tool_use(name: str, arguments: dict[str, Any]) -> Block:
    return {"type": "tool_use", "id": f"toolu_{next(_ids):06d}", "name": name, "input": arguments}


# -- reading a request ------------------------------------------------------------------------


def body(request: Request) -> dict[str, Any]:
    """The request's JSON object ({} for anything else)."""
    return request.body if isinstance(request.body, dict) else {}


def messages(request: Request) -> list[dict[str, Any]]:
    return list(body(request).get("messages") or [])


def _block_texts(content: Any) -> list[str]:
    if isinstance(content, str):
        return [content]
    out = []
    for block in content or []:
        if isinstance(block, dict):
            if isinstance(block.get("text"), str):
                out.append(block["text"])
            elif block.get("type") == "tool_result":
                out += _block_texts(block.get("content"))
    return out


def all_text(request: Request) -> str:
    """System prompt and every message's text, joined (what the model would read)."""
    system = body(request).get("system")
    parts = _block_texts(system) if system is not None else []
    for message in messages(request):
        parts += _block_texts(message.get("content"))
    return "\n".join(parts)


def last_user_text(request: Request) -> str:
    for message in reversed(messages(request)):
        if message.get("role") == "user":
            return "\n".join(_block_texts(message.get("content")))
    return ""


def tool_names(request: Request) -> list[str]:
    return [str(t.get("name")) for t in body(request).get("tools") or [] if isinstance(t, dict)]


def offers_tools(request: Request) -> bool:
    """A turn of the session itself (the CLI's side requests carry no tools)."""
    return is_messages(request) and bool(tool_names(request))


def is_messages(request: Request) -> bool:
    return request.method == "POST" and request.path.split("?")[0].rstrip("/").endswith("/v1/messages")


def is_compaction(request: Request) -> bool:
    """The request that asks the model to summarise the conversation (``/compact``, auto-compact)."""
    if not is_messages(request):
        return False
    last = last_user_text(request)
    return "summary of the conversation" in last.lower() or ("<summary>" in last and "<analysis>" in last)


def tool_results(request: Request) -> list[dict[str, Any]]:
    """The ``tool_result`` blocks of the last user message (answers to our ``tool_use``)."""
    for message in reversed(messages(request)):
        if message.get("role") == "user":
            content = message.get("content")
            return [b for b in content if isinstance(b, dict) and b.get("type") == "tool_result"] \
                if isinstance(content, list) else []
    return []


# -- answering -------------------------------------------------------------------------------


def _message(blocks: list[Block], model: str) -> dict[str, Any]:
    stop = "tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn"
    return {"id": f"msg_{next(_ids):06d}", "type": "message", "role": "assistant", "model": model,
            "content": blocks, "stop_reason": stop, "stop_sequence": None,
            "usage": {"input_tokens": 100, "output_tokens": 20, "cache_creation_input_tokens": 0,
                      "cache_read_input_tokens": 0}}


def _sse(message: dict[str, Any]) -> bytes:
    """The message as Anthropic streams it: ``event:``/``data:`` pairs, one block at a time."""
    start = {**message, "content": [], "stop_reason": None, "usage": {**message["usage"], "output_tokens": 1}}
    events: list[tuple[str, Any]] = [("message_start", {"type": "message_start", "message": start}),
                                     ("ping", {"type": "ping"})]
    for index, block in enumerate(message["content"]):
        if block["type"] == "text":
            events.append(("content_block_start", {"type": "content_block_start", "index": index,
                                                   "content_block": {"type": "text", "text": ""}}))
            events.append(("content_block_delta", {"type": "content_block_delta", "index": index,
                                                   "delta": {"type": "text_delta", "text": block["text"]}}))
        else:
            events.append(("content_block_start", {"type": "content_block_start", "index": index,
                                                   "content_block": {**block, "input": {}}}))
            events.append(("content_block_delta", {"type": "content_block_delta", "index": index,
                                                   "delta": {"type": "input_json_delta",
                                                             "partial_json": json.dumps(block["input"])}}))
        events.append(("content_block_stop", {"type": "content_block_stop", "index": index}))
    events.append(("message_delta", {"type": "message_delta",
                                     "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
                                     "usage": {"output_tokens": message["usage"]["output_tokens"]}}))
    events.append(("message_stop", {"type": "message_stop"}))
    return "".join(f"event: {name}\ndata: {json.dumps(data)}\n\n" for name, data in events).encode("utf-8")


def _json(status: int, value: Any, **headers: str) -> Reply:
    return Reply(status, {"Content-Type": "application/json", **headers}, json.dumps(value).encode("utf-8"))


class AnthropicServer(RecordingServer):
    """``with AnthropicServer(script) as server:`` then ``ANTHROPIC_BASE_URL=server.url``."""

    def __init__(self, script: Script) -> None:
        self.script = script
        super().__init__(self._respond)

    def _respond(self, request: Request) -> Reply:
        path = request.path.split("?")[0].rstrip("/")
        if request.method == "POST" and path.endswith("/v1/messages/count_tokens"):
            return _json(200, {"input_tokens": max(1, len(request.text()) // 4)})
        if not is_messages(request):
            return _json(404, {"type": "error", "error": {"type": "not_found_error", "message": path}})
        message = _message(self.script(request) or [text("OK.")], str(body(request).get("model") or "claude-scripted"))
        if body(request).get("stream"):
            return Reply(200, {"Content-Type": "text/event-stream", "Cache-Control": "no-cache",
                               "request-id": message["id"]}, _sse(message))
        return _json(200, message, **{"request-id": message["id"]})

    def session_requests(self) -> list[Request]:
        """The session's own turns (with tools), in order."""
        return self.matching(offers_tools)
