"""The agent as extractor: the MCP server's instructions and the SessionStart hook teach it
when to call ``remember``, in a few lines whose token cost is bounded."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

from mcp import Client, StdioServerParameters

from madohub_memory.agents.guide import remember_guide
from madohub_memory.core.vocab import KINDS
from madohub_memory.ingest.workspace import project_name
from madohub_memory.services import Services
from madohub_memory.services.recall import estimate_tokens

ROOT = Path(__file__).resolve().parents[1]
MAX_GUIDE_TOKENS = 240  # a few lines: paid for in every session


def _hook(db: Path, event: dict[str, object], tmp_path: Path) -> str:
    env = {**os.environ, "MADOHUB_DB": str(db), "MADOHUB_HOOK_LOG": str(tmp_path / "hook.log")}
    done = subprocess.run([sys.executable, "-m", "madohub_memory", "hook"], input=json.dumps(event).encode(),
                          capture_output=True, env=env, timeout=120, cwd=str(ROOT))
    assert done.returncode == 0 and done.stderr == b""
    return done.stdout.decode()


def test_guide_names_every_kind_both_namespaces_and_what_not_to_remember() -> None:
    text = remember_guide()
    for kind in KINDS:
        assert kind in text
    assert "workspace:<repo>" in text and "persona:" in text
    assert "never secrets" in text and "tool output" in text and "one-off commands" in text
    assert "standalone sentence" in text
    assert len(text.splitlines()) <= 5
    assert estimate_tokens(text) <= MAX_GUIDE_TOKENS


def _instructions(db_path: Path, cwd: Path) -> str | None:
    """The instructions a real MCP client gets from the server started in ``cwd``."""
    params = StdioServerParameters(command=sys.executable, args=["-m", "madohub_memory", "mcp", "--db", str(db_path)],
                                   cwd=str(cwd))

    async def go() -> str | None:
        async with Client(params) as client:
            return client.instructions

    return asyncio.run(go())


def test_a_real_mcp_client_receives_the_instructions(db_path: Path) -> None:
    Services.open(db_path).close()
    instructions = _instructions(db_path, ROOT)
    assert instructions is not None
    # started in a repository (as Claude Code starts it, in the project's folder): its workspace
    workspace = f"workspace:{project_name(str(ROOT))}"
    assert remember_guide(workspace, persona="default") in instructions
    assert f"Namespace: {workspace} for this project; persona:default" in instructions
    assert "`recall`" in instructions
    assert estimate_tokens(instructions) <= MAX_GUIDE_TOKENS + 60


def test_session_start_prints_the_guide_with_the_mapped_workspace(db_path: Path, tmp_path: Path) -> None:
    with Services.open(db_path) as svc:
        svc.settings.set("workspace.map", "/home/ana/clients/acme=acme-portal")
        svc.settings.set("persona", "ana")
    out = _hook(db_path, {"hook_event_name": "SessionStart", "source": "startup",
                          "cwd": "/home/ana/clients/acme/web"}, tmp_path)
    assert "call the `remember` tool" in out
    assert "workspace:acme-portal for this project" in out and "persona:ana" in out
    assert "remember \"TEXT\" --kind KIND --namespace NS" in out  # for agents without the MCP tool


def test_session_start_guide_follows_the_recall_context(db_path: Path, tmp_path: Path) -> None:
    with Services.open(db_path) as svc:
        result = svc.review.add_manual("The demo-app repo uses pnpm, not npm.", "fact", "workspace:demo-app")
        svc.review.approve(result.candidate_id)
    out = _hook(db_path, {"hook_event_name": "SessionStart", "source": "startup",
                          "cwd": "/home/ana/projects/demo-app"}, tmp_path)
    assert "The demo-app repo uses pnpm, not npm." in out
    assert out.index("pnpm, not npm") < out.index("call the `remember` tool")
    assert "workspace:demo-app for this project" in out


def test_mcp_instructions_outside_a_project_keep_the_placeholders(db_path: Path, tmp_path: Path) -> None:
    Services.open(db_path).close()
    home = tmp_path / "not-a-repo"
    home.mkdir()
    instructions = _instructions(db_path, home)
    assert instructions is not None and "workspace:<repo> for this project" in instructions
