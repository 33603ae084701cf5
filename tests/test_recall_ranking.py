"""Recall ranking: dates a query names, and what a single signal is sure of (issue 12)."""

from __future__ import annotations

from datetime import date

import pytest

from madohub_memory.recall import temporal
from madohub_memory.recall.ranking import vector_share_for, word_count
from madohub_memory.services import Services
from madohub_memory.store import ingest as ingest_rows

pytestmark = pytest.mark.both_backends

TODAY = date(2026, 11, 1)


@pytest.mark.parametrize(("text", "start", "end", "any_year"), [
    ("What painting did Melanie show on October 13, 2023?", date(2023, 10, 13), date(2023, 10, 13), False),
    ("What did we ship on 4th October, 2023?", date(2023, 10, 4), date(2023, 10, 4), False),
    ("Did Andrew have a dog during March 2023?", date(2023, 3, 1), date(2023, 3, 31), False),
    ("When did Melanie go camping in June?", date(2026, 6, 1), date(2026, 6, 30), True),
    ("Which country did James visit in 2021?", date(2021, 1, 1), date(2021, 12, 31), False),
    ("what broke on 2026-10-20", date(2026, 10, 20), date(2026, 10, 20), False),
    ("在5月4日我向你咨询了什么", date(2026, 5, 4), date(2026, 5, 4), True),
    ("在4月28号你给我推荐了一个笔记软件", date(2026, 4, 28), date(2026, 4, 28), True),
    ("五月六日这天我为什么咨询你", date(2026, 5, 6), date(2026, 5, 6), True),
    ("我们是2022年3月开始的", date(2022, 3, 1), date(2022, 3, 31), False),
    ("what did we decide yesterday", date(2026, 10, 31), date(2026, 10, 31), False),
    ("what broke last week", date(2026, 10, 19), date(2026, 10, 25), False),
    ("上周我们决定了什么", date(2026, 10, 19), date(2026, 10, 25), False),
    ("去年的发布流程", date(2025, 1, 1), date(2025, 12, 31), False),
])
def test_query_window(text: str, start: date, end: date, any_year: bool) -> None:
    assert temporal.query_window(text, TODAY) == temporal.Window(start, end, any_year)


@pytest.mark.parametrize("text", [
    "I may go to the store", "The build takes 5 minutes", "做了3个月的项目", "which package manager?",
    "We store 2000 rows", "",
])
def test_no_window_without_a_date(text: str) -> None:
    assert temporal.query_window(text, TODAY) is None


def test_fit_inside_grace_and_far() -> None:
    march = temporal.Window(date(2023, 3, 1), date(2023, 3, 31))
    assert temporal.fit(date(2023, 3, 15), march) == 1.0
    assert temporal.fit(date(2023, 4, 20), march) == 1.0  # said a little after the month
    assert temporal.fit(date(2023, 8, 1), march) < 0.01
    assert temporal.fit(date(2022, 12, 1), march) < 0.1
    assert temporal.fit(None, march) == 0.0
    june = temporal.Window(date(2026, 6, 1), date(2026, 6, 30), any_year=True)
    assert temporal.fit(date(2021, 6, 20), june) == 1.0  # a month without a year: any year


def test_word_count_english_and_chinese() -> None:
    assert word_count("Use pnpm, not npm in 2026.") == 6
    assert word_count("用户喜欢用深色主题") == 5


def _dated(svc: Services, content: str, when: str, turn: str) -> int:
    """An approved memory whose originating turn was said at ``when``."""
    with svc.store.transaction():
        ingest_rows.ensure_conversation(svc.store, "c1", "jsonl")
        ingest_rows.insert_turns(svc.store, [{
            "id": turn, "conversation_id": "c1", "seq": int(turn[1:]), "role": "user", "content": content,
            "created_at": when, "meta": {}, "extract_state": "done", "extract_mode": "turn", "segment": 0}])
    candidate = svc.review.remember(content, "event", "workspace:shop", turn_id=turn).candidate_id
    return svc.review.approve(candidate)


def test_a_query_naming_a_date_prefers_memories_of_that_date(svc: Services) -> None:
    march = _dated(svc, "The team reviewed the checkout flow", "2026-03-12T10:00:00Z", "t1")
    june = _dated(svc, "The team reviewed the onboarding emails", "2026-06-20T10:00:00Z", "t2")
    hits = svc.recall.search("what did the team review in June?", "workspace:shop", k=2, record=False)
    assert [h.id for h in hits] == [june, march]
    assert hits[0].turn_date.startswith("2026-06-20")
    hits = svc.recall.search("what did the team review in March 2026?", "workspace:shop", k=2, record=False)
    assert [h.id for h in hits] == [march, june]
    named = svc.recall.search("what did the team review about onboarding?", "workspace:shop", k=2, record=False)
    assert named[0].id == june  # no date named: the wording decides


def test_what_only_vectors_find_is_not_buried_by_keyword_matches(svc: Services) -> None:
    """A memory sharing no word with the query, but the closest in meaning, stays in the
    top three however many memories match the query's words."""
    for i in range(12):
        svc.review.approve(svc.review.add_manual(
            f"Suggestions for the current setup of service {i} are in the wiki", "fact").candidate_id)
    flash = svc.review.approve(svc.review.add_manual(
        "I bought a new camera flash for my Sony A7R IV", "event").candidate_id)
    query = "Can you suggest accessories that complement my current photography setup?"
    vector = svc.recall.search(query, k=3, mode="vector", record=False)
    assert vector[0].id == flash
    hybrid = svc.recall.search(query, k=10, record=False)
    assert flash in [h.id for h in hybrid[:3]]


@pytest.mark.parametrize(("query", "share"), [
    ("which database does the billing service use", 0.6),
    ("这个项目用什么数据库", 0.8),
    ("在5月3号，你给我推荐了哪两部电影？", 0.8),  # digits belong to neither script
    ("billing 服务用什么数据库", 0.6 + 0.2 * 4 / 5),  # 8 characters = 4 words, 1 English word
])
def test_vector_share_follows_the_querys_script(query: str, share: float) -> None:
    assert vector_share_for(query, 0.6, 0.8) == pytest.approx(share)


def test_a_chinese_query_leans_on_vectors(svc: Services) -> None:
    """The fused similarity of a recall is 0.8 × vector + 0.2 × keyword (each divided by its
    best) for a query in Chinese, 0.6 / 0.4 for one in English; the setting moves it."""
    svc.settings.set("embedding.model", "use-multilingual")  # an empty store: no cosine floor
    for text in ("这个项目的数据库是PostgreSQL，不要换成MySQL", "用户每天早上都喝一杯拿铁咖啡", "数据库每天晚上备份一次",
                 "The billing database is PostgreSQL", "The team drinks coffee every morning"):
        svc.review.approve(svc.review.add_manual(text, "fact").candidate_id)

    def shares(query: str) -> set[float]:
        hits = svc.recall.search(query, k=20, record=False)
        vmax = max(h.vector_score for h in hits)
        kmax = max(h.keyword_score for h in hits)
        assert kmax > 0 and len(hits) >= 3
        out = set()
        for h in hits:
            v, k = h.vector_score / vmax, h.keyword_score / kmax
            if abs(v - k) > 0.05:  # the share shows only where the two signals differ
                out.add(round((h.similarity - k) / (v - k), 3))
        return out

    assert shares("项目用什么数据库") == {0.8}
    assert shares("which database does billing use") == {0.6}
    svc.settings.set("recall.vector_share_chinese", 0.6)
    assert shares("项目用什么数据库") == {0.6}
