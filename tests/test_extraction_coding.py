"""Offline extraction on coding sessions: compaction summaries, the user's corrections and
rules, root causes established after failing runs, AskUserQuestion answers.

The fixtures are written here in the layouts Claude Code produces (numbered sections, or
markdown headings), in Chinese, and in an unknown layout; none is copied from real data.
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
   - Celery for background jobs
   - pnpm for frontend dependencies (npm lockfiles are not allowed)
   - Playwright required for end-to-end tests (headless in CI)

3. Files and Code Sections:
   - `shop/checkout/views.py` — Added the payment step.
     - Added `PaymentForm` handling
   - `shop/settings/test.py` — Added the Stripe test key setting

4. Errors and fixes:
   - Migration 0042 failed on SQLite (ALTER COLUMN unsupported): Rewrote it as a table copy, the pattern the repo already uses.
   - Missing module `payments.forms`: Expected while editing; created the module.
   - Celery tasks ran synchronously in tests: CELERY_TASK_ALWAYS_EAGER was set in base settings; moved it to test settings only.

5. Problem Solving:
   - Migrations: Established that schema changes on SQLite must be written as table copies, never ALTER COLUMN.

6. All user messages:
   - "Implement the checkout epic"
   - "don't squash the commits, keep them one per change"
   - "check again"

7. Pending Tasks:
   - Add the refund view (not started)

8. Current Work:
   Working on the payment step tests.

9. Optional Next Step:
   Run `pytest shop/checkout` and commit.
"""

MARKDOWN = PREAMBLE + """Summary:
## 1. Primary Request and Intent

The user requested the mailer package with these requirements:
- **No secrets in code** - read them from environment variables
- **Follow TDD** - write tests first
- Add a CLI entry point

## 4. Errors and Fixes

### **Error 1: OAuth redirect hangs**
- **User Report**: "it just keeps waiting"
- **Root Cause**: the redirect URI pointed at localhost:3000 with no server listening
- **Fix**: added a local callback server on the configured port

### **Error 2: Flaky token refresh test**
- **Description**: the test depended on wall-clock time
- **Fix**: injected a clock into the client

## 5. Problem Solving

**Solved Problems:**
1. ✅ OAuth flow works end to end

**Key Architectural Decisions:**
- Use a hierarchical .env loader instead of dotenv so packages can stand alone
- Listen on 0.0.0.0 for WSL compatibility

## 8. Current Work

**Fix Applied**:
- Local callback server listening on port 9337
"""

CHINESE = PREAMBLE + """Summary:
1. 主要请求和意图：
   用户要求实现订单导出功能。用户希望所有改动都先写测试。

4. 错误和修复：
   - 导出任务超时：原因是查询没有走索引；修复：给 orders.created_at 加了索引。

5. 问题解决：
   - 确定本项目的数据库迁移必须用 Alembic 生成，不能手写 SQL。

6. 所有用户消息：
   - "以后不要直接推到 main 分支"
   - "先跑一下测试"
"""


def summary_turn(body: str, turn_id: str = "sum1") -> TurnView:
    return TurnView(turn_id, "system", body, "cc:s", "2026-02-11T21:16:56Z")


def drafts_for(turns, namespace: str | None = WS):
    return OfflineExtractor().extract(turns, namespace=namespace)


def by_kind(drafts) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for d in drafts:
        out.setdefault(d.kind, []).append(d.content)
    return out


def test_numbered_summary_sections_are_each_mined_for_what_they_hold():
    drafts = drafts_for([summary_turn(NUMBERED)])
    kinds = by_kind(drafts)
    text_all = "\n".join(d.content for d in drafts)
    # errors and fixes -> postmortems with the fix; the "expected" one is not a lesson
    assert any("Migration 0042" in c and "table copy" in c for c in kinds["postmortem"])
    assert any("CELERY_TASK_ALWAYS_EAGER" in c for c in kinds["postmortem"])
    assert "payments.forms" not in text_all
    # problem solving -> a project pattern; concepts -> only those that say how the project works
    assert any("table copies, never ALTER COLUMN" in c for c in kinds["pattern"])
    assert any("pnpm for frontend dependencies" in c for c in kinds["fact"])
    assert any("Playwright required" in c for c in kinds["pattern"])  # "required": a convention
    assert not any("Django 5 with HTMX" in c for c in kinds.get("fact", []))
    # the known technologies among the concepts make one specific stack fact
    assert "The project is built with Django, htmx, Celery, pnpm and Playwright." in kinds["fact"]
    # the request's standing wish and the user's own rule from "All user messages"
    assert any("committed and pushed" in c for c in kinds["preference"])
    assert any("to not squash the commits" in c for c in kinds["preference"])
    # files, current work, next step, pending: narration of this session, not memories
    for narration in ("PaymentForm", "refund view", "payment step tests", "pytest shop/checkout", "check again"):
        assert narration not in text_all
    assert all(d.source == "compaction" and d.turn_ids == ("sum1",) for d in drafts)
    # the user's working-style rule follows them; what the session learnt about the project stays here
    assert {d.namespace for d in drafts if "squash" in d.content} == {"persona:default"}
    assert {d.namespace for d in drafts if "squash" not in d.content} == {WS}


def test_markdown_summary_with_sub_headings_and_bold_sections():
    kinds = by_kind(drafts_for([summary_turn(MARKDOWN)]))
    redirect = next(c for c in kinds["postmortem"] if "OAuth redirect hangs" in c)
    assert "cause: the redirect URI pointed at localhost:3000" in redirect and "fix: added a local callback" in redirect
    assert any("Flaky token refresh" in c and "injected a clock" in c for c in kinds["postmortem"])
    assert any("hierarchical .env loader instead of dotenv" in c for c in kinds["decision"])
    assert any("No secrets in code" in c for c in kinds["preference"])
    assert any("Follow TDD" in c for c in kinds["preference"])
    everything = [c for cs in kinds.values() for c in cs]
    assert not any("CLI entry point" in c or "port 9337" in c or "end to end" in c for c in everything)


def test_chinese_summary():
    kinds = by_kind(drafts_for([summary_turn(CHINESE)]))
    assert any("导出任务超时" in c and "索引" in c for c in kinds["postmortem"])
    assert any("Alembic" in c for c in kinds["pattern"])
    assert any("不要直接推到 main" in c for c in kinds["preference"])
    assert any("先写测试" in c for c in kinds["preference"])
    everything = [c for cs in kinds.values() for c in cs]
    assert not any("先跑一下测试" in c for c in everything)


@pytest.mark.parametrize("body", [
    PREAMBLE + "We talked about many things. The root cause was a stale lockfile in CI. Then we went on.",
    PREAMBLE + "Summary\n\nLots happened today and everything is fine now.",
    PREAMBLE + "",
    PREAMBLE + "## 4. Errors and fixes\n",
    PREAMBLE + "1. Primary Request and Intent:\n" + "- " * 5000,
    "<summary>\n" + "\n".join(f"### Heading {i}:" for i in range(3000)) + "\n</summary>",
])
def test_unknown_or_broken_summary_layouts_never_crash_and_stay_few(body):
    drafts = drafts_for([summary_turn(body)])
    assert len(drafts) <= 5
    assert all(len(d.content) <= 360 for d in drafts)


def test_unknown_layout_keeps_only_unmistakable_cues():
    body = PREAMBLE + "We talked about many things. The root cause was a stale lockfile in CI. Then we went on."
    drafts = drafts_for([summary_turn(body)])
    assert [(d.kind, d.content) for d in drafts] == [("postmortem", "The root cause was a stale lockfile in CI.")]


@pytest.mark.parametrize(("typed", "expected"), [
    ("don't commit with --no-verify, fix the hook findings", "User wants the agent to not commit with --no-verify"),
    ("keep going through all subtasks without asking", "User wants the agent to keep going through all subtasks"),
    ("use pnpm, not npm", "User wants the agent to use pnpm, not npm."),
    ("Never push directly to main.", "User wants the agent to never push directly to main."),
    ("You should always run the linter before committing.", "User wants the agent to always run the linter"),
    ("we should store the counter file in the session directory", "User decided to store the counter file"),
    ("I don't want to rely on this being a monorepo forever.", "User doesn't want to rely on this being a monorepo"),
    ("I'd like to start committing the extracted session files.", "User decided to start committing the extracted"),
    ("let's also add a todo for the CLI to consider PII removal", "Open todo from the user: the CLI to consider PII"),
    ("mix phx.server doesnt seem to start", "User reported a problem: mix phx.server doesnt seem to start."),
    ("I've removed the '*' from the sessions .gitignore", "User has removed the '*' from the sessions .gitignore"),
    ("for now put the hook scripts under .claude/hooks/", "User decided to put the hook scripts under .claude/hooks/"),
    ("以后不要直接推到 main 分支。", "用户要求：以后不要直接推到 main 分支。"),
])
def test_short_corrections_and_rules_in_a_coding_session_are_kept(typed, expected):
    drafts = drafts_for([TurnView("u1", "user", typed)])
    assert len(drafts) == 1 and expected in drafts[0].content, drafts
    assert drafts[0].kind == {"User r": "event", "Open t": "event", "User h": "fact"}.get(
        expected[:6], "decision" if "decided" in expected or "决定" in expected else "preference")


@pytest.mark.parametrize(("typed", "namespace"), [
    ("keep going through all subtasks without asking", "persona:default"),
    ("don't commit with --no-verify, fix the hook findings", "persona:default"),
    ("never edit files under src/generated/", WS),
    ("You should never use git add -A in this repo.", WS),
    ("we should store the counter file in the session directory", WS),
])
def test_working_style_rules_follow_the_user_and_project_rules_stay_in_the_project(typed, namespace):
    drafts = drafts_for([TurnView("u1", "user", typed)])
    assert [d.namespace for d in drafts] == [namespace]


@pytest.mark.parametrize("typed", [
    "check again", "did you push?", "new beads for the epic were added. tackle them", "Implement spotter-gqc",
    "let's also update the root .env.template", "commit and push", "You should see some instructions in your memory.",
    "your compliance to this is extremely inconsistent", "I'd like to see the diff first.",
    "先跑一下测试", "好的，继续",
])
def test_one_off_steps_and_remarks_to_the_agent_are_not_rules(typed):
    assert drafts_for([TurnView("u1", "user", typed)]) == []


def run_turns(*items: tuple[str, str, str]) -> list[TurnView]:
    return [TurnView(turn_id, role, content) for turn_id, role, content in items]


def test_a_wrong_first_guess_is_dropped_and_the_established_cause_kept():
    """The same failure after a stated cause means the guess was wrong; the cause stated
    before the passing run is the one the session established."""
    failure = "[tool error] Exit code 1 FAILED shop/tests/test_webhook.py::test_signature - KeyError: 'STRIPE_KEY'"
    turns = run_turns(
        ("u1", "user", "make the checkout tests pass"),
        ("a1", "assistant", "[tool Bash] pytest shop/checkout 2>&1 | tail -5"),
        ("r1", "tool", failure),
        ("a2", "assistant", "The fixture is missing `settings.STRIPE_KEY`.\n[tool Edit] shop/conftest.py"),
        ("r2", "tool", "[tool result] The file shop/conftest.py has been updated successfully."),
        ("a3", "assistant", "[tool Bash] pytest shop/checkout"),
        ("r3", "tool", failure.replace("Exit code 1", "Exit code 1 (again, seed 4711)")),
        ("a4", "assistant", "The webhook test fails because the signing secret is read at import time, before "
                            "the fixture sets it.\n[tool Edit] shop/payments/webhooks.py"),
        ("a5", "assistant", "[tool Bash] pytest shop/checkout"),
        ("r5", "tool", "[tool result] ============ 12 passed in 3.1s ============"),
    )
    postmortems = [d for d in drafts_for(turns) if d.kind == "postmortem"]
    assert len(postmortems) == 1
    assert postmortems[0].turn_ids == ("a4",)
    assert "signing secret is read at import time" in postmortems[0].content
    assert postmortems[0].content.startswith("`pytest shop/checkout` failed")


def test_each_cause_that_cleared_its_error_is_kept():
    """Fixing one error uncovers the next: each stated cause whose error went away counts."""
    turns = run_turns(
        ("a1", "assistant", "[tool Bash] mix test test/web/review_live_test.exs"),
        ("r1", "tool", "[tool error] Exit code 1 error: undefined function get/2 (expected ReviewLiveTest to define it)"),
        ("a2", "assistant", "The `live/2` helper needs `Phoenix.ConnTest` imported.\n[tool Edit] test/web/review_live_test.exs"),
        ("a3", "assistant", "[tool Bash] mix test test/web/review_live_test.exs"),
        ("r3", "tool", "[tool error] Exit code 2 ** (RuntimeError) missing :secret_key_base in the test endpoint config"),
        ("a4", "assistant", "The test config is missing `secret_key_base` for the endpoint.\n[tool Edit] config/test.exs"),
        ("a5", "assistant", "[tool Bash] mix test test/web/review_live_test.exs"),
        ("r5", "tool", "[tool result] 5 tests, 0 failures"),
    )
    causes = [d.content for d in drafts_for(turns) if d.kind == "postmortem"]
    assert len(causes) == 2
    assert "Phoenix.ConnTest" in causes[0] and "secret_key_base" in causes[1]


@pytest.mark.parametrize("last_result", [
    "[tool error] Exit code 1 1 failed",  # never passed
    "[tool result] The file shop/x.py has been updated successfully.",  # not a run
])
def test_no_postmortem_without_a_confirming_run(last_result):
    turns = run_turns(
        ("a1", "assistant", "[tool Bash] pytest"),
        ("r1", "tool", "[tool error] Exit code 1 1 failed"),
        ("a2", "assistant", "The webhook test fails because the secret is read at import time."),
        ("r2", "tool", last_result),
    )
    assert [d for d in drafts_for(turns) if d.kind == "postmortem"] == []


def test_a_guess_is_not_a_root_cause():
    turns = run_turns(
        ("a1", "assistant", "[tool Bash] npm test"),
        ("r1", "tool", "[tool error] Exit code 1 FAIL src/env.test.ts"),
        ("a2", "assistant", "This might be because the root detection is wrong. Let me check."),
        ("a3", "assistant", "[tool Bash] npm test"),
        ("r3", "tool", "[tool result] Tests: 13 passed, 13 total"),
    )
    assert [d for d in drafts_for(turns) if d.kind == "postmortem"] == []


def test_ask_user_question_answers_are_decisions():
    answer = ('[tool result] User has answered your questions: "Which package manager should we use?"="pnpm", '
              '"Run the slow tests in CI?"="Only nightly". You can now continue with the user\'s answers in mind.')
    drafts = drafts_for(run_turns(("a1", "assistant", "[tool AskUserQuestion] Which package manager should we use?"),
                                  ("r1", "tool", answer)))
    assert [(d.kind, d.content) for d in drafts] == [
        ("decision", 'User chose "pnpm" when asked: Which package manager should we use?'),
        ("decision", 'User chose "Only nightly" when asked: Run the slow tests in CI?'),
    ]


def test_a_session_of_only_tool_calls_yields_nothing():
    turns = run_turns(*[(f"a{i}", "assistant", f"[tool Read] src/file_{i}.py") for i in range(30)],
                      *[(f"r{i}", "tool", f"[tool result] 1→import os 2→print({i})") for i in range(30)])
    assert drafts_for(turns) == []


def test_a_huge_log_pasted_into_a_coding_turn_is_not_a_memory_and_is_fast():
    log = "\n".join(f"2026-02-11 21:00:{i % 60:02d} [error] worker-{i} crashed: connection reset" for i in range(90_000))
    assert len(log) > 5_000_000
    started = time.perf_counter()
    assert drafts_for([TurnView("u1", "user", "the worker keeps dying, here is the log:\n" + log)]) == []
    assert drafts_for([TurnView("u2", "user", log)]) == []
    assert time.perf_counter() - started < 2.0


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
    assert {c.namespace for c in from_summary} == {"workspace:demo-app"}
    assert any(c.kind == "postmortem" and "Migration 0042" in c.content for c in from_summary)
    rule = next(c for c in pending if "to not squash the commits" in c.content)
    assert rule.kind == "preference" and rule.seen_count == 2  # typed once, repeated by the summary
    assert rule.namespace == "persona:default"  # how the user wants agents to work, in every project


@pytest.mark.parametrize(("typed", "kind", "expected"), [
    ("加个待办：导出功能要支持 CSV。", "event", "用户留下的待办：导出功能要支持 CSV。"),
    ("npm run dev 启动不了，一直报错。", "event", "用户报告的问题：npm run dev 启动不了"),
    ("我已经把 .env 里的端口改成 9337 了。", "fact", "用户已经把 .env 里的端口改成 9337 了。"),
    ("以后提交前都要先跑 pnpm lint。", "preference", "用户要求：以后提交前都要先跑 pnpm lint。"),
])
def test_chinese_coding_turns(typed, kind, expected):
    drafts = drafts_for([TurnView("u1", "user", typed)])
    assert [(d.kind, expected in d.content) for d in drafts] == [(kind, True)], drafts


def test_chinese_milestone_and_root_cause():
    turns = run_turns(
        ("u1", "user", "把导出测试修好"),
        ("a1", "assistant", "[tool Bash] pytest tests/test_export.py"),
        ("r1", "tool", "[tool error] Exit code 1 FAILED tests/test_export.py::test_csv - UnicodeEncodeError: 'ascii'"),
        ("a2", "assistant", "原因是写文件时没有指定 encoding='utf-8'。\n[tool Edit] app/export.py"),
        ("a3", "assistant", "[tool Bash] pytest tests/test_export.py"),
        ("r3", "tool", "[tool result] 6 passed in 0.4s"),
        ("a4", "assistant", "订单导出功能已经全部实现并推送。"),
    )
    kinds = by_kind(drafts_for(turns))
    assert any("encoding='utf-8'" in c for c in kinds["postmortem"])
    assert kinds["event"] == ["订单导出功能已经全部实现并推送。"]


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
    contents = [c.content for c in svc.review.pending()]
    assert not any("love code" in c or "crashed" in c or "notes" in c for c in contents), contents


def test_a_key_typed_in_a_rule_is_masked_and_flagged():
    drafts = drafts_for([TurnView("u1", "user", "never paste the key sk-proj-abcdefghijklmnopqrstuvwx123456 into config")])
    assert len(drafts) == 1 and "sk-proj" not in drafts[0].content and "secret" in drafts[0].flags


def test_a_problem_solved_in_the_same_exchange_is_not_an_open_problem():
    report = ("u1", "user", "the dev server doesn't start")
    open_problem = drafts_for(run_turns(report, ("a1", "assistant", "Let me look.")))
    assert [d.kind for d in open_problem] == ["event"]
    solved = drafts_for(run_turns(
        report,
        ("a1", "assistant", "[tool Bash] npm run dev"),
        ("r1", "tool", "[tool error] Exit code 1 Error: Cannot find module 'vite'"),
        ("a2", "assistant", "[tool Bash] npm install && npm test"),
        ("r2", "tool", "[tool result] Tests: 4 passed, 4 total"),
    ))
    assert not any("reported a problem" in d.content for d in solved)


@pytest.mark.parametrize("typed", ["let's not do that", "we should keep it", "let's go with it"])
def test_vague_design_talk_is_not_a_decision(typed):
    assert drafts_for([TurnView("u1", "user", typed)]) == []


def test_a_chinese_correction_is_a_rule():
    drafts = drafts_for([TurnView("u1", "user", "不对，导出文件名要带日期，格式 orders-YYYYMMDD.csv")])
    assert [(d.kind, d.content) for d in drafts] == [
        ("preference", "用户纠正：导出文件名要带日期，格式 orders-YYYYMMDD.csv。")]


def test_an_assistant_cause_without_a_confirming_run_is_not_proposed_in_a_coding_session():
    turns = run_turns(("u1", "user", "why is CI red?"),
                      ("a1", "assistant", "The root cause was a stale lockfile in the CI cache.\n[tool Bash] git log -1"))
    assert drafts_for(turns) == []


def test_a_chinese_session_gets_chinese_candidates_from_its_tool_calls():
    turns = run_turns(
        ("u1", "user", "跑一下检查"),
        ("a1", "assistant", "[tool Bash] uv run pytest -x\n[tool Bash] uv run ruff check ."),
        ("r1", "tool", "[tool result] 12 passed in 0.8s"),
        ("a2", "assistant", "[tool AskUserQuestion] 用哪个包管理器？"),
        ("r2", "tool", '[tool result] User has answered your questions: "用哪个包管理器？"="uv". You can now continue.'),
    )
    contents = {d.content for d in drafts_for(turns)}
    assert "本项目运行的检查：`uv run pytest`、`uv run ruff check`。" in contents
    assert "被问到“用哪个包管理器？”时，用户选择了“uv”。" in contents


@pytest.mark.parametrize(("typed", "kind", "namespace", "expected"), [
    ("No, that's wrong. The endpoint should return 404, not 500.", "preference", WS,
     "User wants the endpoint to return 404, not 500."),
    ("Use TypeScript strict mode for all new files.", "preference", "persona:default",
     "User wants the agent to use TypeScript strict mode for all new files."),
    ("Remember that the CI runs on Python 3.9, so no match statements.", "pattern", WS,
     "The CI runs on Python 3.9, so no match statements."),
    ("We're using Postgres 16 in production.", "fact", WS, "User and their team are using Postgres 16"),
    ("please don't touch the migrations folder", "preference", WS, "to not touch the migrations folder"),
])
def test_more_ways_people_state_project_rules(typed, kind, namespace, expected):
    drafts = drafts_for([TurnView("u1", "user", typed)])
    assert [(d.kind, d.namespace, expected in d.content) for d in drafts] == [(kind, namespace, True)], drafts


@pytest.mark.parametrize("typed", ["don't do that", "the tests should pass now", "That should be fine.",
                                   "This should work now", "run the tests", "looks good, commit it"])
def test_expectations_and_steps_are_not_rules(typed):
    assert drafts_for([TurnView("u1", "user", typed)]) == []
