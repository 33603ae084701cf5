"""The MCP server over stdio: a real client session against ``python -m madohub_memory mcp``."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters

from madohub_memory.services import Services

pytestmark = pytest.mark.both_backends  # the server on a SQLite file and on PostgreSQL

ROOT = Path(__file__).resolve().parents[1]


def _params(db_path: Path) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable, args=["-m", "madohub_memory", "mcp", "--db", str(db_path)], cwd=str(ROOT),
    )


def _approved(db_path: Path, content: str, kind: str = "preference", namespace: str | None = None) -> int:
    with Services.open(db_path) as svc:
        result = svc.review.add_manual(content, kind, namespace)
        return svc.review.approve(result.candidate_id)


async def _call(client: Client, name: str, args: dict[str, Any]) -> Any:
    result = await client.call_tool(name, args)
    assert not result.is_error, result.content[0].text
    return result.structured_content


def test_agent_session_over_stdio(db_path: Path) -> None:
    """remember queues, recall sees only what a person approved (also written meanwhile
    by another process), working memory round-trips, and bad input is a clear tool error."""
    _approved(db_path, "The user prefers pnpm over npm for JavaScript projects")
    Services.open(db_path).close()

    async def go() -> None:
        async with Client(_params(db_path)) as client:
            names = {t.name for t in (await client.list_tools()).tools}
            assert {"remember", "recall", "list_memories", "update_working_memory",
                    "get_working_memory"} <= names

            queued = await _call(client, "remember", {
                "content": "Deploys to production happen only on Tuesdays", "kind": "fact",
                "namespace": "workspace:shop"})
            assert queued["outcome"] == "new" and queued["status"] == "pending"

            found = await _call(client, "recall", {"query": "which day do we deploy to production?"})
            assert all("Tuesday" not in m["content"] for m in found["memories"])  # pending: invisible

            with Services.open(db_path) as svc:  # a person approves it in another process
                svc.review.approve(queued["candidate_id"])
            found = await _call(client, "recall", {"query": "which day do we deploy to production?",
                                                   "namespace": "workspace:shop", "k": 3, "render": True})
            assert found["memories"][0]["content"].startswith("Deploys to production")
            assert "may be out of date" in found["text"]
            pm = await _call(client, "recall", {"query": "package manager for JavaScript"})
            assert pm["memories"][0]["content"].startswith("The user prefers pnpm")

            listed = await _call(client, "list_memories", {"namespace": "workspace:shop"})
            assert listed["total"] == 1

            await _call(client, "update_working_memory", {
                "workspace": "workspace:shop", "operation": "task", "text": "Add a coupon field"})
            await _call(client, "update_working_memory", {
                "workspace": "shop", "operation": "add_decision", "text": "Store coupons in Postgres",
                "reason": "orders already live there"})
            wm = await _call(client, "get_working_memory", {"workspace": "workspace:shop", "language": "zh"})
            assert wm["task"] == "Add a coupon field" and "不要推翻的决定" in wm["text"]
            assert wm["decisions"][0]["reason"] == "orders already live there"

            bad_cases = [
                ("remember", {"content": "x", "kind": "opinion"}, "Unknown kind"),
                ("remember", {"content": "x", "kind": "fact", "namespace": "team:a"}, "Malformed namespace"),
                ("recall", {"query": "   "}, "query is empty"),
                ("recall", {"query": "x", "k": 0}, "at least 1"),
                ("update_working_memory", {"workspace": "shop", "operation": "add_decision",
                                           "text": "Use Redis"}, "needs a reason"),
                ("update_working_memory", {"workspace": "shop", "operation": "drop_table"}, "Unknown operation"),
            ]
            for name, args, message in bad_cases:
                result = await client.call_tool(name, args)
                assert result.is_error, (name, args)
                assert message in result.content[0].text

    asyncio.run(go())
    with Services.open(db_path) as svc:
        # The rejected calls stored nothing: one candidate from remember, one manual, no more.
        assert len(svc.review.pending()) == 0
        assert len(svc.memories.list()) == 2
        assert svc.recall.recent_log(10)[0]["source"] == "mcp"
