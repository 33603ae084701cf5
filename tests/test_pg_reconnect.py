"""A team server's connections drop (a restart, an administrator's pg_terminate_backend, a
network blip) while a dashboard stays open for days (issue 13, "Many writers"): the listener
comes back by itself and the dashboard's own connection is opened anew on the next action,
without a restart of the dashboard, and a write is never sent twice."""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path
from typing import Any

import psycopg
import pytest
from PySide6.QtCore import Qt
from test_gui_helpers import open_window

from madohub_memory.core.clock import Clock
from madohub_memory.core.errors import StorageError
from madohub_memory.gui import change_listener
from madohub_memory.gui.change_listener import ChangeListenerThread, retry_delays
from madohub_memory.gui.worker import query_op
from madohub_memory.services import Services
from madohub_memory.services.change_watch import watch_changes
from madohub_memory.store import open_store

pytestmark = pytest.mark.qt_log_ignore("propagateSizeHints")
NOW = "2026-11-01T09:00:00Z"


def _end(dsn: str, where: str, *params: object) -> int:
    """End server connections as an administrator would; how many were ended."""
    with psycopg.connect(dsn, autocommit=True) as admin:
        rows = admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                             f" WHERE datname = current_database() AND pid <> pg_backend_pid() AND {where}",
                             params).fetchall()
    return len(rows)


def _backend_pid(qtbot: Any, win: Any) -> int:
    """The server process behind the dashboard's own (worker) connection."""
    found: list[int] = []
    query_op(win.worker, lambda ctx: ctx.svc.store.raw.info.backend_pid, found.append)
    qtbot.waitUntil(lambda: bool(found), timeout=5000)
    return found[0]


def test_retry_pauses_grow_to_half_a_minute() -> None:
    delays = retry_delays()
    assert [next(delays) for _ in range(8)] == [1, 2, 4, 8, 16, 30, 30, 30]


def test_dashboard_listens_again_after_its_listening_connection_is_ended(qtbot, pg_dsn: str, tmp_path: Path) -> None:
    clock = Clock(NOW)
    other = Services.open(pg_dsn, clock)
    try:
        with open_window(qtbot, pg_dsn, tmp_path, clock, poll=True) as win:  # type: ignore[arg-type]
            tab = win.pending
            qtbot.waitUntil(lambda: win.worker.listening, timeout=5000)
            win.worker._poll_timer.stop()  # only the server's notifications can bring a change now
            assert not win.live_updates_note.isVisible()
            assert _end(pg_dsn, "application_name = 'madohub-listen'") == 1
            qtbot.waitUntil(lambda: not win.worker.listening, timeout=3000)
            assert win.live_updates_note.isVisible()
            assert win.live_updates_note.text() == "Live updates paused — reconnecting…"
            # committed while nobody listens: no announcement reaches the dashboard for it
            during_gap = other.review.remember("Deploys happen on Tuesdays only", "fact", "workspace:shop")
            qtbot.waitUntil(lambda: win.worker.listening, timeout=5000)
            assert not win.live_updates_note.isVisible()
            assert win.worker._listener.reconnects == 1
            qtbot.waitUntil(lambda: tab.model.rowCount() == 1, timeout=2000)  # the check after reconnecting
            assert tab.model.row_of(during_gap.candidate_id) == 0
            assert not win.worker._poll_timer.isActive()  # it was not polling that found it
            assert win.worker._poll_timer.interval() == 3000  # slow again while listening
            decided = time.monotonic()
            other.review.approve(during_gap.candidate_id, actor="human")
            qtbot.waitUntil(lambda: tab.model.rowCount() == 0, timeout=1000)  # announced again
            assert time.monotonic() - decided < 1.0
    finally:
        other.close()


def test_the_listener_outlives_a_server_restart_and_logs_once(
        pg_cluster: Any, pg_dsn: str, qtbot, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(change_listener, "RETRY_FIRST_S", 0.2)  # 0.2, 0.4, 0.8 … s: several fail while down
    caplog.set_level(logging.DEBUG, logger=change_listener.__name__)
    store = open_store(pg_dsn)
    thread = ChangeListenerThread(watch_changes(store))
    events: list[str] = []
    thread.lost.connect(lambda: events.append("lost"))
    thread.restored.connect(lambda: events.append("restored"))
    thread.changed.connect(lambda: events.append("changed"))
    thread.start()
    store.close()
    try:
        pg_cluster.pause()
        try:
            qtbot.waitUntil(lambda: events == ["lost"], timeout=3000)
            time.sleep(2.0)  # the attempts at 0.2 s, 0.6 s and 1.4 s find no server
        finally:
            pg_cluster.resume()
        assert events == ["lost"]
        qtbot.waitUntil(lambda: "restored" in events, timeout=8000)
        qtbot.waitUntil(lambda: events[-1] == "changed", timeout=1000)
        assert events == ["lost", "restored", "changed"]
        attempts = [r for r in caplog.records if "still unavailable" in r.getMessage()]
        assert len(attempts) >= 2  # it really tried while the server was down …
        said = [r for r in caplog.records if r.levelno >= logging.INFO]
        assert len(said) == 2  # … and said so once, and once more when it was back
        assert "stopped" in said[0].getMessage() and "back" in said[1].getMessage()
        writer = Services.open(pg_dsn, Clock(NOW))
        writer.review.remember("Builds run on main only", "fact", "workspace:shop")
        writer.close()
        qtbot.waitUntil(lambda: events.count("changed") >= 2, timeout=2000)  # announcements arrive again
    finally:
        thread.stop()


def test_closing_while_the_server_is_down_stops_the_listener_at_once(
        pg_cluster: Any, pg_dsn: str, qtbot) -> None:
    store = open_store(pg_dsn)
    thread = ChangeListenerThread(watch_changes(store))
    lost = threading.Event()
    thread.lost.connect(lost.set)
    thread.start()
    store.close()
    pg_cluster.pause()
    try:
        qtbot.waitUntil(lost.is_set, timeout=3000)
        time.sleep(1.5)  # between attempts, waiting 2 s for the next
        began = time.monotonic()
        thread.stop()
        assert time.monotonic() - began < 0.5
        assert not thread._thread.is_alive()
    finally:
        pg_cluster.resume()


def test_a_store_whose_connection_was_ended_connects_anew_for_the_next_read_and_write(pg_dsn: str) -> None:
    svc = Services.open(pg_dsn, Clock(NOW))
    try:
        cid = svc.review.remember("Deploys happen on Tuesdays only", "fact", "workspace:shop").candidate_id
        assert _end(pg_dsn, "pid = %s", svc.store.raw.info.backend_pid) == 1
        assert [c.id for c in svc.review.pending()] == [cid]  # a read: asked again on a new connection
        assert _end(pg_dsn, "pid = %s", svc.store.raw.info.backend_pid) == 1
        svc.review.approve(cid)  # BEGIN found the connection gone: nothing had started
        assert svc.review.get(cid).status == "approved"
        assert _end(pg_dsn, "pid = %s", svc.store.raw.info.backend_pid) == 1
        assert svc.store.data_version() == svc.store.data_version()  # the dashboard's poll
    finally:
        svc.close()


def test_a_write_that_loses_its_connection_midway_is_one_sentence_and_the_retry_stores_it(pg_dsn: str) -> None:
    svc = Services.open(pg_dsn, Clock(NOW))
    try:
        cid = svc.review.remember("Deploys happen on Tuesdays only", "fact", "workspace:shop").candidate_id
        lost = pytest.raises(StorageError, match=r"^Lost the connection to the database server .*; try again")
        with lost, svc.store.transaction():
            svc.store.execute("UPDATE candidates SET content = ? WHERE id = ?", ("Deploys: Tuesdays", cid))
            _end(pg_dsn, "pid = %s", svc.store.raw.info.backend_pid)
            svc.store.execute("UPDATE candidates SET status = 'approved' WHERE id = ?", (cid,))
        assert svc.review.get(cid).content == "Deploys happen on Tuesdays only"  # rolled back: nothing half-done
        assert svc.review.get(cid).status == "pending"
        svc.review.approve(cid, content="Deploys: Tuesdays")  # the user's retry
        assert svc.review.get(cid).status == "approved"
    finally:
        svc.close()


def test_a_commit_whose_answer_is_lost_says_the_change_may_be_stored(pg_dsn: str) -> None:
    """The connection ends while COMMIT runs (a deferred trigger holds it for a moment): the
    client cannot know whether it was stored, so it says so and does not send it again."""
    svc = Services.open(pg_dsn, Clock(NOW))
    admin = psycopg.connect(pg_dsn, autocommit=True)
    admin.execute("CREATE FUNCTION mh_test_slow_commit() RETURNS trigger LANGUAGE plpgsql AS"
                  " $$ BEGIN PERFORM pg_sleep(2); RETURN NULL; END $$")
    admin.execute("CREATE CONSTRAINT TRIGGER mh_test_slow_commit AFTER UPDATE ON candidates"
                  " DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION mh_test_slow_commit()")
    try:
        cid = svc.review.remember("Deploys happen on Tuesdays only", "fact", "workspace:shop").candidate_id
        pid = svc.store.raw.info.backend_pid
        ender = threading.Timer(0.7, lambda: _end(pg_dsn, "pid = %s", pid))
        ender.start()
        with pytest.raises(StorageError, match=r"while saving .*may or may not be stored"):
            svc.review.approve(cid)
        ender.join()
        admin.execute("DROP TRIGGER mh_test_slow_commit ON candidates")
        assert svc.review.get(cid).status == "pending"  # ended before it was stored; the next read reconnects
    finally:
        admin.execute("DROP TRIGGER IF EXISTS mh_test_slow_commit ON candidates")
        admin.execute("DROP FUNCTION IF EXISTS mh_test_slow_commit()")
        admin.close()
        svc.close()


def test_dashboard_approves_with_a_key_after_its_connection_was_ended(qtbot, pg_dsn: str, tmp_path: Path) -> None:
    clock = Clock(NOW)
    other = Services.open(pg_dsn, clock)
    try:
        first = other.review.remember("Deploys happen on Tuesdays only", "fact", "workspace:shop").candidate_id
        second = other.review.remember("The staging database is reset nightly", "fact",
                                       "workspace:shop").candidate_id
        with open_window(qtbot, pg_dsn, tmp_path, clock) as win:  # type: ignore[arg-type]
            tab = win.pending
            qtbot.waitUntil(lambda: tab.model.rowCount() == 2, timeout=5000)
            errors: list[str] = []
            win.worker.error.connect(errors.append)
            tab.decision_failed.connect(errors.append)
            assert _end(pg_dsn, "pid = %s", _backend_pid(qtbot, win)) == 1
            tab.select_row(tab.model.row_of(first))
            qtbot.keyClick(tab.table, Qt.Key.Key_A)
            qtbot.waitUntil(lambda: other.review.get(first).status == "approved", timeout=5000)
            assert errors == []
            assert _end(pg_dsn, "pid = %s", _backend_pid(qtbot, win)) == 1
            qtbot.keyClick(tab.table, Qt.Key.Key_A)  # the next row (second) is now current
            qtbot.waitUntil(lambda: other.review.get(second).status == "approved", timeout=5000)
            assert errors == []
            assert tab.model.rowCount() == 0
    finally:
        other.close()


def test_dashboard_says_one_sentence_while_the_server_is_down_and_approves_once_it_is_back(
        qtbot, pg_cluster: Any, pg_dsn: str, tmp_path: Path) -> None:
    clock = Clock(NOW)
    other = Services.open(pg_dsn, clock)
    cid = other.review.remember("Deploys happen on Tuesdays only", "fact", "workspace:shop").candidate_id
    other.close()
    with open_window(qtbot, pg_dsn, tmp_path, clock) as win:  # type: ignore[arg-type]
        tab = win.pending
        qtbot.waitUntil(lambda: tab.model.rowCount() == 1, timeout=5000)
        failures: list[str] = []
        tab.decision_failed.connect(failures.append)
        pg_cluster.pause()
        try:
            tab.select_row(0)
            qtbot.keyClick(tab.table, Qt.Key.Key_A)
            qtbot.waitUntil(lambda: bool(failures), timeout=15000)
            qtbot.waitUntil(lambda: tab.model.rowCount() == 1, timeout=5000)  # the candidate is back on screen
        finally:
            pg_cluster.resume()
        assert len(failures) == 1
        assert failures[0].startswith("Cannot connect to the database server") or \
            failures[0].startswith("Lost the connection to the database server")
        assert "\n" not in failures[0] and "Traceback" not in failures[0]
        tab.select_row(tab.model.row_of(cid))
        qtbot.keyClick(tab.table, Qt.Key.Key_A)  # the user's retry
        qtbot.waitUntil(lambda: tab.model.rowCount() == 0, timeout=5000)
        check = Services.open(pg_dsn, clock)
        try:
            qtbot.waitUntil(lambda: check.review.get(cid).status == "approved", timeout=5000)
        finally:
            check.close()
