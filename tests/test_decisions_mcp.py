"""The MCP tools ``record_decision`` and ``recommend`` through real MCP client sessions."""

from __future__ import annotations

import asyncio
import sys
import textwrap
from pathlib import Path

from mcp import Client, StdioServerParameters
from mcp.server.mcpserver import MCPServer

from madohub_memory.mcp.tools_decisions import register
from madohub_memory.services import Services


def _server(db_path: Path) -> MCPServer:
    server = MCPServer("decisions-test")
    register(server, lambda: Services.open(db_path))
    return server


async def _record_and_recommend(client: Client) -> None:
    names = {t.name for t in (await client.list_tools()).tools}
    assert {"record_decision", "recommend"} <= names
    for choice in ["Tier S"] * 3 + ["Tier M"] * 6 + ["Tier L"]:
        result = await client.call_tool("record_decision", {
            "question": "Which tier?", "options": ["Tier S", "Tier M (Recommended)", "Tier L"],
            "choice": choice, "session": "mcp-1", "context": {"workflow": "spec"},
        })
        assert not result.is_error
    result = await client.call_tool("recommend", {"question": "Which tier?",
                                                  "options": ["Tier S", "Tier M", "Tier L"]})
    assert not result.is_error
    rec = result.structured_content
    assert rec["option"] == "Tier M" and rec["confidence_level"] == "medium-high"
    assert rec["label"] == "Tier M (Recommended) — 60% of recent choices"
    assert rec["precondition"] == "Recommended when workflow=spec"
    assert rec["tiers"]["session"] == {}  # no session given: the current-session tier is empty
    bad = await client.call_tool("record_decision", {"question": "Which tier?", "options": ["A", "B"],
                                                     "choice": "C"})
    assert bad.is_error and "not one of the options" in bad.content[0].text


def test_tools_in_process(db_path):
    async def go() -> None:
        async with Client(_server(db_path)) as client:
            await _record_and_recommend(client)

    asyncio.run(go())
    with Services.open(db_path) as svc:
        assert svc.decisions.stats()["records"] == 10  # the rejected call stored nothing


def test_tools_over_stdio(db_path, tmp_path):
    script = tmp_path / "serve.py"
    script.write_text(textwrap.dedent(f"""
        from mcp.server.mcpserver import MCPServer
        from madohub_memory.mcp.tools_decisions import register
        from madohub_memory.services import Services
        server = MCPServer("decisions-stdio", log_level="ERROR")
        register(server, lambda: Services.open({str(db_path)!r}))
        server.run()
    """), encoding="utf-8")
    params = StdioServerParameters(command=sys.executable, args=[str(script)],
                                   cwd=str(Path(__file__).resolve().parents[1]))

    async def go() -> None:
        async with Client(params) as client:
            await _record_and_recommend(client)

    asyncio.run(go())
