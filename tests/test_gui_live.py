"""Live updates: a candidate added by another process appears within 2 seconds, and the
selection, the scroll position and an edit in progress survive the refresh."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest
from test_gui_helpers import open_window

from madohub_memory.services.demo import load_demo

pytestmark = pytest.mark.qt_log_ignore("propagateSizeHints")


def test_candidate_from_another_process_appears_without_losing_state(qtbot, svc, db_path, tmp_path, clock):
    load_demo(svc)
    for n in range(60):
        svc.review.remember(f"Filler observation {n} about the nightly build", "fact", "workspace:shop", 0.6)
    with open_window(qtbot, db_path, tmp_path, clock, poll=True) as win:
        tab = win.pending
        before = tab.model.rowCount()
        tab.select_row(30)
        selected = tab.current_id()
        qtbot.waitUntil(lambda: tab.detail.candidate_id == selected, timeout=5000)
        tab.table.verticalScrollBar().setValue(10)
        scroll = tab.table.verticalScrollBar().value()
        tab.detail.editor.setPlainText("An edit in progress that must survive")

        proc = subprocess.Popen(
            [sys.executable, "-m", "madohub_memory", "add", "Deploys happen on Tuesdays only",
             "--kind", "fact", "--namespace", "workspace:shop", "--db", str(db_path)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        # the GUI keeps running while the other process starts up and commits
        qtbot.waitUntil(lambda: proc.poll() is not None, timeout=60000)
        committed = time.monotonic()
        assert proc.returncode == 0, proc.stderr.read() if proc.stderr else ""
        proc.stdout.close()
        proc.stderr.close()
        qtbot.waitUntil(lambda: tab.model.rowCount() == before + 1, timeout=2000)
        assert time.monotonic() - committed < 2.0
        assert win.tabs.tabText(0) == f"Pending ({before + 1})"
        assert tab.current_id() == selected
        assert tab.selected_ids() == [selected]
        assert tab.table.verticalScrollBar().value() == scroll
        qtbot.wait(300)  # the detail reload after the refresh has landed
        assert tab.detail.editor.toPlainText() == "An edit in progress that must survive"
        newest = max(c.id for c in svc.review.pending())
        assert tab.model.row_of(newest) == tab.model.rowCount() - 1
