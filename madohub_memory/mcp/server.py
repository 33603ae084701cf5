"""The MCP server (stdio): how agents propose memories and get approved ones back.

Tools: ``remember`` (a pending candidate, source ``remember``: nothing an agent says
becomes memory without review), ``recall`` (approved, active memories only),
``list_memories``, ``update_working_memory``, ``get_working_memory``, plus the decision
tools of :mod:`madohub_memory.mcp.tools_decisions` and ``session_context``
(:mod:`madohub_memory.mcp.tools_context`) when present.

The server may run for hours while the dashboard, workers and the CLI write the same
file, so every tool call opens its own ``Services`` (a fresh connection sees every
commit) and closes it; the embedding model and the vector index are shared per process.
Bad input becomes a tool error with the one-sentence message of the ``UserError``.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from madohub_memory.agents.guide import remember_guide
from madohub_memory.core.errors import UserError
from madohub_memory.mcp import tools_context, tools_decisions
from madohub_memory.mcp.errors import tool_errors as _tool_errors
from madohub_memory.services import Services
from madohub_memory.store.liveness import process_identity

_PREFACE = (
    "Long-term memory curated by the user. Call `session_context` when a session starts (the "
    "project's rules and the user's preferences) and `recall` with a question when you need more; "
    "memories may be out of date, check them. Keep task state in `update_working_memory`.\n"
)


def instructions(workspace: str | None = None, persona: str | None = None) -> str:
    """The server's instructions, naming the session's workspace and persona when known."""
    return _PREFACE + remember_guide(workspace, persona=persona)


def _session_scope(path: str | None, cwd: str) -> tuple[str | None, str | None]:
    """``(workspace, persona)`` for a server started in ``cwd``: Claude Code starts it in the
    project's folder, so the agent is told ``workspace:<repo>`` itself, as the SessionStart hook
    tells it. A folder that is no project (a home folder): the placeholder. Without a database
    yet (the first call creates it), the repository alone decides, without the user's mapping."""
    from madohub_memory.services.workspaces import project_namespace

    try:
        with Services.open(path, create=False) as svc:
            return project_namespace(svc, cwd), str(svc.settings.get("persona"))
    except Exception:
        return project_namespace(None, cwd), None


def build_server(db_path: str | os.PathLike[str] | None = None, name: str = "madohub-memory") -> MCPServer:
    """An ``MCPServer`` with the memory tools bound to the database at ``db_path``."""
    path = os.fspath(db_path) if db_path else None  # a file path or a postgresql:// address
    origin = f"mcp:{uuid.uuid4().hex[:12]}"  # one server process serves one client session

    def open_services() -> Services:
        return Services.open(path, origin=origin)

    workspace, persona = _session_scope(path, os.getcwd())
    server = MCPServer(name, instructions=instructions(workspace, persona), log_level="ERROR")
    _register_memory_tools(server, open_services)
    tools_decisions.register(server, open_services)
    tools_context.register(server, open_services)
    return server


def _register_memory_tools(server: MCPServer, open_services: Callable[[], Services]) -> None:
    def remember(
        content: str, kind: str, namespace: str | None = None, confidence: float = 0.9,
        turn_id: str | None = None,
    ) -> dict[str, Any]:
        """Propose a memory for the user's review (it is NOT recallable until approved).

        kind: one of preference, fact, decision, pattern, postmortem, event.
        namespace: persona:<name> (default: the active persona) or workspace:<project>.
        confidence: 0 to 1. turn_id: the conversation turn it came from, if known.
        """
        with _tool_errors(), open_services() as svc:
            # One server process serves one agent session: its repeats count once.
            result = svc.review.remember(content, kind, namespace, confidence, turn_id,
                                         session=f"mcp|{process_identity()}")
            candidate = svc.review.candidate_of(result)
        out: dict[str, Any] = {
            "outcome": result.outcome, "candidate_id": result.candidate_id, "memory_id": result.memory_id,
            "status": candidate.status if candidate else None,
            "note": result.sentence(),
        }
        if result.store:  # a namespace kept in another store (setting stores.map)
            out["store"] = result.store
        return out

    def recall(
        query: str, namespace: str | None = None, k: int = 10, include_persona: bool = True,
        render: bool = False,
    ) -> dict[str, Any]:
        """Search approved memories (hybrid vector + keyword; English and Chinese).

        namespace: persona:<name> or workspace:<project> (default: all). A workspace query
        also sees the active persona's memories unless include_persona is false.
        k: 1 to 100. render: also return a block ready to put in a prompt.
        """
        with _tool_errors():
            svc = open_services()
            try:
                hits = svc.recall.search(query, namespace, k, include_persona, source="mcp", defer=True)
                text = svc.recall.render(hits) if render else None
                warnings = svc.recall.warnings  # a mapped store it answered without
            except BaseException:
                svc.close()
                raise
        # The agent has its answer now; the hits are counted on the server's counting thread
        # (beside an import that waits its turn for the lock), which then closes ``svc``.
        from madohub_memory.services.recall import count_in_background

        count_in_background(svc)
        out: dict[str, Any] = {
            "memories": [
                {"id": h.id, "score": round(h.score, 4), "content": h.content, "kind": h.kind,
                 "namespace": h.namespace, "date": h.said_on, "created_at": h.created_at,
                 "turn_ids": h.turn_ids, **({"store": h.store} if h.store else {})}
                for h in hits
            ],
            "note": " ".join(["Approved memories; they may be out of date.", *warnings]),
        }
        if render:
            out["text"] = text
        return out

    def list_memories(namespace: str | None = None, limit: int = 50) -> dict[str, Any]:
        """List approved, active memories (newest first), optionally in one namespace. limit: 1 to 500.
        approved_by names the person who approved each (null: the auto-approve policy, or unknown)."""
        with _tool_errors(), open_services() as svc:
            if not isinstance(limit, int) or limit < 1:
                raise UserError("limit must be a whole number of at least 1.")
            owner, label = svc.stores.holder(namespace) if namespace else (svc, None)  # stores.map
            rows = owner.memories.list(namespace, "active")
        rows.sort(key=lambda m: (m.updated_at, m.id), reverse=True)
        return {
            "total": len(rows),
            "memories": [
                {"id": m.id, "content": m.content, "kind": m.kind, "namespace": m.namespace,
                 "pinned": m.pinned, "date": m.updated_at[:10], "hit_count": m.hit_count,
                 "last_hit_at": m.last_hit_at, "approved_by": m.approved_by,
                 **({"store": label} if label else {})}
                for m in rows[: min(limit, 500)]
            ],
        }

    def update_working_memory(
        workspace: str, operation: str, text: str | None = None, reason: str | None = None,
        item_id: int | None = None,
    ) -> dict[str, Any]:
        """Update the working memory of a workspace (short-lived task state, not reviewed).

        operation: task (set the current task), add_decision (text + mandatory reason),
        add_constraint, add_pending, resolve_pending (item_id or exact text), touch_file,
        reject_approach (text + reason), end_task (text = final approach: the task summary
        becomes a candidate for the user's review).
        """
        with _tool_errors(), open_services() as svc:
            if operation == "end_task":
                result = svc.working.end_task(workspace, text or "")
                data = svc.working.show(workspace)
                data["summary_candidate"] = {"outcome": result.outcome, "candidate_id": result.candidate_id}
                return data
            return svc.working.update(workspace, operation, text, reason, item_id)

    def get_working_memory(workspace: str, language: str = "en") -> dict[str, Any]:
        """The working memory of a workspace, with a rendered block (language: en or zh)."""
        if language not in ("en", "zh"):
            raise ToolError(f"Unknown language {language!r}: use en or zh.")
        with _tool_errors(), open_services() as svc:
            data = svc.working.show(workspace)
            data["text"] = svc.working.render(workspace, language)
        return data

    for fn in (remember, recall, list_memories, update_working_memory, get_working_memory):
        server.add_tool(fn)


def run_stdio(db_path: str | os.PathLike[str] | None = None) -> None:
    """Serve on stdin/stdout until the client disconnects (every line gets an answer)."""
    import anyio

    from madohub_memory.mcp.stdio_transport import serve

    anyio.run(serve, build_server(db_path))
