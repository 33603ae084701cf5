"""The dashboard during an import (issue 27): approve, reject and edit are stored within 2 s
while an import runs in another process or in the dashboard's own child, and the status bar
says an import is running and how far it is. Real window, real keys (QTest), real processes."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from test_gui_helpers import open_window

from madohub_memory.services import Services
from madohub_memory.services.progress import WorkProgress, running

pytestmark = pytest.mark.qt_log_ignore("propagateSizeHints")
ROOT = Path(__file__).resolve().parents[1]
STORED_WITHIN_S = 2.0


def templated(path: Path, lines: int) -> Path:
    """A JSONL of similar turns: every user line gives one candidate (as in bench/reliability.py)."""
    subjects = ["the build", "the deploy script", "the API client", "the staging database", "the cache layer"]
    out = []
    for i in range(lines // 2):
        subject = subjects[i % len(subjects)]
        text = (f"We decided to keep {subject} on version {i} because the upgrade broke the exports." if i % 2
                else f"The root cause of outage {i} was {subject} running out of disk; add an alert.")
        out.append(json.dumps({"role": "user", "content": text}))
        out.append(json.dumps({"role": "assistant", "content": "Understood, noted."}))
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return path


def _status(db_path: Path, candidate_id: int) -> tuple[str, str]:
    """(status, the content it was approved with, else its own) as stored, read from outside."""
    conn = sqlite3.connect(db_path, timeout=30)
    try:
        row = conn.execute("SELECT c.status, COALESCE(m.content, c.content) FROM candidates c"
                           " LEFT JOIN memories m ON m.id = c.memory_id WHERE c.id = ?", (candidate_id,)).fetchone()
        return str(row[0]), str(row[1])
    finally:
        conn.close()


def _decide(qtbot, win, db_path: Path, key: str) -> float:
    """Press ``key`` on the candidate on screen; seconds until the database holds the decision."""
    tab = win.pending
    qtbot.waitUntil(lambda: tab.current_id() is not None, timeout=10_000)
    candidate = tab.current_id()
    before = _status(db_path, candidate)
    pressed = time.monotonic()
    if key == "E":
        qtbot.keyClick(tab.table, Qt.Key.Key_E)
        editor = tab.detail.editor
        qtbot.waitUntil(lambda: editor.hasFocus(), timeout=5000)
        qtbot.keyClicks(editor, " (checked)")
        qtbot.keyClick(editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    else:
        qtbot.keyClick(tab.table, Qt.Key.Key_A if key == "A" else Qt.Key.Key_X)
    wanted = {"A": "approved", "X": "rejected", "E": "approved"}[key]
    qtbot.waitUntil(lambda: _status(db_path, candidate)[0] == wanted, timeout=30_000)
    took = time.monotonic() - pressed
    if key == "E":
        assert _status(db_path, candidate)[1] == before[1] + " (checked)"
    return took


def test_decisions_are_stored_in_time_and_the_status_bar_follows_an_import_in_another_process(
        qtbot, svc, db_path, tmp_path, clock):
    for i in range(8):
        svc.review.add_manual(f"Rule number {i}: the build needs flag {i}", "fact")
    transcript = templated(tmp_path / "chat.jsonl", 6000)
    with open_window(qtbot, db_path, tmp_path, clock, poll=True) as win:
        importer = subprocess.Popen(
            [sys.executable, "-m", "madohub_memory", "ingest", str(transcript), "--db", str(db_path), "--json"],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            note = win.import_note
            qtbot.waitUntil(lambda: note.isVisible() and "of 6,000 turns" in note.label.text(), timeout=120_000)
            assert note.label.text().startswith("Importing chat.jsonl: ")
            waits = [_decide(qtbot, win, db_path, key) for key in "AXEAXA"]
            assert importer.poll() is None, "the import ended before the decisions: make the file longer"
            assert max(waits) < STORED_WITHIN_S, waits
            seen = note.bar.value()
            qtbot.waitUntil(lambda: note.bar.value() > seen or importer.poll() is not None, timeout=60_000)
        finally:
            out, err = importer.communicate(timeout=600)
        assert importer.returncode == 0, err
        assert json.loads(out)["candidates"]["new"] == 3000
        qtbot.waitUntil(lambda: not note.isVisible(), timeout=10_000)  # gone with the import


def test_decisions_are_stored_in_time_while_the_dashboards_own_child_imports(qtbot, db_path, tmp_path, clock):
    Services.open(db_path).close()
    transcript = templated(tmp_path / "session.jsonl", 6000)
    with open_window(qtbot, db_path, tmp_path, clock, poll=True) as win:
        messages: list[str] = []
        win.statusBar().messageChanged.connect(messages.append)
        win.welcome.import_paths([str(transcript)])
        assert win.import_child.running
        note = win.import_note
        qtbot.waitUntil(lambda: note.isVisible() and "Importing session.jsonl" in note.label.text(), timeout=60_000)
        qtbot.waitUntil(lambda: win.pending_stack.currentWidget() is win.pending and win.pending.model.rowCount() > 5,
                        timeout=120_000)
        waits = [_decide(qtbot, win, db_path, key) for key in "AXEA"]
        assert win.import_child.running, "the import ended before the decisions: make the file longer"
        assert max(waits) < STORED_WITHIN_S, waits
        win.import_child.start([str(transcript)])  # one import at a time
        assert any("already running" in m for m in messages)
        qtbot.waitUntil(lambda: not win.import_child.running, timeout=300_000)
        qtbot.waitUntil(lambda: any("Imported 6000 new turns" in m for m in messages), timeout=10_000)
        qtbot.waitUntil(lambda: not note.isVisible(), timeout=10_000)


def test_a_killed_imports_progress_is_not_shown_and_is_cleared(svc: Services) -> None:
    """A row left by a process that was killed is ignored at once and removed by the next writer."""
    dead = subprocess.run([sys.executable, "-c", "from madohub_memory.store.liveness import new_owner;"
                           " print(new_owner())"], capture_output=True, text=True, cwd=ROOT, check=True).stdout.strip()
    gone = WorkProgress(svc, "import", dead)
    gone._written -= 5  # as if it had run for seconds
    gone.update(done=5, total=10, file="gone.jsonl")
    assert svc.store.scalar("SELECT COUNT(*) FROM work_progress") == 1 and running(svc) == []
    mine = WorkProgress(svc, "extract", "host|1|x|mine")
    mine._written -= 5
    mine.update(done=1, total=2)
    owners = [r[0] for r in svc.store.query("SELECT owner FROM work_progress")]
    assert owners == ["host|1|x|mine"]
    mine.finish()
    assert svc.store.query("SELECT owner FROM work_progress") == []


def test_the_note_words_each_kind_of_work(qtbot, db_path, tmp_path, clock):
    Services.open(db_path).close()
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        describe = win.import_note.describe
        assert describe({"work": "import", "done": 1200, "total": 6000,
                         "detail": {"file": "a.json", "index": 2, "files": 3}}) == \
            "Importing a.json (file 2 of 3): 1,200 of 6,000 turns"
        assert describe({"work": "import", "done": 0, "total": 0, "detail": {"file": "b.jsonl"}}) == \
            "Importing b.jsonl: reading…"
        assert describe({"work": "extract", "done": 5, "total": 9, "detail": {}}) == \
            "Extracting candidates: 5 of 9 turns"
        assert describe({"work": "embed", "done": 10, "total": 300, "detail": {}}) == "Working (embed): 10 / 300"
