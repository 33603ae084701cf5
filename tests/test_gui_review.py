"""A whole review session in the Pending tab, driven only by key presses."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTextBrowser
from test_gui_helpers import open_window

from madohub_memory.gui.pending_model import COLUMNS
from madohub_memory.services.demo import load_demo

pytestmark = pytest.mark.qt_log_ignore("propagateSizeHints")


def status_of(svc, candidate_id: int) -> str:
    return svc.review.get(candidate_id).status


def test_keyboard_review_session(qtbot, svc, db_path, tmp_path, clock):
    load_demo(svc)
    pending_before = len(svc.review.pending())
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        tab = win.pending
        table = tab.table
        table.setFocus()
        assert tab.model.rowCount() == pending_before
        assert win.tabs.tabText(0) == f"Pending ({pending_before})"

        # E: edit the text in the pane, Esc back to the list, A approves with the edit.
        first = tab.current_id()
        qtbot.keyClick(table, Qt.Key.Key_E)
        assert tab.detail.editor.hasFocus()
        qtbot.keyClicks(tab.detail.editor, " (checked)")
        qtbot.keyClick(tab.detail.editor, Qt.Key.Key_Escape)
        assert table.hasFocus()
        qtbot.keyClick(table, Qt.Key.Key_A)
        # the next candidate is selected at once and the editor shows it
        second = tab.current_id()
        assert second is not None and second != first
        qtbot.waitUntil(lambda: tab.detail.candidate_id == second, timeout=5000)
        qtbot.waitUntil(lambda: status_of(svc, first) == "approved", timeout=5000)
        memory = svc.memories.get(svc.review.get(first).memory_id)
        assert memory.content.endswith("(checked)")
        assert win.tabs.tabText(0) == f"Pending ({pending_before - 1})"

        # X rejects the next one.
        qtbot.keyClick(table, Qt.Key.Key_X)
        qtbot.waitUntil(lambda: status_of(svc, second) == "rejected", timeout=5000)
        third = tab.current_id()
        assert third not in (first, second)

        # j / k / Space move without deciding.
        qtbot.keyClick(table, Qt.Key.Key_J)
        assert tab.table.currentIndex().row() == 1
        qtbot.keyClick(table, Qt.Key.Key_K)
        assert tab.current_id() == third
        qtbot.keyClick(table, Qt.Key.Key_Space)
        assert tab.table.currentIndex().row() == 1
        qtbot.keyClick(table, Qt.Key.Key_K)

        # Enter jumps to the originating turn.
        qtbot.waitUntil(lambda: tab.detail.candidate_id == third, timeout=5000)
        expected_turn = svc.review.get(third).turn_ids[0]
        qtbot.keyClick(table, Qt.Key.Key_Return)
        qtbot.waitUntil(lambda: win.turn_viewer is not None, timeout=5000)
        viewer = win.turn_viewer
        qtbot.waitUntil(lambda: viewer.loaded, timeout=5000)
        assert viewer.turn_id == expected_turn
        assert viewer.context["turns"][viewer.context["focus"]]["id"] == expected_turn
        assert "origin" in viewer.browser.toPlainText()
        qtbot.keyClick(viewer, Qt.Key.Key_Escape)
        assert not viewer.isVisible()

        # Ctrl+Z undoes the reject, then the approve; the restored candidate is selected.
        table.setFocus()
        qtbot.keyClick(table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
        qtbot.waitUntil(lambda: status_of(svc, second) == "pending", timeout=5000)
        qtbot.waitUntil(lambda: tab.current_id() == second, timeout=5000)
        qtbot.keyClick(table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
        qtbot.waitUntil(lambda: status_of(svc, first) == "pending", timeout=5000)
        assert not any(m.content.endswith("(checked)") for m in svc.memories.list())
        qtbot.waitUntil(lambda: tab.model.rowCount() == pending_before, timeout=5000)

        # Batch: select three rows with Shift+Down, approve them together, undo the batch.
        tab.select_row(0)
        qtbot.keyClick(table, Qt.Key.Key_Down, Qt.KeyboardModifier.ShiftModifier)
        qtbot.keyClick(table, Qt.Key.Key_Down, Qt.KeyboardModifier.ShiftModifier)
        batch = tab.selected_ids()
        assert len(batch) == 3
        qtbot.keyClick(table, Qt.Key.Key_A)
        qtbot.waitUntil(lambda: all(status_of(svc, c) == "approved" for c in batch), timeout=5000)
        assert tab.model.rowCount() == pending_before - 3
        qtbot.keyClick(table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
        qtbot.waitUntil(lambda: all(status_of(svc, c) == "pending" for c in batch), timeout=5000)
        qtbot.waitUntil(lambda: tab.model.rowCount() == pending_before, timeout=5000)


def test_undo_reaches_back_ten_decisions(qtbot, svc, db_path, tmp_path, clock):
    ids = [svc.review.add_manual(f"Statement number {n} about the build", "fact").candidate_id
           for n in range(12)]
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        tab = win.pending
        tab.table.setFocus()
        for _ in range(6):
            qtbot.keyClick(tab.table, Qt.Key.Key_A)
            qtbot.keyClick(tab.table, Qt.Key.Key_X)
        qtbot.waitUntil(lambda: all(status_of(svc, c) != "pending" for c in ids), timeout=10000)
        assert tab.model.rowCount() == 0
        for _ in range(12):
            qtbot.keyClick(tab.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
        qtbot.waitUntil(lambda: all(status_of(svc, c) == "pending" for c in ids), timeout=10000)
        assert not svc.memories.list()
        qtbot.waitUntil(lambda: tab.model.rowCount() == 12, timeout=5000)


def test_filters_and_sorting_go_through_sql(qtbot, svc, db_path, tmp_path, clock):
    load_demo(svc)
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        tab = win.pending
        qtbot.keyClick(tab.table, Qt.Key.Key_Slash)
        assert tab.search.hasFocus()
        qtbot.keyClicks(tab.search, "Hugo")
        qtbot.waitUntil(lambda: tab.model.rowCount() == 2, timeout=5000)
        tab.search.clear()
        tab.kind_filter.setCurrentIndex(tab.kind_filter.findData("decision"))
        qtbot.waitUntil(lambda: tab.model.rowCount() == 1, timeout=5000)
        tab.kind_filter.setCurrentIndex(0)
        tab.source_filter.setCurrentIndex(tab.source_filter.findData("compaction"))
        qtbot.waitUntil(lambda: tab.model.rowCount() == 2, timeout=5000)
        tab.source_filter.setCurrentIndex(0)
        tab.min_conf.setValue(0.85)
        qtbot.waitUntil(lambda: tab.model.rowCount() == 4, timeout=5000)
        tab.min_conf.setValue(0.0)
        qtbot.waitUntil(lambda: tab.model.rowCount() == 15, timeout=5000)
        tab.table.sortByColumn(COLUMNS.index("confidence"), Qt.SortOrder.DescendingOrder)
        qtbot.waitUntil(lambda: not tab.model.loading, timeout=5000)
        assert tab.model.filter.sort == "confidence" and tab.model.filter.descending
        confidences = [svc.review.get(tab.model.id_at(r)).confidence for r in range(tab.model.rowCount())]
        assert confidences == sorted(confidences, reverse=True)


def test_question_mark_shows_the_shortcuts(qtbot, svc, db_path, tmp_path, clock):
    from madohub_memory.gui.welcome import ShortcutsDialog

    svc.review.add_manual("Use UTC in every log line", "preference")
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        qtbot.keyClick(win.pending.table, Qt.Key.Key_Question, Qt.KeyboardModifier.ShiftModifier)
        dialogs = [d for d in win.findChildren(ShortcutsDialog) if d.isVisible()]
        assert len(dialogs) == 1
        sheet = dialogs[0].findChild(QTextBrowser).toPlainText()
        # every tab's keys, and the ones that work everywhere
        for section in ("Pending", "Approved", "Advanced", "Everywhere"):
            assert section in sheet
        for key in ("Ctrl+Q", "Ctrl+Z", "F2", "Ctrl+S", "Ctrl+Space", "Shift+J / Enter"):
            assert key in sheet
        qtbot.keyClick(dialogs[0], Qt.Key.Key_Escape)
        assert not dialogs[0].isVisible()


def test_refused_approval_keeps_the_text_and_points_at_the_field(qtbot, svc, db_path, tmp_path, clock):
    """A namespace the service would refuse: nothing is decided, the sentence is shown next to
    the field (no traceback, no modal box that would swallow the next keys), the cursor is in
    the field, and everything typed is still there."""
    cid = svc.review.add_manual("The deploy script lives in ops/deploy.sh", "fact").candidate_id
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        tab = win.pending
        qtbot.waitUntil(lambda: tab.detail.candidate_id == cid, timeout=5000)
        tab.detail.editor.setPlainText("The deploy script lives in ops/deploy.sh (bash)")
        tab.detail.namespace.setEditText("project shop")
        tab.table.setFocus()
        qtbot.keyClick(tab.table, Qt.Key.Key_A)
        assert tab.detail.error.isVisible()
        assert "namespace" in tab.detail.error.text() and "Traceback" not in tab.detail.error.text()
        assert tab.detail.namespace.lineEdit().hasFocus()
        assert win._error_box is None
        assert tab.current_id() == cid and tab.model.row_of(cid) == 0
        assert tab.detail.editor.toPlainText().endswith("(bash)")
        qtbot.wait(200)
        assert status_of(svc, cid) == "pending"
        # fix the field in place and approve from it: the edited text is what is stored
        tab.detail.namespace.lineEdit().selectAll()
        qtbot.keyClicks(tab.detail.namespace.lineEdit(), "workspace:shop")
        qtbot.keyClick(tab.detail.namespace.lineEdit(), Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
        qtbot.waitUntil(lambda: status_of(svc, cid) == "approved", timeout=5000)
        memory = svc.memories.get(svc.review.get(cid).memory_id)
        assert memory.namespace == "workspace:shop" and memory.content.endswith("(bash)")
