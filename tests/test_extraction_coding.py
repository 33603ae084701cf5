"""Offline extraction on coding sessions, as a user sees it, with the shipped selector.

A long autonomous run keeps the standing rules of its few prompts and the finding of the
agent's final report, never the narration in between; Chinese (Simplified and
Traditional) sessions get candidates in their own language; compaction summaries are mined
by section; questions, pasted logs and sessions of only tool calls give nothing; nothing
crashes. The fixtures are written here in the layouts Claude Code produces; none is copied
from real data. (Which units exist and where they stand: ``test_extraction_units.py``;
how the selector does on real sessions it never saw: ``bench/extraction_coding.py``.)
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from test_ingest_helpers import (
    cc_assistant,
    cc_boundary,
    cc_tool_result,
    cc_user,
    disable_semantic_dedup,
    text,
    tool_use,
    write_jsonl,
)

from madohub_memory.core.vocab import KINDS
from madohub_memory.extraction.base import TurnView
from madohub_memory.extraction.offline import OfflineExtractor
from madohub_memory.services import Services

WS = "workspace:shop"
PREAMBLE = ("This session is being continued from a previous conversation that ran out of context. "
            "The summary below covers the earlier portion of the conversation.\n\n")

NUMBERED = PREAMBLE + """Analysis:
Let me chronologically analyze the conversation. The user asked for the checkout epic.

Summary:
1. Primary Request and Intent:
   The user asked to implement the checkout epic. The user wants every task committed and pushed before moving on.

2. Key Technical Concepts:
   - Django 5 with HTMX partials
   - pnpm for frontend dependencies (npm lockfiles are not allowed)

4. Errors and fixes:
   - Migration 0042 failed on SQLite (ALTER COLUMN unsupported): Rewrote it as a table copy, the pattern the repo already uses.
   - Missing module `payments.forms`: Expected while editing; created the module.

5. Problem Solving:
   - Migrations: Established that schema changes on SQLite must be written as table copies, never ALTER COLUMN.

6. All user messages:
   - "Implement the checkout epic"
   - "don't squash the commits, keep them one per change"

8. Current Work:
   Working on the payment step tests.
"""

CHINESE_SUMMARY = PREAMBLE + """Summary:
1. 主要请求和意图：
   用户要求实现订单导出功能。用户希望所有改动都先写测试。

4. 错误和修复：
   - 导出任务超时：原因是查询没有走索引；修复：给 orders.created_at 加了索引。

6. 所有用户消息：
   - "以后不要直接推到 main 分支"
"""


def run(*rows: tuple[str, str, str]) -> list[TurnView]:
    return [TurnView(i, role, content, "cc:s", "2026-03-01T10:00:00Z") for i, role, content in rows]


def drafts_for(turns: list[TurnView], namespace: str | None = WS):
    return OfflineExtractor().extract(turns, namespace=namespace)


def contents(drafts) -> list[str]:
    return [d.content for d in drafts]


def autonomous(prompt: str, look: str, check: str, report: str) -> list[TurnView]:
    """A long autonomous run: one prompt, the agent narrating its steps, a failing run, a
    fix, a passing run, and a final report."""
    return run(
        ("u1", "user", prompt),
        ("a1", "assistant", f"{look}\n[tool Bash] ls -la"),
        ("r1", "tool", "[tool result] docker-compose.yml src tests README.md"),
        ("a2", "assistant", "[tool Bash] docker compose run --rm app pytest -q"),
        ("r2", "tool", "[tool error] Exit code 1 FAILED tests/test_sync.py::test_batch - ConnectionError: redis:6379"),
        ("a3", "assistant", f"{check}\n[tool Read] docker-compose.yml"),
        ("r3", "tool", "[tool result] services: app: ..."),
        ("a4", "assistant", "[tool Edit] docker-compose.yml"),
        ("r4", "tool", "[tool result] The file docker-compose.yml has been updated successfully."),
        ("a5", "assistant", "[tool Bash] docker compose run --rm app pytest -q"),
        ("r5", "tool", "[tool result] 42 passed in 3.1s"),
        ("a6", "assistant", report),
    )


AUTONOMOUS_EN = autonomous(
    "Fix the data sync service. Don't ask me, verify it yourself in a closed loop until all tests pass. "
    "All tests must run inside the Docker container; never install dependencies on the host.",
    "Let me look at the project layout.", "Let me check the compose file.",
    "## Summary\n\nRoot cause: the app service had no depends_on for redis, so Redis was not ready when the tests "
    "started.\n\nFix: added depends_on and a healthcheck for app in docker-compose.yml; all 42 tests pass now.")

AUTONOMOUS_ZH = autonomous(
    "帮我把数据同步服务修好。不要问我，自己闭环验证，直到测试全部通过为止。所有测试必须在 Docker 容器里跑，不要直接在宿主机上装依赖。",
    "我先看一下项目结构。", "让我检查 compose 配置。",
    "## 总结\n\n根因：app 服务没有声明对 redis 的 depends_on，测试启动时 Redis 还没就绪。\n\n"
    "修复：在 docker-compose.yml 里给 app 加上 depends_on 和 healthcheck，现在 42 个测试全部通过。\n\n"
    "环境说明：项目使用 Python 3.11 和 Redis 7，测试命令是 `docker compose run --rm app pytest -q`。")


def test_an_autonomous_run_keeps_the_prompts_rules_and_the_reports_finding_not_the_narration():
    drafts = drafts_for(AUTONOMOUS_EN)
    found = contents(drafts)
    assert any("never install dependencies on the host" in c for c in found), found
    assert any(c.startswith("Root cause: the app service had no depends_on") for c in found), found
    assert not any("Let me" in c or "project layout" in c for c in found), found
    assert len(drafts) <= 6
    cause = next(d for d in drafts if d.content.startswith("Root cause"))
    assert cause.kind == "postmortem" and cause.namespace == WS and cause.turn_ids == ("a6",)
    rule = next(d for d in drafts if "never install dependencies" in d.content)
    assert rule.kind == "preference" and rule.turn_ids == ("u1",)


def test_a_chinese_autonomous_run_gives_its_rules_and_finding_in_chinese():
    found = contents(drafts_for(AUTONOMOUS_ZH))
    assert "用户要求：不要问我，自己闭环验证，直到测试全部通过为止。" in found, found
    assert any(c.startswith("根因：app 服务没有声明对 redis 的 depends_on") for c in found), found
    assert not any("让我" in c or "我先看" in c for c in found), found
    assert all(any("\u4e00" <= ch <= "\u9fff" for ch in c) for c in found)  # never rewritten into English


def test_a_traditional_chinese_session_stays_traditional():
    turns = [TurnView("u1", "user", "不要再問我了，請自己驗證到全部通過。以後所有提交訊息都要用中文寫。"), *AUTONOMOUS_ZH[1:-1],
             TurnView("a6", "assistant", "根因是 app 服務沒有等待 Redis 就緒。已在 docker-compose.yml 加上 depends_on，42 個測試全部通過。")]
    found = contents(drafts_for(turns))
    assert any(c.startswith("根因是 app 服務沒有等待 Redis 就緒") for c in found), found
    assert not any("用户" in c for c in found), found  # the Simplified subject is never put into Traditional text


def test_a_compaction_summary_is_mined_by_section():
    drafts = drafts_for([TurnView("sum1", "system", NUMBERED, "cc:s", "2026-02-11T21:16:56Z")])
    found = contents(drafts)
    assert any("Migration 0042 failed on SQLite" in c for c in found), found
    assert "User wants the agent to not squash the commits, keep them one per change." in found
    assert not any("payments.forms" in c for c in found)  # an error the summary calls expected is no postmortem
    assert not any("chronologically" in c for c in found)  # the analysis narrates; the summary states
    assert all(d.source == "compaction" and d.kind in KINDS for d in drafts)
    rule = next(d for d in drafts if "squash" in d.content)
    assert rule.kind == "preference" and rule.namespace == "persona:default"  # how the user wants agents to work


def test_a_chinese_summary():
    found = contents(drafts_for([TurnView("sum1", "system", CHINESE_SUMMARY, "cc:s")]))
    assert any("导出任务超时" in c and "索引" in c for c in found), found
    assert "用户要求：以后不要直接推到 main 分支。" in found


@pytest.mark.parametrize("body", [
    PREAMBLE + "~~~ notes ~~~\n>> everything went fine <<\n" + "* * *\n" * 50,
    PREAMBLE + "Summary:\n" + "\n".join(f"- item {i}: nothing to see" for i in range(400)),
    "",
    PREAMBLE,
])
def test_unknown_or_broken_summary_layouts_never_crash_and_stay_few(body):
    assert len(drafts_for([TurnView("sum1", "system", body)])) <= 25


def test_a_question_the_user_asks_is_never_a_statement():
    turns = run(("u1", "user", "Should we move the cache to Redis? Is the staging DB Postgres 15?"),
                ("a1", "assistant", "Yes, staging runs Postgres 15.\n[tool Bash] psql --version"),
                ("r1", "tool", "[tool result] psql (PostgreSQL) 15.4"))
    assert not any("Redis" in c or (c.startswith("User") and "?" in c) for c in contents(drafts_for(turns)))


def test_a_session_of_only_tool_calls_yields_nothing():
    turns = run(*[(f"a{i}", "assistant", f"[tool Read] src/file_{i}.py") for i in range(30)],
                *[(f"r{i}", "tool", f"[tool result] 1→import os 2→print({i})") for i in range(30)])
    assert drafts_for(turns) == []


def test_a_huge_log_pasted_into_a_coding_turn_is_not_a_memory_and_is_fast():
    log = "\n".join(f"2026-02-11 21:00:{i % 60:02d} [error] worker-{i} crashed: connection reset" for i in range(90_000))
    assert len(log) > 5_000_000
    started = time.perf_counter()
    found = contents(drafts_for(run(("u1", "user", "the worker keeps dying, here is the log:\n" + log),
                                    ("u2", "user", log))))
    assert not any("crashed" in c or "connection reset" in c for c in found), found
    assert time.perf_counter() - started < 3.0


def test_mixed_scripts_and_odd_text_never_crash():
    odd = ["日本語とEnglishと中文混在のテキスト。Use pnpm です。", "\u200b\u200b", "🙂" * 500, "a" * 10_000,
           "```\nunclosed code", "- \n- \n-", "‮reversed text‬", "؟هل هذا سؤال"]
    for n, body in enumerate(odd):
        for drafts in (drafts_for(run((f"u{n}", "user", body))), drafts_for(run((f"a{n}", "assistant", body))),
                       drafts_for([TurnView(f"s{n}", "system", body)])):
            assert all(d.kind in KINDS and len(d.content) <= 360 for d in drafts)


def test_a_key_typed_in_a_rule_is_masked_and_flagged():
    drafts = drafts_for(run(("u1", "user", "never paste the key sk-proj-abcdefghijklmnopqrstuvwx123456 into config "
                                           "files, always read it from the environment"),
                            ("a1", "assistant", "Understood.\n[tool Bash] git status")))
    keyed = [d for d in drafts if "never paste the key" in d.content]
    assert keyed and all("sk-proj" not in d.content and "secret" in d.flags for d in keyed)


def test_ask_user_question_answers_are_decisions():
    turns = run(("u1", "user", "set up the code quality tools"),
                ("a1", "assistant", "[tool AskUserQuestion] Which tools should we set up?"),
                ("r1", "tool", '[tool result] User has answered your questions: "Which tools should we set up?"='
                               '"Credo + Dialyxir". You can now continue with the user\'s answers in mind.'))
    decisions = [d for d in drafts_for(turns) if d.kind == "decision"]
    assert [d.content for d in decisions] == ['User chose "Credo + Dialyxir" when asked: Which tools should we set up?']


def test_a_chinese_session_gets_chinese_candidates_from_its_tool_calls():
    turns = run(("u1", "user", "跑一下检查"),
                ("a1", "assistant", "[tool Bash] uv run pytest -x\n[tool Bash] uv run ruff check ."),
                ("r1", "tool", "[tool result] 12 passed in 0.8s"),
                ("a2", "assistant", "[tool AskUserQuestion] 用哪个包管理器？"),
                ("r2", "tool", '[tool result] User has answered your questions: "用哪个包管理器？"="uv". You can now continue.'))
    assert "被问到“用哪个包管理器？”时，用户选择了“uv”。" in contents(drafts_for(turns))


def test_ingesting_a_session_with_a_compaction_fills_the_queue(svc: Services, tmp_path: Path) -> None:
    """End to end: the summary's candidates reach the queue linked to the summary turn, in
    the session's workspace, from the compaction source; the typed rule from its own turn."""
    disable_semantic_dedup(svc)
    summary = cc_user("sum1", NUMBERED, "b1", isCompactSummary=True, isVisibleInTranscriptOnly=True)
    records = [
        cc_user("u1", "don't squash the commits, keep them one per change"),
        cc_assistant("a1", "m1", [text("OK."), tool_use("t1", "Bash", {"command": "pytest"})], "u1"),
        cc_tool_result("r1", "t1", "3 passed"),
        cc_boundary("b1", "r1"),
        summary,
        cc_user("u2", "did you push?", "sum1"),
    ]
    path = write_jsonl(tmp_path / "11111111-2222-3333-4444-555555555555.jsonl", records)
    result = svc.ingest.ingest_paths([str(path)])
    assert result["status"] == "ok"
    pending = svc.review.pending()
    from_summary = [c for c in pending if c.turn_ids == ["sum1"]]
    assert from_summary and all(c.source == "compaction" for c in from_summary)
    assert {c.namespace for c in from_summary} - {"persona:default"} == {"workspace:demo-app"}
    assert any(c.kind == "postmortem" and "Migration 0042" in c.content for c in from_summary)
    rule = next(c for c in pending if "to not squash the commits" in c.content)
    assert rule.kind == "preference" and rule.namespace == "persona:default"


def test_bad_input_sessions_import_cleanly(svc: Services, tmp_path: Path) -> None:
    """A 5 MB log pasted into one user turn, a summary in an unknown layout and a session of
    only tool calls: each imports, proposes no quoted material, and never crashes."""
    disable_semantic_dedup(svc)
    log = "\n".join(f"2026-02-11 21:00:{i % 60:02d} [error] worker-{i} crashed: We love code." for i in range(80_000))
    odd_summary = PREAMBLE + "~~~ notes ~~~\n>> everything went fine <<\n" + "* * *\n" * 50
    tools_only = [cc_assistant(f"a{i}", f"m{i}", [tool_use(f"t{i}", "Read", {"file_path": f"src/{i}.py"})])
                  for i in range(20)] + [cc_tool_result(f"r{i}", f"t{i}", f"1→print({i})") for i in range(20)]
    paths = [
        write_jsonl(tmp_path / "a" / "11111111-0000-0000-0000-000000000001.jsonl",
                    [cc_user("u1", "the worker keeps dying, log below\n\n" + log)]),
        write_jsonl(tmp_path / "b" / "11111111-0000-0000-0000-000000000002.jsonl",
                    [cc_user("u2", "hello"), cc_boundary("b1", "u2"),
                     cc_user("s2", odd_summary, "b1", isCompactSummary=True)]),
        write_jsonl(tmp_path / "c" / "11111111-0000-0000-0000-000000000003.jsonl", tools_only),
    ]
    started = time.perf_counter()
    result = svc.ingest.ingest_paths([str(p) for p in paths])
    assert result["status"] == "ok" and not result["errors"]
    assert time.perf_counter() - started < 30
    found = [c.content for c in svc.review.pending()]
    assert not any("love code" in c or "crashed" in c or "notes" in c for c in found), found
