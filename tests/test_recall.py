"""Hybrid recall: approved-only, Chinese and English, hits, log, rendering, bad input."""

from __future__ import annotations

import json

import pytest

from madohub_memory.cli import main
from madohub_memory.core.errors import ValidationError
from madohub_memory.services import Services

pytestmark = pytest.mark.both_backends


def approved(svc: Services, content: str, kind: str = "fact", namespace: str | None = None) -> int:
    result = svc.review.add_manual(content, kind, namespace)
    return svc.review.approve(result.candidate_id)


def ids(hits: list) -> list[int]:
    return [h.id for h in hits]


@pytest.fixture
def shop(svc: Services) -> dict[str, int]:
    return {
        "pnpm": approved(svc, "The user prefers pnpm over npm for JavaScript projects", "preference"),
        "snake": approved(svc, "The shop API returns JSON with snake_case keys", "fact", "workspace:shop"),
        "deploy": approved(svc, "Production deploys happen on Tuesday mornings", "decision", "workspace:shop"),
        "coffee": approved(svc, "用户每天早上都喝一杯拿铁咖啡", "preference"),
        "db": approved(svc, "这个项目的数据库是PostgreSQL，不要换成MySQL", "decision", "workspace:shop"),
        "blog": approved(svc, "The blog is built with Hugo", "fact", "workspace:blog"),
    }


def test_finds_by_meaning_and_by_keyword(svc: Services, shop: dict[str, int]) -> None:
    assert ids(svc.recall.search("which package manager should I use for JS?", k=3))[0] == shop["pnpm"]
    assert ids(svc.recall.search("snake_case", k=1)) == [shop["snake"]]
    hit = svc.recall.search("when do we ship to production", "workspace:shop", k=1)[0]
    assert hit.id == shop["deploy"] and hit.kind == "decision" and hit.namespace == "workspace:shop"
    assert hit.created_at.startswith("2026-11-01") and hit.score > 0


def test_chinese_paraphrase_and_two_character_term(svc: Services, shop: dict[str, int]) -> None:
    # A paraphrase with no shared word: only the multilingual embedding can find it.
    assert ids(svc.recall.search("他早餐时习惯喝什么饮料？", k=1)) == [shop["coffee"]]
    # A two-character Chinese word matches through the keyword index alone.
    assert ids(svc.recall.search("咖啡", k=3, mode="keyword")) == [shop["coffee"]]
    assert ids(svc.recall.search("数据库", k=3, mode="keyword")) == [shop["db"]]
    # Mixed Chinese and English.
    assert ids(svc.recall.search("PostgreSQL 数据库", "workspace:shop", k=1)) == [shop["db"]]


def test_nothing_unapproved_or_retired_is_ever_recalled(svc: Services) -> None:
    """DESIGN invariant 1, for every way a text can exist without being an active memory."""
    words = "Marmalade"
    rejected = svc.review.add_manual("Marmalade is the name of the office cat", "fact").candidate_id
    svc.review.reject(rejected)
    archived = svc.review.add_manual("Marmalade jam recipe: oranges and sugar", "event").candidate_id
    svc.clock.advance(days=40)
    svc.review.archive_stale()
    assert svc.review.get(archived).status == "archived"
    assert svc.review.get(rejected).status == "rejected"
    pending = svc.review.add_manual("The Marmalade cluster runs on bare metal", "fact").candidate_id
    deprecated = approved(svc, "Deploy Marmalade with Helm chart v2", "decision")
    svc.memories.set_status(deprecated, "deprecated")
    retired = approved(svc, "Marmalade backups go to S3 bucket mm-backup", "pattern")
    svc.memories.set_status(retired, "archived")
    live = approved(svc, "The office plant is a fern")
    deleted = approved(svc, "User likes Marmalade on toast", "preference")
    svc.memories.delete(deleted)
    for mode in ("hybrid", "vector", "keyword"):
        hits = svc.recall.search(words, k=100, mode=mode)
        assert all(h.id == live for h in hits), mode
        assert all("Marmalade" not in h.content for h in hits)
    assert svc.review.get(pending).status == "pending"
    # Undo brings the deleted memory back, and recall sees it again (index kept in sync).
    svc.memories.undo()  # the delete: the memory comes back
    found = svc.recall.search("Marmalade toast", k=3, mode="keyword")
    assert [h.id for h in found] == [deleted]


def test_index_follows_edits_and_imports(svc: Services, tmp_path) -> None:
    memory_id = approved(svc, "The staging server runs Debian 11")
    assert ids(svc.recall.search("Debian", k=1)) == [memory_id]
    svc.memories.edit(memory_id, content="The staging server runs Alpine Linux")
    assert svc.recall.search("Debian", k=5, mode="keyword") == []
    assert ids(svc.recall.search("Alpine", k=1, mode="keyword")) == [memory_id]
    hit = svc.recall.search("which operating system does staging use", k=1)[0]
    assert hit.content == "The staging server runs Alpine Linux"  # the vector was re-embedded
    export = tmp_path / "backup.jsonl"
    svc.transfer.export(export)
    with Services.open(tmp_path / "other.db") as other:
        other.transfer.import_file(export)
        assert ids(other.recall.search("Alpine", k=1)) == [memory_id]


def test_hits_are_counted_logged_and_traceable(svc: Services) -> None:
    draft_id = svc.review.remember("The CI runs on GitHub Actions", "fact", turn_id="conv-1:7").candidate_id
    memory_id = svc.review.approve(draft_id)
    svc.clock.advance(hours=2)
    hits = svc.recall.search("continuous integration", k=1, source="mcp")
    assert hits[0].id == memory_id and hits[0].turn_ids == ["conv-1:7"]
    memory = svc.memories.get(memory_id)
    assert memory.hit_count == 1 and memory.last_hit_at == svc.clock.now_iso()
    entry = svc.recall.recent_log(1)[0]
    assert entry["source"] == "mcp" and entry["memory_ids"] == [memory_id] and entry["token_estimate"] > 0
    svc.recall.search("continuous integration", k=1, record=False)
    assert svc.memories.get(memory_id).hit_count == 1


def test_workspace_scope_and_persona(svc: Services, shop: dict[str, int]) -> None:
    assert shop["pnpm"] in ids(svc.recall.search("pnpm package manager", "workspace:shop", k=20))
    alone = ids(svc.recall.search("pnpm package manager", "workspace:shop", k=20, include_persona=False))
    assert shop["pnpm"] not in alone and set(alone) <= {shop["snake"], shop["deploy"], shop["db"]}
    assert shop["blog"] not in ids(svc.recall.search("Hugo blog", "workspace:shop", k=20))
    assert ids(svc.recall.search("Hugo blog", "workspace:blog", k=1)) == [shop["blog"]]
    assert svc.recall.search("anything", "workspace:nothing-here", include_persona=False) == []


def test_pinned_memory_is_always_included(svc: Services, shop: dict[str, int]) -> None:
    core = approved(svc, "Always answer in British English")
    svc.memories.pin(core)
    hits = svc.recall.search("snake_case JSON keys", k=2)
    assert core in ids(hits) and shop["snake"] in ids(hits)


def test_freshness_and_weight_order_equal_matches_but_never_bury_a_better_one(svc: Services) -> None:
    old = approved(svc, "The release checklist lives in the repo")
    svc.clock.advance(days=60)
    new = approved(svc, "The release checklist lives in the wiki")
    hits = svc.recall.search("release checklist", k=2, mode="keyword")
    assert ids(hits) == [new, old]  # equal matches: the fresher one first
    assert hits[1].freshness == pytest.approx(1 / 3, rel=1e-3)
    # A year-old memory that answers the question beats a fresh one that merely mentions it
    # (with the design's full weight x freshness multiplier it would not).
    answer = approved(svc, "Deploys to production go through the blue-green switch in Argo")
    svc.clock.advance(days=365)
    approved(svc, "The deploy dashboard has a dark mode")
    query = "how do deploys to production work"
    assert ids(svc.recall.search(query, k=1, record=False)) == [answer]
    svc.settings.set("recall.freshness_share", 1)
    assert ids(svc.recall.search(query, k=1, record=False)) != [answer]


def test_render_has_header_dates_and_budget(svc: Services, shop: dict[str, int]) -> None:
    hits = svc.recall.search("project conventions", k=6)
    text = svc.recall.render(hits)
    assert text.splitlines()[0].startswith("Recalled memories") and "out of date" in text.splitlines()[0]
    assert "[2026-11-01] (" in text
    short = svc.recall.render(hits, budget_tokens=60)
    assert 1 <= len(short.splitlines()) - 1 < len(hits)
    assert "可能已过时" in svc.recall.render(hits, language="zh")
    assert svc.recall.render([]) == ""


@pytest.mark.parametrize("query", ['"', "AND", "*", "NEAR(", 'pnpm" OR "x', "col:pnpm", "^pnpm -npm", "'; DROP TABLE memories; --"])
def test_fts_syntax_is_searched_as_text(svc: Services, shop: dict[str, int], query: str) -> None:
    for mode in ("hybrid", "keyword"):
        svc.recall.search(query, k=5, mode=mode)  # no sqlite error leaks
    assert len(svc.memories.list()) == 6


def test_bad_input_is_a_clear_error_or_a_clamp(svc: Services, shop: dict[str, int]) -> None:
    for query in ("", "   \n\t"):
        with pytest.raises(ValidationError, match="query is empty"):
            svc.recall.search(query)
    with pytest.raises(ValidationError, match="at least 1"):
        svc.recall.search("pnpm", k=0)
    with pytest.raises(ValidationError, match="at least 1"):
        svc.recall.search("pnpm", k=-3)
    with pytest.raises(ValidationError, match="Malformed namespace"):
        svc.recall.search("pnpm", namespace="team:core")
    assert 1 <= len(svc.recall.search("project facts", k=10**9)) <= 6  # clamped, no error
    huge = "pnpm npm " * 12_000  # about 100 KB
    assert ids(svc.recall.search(huge, k=1)) == [shop["pnpm"]]


def test_cli_recall_json_and_render(db_path, shop, capsys) -> None:
    assert main(["recall", "pnpm or npm?", "--db", str(db_path), "-k", "2", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows[0]["id"] == shop["pnpm"] and {"score", "kind", "namespace", "date", "turn_ids"} <= set(rows[0])
    assert main(["recall", "部署", "--db", str(db_path), "--namespace", "workspace:shop", "--render"]) == 0
    assert "may be out of date" in capsys.readouterr().out
    assert main(["recall", "", "--db", str(db_path)]) == 1
    assert "query is empty" in capsys.readouterr().err
    assert main(["recall", "x", "-k", "0", "--db", str(db_path)]) == 1
    assert main(["recall", "x", "--namespace", "nope", "--db", str(db_path)]) == 1


def test_vector_index_incremental_equals_full_rebuild(svc: Services) -> None:
    """Growing past the preallocated rows, deletes and status changes keep the live index
    identical (as a mapping id -> vector) to one rebuilt from the database."""
    import numpy as np

    from madohub_memory.recall import vector_cache

    first = approved(svc, "Seed memory about gardening")
    index = svc.recall.index()
    with svc.store.transaction():
        for i in range(1100):
            svc.store.execute(
                "INSERT INTO memories (content, kind, namespace, fingerprint, created_at, updated_at)"
                " VALUES (?, 'fact', 'persona:default', ?, '2026-11-01T09:00:00.000Z', '2026-11-01T09:00:00.000Z')",
                (f"Bulk fact number {i} about topic {i % 7}", f"fp{i}"),
            )
    svc.memories.set_status(first, "deprecated")
    svc.memories.delete(5)
    index = svc.recall.index()
    live = {int(i): index.vector(int(i)) for i in index.live_ids()}
    vector_cache.forget_all()
    rebuilt = svc.recall.index()
    fresh = {int(i): rebuilt.vector(int(i)) for i in rebuilt.live_ids()}
    assert set(live) == set(fresh) and len(live) == 1099 == len(index)
    assert first not in live and 5 not in live
    assert all(np.allclose(live[i], fresh[i]) for i in fresh)
    assert all(index.position[int(index.ids[p])] == p for p in range(len(index)))


def _exact_top(svc: Services, q, scope: list[str] | None, k: int = 10) -> list[tuple[int, float]]:
    """The exact float32 top ``k`` over the stored vectors of active memories."""
    import numpy as np

    from madohub_memory.recall.embeddings import from_blob
    from madohub_memory.store import embeddings as vector_rows

    rows = [r for r in vector_rows.iter_active_memory_vectors(svc.store, "use-multilingual")
            if not scope or r["namespace"] in scope]
    sims = np.array([from_blob(r["vector"]) @ q for r in rows])
    return [(int(rows[i]["id"]), float(sims[i])) for i in np.argsort(-sims)[:k]]


def test_a_big_store_is_searched_from_its_mapped_int8_file_like_the_exact_scan(
        svc: Services, tmp_path, monkeypatch) -> None:
    """From FILE_MIN memories the index maps an int8 file with a coarse copy: its top results
    match the exact float scan's (same memories, cosines within 0.01), scoped or not, after
    incremental changes, and in a cold start that maps the file instead of rebuilding it."""
    import numpy as np

    from madohub_memory.recall import vector_cache, vector_index
    from madohub_memory.recall.embeddings import get_embedder

    monkeypatch.setenv("MADOHUB_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(vector_index, "FILE_MIN", 1000)
    svc.settings.set("embedding.model", "use-multilingual")  # an empty store: serves it at once
    vector_cache.forget_all()
    topics = ["deploys", "databases", "coffee", "testing", "billing", "holidays", "fonts"]
    with svc.store.transaction():
        for i in range(1400):
            svc.store.execute(
                "INSERT INTO memories (content, kind, namespace, fingerprint, created_at, updated_at)"
                " VALUES (?, 'fact', ?, ?, '2026-11-01T09:00:00.000Z', '2026-11-01T09:00:00.000Z')",
                (f"Note {i}: the team discussed {topics[i % 7]} and {topics[(i * 3) % 7]} on day {i % 31}",
                 f"workspace:p{i % 4}", f"fp{i}"),
            )
    index = svc.recall.index()
    assert index.base is not None and len(index.base) == 1400 and index.base.vectors.dtype == np.int8
    written = index.base.folder
    new = approved(svc, "Brand new memory about fonts and kerning", namespace="workspace:p1")
    svc.memories.delete(7)
    index = svc.recall.index()
    assert len(index) == 1400 and 7 not in set(index.live_ids().tolist()) and new in index.position

    def check(index: vector_index.VectorIndex) -> None:
        for text in ("fonts for the landing page", "billing run on day 3", "coffee", "kerning"):
            q = get_embedder("use-multilingual").encode([text])[0]
            for scope in (None, ["workspace:p1"]):
                found = index.search(q, scope, 10)
                exact = _exact_top(svc, q, scope)
                assert len(set(i for i, _ in found) & set(i for i, _ in exact)) >= 9
                assert found[0][0] == exact[0][0] or abs(found[0][1] - exact[0][1]) < 0.01
                cos = dict(exact)
                assert all(abs(c - cos[i]) < 0.01 for i, c in found if i in cos)

    check(index)
    vector_cache.forget_all()  # a cold start: maps the same file, applies the two changes
    cold = svc.recall.index()
    assert cold.base is not None and cold.base.folder == written
    assert set(cold.live_ids().tolist()) == set(index.live_ids().tolist())
    check(cold)
    assert cold.cosines(get_embedder("use-multilingual").encode(["coffee"])[0], [1, 2, 7, new]).keys() == {1, 2, new}
