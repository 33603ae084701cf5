"""Session start: the workspace's rules for the agent, within budget, traceable (issue 12)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest

from madohub_memory.cli import main
from madohub_memory.core.errors import ValidationError
from madohub_memory.services import Services
from madohub_memory.services.recall import estimate_tokens

pytestmark = pytest.mark.both_backends


def approved(svc: Services, content: str, kind: str, namespace: str | None = None) -> int:
    return svc.review.approve(svc.review.add_manual(content, kind, namespace).candidate_id)


@pytest.fixture
def shop(svc: Services) -> dict[str, int]:
    ids = {
        "lint": approved(svc, "Always run make lint before committing", "pattern", "workspace:shop"),
        "pnpm": approved(svc, "Use pnpm, not npm, in this repository", "preference", "workspace:shop"),
        "tabs": approved(svc, "Indent the SQL files with tabs", "preference", "workspace:shop"),
        "ssr": approved(svc, "Keep SSR because SEO traffic matters", "decision", "workspace:shop"),
        "api": approved(svc, "The API returns snake_case JSON keys", "fact", "workspace:shop"),
        "short": approved(svc, "The user wants short answers in British English", "preference"),
        "theme": approved(svc, "用户喜欢用深色主题", "preference"),
        "persona_fact": approved(svc, "The user lives in Lisbon", "fact"),
        "billing": approved(svc, "Billing deploys only on Fridays", "pattern", "workspace:billing"),
        "old": approved(svc, "Use yarn in this repository", "preference", "workspace:shop"),
    }
    svc.memories.pin(ids["lint"])
    svc.memories.set_status(ids["old"], "deprecated")
    svc.review.add_manual("Never deploy on Mondays", "pattern", "workspace:shop")  # pending
    svc.working.update("shop", "task", "Migrate checkout to Stripe")
    svc.working.update("shop", "add_constraint", "No new dependencies")
    return ids


def test_rules_in_order_most_used_first_and_nothing_else(svc: Services, shop: dict[str, int]) -> None:
    # "tabs" was recalled three times: it comes before "pnpm" among the project's preferences.
    svc.recall.record_injection([shop["tabs"]] * 1, 10, "q", None, "cli")
    svc.recall.record_injection([shop["tabs"]], 10, "q", None, "cli")
    context = svc.session_context.build("workspace:shop", record=False)
    text = context.text
    assert text.startswith("Memory for workspace:shop") and "may be out of date" in text.splitlines()[0]
    order = [text.index(s) for s in (
        "make lint", "Working memory for workspace:shop", "Migrate checkout to Stripe", "No new dependencies",
        "Indent the SQL files", "Use pnpm", "The user's preferences", "short answers", "Keep SSR", "snake_case",
    )]
    assert order == sorted(order)
    assert "(none)" not in text  # empty working-memory sections are left out
    assert context.sections["pinned"] == [shop["lint"]]
    assert context.sections["rules"] == [shop["tabs"], shop["pnpm"]]
    assert set(context.sections["persona"]) == {shop["short"], shop["theme"]}
    for absent in ("Billing", "yarn", "Mondays", "Lisbon"):  # other workspace, deprecated, pending, persona fact
        assert absent not in text
    assert context.tokens == estimate_tokens(text) <= context.budget_tokens


def test_budget_is_kept_and_what_is_left_out_is_counted(svc: Services, shop: dict[str, int]) -> None:
    for i in range(40):
        approved(svc, f"Pattern number {i}: run the contract tests of service {i} before merging", "pattern",
                 "workspace:shop")
    for budget in (120, 300, 1000):
        context = svc.session_context.build("shop", budget_tokens=budget, record=False)
        assert context.tokens <= budget
        assert context.left_out > 0 and f"{context.left_out} more not shown" in context.text
        assert "make lint" in context.text  # the pinned rule always comes first
    # Forty project patterns do not crowd out the user's own preferences.
    assert "short answers" in context.text and context.sections["persona"]
    with pytest.raises(ValidationError, match="at least 50"):
        svc.session_context.build("shop", budget_tokens=10)
    with pytest.raises(ValidationError):
        svc.session_context.build("persona:default")


def test_injection_is_counted_and_logged(svc: Services, shop: dict[str, int]) -> None:
    svc.clock.advance(hours=3)
    context = svc.session_context.build(cwd=None, workspace="shop", source="hook")
    for memory_id in context.memory_ids:
        memory = svc.memories.get(memory_id)
        assert memory.hit_count == 1 and memory.last_hit_at == svc.clock.now_iso()
    entry = svc.recall.recent_log(1)[0]
    assert entry["source"] == "hook" and entry["memory_ids"] == context.memory_ids
    assert entry["token_estimate"] == context.tokens > 0 and entry["namespace"] == "workspace:shop"
    assert svc.memories.get(shop["billing"]).hit_count == 0


def test_workspace_from_the_repository_of_the_folder(svc: Services, shop: dict[str, int], tmp_path: Path) -> None:
    repo = tmp_path / "shop"
    (repo / ".git").mkdir(parents=True)
    (repo / "web" / "src").mkdir(parents=True)
    context = svc.session_context.build(cwd=str(repo / "web" / "src"), record=False)
    assert context.workspace == "workspace:shop" and "make lint" in context.text
    alone = svc.session_context.build(record=False)  # no workspace: the persona's preferences only
    assert alone.workspace is None and "short answers" in alone.text and "make lint" not in alone.text
    svc.settings.set("ui.language", "zh_CN")
    assert "的记忆" in svc.session_context.build("shop", record=False).text


def test_cli_context_recall_log_and_memories_by_recall(db_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with Services.open(db_path) as svc:
        rule = approved(svc, "Always run make lint before committing", "pattern", "workspace:shop")
        other = approved(svc, "The API returns snake_case JSON keys", "fact", "workspace:shop")
    assert main(["context", "--workspace", "shop", "--db", str(db_path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "make lint" in data["text"] and data["memory_ids"] == [rule, other]
    assert main(["recall", "snake_case keys", "--namespace", "workspace:shop", "--db", str(db_path)]) == 0
    capsys.readouterr()
    assert main(["recall-log", "--db", str(db_path), "--json"]) == 0
    log = json.loads(capsys.readouterr().out)
    assert [e["source"] for e in log] == ["cli", "cli"] and log[0]["query"] == "snake_case keys"
    assert log[0]["memory_ids"][0] == other and all(e["token_estimate"] > 0 for e in log)
    assert main(["memories", "--sort", "recalled", "--db", str(db_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "last_recalled" in lines[0] and lines[1].split()[0] == str(other)  # recalled twice
    assert main(["recall-log", "--limit", "0", "--db", str(db_path)]) == 1
    assert "at least 1" in capsys.readouterr().err


def test_hook_and_mcp_give_the_same_rules(db_path: Path, tmp_path: Path) -> None:
    from mcp import Client, StdioServerParameters

    with Services.open(db_path) as svc:
        approved(svc, "Always run make lint before committing", "pattern", "workspace:demo-app")
        approved(svc, "Billing deploys only on Fridays", "pattern", "workspace:billing")
    repo = tmp_path / "demo-app"
    (repo / ".git").mkdir(parents=True)
    event = {"hook_event_name": "SessionStart", "source": "startup", "cwd": str(repo), "session_id": "s1"}
    env = {"MADOHUB_DB": str(db_path), "MADOHUB_HOOK_LOG": str(tmp_path / "hook.log"), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-m", "madohub_memory", "hook"], input=json.dumps(event).encode(),
                          capture_output=True, env=env, timeout=120)
    out = done.stdout.decode()
    assert done.returncode == 0 and "make lint" in out and "Billing" not in out
    assert "SessionStart: workspace:demo-app" in (tmp_path / "hook.log").read_text()

    async def go() -> dict:
        params = StdioServerParameters(command=sys.executable,
                                       args=["-m", "madohub_memory", "mcp", "--db", str(db_path)])
        async with Client(params) as client:
            result = await client.call_tool("session_context", {"cwd": str(repo / "src")})
            assert not result.is_error, result.content[0].text
            bad = await client.call_tool("session_context", {"workspace": "persona:x"})
            assert bad.is_error and "not a workspace" in bad.content[0].text
            listed = await client.call_tool("list_memories", {"namespace": "workspace:demo-app"})
            return {"context": result.structured_content, "listed": listed.structured_content}

    data = asyncio.run(go())
    # the hook prints the same rules, then the few lines that teach the agent to call remember
    assert out.startswith(data["context"]["text"] + "\n\n") and data["context"]["workspace"] == "workspace:demo-app"
    assert "Long-term memory:" in out[len(data["context"]["text"]):]
    assert data["listed"]["memories"][0]["hit_count"] == 2 and data["listed"]["memories"][0]["last_hit_at"]
    with Services.open(db_path) as svc:
        assert [e["source"] for e in svc.recall.recent_log(5)] == ["mcp", "hook"]
