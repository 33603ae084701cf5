"""End to end with the real Claude Code CLI (package.json's pinned version) against a scripted
Anthropic Messages server on 127.0.0.1: what reaches the model, what lands in the queue.

Every test has its own HOME, project and database (tests/claude_code_session.py); hooks
and the MCP server are installed by ``madohub-memory setup claude-code`` itself. Claude
Code offers MCP tools as deferred tools (named in the context, loaded with ToolSearch), and
``claude -p`` does not wait for a server still starting: the context then says "The
following MCP servers are still connecting" and a ToolSearch waits for them (older CLIs
offered WaitForMcpServers). The scripted agent does what a model does in each case.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from anthropic_server import (
    AnthropicServer,
    Block,
    Request,
    all_text,
    body,
    is_compaction,
    last_user_text,
    messages,
    offers_tools,
    text,
    tool_names,
    tool_results,
    tool_use,
)
from claude_code_session import RUN_TIMEOUT, ClaudeHome

from madohub_memory.agents.guide import compaction_instruction
from madohub_memory.extraction.llm_prompt import SYSTEM_PROMPT
from madohub_memory.services import Services

pytestmark = pytest.mark.xdist_group("claude_code_cli")  # one worker runs them: each starts node and python

REMEMBER = "mcp__madohub__remember"
TOOLS = {"mcp__madohub__remember", "mcp__madohub__recall", "mcp__madohub__session_context",
         "mcp__madohub__list_memories", "mcp__madohub__update_working_memory", "mcp__madohub__get_working_memory"}
ALLOWED = f"{REMEMBER},ToolSearch,WaitForMcpServers"
RULE = "User wants every commit to pass the pre-commit hook; never use --no-verify."


def say(reply: str) -> Any:
    def script(request: Request) -> list[Block]:
        return [text(reply if offers_tools(request) else "Shop session")]
    return script


def remembering_agent(request: Request) -> list[Block]:
    """Saves :data:`RULE` in the namespace the session-start block names, as the guide asks."""
    if not offers_tools(request):
        return [text("Shop session")]
    if any("candidate_id" in json.dumps(r.get("content")) for r in tool_results(request)):
        return [text("Saved it for your review.")]
    everything = all_text(request)
    if REMEMBER in tool_names(request):
        named = re.search(r"Namespace: (workspace:\S+) for this project", everything)
        return [tool_use(REMEMBER, {"content": RULE, "kind": "pattern",
                                    "namespace": named.group(1) if named else None})]
    return load_tool(request, REMEMBER, "madohub") or [text("No memory tool was offered.")]


def load_tool(request: Request, name: str, server: str) -> list[Block] | None:
    """The call a model makes to get a deferred MCP tool: ToolSearch (which waits for a server
    still connecting), at most twice; WaitForMcpServers where a CLI offers that instead."""
    everything = all_text(request)
    searches = sum(1 for m in messages(request) if m.get("role") == "assistant" for b in m.get("content") or []
                   if isinstance(b, dict) and b.get("name") == "ToolSearch")
    _, _, waiting = everything.partition("MCP servers are still connecting")
    connecting = server in waiting[:1000]
    if (name in everything or connecting) and "ToolSearch" in tool_names(request) and searches < 2:
        return [tool_use("ToolSearch", {"query": f"select:{name}"})]
    if "WaitForMcpServers" in tool_names(request) and not tool_results(request):
        return [tool_use("WaitForMcpServers", {})]
    return None


@pytest.fixture
def server() -> Any:
    scripts: list[Any] = [say("OK.")]
    with AnthropicServer(lambda request: scripts[-1](request)) as running:
        running.use = scripts.append  # type: ignore[attr-defined]
        yield running


@pytest.fixture
def user(tmp_path: Path, server: AnthropicServer) -> Any:
    home = ClaudeHome(tmp_path, server.url)
    yield home
    home.stop_dashboards()  # one a slash command opened (offscreen here), passed or failed


def approve(svc: Services, content: str, kind: str, namespace: str) -> None:
    svc.review.approve(svc.review.add_manual(content, kind, namespace).candidate_id)


def test_the_session_start_block_arrives_in_the_first_request(user: ClaudeHome, server: AnthropicServer) -> None:
    with user.services() as svc:
        approve(svc, "The shop deploys with make deploy, after staging passes.", "pattern", "workspace:shop")
        approve(svc, "The billing repo deploys on Fridays.", "fact", "workspace:billing")
    user.setup()
    user.run("-p", "What should I know before deploying?")
    first = server.session_requests()[0]
    context = all_text(first)
    assert "Memory for workspace:shop" in context
    assert "The shop deploys with make deploy, after staging passes." in context
    assert "deploys on Fridays" not in context  # another project's memory stays out
    assert "Namespace: workspace:shop for this project; persona:default" in context  # the remember guide
    assert "SessionStart" in user.hook_log()


def test_the_agent_is_offered_the_tools_told_when_to_remember_and_its_remember_is_queued(
        user: ClaudeHome, server: AnthropicServer) -> None:
    user.setup()
    server.use(remembering_agent)  # type: ignore[attr-defined]
    result = user.run("-p", "From now on never commit with --no-verify; fix what the hook finds.",
                      "--allowedTools", ALLOWED, "--max-turns", "8")
    assert result["result"] == "Saved it for your review.", user.mcp_log()
    requests = server.session_requests()
    offered = set().union(*({n for n in TOOLS if n in all_text(r) or n in tool_names(r)} for r in requests))
    assert offered == TOOLS
    instructions = [all_text(r) for r in requests if "Long-term memory curated by the user" in all_text(r)]
    assert instructions, "the MCP server's instructions never reached the model"
    assert "Namespace: workspace:shop for this project" in instructions[-1].split("Long-term memory curated")[1]
    with user.services() as svc:
        [candidate] = [c for c in svc.review.pending() if c.source == "remember"]
        assert (candidate.content, candidate.kind, candidate.namespace) == (RULE, "pattern", "workspace:shop")
        assert candidate.status == "pending"
    # the Stop hook read the transcript the CLI wrote (claude -p opens it with records that
    # carry no cwd): the session is the project's, and the agent's call is the candidate's turn
    user.wait_until_extracted()
    with user.services() as svc:
        session = f"cc:{result['session_id']}"
        assert svc.store.query_one("SELECT namespace FROM conversations WHERE id = ?", (session,))[0] == \
            "workspace:shop"
        [turn] = svc.review.get(candidate.id).turn_ids
        assert svc.turns.context(turn, radius=0)["turn"]["content"].startswith(f"[tool {REMEMBER}]")


SUMMARY_LINES = [
    "- preference | persona | User wants pnpm, not npm, in every project.",
    "- decision | workspace | The shop keeps snake_case JSON keys because the mobile app parses them.",
    "- postmortem | workspace | 结账测试失败是因为时区没有固定；现在测试统一用 UTC。",
    "- opinion | workspace | Not one of the six kinds, so it is skipped.",
]


def compacting_agent(request: Request) -> list[Block]:
    if is_compaction(request):
        return [text("<analysis>\nThe user set up the shop.\n</analysis>\n\n<summary>\n1. Primary Request and Intent:\n"
                     "   Set up the shop's checkout.\n\n## Memory candidates\n" + "\n".join(SUMMARY_LINES)
                     + "\n</summary>")]
    return [text("Done." if offers_tools(request) else "Shop session")]


def test_compact_carries_our_instruction_and_the_summary_lines_become_exactly_those_candidates(
        user: ClaudeHome, server: AnthropicServer) -> None:
    user.setup()
    server.use(compacting_agent)  # type: ignore[attr-defined]
    session = user.run("-p", "Set up the checkout; we use pnpm.", inline=True)["session_id"]
    user.run("-p", "/compact", "--resume", session, inline=True)
    [compaction] = server.matching(is_compaction)
    assert "Additional Instructions:\n" + compaction_instruction() in last_user_text(compaction)
    with user.services() as svc:
        found = [c for c in svc.review.pending() if c.source == "compaction"]
        assert sorted((c.kind, c.namespace) for c in found) == [
            ("decision", "workspace:shop"), ("postmortem", "workspace:shop"), ("preference", "persona:default")]
        assert {c.content for c in found} == {line.split(" | ", 2)[2] for line in SUMMARY_LINES[:3]}
        [turn] = {tuple(c.turn_ids) for c in found}
        assert turn[0].startswith(f"cc:{session}:compact:")  # the summary turn PostCompact stored
    # the next turn's Stop hook imports the transcript, summary record included: nothing new
    user.run("-p", "Carry on.", "--resume", session, inline=True)
    transcript = user.transcript(session).read_text()
    assert '"isCompactSummary":true' in transcript.replace(" ", "") and "## Memory candidates" in transcript
    with user.services() as svc:
        again = [c for c in svc.review.pending() if c.source == "compaction"]
        assert [(c.id, c.seen_count, c.turn_ids) for c in again] == [(c.id, 1, c.turn_ids) for c in found]
    assert "read at PostCompact" in user.hook_log()


def test_the_stop_hook_ingests_the_transcript_the_cli_wrote(user: ClaudeHome, server: AnthropicServer) -> None:
    user.setup()
    server.use(say("Understood: no --no-verify, I will fix what the hook reports."))  # type: ignore[attr-defined]
    prompt = "Don't commit with --no-verify; fix the findings of the pre-commit hook instead."
    session = user.run("-p", prompt)["session_id"]  # extraction runs in the detached worker
    user.wait_until_extracted()
    records = [json.loads(line) for line in user.transcript(session).read_text().splitlines()]
    said = [r["message"] for r in records if r.get("type") in ("user", "assistant") and not r.get("isMeta")]
    assert any(m.get("content") == prompt for m in said)
    with user.services() as svc:
        turns = svc.store.query("SELECT role, content FROM turns WHERE conversation_id = ?", (f"cc:{session}",))
        assert (("user", prompt) in [tuple(t) for t in turns])
        assert ("assistant", "Understood: no --no-verify, I will fix what the hook reports.") in [tuple(t) for t in turns]
        rules = [c for c in svc.review.pending() if c.source == "turn" and "no-verify" in c.content]
        assert rules and all(c.namespace in ("workspace:shop", "persona:default") for c in rules)
    assert "Stop: turns" in user.hook_log()


def test_setup_then_a_session_works_and_uninstall_leaves_the_settings_as_they_were(
        user: ClaudeHome, server: AnthropicServer) -> None:
    marker = user.root / "their-stop-hook-ran"
    settings = user.home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    theirs = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": f"touch {marker}"}]}]},
              "permissions": {"allow": ["Bash(git status)"]}}
    original = json.dumps(theirs, indent=4).encode()
    settings.write_bytes(original)
    with user.services() as svc:
        approve(svc, "The shop's staging server is staging.shop.example.", "fact", "workspace:shop")
    done = user.setup()
    assert "with `claude mcp add` (user scope, ~/.claude.json)" in done.stdout
    registered = json.loads((user.home / ".claude.json").read_text())["mcpServers"]["madohub"]
    assert registered["args"] == ["mcp", "--db", str(user.db)]
    server.use(remembering_agent)  # type: ignore[attr-defined]
    user.run("-p", "Never commit with --no-verify.", "--allowedTools", ALLOWED, "--max-turns", "8")
    assert "staging.shop.example" in all_text(server.session_requests()[0])
    assert marker.exists()  # their own hook still runs beside ours
    with user.services() as svc:
        assert [c.namespace for c in svc.review.pending() if c.source == "remember"] == ["workspace:shop"], \
            user.mcp_log()
    undone = user.madohub("setup", "claude-code", "--uninstall")
    assert "restored byte for byte" in undone.stdout and "removed with `claude mcp remove`" in undone.stdout
    assert settings.read_bytes() == original
    assert "madohub" not in json.loads((user.home / ".claude.json").read_text()).get("mcpServers", {})
    marker.unlink()
    before = len(server.requests)
    server.use(say("OK."))  # type: ignore[attr-defined]
    user.run("-p", "Hello again.")
    after = [r for r in server.requests[before:] if offers_tools(r)]
    assert after and "staging.shop.example" not in all_text(after[0]) and REMEMBER not in all_text(after[0])
    assert marker.exists()


def test_settings_that_disable_all_hooks_are_said_by_setup_and_doctor(user: ClaudeHome, server: AnthropicServer) -> None:
    """``disableAllHooks: true``: the CLI runs none of our hooks, so setup and doctor must not
    let the person believe memory works."""
    settings = user.home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text('{"disableAllHooks": true}\n')
    done = user.setup()
    assert "Warning: disableAllHooks is true in ~/.claude/settings.json: Claude Code runs no hook" in done.stdout
    user.run("-p", "Hello.")
    assert not user.log.exists()  # not one hook ran (each run logs a line, SessionStart included)
    checks = json.loads(user.madohub("doctor", "--json").stdout)["integrations"]["claude-code"]
    assert {"check": "Claude Code hooks run", "ok": False, "detail": "disableAllHooks is true in "
            "~/.claude/settings.json: Claude Code runs no hook, ours included; set it to false for memory to "
            "work"} in checks


def test_the_claude_code_extraction_backend_runs_the_real_cli(
        user: ClaudeHome, server: AnthropicServer, svc: Services, monkeypatch: pytest.MonkeyPatch) -> None:
    for key in ("HOME", "ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY", "DISABLE_AUTOUPDATER", "DISABLE_TELEMETRY",
                "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"):
        monkeypatch.setenv(key, user.env[key])

    def extractor_model(request: Request) -> list[Block]:
        ids = re.findall(r"^\[([^\]]+)\](?: \(\S+\))? user: ", last_user_text(request), re.M)
        return [text(json.dumps({"memories": [
            {"content": "User wants the release notes written in Chinese.", "kind": "preference",
             "scope": "persona", "confidence": 0.8, "turn_ids": ids[:1]},
            {"content": "The staging database password is rotated monthly.", "kind": "fact",
             "scope": "workspace", "confidence": 0.7, "turn_ids": ["not-a-turn"]},  # invented: dropped
        ]}))]

    server.use(extractor_model)  # type: ignore[attr-defined]
    svc.settings.set("extraction.backend", "claude-code")
    svc.settings.set("extraction.claude.executable", user.claude)
    transcript = user.root / "session.jsonl"
    transcript.write_text("\n".join(json.dumps(r) for r in [
        {"role": "user", "content": "Please write the release notes in Chinese from now on. "
                                    "The staging password is hunter2-Staging-2026!"},
        {"role": "assistant", "content": "Understood, Chinese release notes from now on."},
    ]) + "\n")
    report = svc.ingest.ingest_paths([str(transcript)], namespace="workspace:shop")
    assert report["candidates"]["new"] == 1, report
    [candidate] = svc.review.pending()
    assert (candidate.content, candidate.namespace) == ("User wants the release notes written in Chinese.",
                                                        "persona:default")
    [request] = [r for r in server.requests if r.path.startswith("/v1/messages")]
    sent = body(request)
    assert SYSTEM_PROMPT in [block.get("text") for block in sent["system"]]
    assert not sent.get("tools")  # no tools, no MCP servers
    assert "hunter2-Staging-2026" not in request.text()  # masked before it left the machine
    assert not list((user.home / ".claude" / "projects").glob("**/*.jsonl"))  # no session saved


PLUGIN_MARKETPLACE = Path(__file__).resolve().parents[1] / "packaging" / "claude-code"


def test_the_plugin_validates_installs_and_works(user: ClaudeHome, server: AnthropicServer) -> None:
    for target, strict in ((PLUGIN_MARKETPLACE, ()), (PLUGIN_MARKETPLACE / "madohub-memory", ("--strict",))):
        checked = subprocess.run([user.claude, "plugin", "validate", *strict, str(target)], capture_output=True,
                                 text=True, env=user.env, timeout=RUN_TIMEOUT)
        assert checked.returncode == 0 and "Validation passed" in checked.stdout, checked.stdout + checked.stderr
    for command in (["plugin", "marketplace", "add", str(PLUGIN_MARKETPLACE)],
                    ["plugin", "install", "madohub-memory@madohub"]):
        done = subprocess.run([user.claude, *command], capture_output=True, text=True, env=user.env,
                              cwd=user.project, timeout=RUN_TIMEOUT)
        assert done.returncode == 0, done.stdout + done.stderr
    user.env["MADOHUB_DB"] = str(user.db)  # the plugin runs the default database: the test's
    with user.services() as svc:
        approve(svc, "The shop runs make check before every push.", "pattern", "workspace:shop")
        svc.review.remember("User wants pnpm, not npm.", "preference", "persona:default", 0.9)
    plugin_remember = "mcp__plugin_madohub-memory_madohub__remember"
    user.run("-p", "Hello.")
    requests = server.session_requests()
    assert "The shop runs make check before every push." in all_text(requests[0])  # its SessionStart hook
    # its MCP server's tools (loaded with ToolSearch, which waits for a server still connecting)
    server.use(lambda r: (offers_tools(r) and plugin_remember not in tool_names(r)  # type: ignore[attr-defined]
                          and load_tool(r, plugin_remember, "plugin:madohub-memory:madohub")) or [text("OK.")])
    user.run("-p", "Which memory tools do you have?", "--allowedTools", "ToolSearch,WaitForMcpServers",
             "--max-turns", "4")
    assert any(plugin_remember in tool_names(r) for r in server.session_requests()[len(requests):]), user.mcp_log()
    # /madohub-memory:review opens the dashboard (detached) and hands the model the queue
    server.use(say("Two candidates wait; the dashboard is open."))  # type: ignore[attr-defined]
    before = len(server.requests)
    user.run("-p", "/madohub-memory:review")
    [asked] = [r for r in server.requests[before:] if offers_tools(r)]
    prompt = all_text(asked)
    assert "User wants pnpm, not npm." in prompt and "Do not approve, reject or edit anything yourself" in prompt
    opened = re.search(r"Opening the MadoHub Memory dashboard \(process (\d+)\)", prompt)
    assert opened is not None and int(opened.group(1)) in user.dashboards()
    doctor = json.loads(user.madohub("doctor", "--json", "--no-agents").stdout)
    assert "integrations" not in doctor
    report = json.loads(user.madohub("doctor", "--json").stdout)["integrations"]["claude-code"]
    assert report[0] == {"check": "Claude Code plugin", "ok": True, "detail": "madohub-memory@madohub is enabled"}
