"""MCP tools ``record_decision`` and ``recommend``: decision memory for agents.

An agent about to ask the user a question calls ``recommend`` first: it returns the
option the user usually picks, how sure that is, the precondition, and whether to ask at
all (``action``: ``decide`` / ``suggest`` / ``ask``). After the user answers, the agent
calls ``record_decision``. Both are thin wrappers over ``svc.decisions``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from madohub_memory.mcp.errors import tool_errors

Scalar = str | int | float | bool


def register(server: Any, open_services: Callable[[], Any]) -> None:
    """Add the decision tools to an ``MCPServer``.

    ``open_services()`` must return a fresh ``Services``; each call opens and closes its own,
    so the tools are safe next to other processes writing the same file.
    """

    def record_decision(
        question: str,
        options: list[str],
        choice: str,
        session: str | None = None,
        context: dict[str, Scalar] | None = None,
        key: str | None = None,
        transient: bool = False,
    ) -> dict[str, Any]:
        """Record which option the user chose for a question (labels like "(Recommended)" are ignored).

        context: what the choice depended on, e.g. {"workflow": "spec", "phase": "design"}.
        key: an explicit decision-point id; by default the question and option set identify it.
        transient: the choice expires after 28 days.
        """
        with tool_errors(), open_services() as svc:
            record = svc.decisions.record(
                question, options, choice, session=session, context=context, key=key,
                transient=transient, source="mcp",
            )
        return {k: record[k] for k in ("decision_id", "point_key", "question", "user_choice",
                                       "all_options", "session", "context", "timestamp")}

    def recommend(
        question: str,
        options: list[str],
        session: str | None = None,
        context: dict[str, Scalar] | None = None,
        key: str | None = None,
        personalise: bool = True,
    ) -> dict[str, Any]:
        """Recommend the option this user usually picks for a question, with confidence and precondition.

        Returns option, text (what to show), confidence_level, precondition, disclosure (static
        default), and action: "decide" (near-certain, no need to ask), "suggest" (ask with the
        option pre-selected) or "ask" (uncertain: ask the user). personalise=false ignores history.
        """
        with tool_errors(), open_services() as svc:
            rec = svc.decisions.recommend(
                question, options, session=session, context=context, key=key,
                personalise=personalise,
            )
        keep = ("option", "text", "label", "stage", "basis", "share", "observations", "confidence",
                "confidence_level", "precondition", "disclosure", "test", "action", "p",
                "strength", "tiers", "point_key")
        return {k: rec[k] for k in keep}

    server.add_tool(record_decision, name="record_decision", title="Record a decision")
    server.add_tool(recommend, name="recommend", title="Recommend the usual choice")
