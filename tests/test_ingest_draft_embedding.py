"""Drain embeds its drafts on a worker thread while the passes run (services/draft_embedding.py):
same dedup outcomes, and a model failure there still fails the round and keeps nothing pending lost."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from test_ingest_helpers import SESSION, cc_user, write_jsonl

from madohub_memory.core.types import CandidateDraft, Mode
from madohub_memory.ingest.model import TurnView
from madohub_memory.recall.embeddings import get_embedder
from madohub_memory.recall.vector_cache import forget_all
from madohub_memory.services import Services, instruction_model
from madohub_memory.services.draft_embedding import CHUNK
from madohub_memory.services.ingest import IngestService

FIRST, PARAPHRASE = "用户喜欢在周末去钓鱼。", "用户周末喜欢钓鱼。"
DRAFTS = 3 * CHUNK  # several batches for the worker


class VerbatimExtractor:
    """Every user turn is one preference, word for word."""

    name = "verbatim"

    def extract(
        self, turns: Sequence[TurnView], *, mode: Mode = "turn", namespace: str | None = None
    ) -> list[CandidateDraft]:
        return [CandidateDraft(t.content, "preference", namespace, source=mode, confidence=0.7, turn_ids=(t.id,))
                for t in turns if t.role == "user"]


def _session(tmp_path: Path) -> Path:
    texts = [FIRST] + [f"User prefers build option number {i}." for i in range(DRAFTS)] + [PARAPHRASE]
    records = [cc_user(f"u{i}", t, f"u{i - 1}" if i else None) for i, t in enumerate(texts)]
    return write_jsonl(tmp_path / f"{SESSION}.jsonl", records)


def _encode_threads(monkeypatch: pytest.MonkeyPatch, fail_on_call: int | None = None) -> list[str]:
    """Record which thread runs each encode of the real model (and break one call if asked)."""
    embedder = get_embedder("use-multilingual")
    original = embedder.encode
    threads: list[str] = []

    def encode(texts: list[str]) -> np.ndarray:
        threads.append(threading.current_thread().name)
        if len(threads) == fail_on_call:
            raise RuntimeError("the embedding model broke")
        return original(texts)

    monkeypatch.setattr(embedder, "encode", encode)
    forget_all()  # no vector of an earlier test in this process
    return threads


def test_drafts_are_embedded_off_the_draining_thread_with_the_same_dedup(
    svc: Services, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads = _encode_threads(monkeypatch)
    summary = IngestService(svc, extractor=VerbatimExtractor()).ingest_paths([str(_session(tmp_path))])
    assert summary["errors"] == [] and summary["warnings"] == []
    assert summary["candidates"]["new"] == DRAFTS + 1
    assert summary["candidates"]["seen_again"] == 1  # the paraphrase, found by its vector
    assert len(threads) >= 2 and all(name.startswith("draft-embedding") for name in threads)
    assert threading.current_thread().name not in threads


def test_each_draft_is_embedded_once_for_dedup_and_the_instruction_flag(
    svc: Services, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both read USE: the flag's sentences come from the vector cache dedup filled (an import
    went ~450 -> ~600 turns/s on LoCoMo, bench/ingest.py)."""
    embedder = get_embedder("use-multilingual")
    original = embedder.encode
    encoded: list[str] = []

    def encode(texts: list[str]) -> np.ndarray:
        encoded.extend(texts)
        return original(texts)

    monkeypatch.setattr(embedder, "encode", encode)
    forget_all()
    monkeypatch.setattr(instruction_model, "_cache", OrderedDict())  # no score of an earlier test
    summary = IngestService(svc, extractor=VerbatimExtractor()).ingest_paths([str(_session(tmp_path))])
    assert summary["errors"] == [] and summary["candidates"]["new"] == DRAFTS + 1
    twice = sorted({t for t in encoded if encoded.count(t) > 1})
    assert twice == [] and "User prefers build option number 7." in encoded


def test_a_model_failure_on_the_worker_fails_the_round_and_a_redo_adds_nothing_twice(
    svc: Services, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _session(tmp_path)
    _encode_threads(monkeypatch, fail_on_call=2)
    summary = IngestService(svc, extractor=VerbatimExtractor()).ingest_paths([str(path)])
    assert "the embedding model broke" in summary["warnings"][0]["message"]
    assert IngestService(svc).pending()["pending"] == DRAFTS + 2  # claims released, turns not done

    monkeypatch.undo()
    later = IngestService(svc, extractor=VerbatimExtractor()).drain()
    assert later["turns"] == DRAFTS + 2 and IngestService(svc).pending().get("pending", 0) == 0
    contents = [c.content for c in svc.review.pending()]
    assert sorted(contents) == sorted(set(contents)) and len(contents) == DRAFTS + 1
    assert PARAPHRASE not in contents
