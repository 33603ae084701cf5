"""The SQL behind the dashboard's lazy queue: filters, sorting, pages, nearest memory."""

from __future__ import annotations

import pytest

from madohub_memory.core.errors import UserError
from madohub_memory.services.demo import load_demo
from madohub_memory.services.queue import QueueFilter, QueueService, word_diff


@pytest.fixture
def queue(svc) -> QueueService:
    load_demo(svc)
    return QueueService(svc)


def test_filters_run_in_sql_and_combine(queue, svc):
    pending = svc.review.pending()
    assert queue.ids() == [c.id for c in sorted(pending, key=lambda c: (c.created_at, c.id))]
    assert {svc.review.get(i).kind for i in queue.ids(QueueFilter(kind="fact"))} == {"fact"}
    shop = queue.ids(QueueFilter(namespace="workspace:shop", source="compaction"))
    assert len(shop) == 2
    high = queue.ids(QueueFilter(min_confidence=0.85))
    assert all(svc.review.get(i).confidence >= 0.85 for i in high) and len(high) == 4
    assert len(queue.ids(QueueFilter(text="hugo"))) == 2  # case-insensitive
    assert len(queue.ids(QueueFilter(text="发布前"))) == 1  # Chinese substring
    svc.review.add_manual("Coverage must stay above 80% on main", "fact")
    assert len(queue.ids(QueueFilter(text="80%"))) == 1
    assert queue.ids(QueueFilter(text="8_%")) == []  # wildcards are literal


def test_sorting_and_pages(queue, svc):
    ids = queue.ids(QueueFilter(sort="confidence", descending=True))
    rows = queue.rows(ids)
    confidences = [rows[i]["confidence"] for i in ids]
    assert confidences == sorted(confidences, reverse=True)
    seen = queue.ids(QueueFilter(sort="seen_count"))
    assert queue.rows(seen[-1:])[seen[-1]]["seen_count"] == max(c.seen_count for c in svc.review.pending())
    assert queue.count() == len(ids) == 15
    svc.review.reject(ids[0])
    assert ids[0] not in queue.ids() and queue.count() == 14


def test_bad_filters_are_user_errors(queue):
    with pytest.raises(UserError, match="kind"):
        queue.ids(QueueFilter(kind="opinion"))
    with pytest.raises(UserError, match="namespace"):
        queue.ids(QueueFilter(namespace="project:x"))
    with pytest.raises(UserError, match="sort"):
        queue.ids(QueueFilter(sort="content; DROP TABLE candidates"))


def test_detail_shows_provenance(queue, svc):
    pr = next(c for c in svc.review.pending() if c.content.startswith("Keep pull requests small"))
    detail = queue.detail(pr.id)
    assert detail["candidate"]["content"] == pr.content
    assert "nearest" not in detail  # the embedding model never runs on the database worker
    pnpm = next(c for c in svc.review.pending() if "pnpm" in c.content)
    detail = queue.detail(pnpm.id)
    assert len(detail["sightings"]) == 3 and detail["sightings"][0]["role"] == "user"
    assert detail["turn_ids"][0] == "demo-shop-t00"


@pytest.mark.slow
def test_nearest_memory_comes_from_the_vector_index_with_a_word_diff(queue, svc):
    from madohub_memory.services.nearest import NearestService

    nearest = NearestService(svc)
    pr = next(c for c in svc.review.pending() if c.content.startswith("Keep pull requests small"))
    near = nearest.nearest(pr.content, pr.namespace, pr.id)
    assert near is not None and near["content"] == "Keep pull requests small, under 400 lines."
    assert ("-", "400") in near["diff"] and ("+", "300") in near["diff"]
    assert 0.45 <= near["score"] <= 1.0
    # Chinese: a paraphrase of an approved memory is found, an unrelated statement is not
    zh = svc.review.add_manual("博客文章都用简体中文写，代码注释写英文", "pattern", "workspace:blog")
    assert zh.outcome == "new"
    found = nearest.nearest("博客文章都用简体中文写，代码注释写英文", "workspace:blog", zh.candidate_id)
    assert found is not None and found["content"].startswith("博客文章使用简体中文")
    assert nearest.nearest("周五下午不部署生产环境", "workspace:ops") is None
    # a memory approved meanwhile is found at once (the index follows its change feed)
    cid = svc.review.add_manual("Release notes live in docs/CHANGES.md", "fact", "workspace:shop").candidate_id
    svc.review.approve(cid)
    again = nearest.nearest("Release notes are kept in docs/CHANGES.md", "workspace:shop")
    assert again is not None and again["content"] == "Release notes live in docs/CHANGES.md"


def test_word_diff_keeps_spaces_and_line_breaks():
    segments = word_diff("Run  make lint\nbefore a commit", "Run  make test\nbefore a commit")
    assert ("-", "lint") in segments and ("+", "test") in segments
    assert "".join(t for op, t in segments if op != "+") == "Run  make lint\nbefore a commit"


def test_word_diff_round_trips():
    old, new = "Use pnpm in every project", "Use pnpm, never npm, in every project"
    segments = word_diff(old, new)
    assert "".join(t for op, t in segments if op != "+") == old
    assert "".join(t for op, t in segments if op != "-") == new


def test_memories_for_the_approved_tab(queue, svc):
    rows = queue.memories()
    assert len(rows) == 9
    assert [r["namespace"] for r in rows] == sorted(r["namespace"] for r in rows)
    assert any(r["first_turn"] == "demo-shop-t01" for r in rows)
    assert [r["content"] for r in queue.memories("stripe")] == [
        "Payments go through Stripe; webhooks are verified with the signing secret."]
    assert queue.totals() == {"candidates": 17, "memories": 9, "turns": 21}
