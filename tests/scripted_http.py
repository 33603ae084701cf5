"""A scripted model server for end-to-end tests: HTTP on 127.0.0.1 only, every request recorded.

Generic on purpose (any streaming model API): a test gives a ``respond(request) -> Reply``
function and points a real agent client at :attr:`ScriptedServer.url`. The server answers
each request from its own thread, records it (method, path, headers, body, parsed JSON)
before answering, and lets a test *wait* for a request that matches a predicate
(:meth:`ScriptedServer.wait_for`) instead of sleeping. A reply is either a JSON body or a
list of Server-Sent Events (``event:``/``data:`` pairs), written as they would stream.

API-specific layers build on it: tests/anthropic_server.py (Anthropic Messages). A reply
function that raises answers HTTP 500 with the exception's text, so a broken script shows
up in the client's error output and in :attr:`ScriptedServer.errors`.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

LOOPBACK = "127.0.0.1"


@dataclass
class Request:
    """One request as the client sent it."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes
    number: int = 0  # 1, 2, ... in arrival order

    @property
    def json(self) -> Any:
        try:
            return json.loads(self.body.decode("utf-8")) if self.body else None
        except (UnicodeDecodeError, json.JSONDecodeError):
            return None

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")


@dataclass
class Reply:
    """A JSON body (``body``) or a stream of Server-Sent Events (``events``: ``(event, data)``)."""

    status: int = 200
    body: Any = None
    events: list[tuple[str | None, Any]] | None = None
    headers: dict[str, str] = field(default_factory=dict)


Respond = Callable[[Request], Reply]


class ScriptedServer:
    """``with ScriptedServer(respond) as server:`` serves on ``server.url`` until the block ends."""

    def __init__(self, respond: Respond) -> None:
        self.respond = respond
        self.requests: list[Request] = []
        self.errors: list[str] = []
        self._changed = threading.Condition()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def _handle(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                request = Request(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                owner._record(request)
                try:
                    reply = owner.respond(request)
                except Exception as exc:  # a broken script: the client sees it, the test can assert on it
                    owner.errors.append(f"{type(exc).__name__}: {exc}")
                    reply = Reply(500, {"type": "error", "error": {"type": "api_error", "message": str(exc)}})
                self._send(reply)

            do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = _handle

            def _send(self, reply: Reply) -> None:
                if reply.events is None:
                    data = json.dumps(reply.body if reply.body is not None else {}).encode("utf-8")
                    self.send_response(reply.status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    for key, value in reply.headers.items():
                        self.send_header(key, value)
                    self.end_headers()
                    if self.command != "HEAD":
                        self.wfile.write(data)
                    return
                chunks = []
                for event, data_value in reply.events:
                    payload = data_value if isinstance(data_value, str) else json.dumps(data_value)
                    chunks.append((f"event: {event}\n" if event else "") + f"data: {payload}\n\n")
                stream = "".join(chunks).encode("utf-8")
                self.send_response(reply.status)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                self.send_header("Content-Length", str(len(stream)))
                for key, value in reply.headers.items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(stream)

        self._httpd = ThreadingHTTPServer((LOOPBACK, 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="scripted-http", daemon=True)

    @property
    def port(self) -> int:
        return int(self._httpd.server_address[1])

    @property
    def url(self) -> str:
        return f"http://{LOOPBACK}:{self.port}"

    def _record(self, request: Request) -> None:
        with self._changed:
            request.number = len(self.requests) + 1
            self.requests.append(request)
            self._changed.notify_all()

    def wait_for(self, predicate: Callable[[Request], bool], timeout: float = 120.0) -> Request:
        """The first recorded request matching ``predicate``, waiting for it up to ``timeout`` s."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                for request in self.requests:
                    if predicate(request):
                        return request
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no matching request within {timeout:g} s "
                                         f"({len(self.requests)} recorded: {[r.path for r in self.requests]})")
                self._changed.wait(left)

    def matching(self, predicate: Callable[[Request], bool]) -> list[Request]:
        with self._changed:
            return [r for r in self.requests if predicate(r)]

    def __enter__(self) -> ScriptedServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=10)
