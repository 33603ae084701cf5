"""The stdio transport of the MCP server: every line gets an answer.

The SDK's transport parses each line with a strict JSON parser: a lone surrogate escape
(``"\\ud83d"``, what ``JSON.stringify`` writes for a string cut mid-emoji) fails there, and
the call is silently dropped, as is a line that is not JSON at all; the agent then waits
forever. Here a line is parsed with Python's parser, surrogates become U+FFFD (the same
cleaning the importers apply), and what still cannot be used is answered with the JSON-RPC
error the specification names: ``-32700`` (parse error) or ``-32600`` (invalid request).

While serving, file descriptor 1 points at stderr, so stray output of a library cannot
corrupt the protocol stream; replies go to a private duplicate of the original stdout.
"""

from __future__ import annotations

import io
import json
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import anyio.lowlevel
import mcp_types as types
from mcp.shared._context_streams import create_context_streams
from mcp.shared.message import SessionMessage

from madohub_memory.core.jsonsafe import clean_value

PARSE_ERROR = -32700
INVALID_REQUEST = -32600


def _error(request_id: Any, code: int, message: str) -> str:
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message[:300]}})


def parse_line(line: str) -> tuple[Any | None, str | None]:
    """A JSON-RPC message from one line, or the error reply to send instead (or neither:
    an invalid notification gets no reply, as JSON-RPC says)."""
    try:
        data = clean_value(json.loads(line))
    except (ValueError, RecursionError) as exc:
        return None, _error(None, PARSE_ERROR, f"Parse error: {exc}")
    try:
        return types.jsonrpc_message_adapter.validate_python(data, by_name=False), None
    except Exception as exc:
        request_id = data.get("id") if isinstance(data, dict) else None
        if isinstance(data, dict) and "id" not in data:
            return None, None
        if isinstance(request_id, bool) or not isinstance(request_id, (int, str)):
            request_id = None
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return None, _error(request_id, INVALID_REQUEST, f"Invalid Request: {reason}")


@asynccontextmanager
async def stdio_streams() -> AsyncIterator[tuple[Any, Any]]:
    """(read stream, write stream) for ``Server.run``, over this process's stdin and stdout."""
    wire_fd = os.dup(1)
    os.dup2(2, 1)  # stray prints go to stderr, never into the protocol
    wire = io.TextIOWrapper(os.fdopen(wire_fd, "wb"), encoding="utf-8", errors="replace", newline="\n")
    stdout = anyio.wrap_file(wire)
    stdin = anyio.wrap_file(io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace"))
    read_writer, read_stream = create_context_streams[SessionMessage | Exception](0)
    write_stream, write_reader = create_context_streams[SessionMessage](0)
    lock = anyio.Lock()

    async def send_line(text: str) -> None:
        async with lock:
            await stdout.write(text + "\n")
            await stdout.flush()

    async def reader() -> None:
        try:
            async with read_writer:
                async for line in stdin:
                    if not line.strip():
                        continue
                    message, reply = parse_line(line)
                    if reply is not None:
                        await send_line(reply)
                    if message is not None:
                        await read_writer.send(SessionMessage(message))
        except anyio.ClosedResourceError:
            await anyio.lowlevel.checkpoint()

    async def writer() -> None:
        try:
            async with write_reader:
                async for session_message in write_reader:
                    await send_line(session_message.message.model_dump_json(by_alias=True, exclude_unset=True))
        except anyio.ClosedResourceError:
            await anyio.lowlevel.checkpoint()

    async with anyio.create_task_group() as group:
        group.start_soon(reader)
        group.start_soon(writer)
        yield read_stream, write_stream


async def serve(server: Any) -> None:
    """Run an ``MCPServer`` over :func:`stdio_streams` until the client disconnects."""
    lowlevel = server._lowlevel_server  # the SDK's own run_stdio_async does the same
    async with stdio_streams() as (read_stream, write_stream):
        await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())
