"""MCP tool ``session_context``: the workspace's rules for an agent starting a task.

The same block the ``SessionStart`` hook injects (services/session_context.py), for
clients without hooks: pinned memories, working memory, patterns and preferences, then
the user's preferences, within a token budget. Logged and counted like any recall.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from madohub_memory.core.errors import UserError
from madohub_memory.services import Services


def register(server: MCPServer, open_services: Callable[[], Services]) -> None:
    def session_context(
        workspace: str | None = None, cwd: str | None = None, budget_tokens: int | None = None,
        language: str | None = None,
    ) -> dict[str, Any]:
        """Call at the start of a task: the rules to follow in this project (pinned memories,
        working memory, the project's patterns and preferences, then the user's preferences).

        workspace: workspace:<project> or a project name; or cwd: the folder you work in (its
        git repository names the workspace). With neither, the user's preferences only.
        budget_tokens: at most this many tokens (default: the user's setting). language of the
        headings: en or zh (default: the user's dashboard language).
        """
        if language not in (None, "en", "zh"):
            raise ToolError(f"Unknown language {language!r}: use en or zh.")
        try:
            with open_services() as svc:
                context = svc.session_context.build(
                    workspace, cwd=cwd, budget_tokens=budget_tokens, language=language, source="mcp",
                )
        except UserError as exc:
            raise ToolError(str(exc)) from None
        return {
            "text": context.text, "workspace": context.workspace, "memory_ids": context.memory_ids,
            "tokens": context.tokens, "left_out": context.left_out,
            "note": " ".join(["Approved memories; they may be out of date.", *context.warnings]),
            **({"stores": context.stores} if context.stores else {}),
        }

    server.add_tool(session_context)
