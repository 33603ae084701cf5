"""Reads never wait on writers (issue 27): a recall hands over its answer while another
process holds the write lock; its hits are counted afterwards (the CLI after printing, the MCP
server on its counting thread), and a count that cannot get the lock is given up, never the
answer."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from mcp import Client, StdioServerParameters

from madohub_memory.services import Services
from madohub_memory.services.recall import RECORD_WAIT_S

ROOT = Path(__file__).resolve().parents[1]
QUERY = "which port does the billing service listen on?"


def _approved(db_path: Path) -> int:
    with Services.open(db_path) as svc:
        return svc.review.approve(svc.review.add_manual("The billing service listens on port 8443", "fact").candidate_id)


def _hits(db_path: Path, memory_id: int) -> tuple[int, int]:
    conn = sqlite3.connect(db_path)
    try:
        hits = conn.execute("SELECT hit_count FROM memories WHERE id = ?", (memory_id,)).fetchone()[0]
        logged = conn.execute("SELECT COUNT(*) FROM recall_log").fetchone()[0]
        return int(hits), int(logged)
    finally:
        conn.close()


@contextmanager
def _locked(db_path: Path) -> Iterator[threading.Event]:
    """Another connection holds the write lock until the block ends (it may end sooner: set the event)."""
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        conn = sqlite3.connect(db_path, isolation_level=None)
        conn.execute("BEGIN IMMEDIATE")
        held.set()
        release.wait(60)
        conn.execute("ROLLBACK")
        conn.close()

    thread = threading.Thread(target=hold)
    thread.start()
    held.wait(10)
    try:
        yield release
    finally:
        release.set()
        thread.join(30)


def test_a_deferred_count_lets_the_answer_out_first_and_gives_up_quietly(db_path: Path) -> None:
    memory = _approved(db_path)
    with Services.open(db_path) as svc:
        svc.recall.search("warm up", record=False)  # the model, loaded before the clock runs
        with _locked(db_path):
            started = time.monotonic()
            hits = svc.recall.search(QUERY, defer=True)
            answered = time.monotonic() - started
            assert [h.id for h in hits][:1] == [memory] and answered < 0.5
            started = time.monotonic()
            svc.recall.count_deferred()  # the lock stays taken: given up, no error
            assert RECORD_WAIT_S * 0.9 <= time.monotonic() - started < RECORD_WAIT_S + 1.0
        assert _hits(db_path, memory) == (0, 0)
        svc.recall.search(QUERY, defer=True)
        svc.recall.count_deferred()  # the lock is free: counted
        assert _hits(db_path, memory) == (1, 1)


def test_the_cli_prints_the_answer_while_another_program_holds_the_lock(db_path: Path) -> None:
    memory = _approved(db_path)
    with _locked(db_path):
        run = subprocess.run([sys.executable, "-m", "madohub_memory", "recall", QUERY, "--db", str(db_path), "--json"],
                             capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)[0]["id"] == memory
    assert "Traceback" not in run.stderr
    assert _hits(db_path, memory) == (0, 0)  # the count was given up; the answer was not


def test_over_mcp_the_answer_comes_at_once_and_the_hits_are_counted_after(db_path: Path) -> None:
    memory = _approved(db_path)
    params = StdioServerParameters(command=sys.executable, args=["-m", "madohub_memory", "mcp", "--db", str(db_path)],
                                   cwd=str(ROOT))

    async def go() -> float:
        async with Client(params) as client:
            await client.call_tool("recall", {"query": "warm up"})  # load the model first
            deadline = time.monotonic() + 20
            while _hits(db_path, memory)[1] != 1:  # the warm-up is counted (top-k may hold the memory)
                assert time.monotonic() < deadline, _hits(db_path, memory)
                await asyncio.sleep(0.05)
            warm_hits = _hits(db_path, memory)[0]
            with _locked(db_path) as release:
                started = time.monotonic()
                result = await client.call_tool("recall", {"query": QUERY})
                took = time.monotonic() - started
                assert not result.is_error and result.structured_content["memories"][0]["id"] == memory
                assert _hits(db_path, memory)[1] == 1  # only the warm-up is logged so far
                release.set()  # the lock is free again: the counting thread gets in
                deadline = time.monotonic() + 20
                while _hits(db_path, memory) != (warm_hits + 1, 2):
                    assert time.monotonic() < deadline, _hits(db_path, memory)
                    await asyncio.sleep(0.05)
            return took

    took = asyncio.run(go())
    assert took < 1.0  # counting in line waited up to 2 s for the lock before answering
