"""Several writers on one PostgreSQL server (issue 13, "Many writers"): workers on separate
connections claim turns without ever getting the same one, a claim passes over turns another
transaction holds instead of waiting, and a decision made on one connection is announced to
another's waiter (and to a dashboard's live view) within a second."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import psycopg
import pytest
from test_gui_helpers import open_window

from madohub_memory.core.clock import Clock
from madohub_memory.core.errors import StorageError
from madohub_memory.services import Services
from madohub_memory.services.change_watch import watch_changes
from madohub_memory.store import ingest as ingest_rows
from madohub_memory.store import open_store
from madohub_memory.store.database import Store

pytestmark = pytest.mark.qt_log_ignore("propagateSizeHints")
NOW = "2026-11-01T09:00:00Z"


def _conversations(store: Store, count: int, turns: int) -> set[str]:
    ids: set[str] = set()
    with store.transaction():
        for c in range(count):
            conv = f"c{c:03d}"
            ingest_rows.upsert_conversation(store, {
                "id": conv, "format": "claude_code", "source_path": None, "title": None, "parent_id": None,
                "namespace": "workspace:shop", "started_at": NOW, "meta": {}})
            rows = [{"id": f"{conv}-t{n}", "conversation_id": conv, "seq": n, "role": "user" if n % 2 == 0
                     else "assistant", "content": f"turn {n} of {conv}", "created_at": NOW, "meta": {},
                     "extract_state": "pending", "extract_mode": "turn", "segment": 0} for n in range(turns)]
            ingest_rows.insert_turns(store, rows)
            ids.update(r["id"] for r in rows)
    return ids


def test_workers_on_separate_connections_never_claim_the_same_turn(pg_dsn: str) -> None:
    setup = open_store(pg_dsn)
    expected = _conversations(setup, 60, 6)
    setup.close()
    claimed: dict[str, list[str]] = {}
    errors: list[BaseException] = []
    start = threading.Barrier(4)

    def worker(name: str) -> None:
        store = open_store(pg_dsn)
        mine: list[str] = claimed.setdefault(name, [])
        try:
            start.wait()
            while True:
                rows = ingest_rows.claim_pending(store, name, NOW, NOW, max_turns=12)
                if not rows:
                    break
                mine.extend(r["id"] for r in rows)
                time.sleep(0.002)  # "extraction", outside any transaction
                with store.transaction():
                    ingest_rows.finish_turns(store, [r["id"] for r in rows], name, "done", NOW)
        except BaseException as exc:  # reported below, not lost in the thread
            errors.append(exc)
        finally:
            store.close()

    threads = [threading.Thread(target=worker, args=(f"host{n}:1:w",)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors
    everything = [turn for turns in claimed.values() for turn in turns]
    assert len(everything) == len(set(everything)), "a turn was claimed twice"
    assert set(everything) == expected
    assert sum(1 for turns in claimed.values() if turns) >= 2  # the work was really shared


def test_a_claim_passes_over_turns_another_transaction_holds(pg_dsn: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another transaction holding some turns (without the write lock, e.g. a second program)
    neither blocks the claim nor gives it those turns."""
    monkeypatch.setenv("MADOHUB_BUSY_TIMEOUT", "2")
    store = open_store(pg_dsn)
    _conversations(store, 3, 4)
    holder = psycopg.connect(pg_dsn)
    try:
        holder.execute("SELECT id FROM turns WHERE conversation_id = 'c000' FOR UPDATE").fetchall()
        began = time.monotonic()
        rows = ingest_rows.claim_pending(store, "host:2:w", NOW, NOW)
        assert time.monotonic() - began < 1.5
        assert {r["conversation_id"] for r in rows} == {"c001", "c002"}
        holder.rollback()
        again = ingest_rows.claim_pending(store, "host:3:w", NOW, NOW)
        assert {r["conversation_id"] for r in again} == {"c000"}
    finally:
        holder.close()
        store.close()


def test_a_decision_reaches_another_connections_waiter_within_a_second(pg_dsn: str) -> None:
    clock = Clock(NOW)
    deciding = Services.open(pg_dsn, clock)
    watching = Services.open(pg_dsn, clock)
    watch = watch_changes(watching.store)
    try:
        assert watch.pushes
        cid = deciding.review.remember("Deploys happen on Tuesdays only", "fact", "workspace:shop").candidate_id
        assert watch.wait(1.0)  # the submit itself was announced
        assert not watch.wait(0.2)  # nothing else happened: no announcement
        with pytest.raises(RuntimeError), deciding.store.transaction():
            deciding.store.execute("UPDATE candidates SET content = 'x' WHERE id = ?", (cid,))
            raise RuntimeError("rolled back")
        assert not watch.wait(0.3)  # a rolled-back change is not announced
        heard: list[float] = []
        waiter = threading.Thread(target=lambda: heard.append(time.monotonic()) if watch.wait(5.0) else None)
        waiter.start()
        time.sleep(0.1)
        decided = time.monotonic()
        deciding.review.approve(cid)
        waiter.join(6)
        assert heard and heard[0] - decided < 1.0
        assert watching.review.pending() == []
    finally:
        watch.close()
        deciding.close()
        watching.close()


def test_a_lost_listening_connection_is_one_sentence_not_a_hang(pg_dsn: str) -> None:
    store = open_store(pg_dsn)
    watch = watch_changes(store)
    try:
        with psycopg.connect(pg_dsn, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                          " WHERE query LIKE 'LISTEN %' AND pid <> pg_backend_pid()")
        with pytest.raises(StorageError, match="Lost the connection to the database server"):
            watch.wait(2.0)
    finally:
        watch.close()
        store.close()


def test_sqlite_has_no_push_and_keeps_polling(svc: Services) -> None:
    watch = watch_changes(svc.store)
    assert not watch.pushes
    assert watch.wait(0.01) is False
    watch.close()


def test_dashboard_shows_another_dashboards_approval_within_a_second(qtbot, pg_dsn: str, tmp_path: Path) -> None:
    clock = Clock(NOW)
    other = Services.open(pg_dsn, clock)
    try:
        keep = other.review.remember("Deploys happen on Tuesdays only", "fact", "workspace:shop").candidate_id
        decided_elsewhere = other.review.remember("The staging database is reset nightly", "fact",
                                                  "workspace:shop").candidate_id
        with open_window(qtbot, pg_dsn, tmp_path, clock, poll=True) as win:  # type: ignore[arg-type]
            tab = win.pending
            qtbot.waitUntil(lambda: win.worker.listening, timeout=5000)
            win.worker._poll_timer.stop()  # only the server's notification can bring the change now
            qtbot.waitUntil(lambda: tab.model.rowCount() == 2, timeout=5000)
            decided = time.monotonic()
            other.review.approve(decided_elsewhere, actor="human")
            qtbot.waitUntil(lambda: tab.model.rowCount() == 1, timeout=1000)
            assert time.monotonic() - decided < 1.0
            assert tab.model.row_of(keep) == 0
            assert win.tabs.tabText(0) == "Pending (1)"
    finally:
        other.close()


def test_a_burst_of_commits_elsewhere_reloads_the_dashboard_a_few_times_not_each_time(
        qtbot, pg_dsn: str, tmp_path: Path) -> None:
    clock = Clock(NOW)
    other = Services.open(pg_dsn, clock)
    try:
        with open_window(qtbot, pg_dsn, tmp_path, clock, poll=True) as win:  # type: ignore[arg-type]
            qtbot.waitUntil(lambda: win.worker.listening, timeout=5000)
            win.worker._poll_timer.stop()
            refreshes: list[object] = []
            win.worker.operation_did_execute.connect(lambda changes, initiator: refreshes.append(initiator))
            def burst() -> None:  # a worker on another connection, one transaction per candidate
                for n in range(30):
                    other.review.remember(f"Build step {n} must run with the cache warmed", "fact", "workspace:shop")
                    time.sleep(0.02)

            began = time.monotonic()
            writer = threading.Thread(target=burst)
            writer.start()
            qtbot.waitUntil(lambda: not writer.is_alive(), timeout=30000)
            took = time.monotonic() - began
            qtbot.waitUntil(lambda: win.pending.model.rowCount() == 30, timeout=2000)
            qtbot.wait(400)
            assert 2 <= len(refreshes) <= took / 0.25 + 3  # at most one reload per 250 ms, and the last one
    finally:
        other.close()


def test_dashboard_whose_listening_connection_drops_keeps_up_by_polling(qtbot, pg_dsn: str, tmp_path: Path) -> None:
    clock = Clock(NOW)
    other = Services.open(pg_dsn, clock)
    try:
        with open_window(qtbot, pg_dsn, tmp_path, clock, poll=True) as win:  # type: ignore[arg-type]
            qtbot.waitUntil(lambda: win.worker.listening, timeout=5000)
            with psycopg.connect(pg_dsn, autocommit=True) as admin:
                admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                              " WHERE query LIKE 'LISTEN %' AND pid <> pg_backend_pid()")
            qtbot.waitUntil(lambda: not win.worker.listening, timeout=3000)
            other.review.remember("Deploys happen on Tuesdays only", "fact", "workspace:shop")
            qtbot.waitUntil(lambda: win.pending.model.rowCount() == 1, timeout=2000)
    finally:
        other.close()
