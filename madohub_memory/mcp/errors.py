"""How tool failures reach the agent: a mistake in the call is a tool error the model can
correct; a failing database (busy, full, read-only, damaged) or a bug is a JSON-RPC error
whose message gives the reason, never a bare "Error executing tool"."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

from mcp.server.mcpserver.exceptions import ToolError
from mcp.shared.exceptions import MCPError

from madohub_memory.core.errors import StorageError, UserError
from madohub_memory.core.secrets import redact
from madohub_memory.store.errors import translate

log = logging.getLogger(__name__)

SERVER_ERROR = -32000  # JSON-RPC "server error": the database, not the caller, failed
INTERNAL_ERROR = -32603


@contextmanager
def tool_errors() -> Iterator[None]:
    try:
        yield
    except StorageError as exc:
        raise MCPError(SERVER_ERROR, str(exc)) from None
    except UserError as exc:
        raise ToolError(str(exc)) from None
    except (ToolError, MCPError):
        raise
    except Exception as exc:
        translated = translate(exc, "the database")
        if isinstance(translated, StorageError):
            raise MCPError(SERVER_ERROR, str(translated)) from None
        if translated is not None:
            raise ToolError(str(translated)) from None
        log.exception("tool failed")
        # masked before it is cut: the message goes to the agent, and may quote its input
        raise MCPError(INTERNAL_ERROR, f"Internal error: {type(exc).__name__}: {(redact(str(exc)) or '')[:200]}") from None
