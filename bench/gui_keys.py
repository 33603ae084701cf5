"""Keyboard triage at speed: does every key act on the candidate on screen?

``python bench/gui_keys.py --json`` opens the real dashboard offscreen on a store with 100
pending candidates and 3,000 approved memories, replays a scripted review session (A, X,
Space, j/k, E + text + Ctrl+Enter, Ctrl+Z) as real Qt key events sent to whatever widget
has the focus, with the event loop running between keys, at 30, 50 and 100 ms intervals.
Afterwards it compares every candidate's stored state with what the keys meant for the
candidate shown when each was pressed (``_triage.simulate``). Target: 0 candidates in a
wrong state at every interval.

Two ways of sending keys: ``posted`` queues each key event on the window when it is due by
the wall clock, even while the GUI thread is busy (as a display server does for a fast
typist), so keys pile up behind slow work; ``qtest`` sends each with ``QTest.keyClick`` and
runs the event loop for the interval after it.

It also closes the window right after a burst of decisions (are they all stored?), and
measures the detail pane on a store with 100,000 memories: from a key press to the pane
showing the next candidate's provenance and its nearest approved memory (target p95
< 10 ms), the cost of one nearest-memory lookup without any cache, and resident memory.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import percentile, rss_mb
from _triage import Step, compare, queue_order, session, simulate, store_copy, stored_state

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def _pump(app, seconds: float) -> None:
    end = time.perf_counter() + seconds
    while True:
        app.processEvents()
        left = end - time.perf_counter()
        if left <= 0:
            return
        time.sleep(min(0.001, left))


def _open(app, db: Path, folder: Path):
    from PySide6.QtCore import QSettings

    from madohub_memory.gui.app import wait_until
    from madohub_memory.gui.main_window import MainWindow
    from madohub_memory.gui.worker import DbWorker

    worker = DbWorker(db)
    settings = QSettings(str(folder / "qs.ini"), QSettings.Format.IniFormat)
    window = MainWindow(worker, restore=False, settings=settings)
    window.resize(1280, 800)
    window.show()
    window.activateWindow()
    if not wait_until(app, lambda: window.ready, timeout=60):
        raise SystemExit("the dashboard did not load")
    worker.start_polling()  # as the real app: other processes' commits arrive as refreshes
    window.pending.table.setFocus()
    _pump(app, 0.3)
    return window, worker


def _close(app, window, worker) -> float:
    """Close as a person does; return seconds until the window is gone (it waits for saves)."""
    from madohub_memory.gui.app import wait_until

    start = time.perf_counter()
    window.close()
    wait_until(app, lambda: not window.isVisible(), timeout=120)
    elapsed = time.perf_counter() - start
    worker.stop()
    return elapsed


def _press(app, step: Step, interval: float) -> None:
    from PySide6.QtCore import QEvent, Qt
    from PySide6.QtGui import QKeyEvent
    from PySide6.QtTest import QTest

    def key(k: Qt.Key, mods: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier, text: str | None = None) -> None:
        target = app.focusWidget()
        if text is not None and text.isascii():
            QTest.keyClick(target, text)
        elif text is not None:  # what an input method delivers: a key event that carries text
            for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
                app.sendEvent(target, QKeyEvent(kind, 0, Qt.KeyboardModifier.NoModifier, text))
        else:
            QTest.keyClick(target, k, mods)
        _pump(app, interval)

    keys = {"A": Qt.Key.Key_A, "X": Qt.Key.Key_X, "Space": Qt.Key.Key_Space, "j": Qt.Key.Key_J, "k": Qt.Key.Key_K}
    if step.key in keys:
        key(keys[step.key])
    elif step.key == "Ctrl+Z":
        key(Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    elif step.key == "E":
        key(Qt.Key.Key_E)
        for char in step.text:
            key(Qt.Key.Key_unknown, text=char)
        key(Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)


def _events(steps: list[Step], interval: float) -> list[tuple[float, int, object, str]]:
    """(due second, key, modifiers, text) for every key event of the session."""
    from PySide6.QtCore import Qt

    none, ctrl = Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.ControlModifier
    simple = {"A": (Qt.Key.Key_A, none, "a"), "X": (Qt.Key.Key_X, none, "x"), "Space": (Qt.Key.Key_Space, none, " "),
              "j": (Qt.Key.Key_J, none, "j"), "k": (Qt.Key.Key_K, none, "k"), "Ctrl+Z": (Qt.Key.Key_Z, ctrl, "")}
    keys: list[tuple[int, object, str]] = []
    for step in steps:
        if step.key in simple:
            keys.append(simple[step.key])
        else:  # E, the text, Ctrl+Enter
            keys.append((Qt.Key.Key_E, none, "e"))
            for char in step.text:
                code = Qt.Key(ord(char.upper())) if char.isascii() and char.isalnum() else (
                    Qt.Key.Key_Space if char == " " else 0)
                keys.append((code, none, char))
            keys.append((Qt.Key.Key_Return, ctrl, ""))
    return [(n * interval, key, mods, text) for n, (key, mods, text) in enumerate(keys)]


def _post_on_time(app, window, events: list[tuple[float, int, object, str]]) -> float:
    """Post each key event to the window when it is due by the wall clock, as a display
    server queues them while the GUI thread is busy; return how late the last one was."""
    from PySide6.QtCore import QCoreApplication, QEvent
    from PySide6.QtGui import QKeyEvent

    target = window.windowHandle()  # Qt delivers it to whatever widget has the focus then
    start = time.perf_counter()
    late = 0.0
    pending = list(events)
    while pending:
        now = time.perf_counter() - start
        while pending and pending[0][0] <= now:
            due, key, mods, text = pending.pop(0)
            late = max(late, now - due)
            for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
                QCoreApplication.postEvent(target, QKeyEvent(kind, int(key), mods, text))
        app.processEvents()
        time.sleep(0.0005)
    _pump(app, 0.05)
    return late


def run_session(app, interval_ms: int, pending: int, memories: int, decisions: int,
                mode: str = "posted") -> dict[str, object]:
    folder = Path(tempfile.mkdtemp(prefix="madohub-keys-"))
    db = store_copy(folder, pending, memories)
    order, originals = queue_order(db)
    steps = session(decisions, seed=interval_ms)
    intended = simulate(order, originals, steps)
    window, worker = _open(app, db, folder)
    started = time.perf_counter()
    if mode == "posted":
        _post_on_time(app, window, _events(steps, interval_ms / 1000))
    else:
        for step in steps:
            _press(app, step, interval_ms / 1000)
    typing_s = time.perf_counter() - started
    close_s = _close(app, window, worker)
    stored, flagged = stored_state(db)
    result = compare(intended, stored, flagged)
    decided = sum(1 for s in intended.status.values() if s != "pending")
    return {"mode": mode, "interval_ms": interval_ms, "keys": intended.keys, "steps": len(steps),
            "decided": decided, "session_s": round(typing_s, 1), "close_wait_s": round(close_s, 2), **result}


def close_mid_queue(app, pending: int, memories: int, burst: int = 30) -> dict[str, object]:
    """A burst of decisions, and the window closed before the worker has stored them."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    folder = Path(tempfile.mkdtemp(prefix="madohub-close-"))
    db = store_copy(folder, pending, memories)
    order, _ = queue_order(db)
    window, worker = _open(app, db, folder)
    decided = order[:burst]
    for n in range(burst):  # back to back: the window closes with the decisions still queued
        QTest.keyClick(window.pending.table, Qt.Key.Key_A if n % 2 else Qt.Key.Key_X)
    queued = worker.pending_writes
    saving_shown: list[bool] = []
    window.close()
    saving_shown.append(window.saving_label.isVisible() or queued == 0)
    close_s = _close(app, window, worker)
    stored, _ = stored_state(db)
    lost = [cid for cid in decided if stored[cid]["status"] == "pending"]
    return {"decisions": burst, "queued_at_close": queued, "lost": len(lost),
            "saving_note_shown": all(saving_shown), "close_wait_s": round(close_s, 2)}


def detail_figures(app, memories: int, moves: int = 60) -> dict[str, object]:
    """Moving through the queue with j at 100 ms on a store with ``memories`` memories: what
    loading the pane's detail costs (provenance on the database worker, the nearest memory in
    the helper process unless it was computed ahead), how long the pane takes to show it all
    (painting included), and the first nearest-memory answer after an approval (which makes
    the helper embed the new memory into its index)."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    from madohub_memory.gui.app import wait_until

    folder = Path(tempfile.mkdtemp(prefix="madohub-detail-"))
    db = store_copy(folder, 100, memories)
    window, worker = _open(app, db, folder)
    tab = window.pending
    started = time.perf_counter()
    wait_until(app, lambda: tab.nearest_settled, timeout=600)
    first_answer_s = time.perf_counter() - started  # helper start, model and index load
    loads, shown, binds, ready_ahead = [], [], [], 0
    for _ in range(moves):
        start = time.perf_counter()
        QTest.keyClick(tab.table, Qt.Key.Key_J)
        binds.append(time.perf_counter() - start)  # the pane shows the row's text here
        cid = tab.current_id()
        content = tab.model.cached(cid)["content"]
        ahead = tab.lane.known(cid, content)
        ready_ahead += ahead
        wait_until(app, lambda c=cid: tab.detail.candidate_id == c and tab.detail.enriched and tab.nearest_settled,
                   timeout=60, step=0.0002)
        shown.append(time.perf_counter() - start)
        loads.append(tab.detail_load_ms.get(cid, 0.0) + (0.0 if ahead else tab.lane.cost_ms.get((cid, content), 0.0)))
        _pump(app, 0.1)
    costs = list(tab.lane.cost_ms.values())
    # an approval: the next candidate's answer waits for the new memory to enter the index
    QTest.keyClick(tab.table, Qt.Key.Key_A)
    start = time.perf_counter()
    wait_until(app, lambda: tab.nearest_settled and tab.detail.enriched, timeout=60, step=0.0002)
    after_approval_ms = (time.perf_counter() - start) * 1000
    rss = rss_mb()
    helper = tab.lane._process
    helper_rss = rss_mb(helper.pid) if helper is not None and helper.is_alive() else 0.0
    _close(app, window, worker)

    def ms(values: list[float], scale: float = 1.0) -> dict[str, float]:
        values = [v * scale for v in values]
        return {"p50": round(statistics.median(values), 2), "p95": round(percentile(values, 0.95), 2)}

    return {"memories": memories, "moves": moves,
            "detail_load_ms": ms(loads), "pane_bind_ms": ms(binds, 1000), "pane_complete_ms": ms(shown, 1000),
            "nearest_ready_ahead": f"{ready_ahead}/{moves}", "nearest_compute_ms": ms(costs),
            "nearest_after_approval_ms": round(after_approval_ms, 1), "first_nearest_s": round(first_answer_s, 1),
            "gui_rss_mb": rss, "helper_rss_mb": helper_rss}



def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--intervals", default="30,50,100", help="milliseconds between keys")
    parser.add_argument("--pending", type=int, default=100)
    parser.add_argument("--memories", type=int, default=3000)
    parser.add_argument("--decisions", type=int, default=50)
    parser.add_argument("--modes", default="posted,qtest",
                        help="posted: key events queued by the wall clock whatever the GUI is doing; "
                             "qtest: QTest key clicks with the event loop run for the interval after each")
    parser.add_argument("--detail-memories", type=int, default=100_000, help="0 skips the detail figure")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    from madohub_memory.gui.app import _quiet_offscreen_noise, create_app

    _quiet_offscreen_noise()
    app = create_app("en")
    sessions = [run_session(app, int(ms), args.pending, args.memories, args.decisions, mode)
                for mode in args.modes.split(",") if mode for ms in args.intervals.split(",") if ms]
    report: dict[str, object] = {
        "store": {"pending": args.pending, "memories": args.memories},
        "sessions": sessions,
        "wrong_state_total": sum(int(s["wrong_state"]) for s in sessions),  # type: ignore[call-overload]
    }
    if sessions:
        report["close_mid_queue"] = close_mid_queue(app, args.pending, args.memories)
    if args.detail_memories:
        report["detail"] = detail_figures(app, args.detail_memories)
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
    else:
        print(json.dumps(report, ensure_ascii=False, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
