"""A scripted OpenAI Responses endpoint (``wire_api = "responses"``) for the real Codex CLI.

The test gives the replies in order: each reply is a list of output items (an assistant
``message`` with text, or a ``function_call`` of one of the tools the request offered), or
a callable that builds that list from the request (to look up a tool's exact name in the
request's ``tools``). Each reply is streamed the way the Responses API streams it:
``response.created``, per item ``response.output_item.added``, the text as
``response.output_text.delta``, ``response.output_item.done``, then ``response.completed``
with usage. Every request is recorded (tests/scripted_http.py), so a test can read the
instructions, the tools and the tool results the client sent. When the script runs out,
a plain "Done." message ends the turn, so a client never hangs on an unscripted request.
A compaction request (Codex summarising the conversation) is answered with ``summary``.
"""

from __future__ import annotations

import itertools
import json
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from scripted_http import Recorded, RecordingServer, Reply

Item = dict[str, Any]
Step = Sequence[Item] | Callable[[Recorded], Sequence[Item]]
RESPONSES_PATH = "/v1/responses"


def message(text: str) -> Item:
    """An assistant message saying ``text``."""
    return {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": text}]}


def function_call(name: str, arguments: dict[str, Any], call_id: str | None = None) -> Item:
    """A call of the tool ``name`` (as the request's ``tools`` list names it)."""
    return {"type": "function_call", "name": name, "arguments": json.dumps(arguments, ensure_ascii=False),
            **({"call_id": call_id} if call_id else {})}


def tool_names(request: Recorded) -> list[str]:
    """The function names offered in a Responses request (MCP tools included)."""
    names: list[str] = []
    body = request.body if isinstance(request.body, dict) else {}
    for tool in body.get("tools") or []:
        if isinstance(tool, dict):
            if isinstance(tool.get("name"), str):
                names.append(tool["name"])
            for inner in tool.get("tools") or []:  # a namespace of tools (MCP servers in newer clients)
                if isinstance(inner, dict) and isinstance(inner.get("name"), str):
                    names.append(f"{tool.get('name', '')}{inner['name']}")
    return names


def is_turn(request: Recorded) -> bool:
    """A model request (``POST …/responses``), not a models listing or other side request."""
    return request.method == "POST" and request.path.rstrip("/").endswith("/responses")


def request_text(request: Recorded) -> str:
    """Everything the request sends the model (instructions and input), as one string."""
    body = request.body if isinstance(request.body, dict) else {}
    return json.dumps({"instructions": body.get("instructions"), "input": body.get("input")}, ensure_ascii=False)


def is_compaction(request: Recorded) -> bool:
    """A request Codex sends to have the conversation summarised (auto-compaction)."""
    body = request.body if isinstance(request.body, dict) else {}
    meta = (body.get("client_metadata") or {}).get("x-codex-turn-metadata")
    if isinstance(meta, str) and '"request_kind":"compaction"' in meta.replace(" ", ""):
        return True
    return "CONTEXT CHECKPOINT COMPACTION" in request_text(request)[-4000:]


def function_outputs(request: Recorded) -> list[dict[str, Any]]:
    """The ``function_call_output`` items a request carries back (tool results)."""
    body = request.body if isinstance(request.body, dict) else {}
    return [i for i in body.get("input") or [] if isinstance(i, dict) and i.get("type") == "function_call_output"]


class ResponsesServer(RecordingServer):
    """Scripted replies in order; ``base_url`` goes into the Codex ``model_providers`` entry."""

    def __init__(self, script: Sequence[Step] = (), *, summary: str = "Summary: nothing to add.") -> None:
        self._script = list(script)
        self.summary = summary  # the answer to every compaction request (they do not consume the script)
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        super().__init__(self._answer)

    @property
    def base_url(self) -> str:
        return f"{self.url}/v1"

    def add(self, *steps: Step) -> None:
        """Append replies (for a later turn of the same server)."""
        with self._lock:
            self._script.extend(steps)

    def turns(self) -> list[Recorded]:
        return self.matching(is_turn)

    def _answer(self, request: Recorded) -> Reply:
        if not is_turn(request):
            if request.path.rstrip("/").endswith("/models"):
                return Reply(200, {"Content-Type": "application/json"}, b'{"object":"list","data":[],"models":[]}')
            return Reply(404, {"Content-Type": "application/json"}, b'{"error":{"message":"not scripted"}}')
        if is_compaction(request):
            return Reply(200, {"Content-Type": "text/event-stream", "Cache-Control": "no-cache"},
                         self._stream([message(self.summary)]))
        with self._lock:
            step = self._script.pop(0) if self._script else None
        items = [message("Done.")] if step is None else list(step(request) if callable(step) else step)
        return Reply(200, {"Content-Type": "text/event-stream", "Cache-Control": "no-cache"},
                     self._stream(items))

    def _stream(self, items: Sequence[Item]) -> Iterator[bytes]:
        number = next(self._ids)
        response_id = f"resp_{number}"

        def event(kind: str, **data: Any) -> bytes:
            return f"event: {kind}\ndata: {json.dumps({'type': kind, **data}, ensure_ascii=False)}\n\n".encode()

        yield event("response.created", response={"id": response_id, "status": "in_progress", "output": []})
        done: list[Item] = []
        for index, raw in enumerate(items):
            item = dict(raw)
            if item["type"] == "message":
                item.setdefault("id", f"msg_{number}_{index}")
                item.setdefault("status", "completed")
            elif item["type"] == "function_call":
                item.setdefault("id", f"fc_{number}_{index}")
                item.setdefault("call_id", f"call_{number}_{index}")
                item.setdefault("status", "completed")
            yield event("response.output_item.added", output_index=index, item={**item, "content": []}
                        if item["type"] == "message" else item)
            if item["type"] == "message":
                text = "".join(c.get("text", "") for c in item["content"])
                yield event("response.output_text.delta", item_id=item["id"], output_index=index,
                            content_index=0, delta=text)
            yield event("response.output_item.done", output_index=index, item=item)
            done.append(item)
        usage = {"input_tokens": 100, "input_tokens_details": {"cached_tokens": 0},
                 "output_tokens": 20, "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 120}
        yield event("response.completed", response={"id": response_id, "status": "completed",
                                                     "output": done, "usage": usage})


def write_codex_config(codex_home: Path, base_url: str, extra: str = "") -> Path:
    """A ``config.toml`` that points Codex at the scripted endpoint (no login, no network)."""
    codex_home.mkdir(parents=True, exist_ok=True)
    path = codex_home / "config.toml"
    path.write_text(
        'model = "scripted-model"\n'
        'model_provider = "scripted"\n'
        'approval_policy = "never"\n'
        'sandbox_mode = "danger-full-access"\n'
        + extra +
        "\n[model_providers.scripted]\n"
        'name = "Scripted"\n'
        f'base_url = "{base_url}"\n'
        'wire_api = "responses"\n'
        'env_key = "SCRIPTED_API_KEY"\n'
        "request_max_retries = 0\n"
        "stream_max_retries = 0\n",
        encoding="utf-8",
    )
    return path
