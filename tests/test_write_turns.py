"""Writers take turns (issue 27): a writer of another process gets the lock within one of a
writing loop's transactions, two loops alternate, a killed holder or waiter passes its turn on
at once, a waiter that never takes its turn delays a loop by at most ``YIELD_S``, long
transactions (a slow disk) make waits grow without a failure, and two imports of one file
at once both succeed without a duplicate. Every loop is a real process on a real database."""

from __future__ import annotations

import itertools
import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from madohub_memory.core.errors import DatabaseBusyError
from madohub_memory.services import Services
from madohub_memory.store import open_store
from madohub_memory.store.write_turns import YIELD_S, WriteTurns

ROOT = Path(__file__).resolve().parents[1]

# A writing loop: back-to-back write transactions that each hold the lock ``hold`` seconds,
# each logging (who, when it began) in recall_log, for ``seconds``.
LOOP = """
import sys, time
from madohub_memory.store import open_store
db, who, seconds, hold = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
store = open_store(db)
print("ready", flush=True)
end = time.monotonic() + seconds
while time.monotonic() < end:
    with store.transaction():
        store.execute("INSERT INTO recall_log (at, source, query, memory_ids, token_estimate)"
                      " VALUES (?, ?, 'loop', '[]', 0)", (repr(time.time()), who))
        time.sleep(hold)
store.close()
"""

# Holds the write lock (inside a transaction) or a waiting mark until killed.
HOLD = """
import sys, time
from madohub_memory.store import open_store
from madohub_memory.store.write_turns import WriteTurns
db, what = sys.argv[1], sys.argv[2]
if what == "lock":
    store = open_store(db)
    with store.transaction():
        print("holding", flush=True)
        time.sleep(600)
else:
    turns = WriteTurns(db)
    assert turns.mark_waiting()
    print("holding", flush=True)
    time.sleep(600)
"""


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


@pytest.fixture
def processes() -> Iterator[list[subprocess.Popen[str]]]:
    started: list[subprocess.Popen[str]] = []
    yield started
    for proc in started:
        if proc.poll() is None:
            proc.kill()
        proc.communicate(timeout=30)  # closes its pipes


def _start(processes: list[subprocess.Popen[str]], script: str, *args: str, ready: str) -> subprocess.Popen[str]:
    proc = subprocess.Popen([sys.executable, "-c", script, *args], env=_env(), cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    processes.append(proc)
    assert proc.stdout is not None
    line = proc.stdout.readline().strip()
    assert line == ready, proc.communicate(timeout=30)[1]
    return proc


def _timed_write(db: str | Path, who: str = "probe") -> float:
    store = open_store(db)
    try:
        started = time.monotonic()
        with store.transaction():
            store.execute("INSERT INTO recall_log (at, source, query, memory_ids, token_estimate)"
                          " VALUES (?, ?, 'probe', '[]', 0)", (repr(time.time()), who))
        return time.monotonic() - started
    finally:
        store.close()


def _log(db: str | Path) -> list[tuple[str, float]]:
    store = open_store(db)
    try:
        return [(str(r[0]), float(r[1])) for r in store.query("SELECT source, at FROM recall_log ORDER BY id")]
    finally:
        store.close()


@pytest.mark.parametrize("hold", [0.1, 0.8], ids=["import-sized", "slow-disk"])
def test_a_writer_gets_its_turn_beside_a_writing_loop(
        db_path: Path, processes: list[subprocess.Popen[str]], hold: float, monkeypatch: pytest.MonkeyPatch) -> None:
    """Beside a loop of back-to-back transactions, each write waits for about one of them
    (SQLite's busy handler alone let a writer wait seconds, or fail). With 0.8 s transactions
    (a slow disk) the waits grow with them, and none fails before $MADOHUB_BUSY_TIMEOUT."""
    Services.open(db_path).close()
    monkeypatch.setenv("MADOHUB_BUSY_TIMEOUT", "6")
    _start(processes, LOOP, str(db_path), "loop", "12", str(hold), ready="ready")
    time.sleep(0.5)
    waits = []
    for _ in range(4 if hold < 0.5 else 3):
        waits.append(_timed_write(db_path))
        time.sleep(0.2)
    assert max(waits) < hold + 0.7, waits  # one transaction of the loop, plus polling and a loaded machine
    assert processes[0].poll() is None  # the loop was still writing all along


def test_two_loops_take_turns(db_path: Path, processes: list[subprocess.Popen[str]]) -> None:
    Services.open(db_path).close()
    for who in ("a", "b"):
        _start(processes, LOOP, str(db_path), who, "3", "0.05", ready="ready")
    for proc in processes:
        proc.communicate(timeout=60)
    log = [(who, at) for who, at in _log(db_path)]
    for who in ("a", "b"):
        times = [at for w, at in log if w == who]
        assert len(times) >= 0.3 * len(log), (who, len(times), len(log))
        assert max(b - a for a, b in itertools.pairwise(times)) < 0.6  # never starved
    switches = sum(1 for (x, _), (y, _) in itertools.pairwise(log) if x != y)
    assert switches >= 0.6 * len(log), switches  # they alternate (one each), not in long runs


def test_a_killed_holder_passes_the_lock_on_at_once(db_path: Path, processes: list[subprocess.Popen[str]]) -> None:
    Services.open(db_path).close()
    holder = _start(processes, HOLD, str(db_path), "lock", ready="holding")
    result: dict[str, float] = {}

    def write() -> None:
        result["wait"] = _timed_write(db_path)
        result["done"] = time.monotonic()

    writer = threading.Thread(target=write)
    writer.start()
    time.sleep(1.0)
    assert "done" not in result
    killed = time.monotonic()
    holder.send_signal(signal.SIGKILL)
    writer.join(30)
    assert result["done"] - killed < 0.5


def test_a_killed_waiter_leaves_no_mark_and_a_stuck_one_delays_a_loop_boundedly(
        db_path: Path, processes: list[subprocess.Popen[str]]) -> None:
    Services.open(db_path).close()
    waiter = _start(processes, HOLD, str(db_path), "mark", ready="holding")
    turns = WriteTurns(db_path)
    try:
        assert turns.others_waiting()
        # A waiter that never takes its turn (stopped, stuck): a writer arriving afresh just
        # writes; one writing in a loop yields to it for at most YIELD_S each time, then goes on.
        store = open_store(db_path)
        try:
            took = []
            for _ in range(3):
                started = time.monotonic()
                with store.transaction():
                    pass
                took.append(time.monotonic() - started)
            assert took[0] < 0.3 and all(YIELD_S * 0.8 <= t < YIELD_S + 0.5 for t in took[1:]), took
        finally:
            store.close()
        waiter.send_signal(signal.SIGKILL)
        waiter.communicate(timeout=30)
        assert not turns.others_waiting()  # its mark went with it
    finally:
        turns.close()


def test_the_waiting_marks_file_is_private(db_path: Path) -> None:
    Services.open(db_path).close()
    store = open_store(db_path)
    try:
        assert not store.writers_waiting()
        mode = Path(f"{db_path}-writers").stat().st_mode & 0o777
        assert mode == 0o600
    finally:
        store.close()
    assert not Path(f"{db_path}-writers").exists()  # gone with the last store, as -wal and -shm are


def test_two_imports_of_one_file_at_once_both_succeed_without_duplicates(db_path: Path, tmp_path: Path) -> None:
    Services.open(db_path).close()
    transcript = tmp_path / "chat.jsonl"
    transcript.write_text("".join(
        json.dumps({"role": "user", "content": f"We decided to keep service {i} on version {i + 2} because the"
                    " upgrade broke the exports."}) + "\n" + json.dumps({"role": "assistant", "content": "Noted."})
        + "\n" for i in range(300)), encoding="utf-8")
    command = [sys.executable, "-m", "madohub_memory", "ingest", str(transcript), "--db", str(db_path), "--json"]
    runs = [subprocess.Popen(command, env=_env(), cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for _ in range(2)]
    outputs = [run.communicate(timeout=600) for run in runs]
    for run, (out, err) in zip(runs, outputs, strict=True):
        assert run.returncode == 0, err
        assert json.loads(out)["status"] == "ok"
    conn = sqlite3.connect(db_path)
    try:
        assert conn.execute("SELECT COUNT(*) FROM turns").fetchone()[0] == 600
        assert conn.execute("SELECT COUNT(*) FROM turns WHERE extract_state IN ('pending', 'claimed')").fetchone()[0] == 0
        candidates = conn.execute("SELECT COUNT(*), COUNT(DISTINCT fingerprint) FROM candidates").fetchone()
        assert candidates[0] == candidates[1] == 300
    finally:
        conn.close()


@pytest.mark.both_backends
def test_waiting_writers_go_before_a_loop_writes_again(
        backend: str, db_path: Any, processes: list[subprocess.Popen[str]]) -> None:
    """Three writers ask for the lock while a loop holds it: all three write before the
    loop's next transaction. On PostgreSQL the advisory lock's queue serves them in the
    order they asked (checked here on a real server); on SQLite the waiting marks do, in
    any order among them."""
    target = str(db_path)
    Services.open(target).close()
    _start(processes, LOOP, target, "loop", "8", "0.6", ready="ready")
    store = open_store(target)
    try:
        seen = store.scalar("SELECT COUNT(*) FROM recall_log")
        deadline = time.monotonic() + 20
        while store.scalar("SELECT COUNT(*) FROM recall_log") == seen:  # a commit: the next one just began
            assert time.monotonic() < deadline
            time.sleep(0.005)
    finally:
        store.close()
    writers = []
    for number in range(3):
        writers.append(threading.Thread(target=_timed_write, args=(target, f"w{number}")))
        writers[-1].start()
        time.sleep(0.06)
    for writer in writers:
        writer.join(30)
    order = [who for who, _ in _log(target)]
    first = min(order.index(f"w{n}") for n in range(3))
    served = order[first:first + 3]
    assert sorted(served) == ["w0", "w1", "w2"], order  # no loop transaction among them
    if backend == "postgresql":
        assert served == ["w0", "w1", "w2"], order  # the server's queue: in the order they asked


def test_on_postgresql_a_loop_ends_a_long_transaction_early_for_a_waiter(pg_dsn: str) -> None:
    """``writers_waiting`` sees another connection queued for the advisory lock."""
    holder = open_store(pg_dsn)
    try:
        with holder.transaction():
            assert not holder.writers_waiting()
            waiter = threading.Thread(target=_timed_write, args=(pg_dsn,))
            waiter.start()
            deadline = time.monotonic() + 10
            while not holder.writers_waiting():
                assert time.monotonic() < deadline
                time.sleep(0.03)
        waiter.join(30)
    finally:
        holder.close()


def test_a_busy_database_still_gives_up_after_the_busy_timeout(
        db_path: Path, processes: list[subprocess.Popen[str]], monkeypatch: pytest.MonkeyPatch) -> None:
    Services.open(db_path).close()
    _start(processes, HOLD, str(db_path), "lock", ready="holding")
    monkeypatch.setenv("MADOHUB_BUSY_TIMEOUT", "1.5")
    started = time.monotonic()
    with pytest.raises(DatabaseBusyError, match="is busy"):
        _timed_write(db_path)
    assert 1.4 <= time.monotonic() - started < 3.0
