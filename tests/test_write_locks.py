"""Short write transactions: no model or embedding while the write lock is held; a busy
database is retried, and a final failure is one sentence (CLI) or a JSON-RPC error with the
reason (MCP), never a traceback."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

from madohub_memory.core.types import CandidateDraft
from madohub_memory.extraction.base import TurnView
from madohub_memory.services import Services, dedup

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def lock_watch(svc: Services) -> Iterator[list[bool]]:
    """A semantic matcher that records whether the write lock was held when it was asked
    (it stands where the embedding model is loaded and texts are embedded)."""
    seen: list[bool] = []

    def matcher(s: Services, content: str, kind: str, namespace: str) -> dedup.Equivalent | None:
        seen.append(s.store.conn.in_transaction)
        return None

    dedup.set_semantic_matcher(matcher)
    try:
        yield seen
    finally:
        dedup.set_semantic_matcher(dedup._default_semantic_matcher)


def test_remember_matches_and_embeds_before_taking_the_write_lock(svc: Services, lock_watch: list[bool]) -> None:
    svc.review.remember("The API uses snake_case JSON keys", "fact")
    svc.review.add_manual("Deploys happen on Tuesdays", "event")
    assert lock_watch == [False, False]


class _OneDraftPerUserTurn:
    name = "test"

    def extract(self, turns: list[TurnView], *, mode: str, namespace: str | None) -> list[CandidateDraft]:
        return [CandidateDraft(t.content, "fact", namespace, source=mode, confidence=0.7, turn_ids=(t.id,))
                for t in turns if t.role == "user"]


def test_an_extraction_round_never_asks_a_plugged_matcher_under_the_write_lock(
        svc: Services, lock_watch: list[bool], tmp_path: Path) -> None:
    """The default matcher's work is loaded before a group of drafts is written in one
    transaction (tests/test_batch_submit.py); a plugged one may run a model, so with it each
    draft is matched before its own transaction."""
    from madohub_memory.services.ingest import IngestService

    transcript = tmp_path / "chat.jsonl"
    transcript.write_text("".join(
        f'{{"role": "user", "content": "Rule number {i}: keep file {i} under 600 lines"}}\n'
        f'{{"role": "assistant", "content": "ok"}}\n' for i in range(30)))
    ingest = IngestService(svc, extractor=_OneDraftPerUserTurn())
    summary = ingest.ingest_paths([str(transcript)])
    assert summary["candidates"]["new"] == 30
    assert len(lock_watch) == 30 and not any(lock_watch)


def _hold_write_lock(db_path: Path, seconds: float, started: threading.Event,
                     release: threading.Event | None = None) -> threading.Thread:
    """Hold the write lock from another connection for ``seconds`` (or until ``release``)."""
    def hold() -> None:
        conn = sqlite3.connect(db_path, isolation_level=None)
        conn.execute("BEGIN IMMEDIATE")
        started.set()
        if release is not None:
            release.wait(seconds)
        else:
            time.sleep(seconds)
        conn.execute("ROLLBACK")
        conn.close()

    thread = threading.Thread(target=hold)
    thread.start()
    return thread


def test_a_busy_database_is_retried_then_reported_in_one_sentence(db_path: Path) -> None:
    Services.open(db_path).close()
    env = {**os.environ, "MADOHUB_BUSY_TIMEOUT": "1"}
    started, release = threading.Event(), threading.Event()
    holder = _hold_write_lock(db_path, 300, started, release)  # held until the command is done
    started.wait()
    try:
        run = subprocess.run(
            [sys.executable, "-m", "madohub_memory", "remember", "Builds use make", "--kind", "fact",
             "--db", str(db_path)],
            capture_output=True, text=True, cwd=ROOT, env=env, timeout=120,
        )
    finally:
        release.set()
        holder.join()
    assert run.returncode == 1
    assert "Traceback" not in run.stderr
    assert "is busy" in run.stderr and len(run.stderr.strip().splitlines()) == 1
    with Services.open(db_path) as svc:
        assert svc.review.pending() == []  # nothing half-written

    started.clear()
    holder = _hold_write_lock(db_path, 1.5, started)  # shorter than the wait: retried, then written
    started.wait()
    run = subprocess.run(
        [sys.executable, "-m", "madohub_memory", "remember", "Builds use make", "--kind", "fact",
         "--db", str(db_path)], capture_output=True, text=True, cwd=ROOT, timeout=120,
    )
    holder.join()
    assert run.returncode == 0, run.stderr


def test_over_mcp_a_busy_database_is_a_json_rpc_error_with_the_reason(db_path: Path) -> None:
    Services.open(db_path).close()
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "madohub_memory", "mcp", "--db", str(db_path)], cwd=str(ROOT),
        env={**os.environ, "MADOHUB_BUSY_TIMEOUT": "1"},
    )

    async def go() -> str:
        async with Client(params) as client:
            await client.call_tool("recall", {"query": "warm up"})  # load the model first
            started, release = threading.Event(), threading.Event()
            holder = _hold_write_lock(db_path, 300, started, release)
            started.wait()
            try:
                await client.call_tool("remember", {"content": "Builds use make", "kind": "fact"})
            except MCPError as exc:
                return exc.error.message
            finally:
                release.set()
                holder.join()
            return "no error"

    message = asyncio.run(go())
    assert "is busy" in message and "nothing was written" in message
