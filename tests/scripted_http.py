"""A recording HTTP server on 127.0.0.1 for scripted model endpoints (generic, any agent client).

Why: the end-to-end tests drive the real coding-agent CLIs offline. Each client talks to
its model over HTTP; a test scripts what the "model" answers and afterwards asserts on
what the client sent (instructions, tools, tool results). This module only does the
generic part: bind to the loopback interface on a free port, serve on a thread, keep
every request (method, path, headers, parsed JSON body) and hand each one to a
format-specific ``respond`` callable (tests/responses_server.py speaks OpenAI's Responses
streaming format). It never listens on another interface.

Synchronisation is by condition variable (:meth:`RecordingServer.wait_for`), never by
sleeping: a test waits until the n-th request has arrived, with a generous timeout for a
loaded machine.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

LOOPBACK = "127.0.0.1"


@dataclass
class Recorded:
    """One request the client sent."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any  # parsed JSON, else the raw text (None for no body)

    def text(self) -> str:
        """The whole body as text (JSON re-serialised), for searching it."""
        return self.body if isinstance(self.body, str) else json.dumps(self.body, ensure_ascii=False)


@dataclass
class Reply:
    """What the handler writes back: a status, headers and a body (bytes or chunks)."""

    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes | Iterator[bytes] = b""


Respond = Callable[[Recorded], Reply]


class RecordingServer:
    """A threaded HTTP server on 127.0.0.1:<free port> that records requests.

    Use as a context manager; ``url`` is its base address. ``respond`` answers each request.
    """

    def __init__(self, respond: Respond) -> None:
        self._respond = respond
        self.requests: list[Recorded] = []
        self.errors: list[str] = []
        self._changed = threading.Condition()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # quiet: the test asserts instead
                return

            def _handle(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                body: Any = None
                if raw:
                    text = raw.decode("utf-8", "replace")
                    try:
                        body = json.loads(text)
                    except ValueError:
                        body = text
                request = Recorded(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                with owner._changed:
                    owner.requests.append(request)
                    owner._changed.notify_all()
                try:
                    reply = owner._respond(request)
                except Exception as exc:  # a scripting mistake: answer 500 and let the test see why
                    with owner._changed:
                        owner.errors.append(f"{type(exc).__name__}: {exc}")
                        owner._changed.notify_all()
                    reply = Reply(500, {"Content-Type": "application/json"},
                                  json.dumps({"error": {"message": str(exc)}}).encode())
                self.send_response(reply.status)
                for key, value in reply.headers.items():
                    self.send_header(key, value)
                if isinstance(reply.body, bytes):
                    self.send_header("Content-Length", str(len(reply.body)))
                    self.end_headers()
                    self.wfile.write(reply.body)
                    return
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                for chunk in reply.body:
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                    self.wfile.flush()
                self.wfile.write(b"0\r\n\r\n")
                self.wfile.flush()

            do_GET = do_POST = do_PUT = do_DELETE = _handle

        self._httpd = ThreadingHTTPServer((LOOPBACK, 0), Handler)
        self._httpd.daemon_threads = True
        self.port = int(self._httpd.server_address[1])
        self.url = f"http://{LOOPBACK}:{self.port}"
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="scripted-http", daemon=True)

    def __enter__(self) -> RecordingServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=10)

    def matching(self, predicate: Callable[[Recorded], bool]) -> list[Recorded]:
        with self._changed:
            return [r for r in self.requests if predicate(r)]

    def wait_for(self, predicate: Callable[[Recorded], bool], count: int = 1, timeout: float = 120.0) -> list[Recorded]:
        """Block until ``count`` recorded requests satisfy ``predicate`` (or raise after ``timeout``)."""
        with self._changed:
            done = self._changed.wait_for(
                lambda: len([r for r in self.requests if predicate(r)]) >= count or bool(self.errors), timeout)
            if self.errors:
                raise AssertionError(f"the scripted server failed: {self.errors[0]}")
            if not done:
                raise AssertionError(f"expected {count} matching requests within {timeout:.0f} s, "
                                     f"got {[r.path for r in self.requests]}")
            return [r for r in self.requests if predicate(r)]
