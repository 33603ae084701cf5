"""One vector cache (table ``embeddings``, one change feed) behind recall, semantic dedup and
the nearest-memory view, with the real embedding model."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from madohub_memory.core.clock import Clock
from madohub_memory.core.text import fingerprint
from madohub_memory.core.types import CandidateDraft
from madohub_memory.recall.embeddings import from_blob, get_embedder
from madohub_memory.recall.vector_cache import forget_all
from madohub_memory.services import Services
from madohub_memory.store import Store
from madohub_memory.store import embeddings as vector_rows

MODEL = "use-multilingual"


def _submit(svc: Services, text: str, turn: str = "t1") -> int:
    result = svc.review.submit(CandidateDraft(text, "preference", source="turn", turn_ids=(turn,)))
    assert result.candidate_id is not None
    return result.candidate_id


def test_a_memory_has_one_vector_that_recall_dedup_and_nearest_share(svc: Services) -> None:
    """With recall on the similarity model (USE), one vector per memory serves all three; with
    e5 serving recall, a memory has its e5 vector too (tests/test_embedding_switch.py)."""
    svc.settings.set("embedding.model", MODEL)
    first = _submit(svc, "User prefers pnpm over npm.")
    memory_id = svc.review.approve(first)
    svc.recall.index()
    assert svc.review.submit(CandidateDraft("User likes pnpm better than npm.", "preference",
                                            source="turn")).outcome == "reinforced"
    other = _submit(svc, "用户养了一只橘猫。", turn="t2")
    _submit(svc, "用户喜欢喝绿茶。", turn="t3")  # the group picks up (and stores) the row before it
    assert svc.nearest.nearest("User likes pnpm better than npm.", "persona:default")["id"] == memory_id
    rows = svc.store.query("SELECT entity, entity_id, model FROM embeddings ORDER BY entity, entity_id")
    assert [tuple(r) for r in rows if r[0] == "memory"] == [("memory", memory_id, MODEL)]
    assert ("candidate", other, MODEL) in {tuple(r) for r in rows}
    svc.memories.delete(memory_id)
    assert vector_rows.stored(svc.store, "memory", memory_id, MODEL) is None  # the trigger removes it


def test_upgrading_moves_both_old_tables_into_one(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A version-11 file with recall's float32 vectors and dedup's float16 ones: after the
    upgrade every vector is in ``embeddings`` as float32 and neither model re-embeds them."""
    from madohub_memory.store import migrations

    real = migrations.all_migrations
    monkeypatch.setattr(migrations, "all_migrations", lambda: [m for m in real() if m.version <= 11])
    embedder = get_embedder(MODEL)
    texts = ["User prefers tabs over spaces.", "用户喜欢在周末去爬山。"]
    vectors = embedder.encode(texts)
    with Store(db_path) as store, store.transaction():
        for i, text in enumerate(texts, start=1):
            store.execute(
                "INSERT INTO candidates (content, kind, namespace, source, confidence, status, fingerprint,"
                " created_at, updated_at) VALUES (?, 'preference', 'persona:default', 'turn', 0.5, 'pending', ?,"
                " '2026-11-01T09:00:00.000Z', '2026-11-01T09:00:00.000Z')", (text, fingerprint(text)))
            store.execute(
                "INSERT INTO dedup_embeddings VALUES ('candidate', ?, ?, ?, ?)",
                (i, MODEL, fingerprint(text), vectors[i - 1].astype(np.float16).tobytes()))
        store.execute(
            "INSERT INTO memories (content, kind, namespace, fingerprint, created_at, updated_at) VALUES"
            " (?, 'fact', 'persona:default', ?, '2026-11-01T09:00:00.000Z', '2026-11-01T09:00:00.000Z')",
            (texts[0], fingerprint(texts[0])))
        store.execute("INSERT INTO memory_embeddings VALUES (1, ?, ?, ?)",
                      (MODEL, fingerprint(texts[0]), vectors[0].astype(np.float32).tobytes()))
        store.execute("INSERT INTO dedup_embeddings VALUES ('memory', 1, ?, 'stale', ?)",
                      (MODEL, vectors[1].astype(np.float16).tobytes()))
    monkeypatch.setattr(migrations, "all_migrations", real)
    forget_all()
    with Services.open(db_path, Clock("2026-11-02T09:00:00Z")) as svc:
        tables = {r[0] for r in svc.store.query("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert not tables & {"memory_embeddings", "dedup_embeddings", "recall_changes"}
        stored = {(r[0], r[1]): (r[2], bytes(r[3])) for r in
                  svc.store.query("SELECT entity, entity_id, fingerprint, vector FROM embeddings")}
        assert set(stored) == {("candidate", 1), ("candidate", 2), ("memory", 1)}
        assert stored[("memory", 1)] == (fingerprint(texts[0]), vectors[0].astype(np.float32).tobytes())
        widened = from_blob(stored[("candidate", 2)][1])
        assert widened.dtype == np.float32 and float(widened @ vectors[1]) > 0.999
        assert svc.recall.search("tabs or spaces", k=1)[0].id == 1
        again = svc.review.submit(CandidateDraft("用户周末喜欢爬山。", "preference", source="turn"))
        assert again.outcome == "seen_again" and again.candidate_id == 2
        after = {(r[0], r[1]): bytes(r[2]) for r in
                 svc.store.query("SELECT entity, entity_id, vector FROM embeddings")}
        assert after[("memory", 1)] == stored[("memory", 1)][1]  # not computed again
        assert after[("candidate", 2)] == stored[("candidate", 2)][1]


def test_changes_from_another_connection_reach_every_view(db_path: Path, clock: Clock) -> None:
    """The feed is written by triggers, so an edit made elsewhere (another process) moves the
    row in dedup's groups and in recall's matrix of this process."""
    forget_all()
    with Services.open(db_path, clock) as svc, Services.open(db_path, clock) as other:
        first = _submit(svc, "User likes green tea.")
        memory_id = svc.review.approve(_submit(svc, "The build runs on GitHub Actions.", turn="t2"))
        assert svc.recall.search("continuous integration", k=1)[0].id == memory_id
        other.review.edit(first, content="User rides a bicycle to work every day.")
        other.memories.edit(memory_id, content="用户每天骑自行车上班。")
        assert svc.review.submit(CandidateDraft("User bikes to work every day.", "preference",
                                                source="turn")).candidate_id == first
        assert svc.recall.search("骑车上班", k=1, mode="vector")[0].id == memory_id
