"""A drain round submits its drafts in a few short write transactions (services/batch_submit.py):
the same candidates, sightings, dedup and history as one submit each, no embedding under
the write lock, and a bad draft costs only itself."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pytest
from test_ingest_helpers import SESSION, cc_user, write_jsonl

from madohub_memory.core.clock import Clock
from madohub_memory.core.errors import ValidationError
from madohub_memory.core.types import CandidateDraft, Mode, SubmitResult
from madohub_memory.ingest.model import TurnView
from madohub_memory.recall.embeddings import get_embedder
from madohub_memory.recall.vector_cache import forget_all
from madohub_memory.services import Services
from madohub_memory.services.batch_submit import CHUNK
from madohub_memory.services.ingest import IngestService
from madohub_memory.services.review import PreparedDraft, ReviewService
from madohub_memory.store.database import LockStats

# A repeat (same fingerprint) and a paraphrase (found by its vector) inside one group of drafts.
NUMBERED = [f"User keeps build setting number {i} switched on." for i in range(CHUNK + 10)]
TEXTS = (["User prefers dark mode in every editor.", "用户喜欢在周末去钓鱼。", *NUMBERED[:3],
          "user prefers dark mode in every editor", "用户周末喜欢钓鱼。", *NUMBERED[3:],
          "Run make check before every commit."])


class VerbatimExtractor:
    """Every user turn is one preference, word for word (a turn "EMPTY…" gives an empty, invalid draft)."""

    name = "verbatim"

    def extract(
        self, turns: Sequence[TurnView], *, mode: Mode = "turn", namespace: str | None = None
    ) -> list[CandidateDraft]:
        return [CandidateDraft("" if t.content.startswith("EMPTY") else t.content, "preference", namespace, source=mode,
                               confidence=0.7, turn_ids=(t.id,)) for t in turns if t.role == "user"]


def _session(tmp_path: Path, texts: list[str]) -> Path:
    records = [cc_user(f"u{i}", t, f"u{i - 1}" if i else None) for i, t in enumerate(texts)]
    return write_jsonl(tmp_path / f"{SESSION}.jsonl", records)


def _state(svc: Services) -> list[tuple]:
    rows = svc.store.query(
        "SELECT c.content, c.kind, c.namespace, c.seen_count, c.status, c.flags,"
        " (SELECT group_concat(s.turn_id) FROM candidate_sightings s WHERE s.candidate_id = c.id),"
        " (SELECT COUNT(*) FROM history h WHERE h.entity = 'candidate' AND h.entity_id = CAST(c.id AS TEXT))"
        " FROM candidates c ORDER BY c.id")
    return [tuple(r) for r in rows]


def test_a_round_stores_what_one_submit_per_draft_stores(
    svc: Services, tmp_path: Path, fresh_db: Callable[[Path], Path], clock: Clock
) -> None:
    forget_all()
    summary = IngestService(svc, extractor=VerbatimExtractor()).ingest_paths([str(_session(tmp_path, TEXTS))])
    assert summary["candidates"]["new"] == len(TEXTS) - 2 and summary["candidates"]["seen_again"] == 2
    batched = _state(svc)

    forget_all()
    folder = tmp_path / "single"
    folder.mkdir()
    with Services.open(fresh_db(folder), clock=clock) as single:
        IngestService(single, extractor=VerbatimExtractor()).ingest_paths([str(_session(tmp_path, TEXTS))],
                                                                         extract=False)
        turn_ids = [r[0] for r in single.store.query("SELECT id FROM turns ORDER BY seq")]
        namespace = single.store.scalar("SELECT namespace FROM conversations LIMIT 1")
        for text, turn_id in zip(TEXTS, turn_ids, strict=True):
            single.review.submit(CandidateDraft(text, "preference", namespace, source="turn", confidence=0.7,
                                                turn_ids=(turn_id,)))
        assert _state(single) == batched
    assert sum(1 for row in batched if row[3] == 2) == 2  # the repeat and the paraphrase, once each


def test_no_text_is_embedded_under_the_write_lock_and_the_round_takes_few_transactions(
    svc: Services, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    embedder = get_embedder("use-multilingual")
    original = embedder.encode
    draining = threading.current_thread()
    under_lock: list[bool] = []

    def encode(texts: list[str]) -> np.ndarray:
        if threading.current_thread() is draining:
            under_lock.append(svc.store.conn.in_transaction)
        return original(texts)

    monkeypatch.setattr(embedder, "encode", encode)
    forget_all()
    texts = [f"User prefers tool number {i} for task {i * 7}." for i in range(3 * CHUNK)]
    before = LockStats.transactions
    summary = IngestService(svc, extractor=VerbatimExtractor()).ingest_paths([str(_session(tmp_path, texts))])
    assert summary["candidates"]["new"] == len(texts)
    assert not any(under_lock)
    assert LockStats.transactions - before < len(texts) // 4  # was two per draft


def test_an_invalid_draft_costs_only_itself(svc: Services, tmp_path: Path) -> None:
    texts = ["User prefers tabs.", "EMPTY one", "User prefers short commit messages.", "EMPTY two"]
    summary = IngestService(svc, extractor=VerbatimExtractor()).ingest_paths([str(_session(tmp_path, texts))])
    assert summary["candidates"]["new"] == 2 and summary["candidates"]["invalid"] == 2
    assert [r[0] for r in _state(svc)] == ["User prefers tabs.", "User prefers short commit messages."]
    assert IngestService(svc).pending() == {"done": 4}  # every turn done, none left pending


def test_a_setting_changed_inside_a_held_block_is_read_again(svc: Services) -> None:
    with svc.settings.held():
        assert svc.settings.get("dedup.semantic") is True
        svc.settings.set("dedup.semantic", False)
        assert svc.settings.get("dedup.semantic") is False
    assert svc.settings.get("dedup.semantic") is False


def test_a_draft_the_write_refuses_rolls_back_its_group_and_costs_only_itself(
    svc: Services, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    refused = "User wants this one refused at the write."
    original = ReviewService.commit

    def commit(self: ReviewService, prepared: PreparedDraft, *, current: bool = False) -> SubmitResult:
        if prepared.draft.content == refused:
            raise ValidationError("refused at the write")
        return original(self, prepared, current=current)

    monkeypatch.setattr(ReviewService, "commit", commit)
    texts = [f"User keeps lint rule number {i} enabled." for i in range(10)]
    texts[4] = refused
    summary = IngestService(svc, extractor=VerbatimExtractor()).ingest_paths([str(_session(tmp_path, texts))])
    assert summary["candidates"]["new"] == 9 and summary["candidates"]["invalid"] == 1
    stored = [r[0] for r in _state(svc)]
    assert stored == [t for t in texts if t != refused]  # each once, in order, none half-written
    assert svc.store.scalar("SELECT COUNT(*) FROM candidate_sightings") == 9
