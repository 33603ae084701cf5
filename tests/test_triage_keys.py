"""Every key acts on the candidate on screen, at any speed (issue: keyboard triage, items 1-3).

Keys are sent back to back, without waiting for the worker in between: what a key does must
not depend on whether the database has answered the previous one yet.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from test_gui_helpers import open_window

from madohub_memory.services.demo import load_demo

pytestmark = pytest.mark.qt_log_ignore("propagateSizeHints")


def status_of(svc, candidate_id: int) -> str:
    return svc.review.get(candidate_id).status


def manual(svc, n: int) -> list[int]:
    return [svc.review.add_manual(f"Rule number {i}: the build needs flag {i}", "fact").candidate_id
            for i in range(n)]


def test_e_right_after_a_edits_the_next_candidate_and_typing_goes_into_the_editor(qtbot, svc, db_path, tmp_path,
                                                                                 clock):
    ids = manual(svc, 6)
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        tab = win.pending
        table = tab.table
        table.setFocus()
        assert tab.current_id() == ids[0]
        # A, then at once E, text and Ctrl+Enter: no waiting for the worker in between
        qtbot.keyClick(table, Qt.Key.Key_A)
        qtbot.keyClick(table, Qt.Key.Key_E)
        editor = tab.detail.editor
        assert editor.hasFocus()
        assert editor.toPlainText() == "Rule number 1: the build needs flag 1"  # the shown row, at once
        qtbot.keyClicks(editor, " (checked)")
        qtbot.keyClick(editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
        assert tab.current_id() == ids[2]
        qtbot.waitUntil(lambda: status_of(svc, ids[1]) == "approved", timeout=5000)
        assert status_of(svc, ids[0]) == "approved"
        assert svc.memories.get(svc.review.get(ids[0]).memory_id).content == "Rule number 0: the build needs flag 0"
        assert svc.memories.get(svc.review.get(ids[1]).memory_id).content.endswith("flag 1 (checked)")
        assert [status_of(svc, c) for c in ids[2:]] == ["pending"] * 4


def test_a_key_right_after_ctrl_z_acts_on_the_restored_candidate(qtbot, svc, db_path, tmp_path, clock):
    ids = manual(svc, 6)
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        tab = win.pending
        table = tab.table
        table.setFocus()
        qtbot.keyClick(table, Qt.Key.Key_A)
        qtbot.keyClick(table, Qt.Key.Key_X)
        qtbot.keyClick(table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
        # the restored candidate is selected before the next key is handled
        assert tab.current_id() == ids[1]
        assert tab.detail.candidate_id == ids[1]
        qtbot.keyClick(table, Qt.Key.Key_A)  # means: approve #2 instead of rejecting it
        qtbot.keyClick(table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
        qtbot.keyClick(table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
        assert tab.current_id() == ids[0]
        qtbot.keyClick(table, Qt.Key.Key_X)  # and #1 rejected instead of approved
        qtbot.waitUntil(lambda: win.worker.busy == 0, timeout=5000)
        assert [status_of(svc, c) for c in ids] == ["rejected", "pending", "pending", "pending", "pending", "pending"]
        assert svc.memories.list() == []
        assert tab.current_id() == ids[1]
        qtbot.waitUntil(lambda: "Rejected #1" in win.statusBar().currentMessage(), timeout=5000)


def test_undo_names_what_it_restored(qtbot, svc, db_path, tmp_path, clock):
    ids = manual(svc, 3)
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        tab = win.pending
        tab.table.setFocus()
        qtbot.keyClick(tab.table, Qt.Key.Key_X)
        qtbot.keyClick(tab.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
        qtbot.waitUntil(lambda: win.statusBar().currentMessage() == f"Restored #{ids[0]} to pending.", timeout=5000)
        qtbot.keyClick(tab.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
        assert win.statusBar().currentMessage() == "Nothing to undo in this window."


def test_unbound_letters_do_nothing_and_type_ahead_is_off(qtbot, svc, db_path, tmp_path, clock):
    load_demo(svc)
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        tab = win.pending
        tab.table.setFocus()
        first = tab.current_id()
        rows = tab.model.rowCount()
        # "o" would jump to "Order search uses…" and "w" to "Write commit messages…" with type-ahead
        for key in (Qt.Key.Key_O, Qt.Key.Key_W, Qt.Key.Key_N, Qt.Key.Key_B, Qt.Key.Key_T, Qt.Key.Key_1):
            qtbot.keyClick(tab.table, key)
        assert tab.current_id() == first
        assert tab.selected_ids() == [first]
        qtbot.wait(200)
        assert tab.model.rowCount() == rows
        assert len(svc.review.pending()) == rows


def test_a_burst_of_keys_lands_on_the_candidates_shown(qtbot, svc, db_path, tmp_path, clock):
    """A person who knows the queue: 12 keys with no pause at all, moves and undos among them."""
    ids = manual(svc, 10)
    keys = [Qt.Key.Key_A, Qt.Key.Key_J, Qt.Key.Key_X, Qt.Key.Key_Space, Qt.Key.Key_A, Qt.Key.Key_K,
            Qt.Key.Key_X, "undo", Qt.Key.Key_A, Qt.Key.Key_A, "undo", "undo"]
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        tab = win.pending
        tab.table.setFocus()
        for key in keys:
            if key == "undo":
                qtbot.keyClick(tab.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
            else:
                qtbot.keyClick(tab.table, key)
        qtbot.waitUntil(lambda: win.worker.busy == 0, timeout=5000)
        # A #0; j to #2, X; Space to #4, A; k to #3, X, undone; A #3, A #5, both undone: #3 shown
        expected = {ids[0]: "approved", ids[2]: "rejected", ids[4]: "approved"}
        assert {c: status_of(svc, c) for c in ids if status_of(svc, c) != "pending"} == expected
        assert tab.current_id() == ids[3]
