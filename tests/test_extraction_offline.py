"""The default offline extractor: durable statements in, standalone candidates out."""

from __future__ import annotations

import json

import pytest

from madohub_memory.core.vocab import KINDS
from madohub_memory.extraction.base import TurnView
from madohub_memory.extraction.offline import OfflineExtractor, rewrite_first_person_en, selectable
from madohub_memory.extraction.units import pass_units
from madohub_memory.services import extraction_backend


def one(text: str, role: str = "user", mode: str = "turn", turn_id: str = "t1"):
    drafts = OfflineExtractor().extract([TurnView(turn_id, role, text)], mode=mode)
    assert len(drafts) <= 1
    return drafts[0] if drafts else None


@pytest.mark.parametrize(("text", "kind", "expected"), [
    ("I prefer pnpm over npm for this repo.", "preference", "User prefers pnpm over npm"),
    ("Use pnpm, not npm.", "preference", "User wants the agent to use pnpm, not npm"),
    ("We decided to use SQLite because the app must work offline.", "decision", "decided to use SQLite because"),
    ("The root cause was a missing index on the turns table; next time run EXPLAIN before merging.",
     "postmortem", "missing index"),
    ("Every time I open a PR I run the linter first.", "pattern", "the user opens a PR"),
    ("I just got promoted to staff engineer last week!", "event", "User just got promoted"),
    ("Our backend is written in Go and deployed on Fly.io.", "fact", "User's backend is written in Go"),
    ("No, the config lives in config/settings.toml, not in the root.", "fact", "config/settings.toml"),
])
def test_english_durable_statements(text, kind, expected):
    draft = one(text)
    assert draft is not None, text
    assert draft.kind == kind
    assert expected in draft.content
    assert not draft.content.startswith(("I ", "I'm", "My ")), "first person must be rewritten"


@pytest.mark.parametrize(("text", "kind", "expected"), [
    ("我喜欢用 pnpm 而不是 npm。", "preference", "用户喜欢用 pnpm 而不是 npm"),
    ("用 pnpm 而不是 npm", "preference", "用户要求：用 pnpm 而不是 npm"),
    ("我们决定用 Postgres，因为需要 JSON 查询。", "decision", "决定用 Postgres，因为需要 JSON 查询"),
    ("昨天服务挂了，原因是配置文件里端口写错了，下次部署前要先检查配置。", "postmortem", "原因是配置文件里端口写错了"),
    ("我每天早上都会跑步五公里。", "pattern", "用户每天早上都会跑步五公里"),
    ("我在一家面包店工作，住在成都。", "fact", "用户在一家面包店工作"),
    ("我最近去了厦门，非常美丽。", "event", "用户最近去了厦门"),
])
def test_chinese_durable_statements(text, kind, expected):
    draft = one(text)
    assert draft is not None, text
    assert draft.kind == kind
    assert expected in draft.content
    assert "我" not in draft.content


@pytest.mark.parametrize("text", [
    "Thanks!", "hi there", "ok", "Sounds great, good luck with the launch!",
    "Can you fix the failing test in test_api.py?", "Please refactor the ingest module.",
    "What do you think about Rust?", "Wow, that's amazing! You must be so proud.",
    "谢谢", "好的，我会试试。", "你好，很高兴认识你。", "你觉得怎么样？", "哈哈，太好了！",
    "<command-name>/clear</command-name>", "[Request interrupted by user]",
    "```python\nprint('I prefer tabs')\n```",
])
def test_quiet_exchanges_yield_nothing(text):
    assert one(text) is None


@pytest.mark.parametrize("text", [
    "I want you to act as a resume writer. I have 20 years of experience at ASML and Philips.",
    "Based on the following parts of my CV, can you suggest a motto?\n\nMy expertise spans Python and data.",
    "Please study the following text.\n1. Summarize it.\n2. I may point out unclarities.",
    "I have more text:\nThe researcher should always check the clustering variables.",
    "Aims & Goals\n• Select the method.\n• Assess missing data.\n• I prefer outliers removed.\n• Test data.\n• Identify respondents.",
    "In Terraform plan I get an error: There is no function named env.",
    "你现在是一名资深翻译，我喜欢直译。",
    "How do I implement step 2, indeed I'm making an AJAX POST.",
    "今天想跟你聊聊我的健身计划。",
    "我想找一些电影观看，有什么好的推荐吗？",
])
def test_prompts_and_pasted_material_yield_nothing(text):
    """Material handed to the model is not something the user says about themselves."""
    assert one(text) is None


@pytest.mark.parametrize(("text", "expected"), [
    ("我们决定用 pnpm 而不是 npm，因为安装更快。", "用户等人决定用 pnpm"),
    ("我们公司一直用 Go 写后端服务。", "用户所在的公司一直用 Go"),
    ("我们全家上周去了青岛海边。", "用户全家上周去了青岛海边"),
    ("我们的项目用 FastAPI 和 PostgreSQL。", "用户的项目用 FastAPI"),
    ("我觉得我目前的薪资不太理想，希望找到更好的机会。", "用户觉得自己目前的薪资"),
    ("我相信我可以在月底前把迁移做完。", "用户相信自己可以"),
    ("我的上司总是要求我周末加班。", "用户的上司总是要求用户周末加班"),
    ("今天我想请教你一个问题，我最近总是觉得身体疲劳。", "用户最近总是觉得身体疲劳"),
    ("你好啊，我今天很兴奋，因为我想跟你分享我刚刚通过了一次面试！", "因为用户刚刚通过了一次面试"),
])
def test_chinese_rewrite_reads_naturally(text, expected):
    draft = one(text)
    assert draft is not None, text
    assert expected in draft.content
    assert "我" not in draft.content and "同伴" not in draft.content


def test_assistant_turns_rarely_carry_facts():
    assert one("I prefer to use pytest here. Done, the tests pass now.", role="assistant") is None
    assert one("Sure! I love helping with that. Here's the code.", role="assistant") is None
    draft = one("The root cause was that the cache key ignored the lockfile, so stale deps were used.",
                role="assistant")
    assert draft is not None and draft.kind == "postmortem"
    assert draft.confidence < one("The root cause was that the cache key ignored the lockfile.").confidence


def test_tool_output_is_never_a_statement_and_a_system_turn_is_read_as_the_models_recap():
    ex = OfflineExtractor()
    assert ex.extract([TurnView("a", "tool", "I prefer pnpm over npm.")]) == []
    # a system turn that reaches an extractor is model-written (a compaction summary, a recap):
    # never the user's words, so never "User prefers…"
    drafts = ex.extract([TurnView("b", "system", "I prefer pnpm over npm.")])
    assert all(d.source == "compaction" and not d.content.startswith("User") for d in drafts)


def test_drafts_carry_mode_turn_ids_namespace_and_valid_confidence():
    turns = [
        TurnView("u1", "user", "I prefer dark mode in every editor."),
        TurnView("a1", "assistant", "Noted."),
        TurnView("u2", "user", "We decided to deploy on Fridays only because QA runs Thursdays."),
    ]
    drafts = sorted(OfflineExtractor().extract(turns, mode="compaction", namespace="workspace:demo"),
                    key=lambda d: d.turn_ids)  # the selector returns its best first
    assert [d.turn_ids for d in drafts] == [("u1",), ("u2",)]
    for d in drafts:
        assert d.source == "compaction"
        assert d.kind in KINDS
        assert 0.0 <= d.confidence <= 1.0
    # a personal preference follows the user across projects; the team's decision stays here
    assert [d.namespace for d in drafts] == ["persona:default", "workspace:demo"]


def test_first_person_rewrite():
    assert rewrite_first_person_en("I love my dog.") == "User loves their dog."
    assert rewrite_first_person_en("My dog sleeps on my couch.") == "User's dog sleeps on the user's couch."
    assert rewrite_first_person_en("I'm a nurse and I work nights.") == "User is a nurse and the user works nights."
    assert rewrite_first_person_en("I went hiking with my sister.", "Caroline") == \
        "Caroline went hiking with their sister."
    assert rewrite_first_person_en("I try to read daily.") == "User tries to read daily."


def test_extracted_candidates_pass_review_and_flags(svc):
    ex = extraction_backend.build(svc)
    turns = [
        TurnView("u1", "user", "My work email is li.lei@example.cn and I prefer replies in Chinese."),
        # a rule that hides what it does from the reviewer (forcing a deploy alone is the user's call)
        TurnView("u2", "user", "Always run the deploy script with --force and don't tell the reviewer."),
    ]
    results = [svc.review.submit(d) for d in ex.extract(turns)]
    assert len(results) == 2
    first, second = (svc.review.get(r.candidate_id) for r in results)
    assert "pii" in first.flags
    assert "instruction" in second.flags
    assert first.turn_ids == ["u1"]


def test_speed_is_far_above_the_ingest_target():
    import time

    turns = [TurnView(f"t{i}", "user" if i % 2 else "assistant",
                      "Yesterday I finally moved to Berlin and I love my new flat near the park. "
                      "How was your week? Mine was busy.") for i in range(600)]
    ex = OfflineExtractor()
    started = time.perf_counter()
    for t in turns:
        ex.extract([t])
    assert len(turns) / (time.perf_counter() - started) > 300  # bench reports the real figure


def test_memorybank_hobbies_are_found(eval_dev):
    users = json.loads((eval_dev / "memorybank_cn_dev.json").read_text(encoding="utf-8"))
    ex = OfflineExtractor()
    user = users["孙悦"]
    contents = []
    for day, exchanges in user["history"].items():
        for i, pair in enumerate(exchanges):
            contents += [d.content for d in ex.extract([TurnView(f"{day}:{i}", "user", pair["query"])])]
    assert any("摄影" in c and c.startswith("用户") for c in contents)


def test_we_in_a_workspace_is_the_users_team():
    text = "We decided to use SQLite because the app must work offline."
    in_workspace = OfflineExtractor().extract([TurnView("t1", "user", text)], namespace="workspace:shop")
    elsewhere = OfflineExtractor().extract([TurnView("t1", "user", text)])
    assert in_workspace[0].content.startswith("User and their team decided to use SQLite")
    # elsewhere the memory is about the user taking part, not about "User and others"
    assert elsewhere[0].content.startswith("User decided to use SQLite")


@pytest.mark.parametrize(("text", "expected"), [
    ("I am allergic to peanuts.", "User is allergic to peanuts."),
    ("My name is Pieter.", "User's name is Pieter."),
    ("I work at a bank in Shenzhen.", "User works at a bank in Shenzhen."),
    ("This project targets Python 3.11.", "This project targets Python 3.11."),
    ("The staging database is Postgres 15.", "The staging database is Postgres 15."),
    ("我对花生过敏。", "用户对花生过敏。"),
    ("我叫王伟。", "用户叫王伟。"),
    ("这个项目用 Python 3.11。", "这个项目用 Python 3.11。"),
    ("测试数据库是 Postgres 15。", "测试数据库是 Postgres 15。"),
])
def test_a_turn_that_is_one_plain_fact_is_kept(text, expected):
    """Short statements are what people type to a coding agent; length must not hide them."""
    draft = one(text)
    assert draft is not None, text
    assert draft.content == expected


def test_chinese_we_in_a_workspace_is_the_users_team():
    text = "我们决定用 pnpm 而不是 npm，因为安装更快。"
    drafts = OfflineExtractor().extract([TurnView("t1", "user", text)], namespace="workspace:shop")
    assert drafts[0].content.startswith("用户团队决定用 pnpm")


def test_a_short_check_report_and_a_request_to_act_now_are_never_chosen():
    """'All 8 tests pass.' is the state of the work at one moment; 'Please fix the failing
    test.' a one-off command: neither may be chosen from a coding pass, while the standing
    rule and the root cause beside them, and a longer report that says what was covered, may."""
    turns = [
        TurnView("u1", "user", "Please fix the failing checkout test. Never push to main. 继续。\n"
                               "Read plan.md and roadmap.md.\n請閱讀 docs/brief.md。"),
        TurnView("a1", "assistant", "[tool Bash] pytest -q\n[tool error] 1 failed: test_checkout_total"),
        TurnView("a2", "assistant", "Root cause: the tax rate was read before the settings loaded.\n"
                                    "[tool Bash] pytest -q\n[tool result] 8 passed\nAll 8 tests pass.\n"
                                    "Gmail client tests: 22/22 passing.\nESLint: no warnings or errors.\n"
                                    "`src/config/env.ts` (176 lines)\n"
                                    "All 17 tests pass, covering the merge statuses for new, changed and retained "
                                    "fields and the case where a follow-up drops a whole section."),
    ]
    chosen = {u.text: selectable(u) for u in pass_units(turns)}
    assert chosen["Never push to main."] and chosen["Root cause: the tax rate was read before the settings loaded."]
    assert {"Read plan.md and roadmap.md.", "`src/config/env.ts` (176 lines)"} <= set(chosen), chosen
    assert not any(v for k, v in chosen.items() if k.startswith(("Please fix", "继续", "All 8", "Gmail client", "ESLint",
                                                                       "Read plan", "請閱讀", "`src/config")))
    assert any(v for k, v in chosen.items() if k.startswith("All 17 tests pass, covering")), chosen
