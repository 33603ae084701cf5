"""The dashboard's navigation, banner and wording slips of issue 25, each read off the widgets
after real key presses: Home/End (and Ctrl+Home/Ctrl+End) select the first/last candidate,
the draft banner is whole at the default window size, a refused undo says so once, the
nearest-memory diff keeps its spaces, the Memory column gets the width, and the Language
box shows the language ``--lang`` put in force."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextDocumentFragment
from test_gui_helpers import open_window

from madohub_memory.services.demo import load_demo

pytestmark = pytest.mark.qt_log_ignore("propagateSizeHints")
CTRL = Qt.KeyboardModifier.ControlModifier


def manual(svc, n: int) -> list[int]:
    return [svc.review.add_manual(f"Rule number {i}: the build needs flag {i}", "fact").candidate_id
            for i in range(n)]


def shown_at(table, row: int) -> bool:
    """The row is selected (highlighted) and scrolled into view."""
    rect = table.visualRect(table.model().index(row, 0))
    return table.selectionModel().isRowSelected(row) and table.viewport().rect().contains(rect.center())


def test_home_end_and_ctrl_end_select_the_first_and_last_candidate(qtbot, svc, db_path, tmp_path, clock):
    ids = manual(svc, 60)
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        tab, table = win.pending, win.pending.table
        table.setFocus()
        qtbot.keyClick(table, Qt.Key.Key_End)
        assert tab.current_id() == ids[-1] and tab.selected_ids() == [ids[-1]] and shown_at(table, 59)
        assert tab.detail.candidate_id == ids[-1]
        qtbot.keyClick(table, Qt.Key.Key_Home)
        assert tab.current_id() == ids[0] and tab.selected_ids() == [ids[0]] and shown_at(table, 0)
        qtbot.keyClick(table, Qt.Key.Key_End, CTRL)
        assert tab.current_id() == ids[-1] and tab.selected_ids() == [ids[-1]] and shown_at(table, 59)
        qtbot.keyClick(table, Qt.Key.Key_Home, CTRL)
        assert tab.current_id() == ids[0] and tab.selected_ids() == [ids[0]]
        qtbot.keyClick(table, Qt.Key.Key_PageDown)
        below = tab.current_id()
        assert below is not None and below > ids[0] and tab.selected_ids() == [below]
        # a key right after End acts on the last candidate, the one shown
        qtbot.keyClick(table, Qt.Key.Key_End)
        qtbot.keyClick(table, Qt.Key.Key_X)
        qtbot.waitUntil(lambda: svc.review.get(ids[-1]).status == "rejected", timeout=5000)
        assert [c for c in ids if svc.review.get(c).status != "pending"] == [ids[-1]]
        # the Approved list: Home and End too
        for cid in ids[:40]:
            svc.review.approve(cid)
        win.tabs.setCurrentIndex(1)
        approved = win.approved
        qtbot.waitUntil(lambda: approved.model.rowCount() == 40 and approved.current_id() is not None, timeout=5000)
        approved.table.setFocus()
        qtbot.keyClick(approved.table, Qt.Key.Key_End)
        assert approved.current_id() == approved.model.id_at(39) and shown_at(approved.table, 39)
        qtbot.keyClick(approved.table, Qt.Key.Key_Home)
        assert approved.current_id() == approved.model.id_at(0)


def label_whole(label) -> bool:
    """Every word of the label is on screen: not clipped by its parents, and the text fits."""
    if not label.isVisible() or label.visibleRegion().boundingRect() != label.rect():
        return False
    if label.wordWrap():
        return label.height() >= label.heightForWidth(label.width())
    return label.width() >= label.sizeHint().width()


@pytest.fixture
def styled(qapp):
    """The application's style sheet, as ``madohub-memory gui`` runs (the banner is bold)."""
    from madohub_memory.gui.i18n import stylesheet

    before = qapp.styleSheet()
    qapp.setStyleSheet(stylesheet())
    yield
    qapp.setStyleSheet(before)


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_draft_banner_of_an_undone_edit_is_whole_at_the_default_size(qtbot, svc, db_path, tmp_path, clock,
                                                                         styled, lang):
    ids = manual(svc, 3)
    with open_window(qtbot, db_path, tmp_path, clock, lang=lang) as win:
        assert (win.width(), win.height()) == (1280, 800)
        tab, table = win.pending, win.pending.table
        table.setFocus()
        qtbot.keyClick(table, Qt.Key.Key_E)
        qtbot.keyClicks(tab.detail.editor, " (checked)")
        qtbot.keyClick(tab.detail.editor, Qt.Key.Key_Escape)
        qtbot.keyClick(table, Qt.Key.Key_A)
        qtbot.keyClick(table, Qt.Key.Key_Z, CTRL)  # the edit comes back as a draft: A approves it
        assert tab.current_id() == ids[0]
        qtbot.waitUntil(lambda: tab.detail.draft_box.isVisible() and win.worker.busy == 0, timeout=5000)
        assert tab.detail.editor.toPlainText().endswith("(checked)")
        assert label_whole(tab.detail.draft_note), tab.detail.draft_note.text()
        assert tab.detail.discard_btn.visibleRegion().boundingRect() == tab.detail.discard_btn.rect()


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", "Could not undo: Memory {mid} has changed since."),
    ("zh_CN", "无法撤销：记忆 {mid} 之后又被改动过。"),
])
def test_a_refused_undo_says_it_could_not_undo_once(qtbot, svc, db_path, tmp_path, clock, lang, expected):
    ids = manual(svc, 2)
    with open_window(qtbot, db_path, tmp_path, clock, lang=lang) as win:
        table = win.pending.table
        table.setFocus()
        qtbot.keyClick(table, Qt.Key.Key_A)
        qtbot.waitUntil(lambda: svc.review.get(ids[0]).status == "approved", timeout=5000)
        mid = svc.review.get(ids[0]).memory_id
        svc.memories.edit(mid, content="Rule number 0: the build needs flag 0 and flag 9")  # the CLI, meanwhile
        qtbot.keyClick(table, Qt.Key.Key_Z, CTRL)
        want = expected.replace("{mid}", str(mid))
        qtbot.waitUntil(lambda: win.statusBar().currentMessage() == want, timeout=5000)
        assert svc.review.get(ids[0]).status == "approved"


@pytest.mark.parametrize(("old", "new", "shown"), [
    ("Use uv for developing the app", "Use pip for developing the app", "Use uv pip for developing the app"),
    ("Run tests for developing", "Run tests before developing", "Run tests for before developing"),
    ("alpha beta gamma", "delta epsilon zeta", "alpha beta gamma delta epsilon zeta"),
    ("项目使用中文注释", "项目使用英文注释", "项目使用中\u2009英文注释"),
    ("用 uv 管理依赖", "用 pip 管理依赖", "用 uv pip 管理依赖"),
])
def test_the_nearest_memory_diff_keeps_a_space_between_removed_and_added_words(qtbot, old, new, shown):
    from madohub_memory.gui.detail_pane import DetailPane
    from madohub_memory.services.queue import word_diff

    pane = DetailPane()
    qtbot.addWidget(pane)
    row = {"id": 5, "content": new, "kind": "fact", "namespace": "workspace:shop", "flags": "", "source": "turn",
           "confidence": 0.8, "seen_count": 1, "created_at": "2026-11-01T09:00:00Z"}
    pane.bind(5, row, None)
    pane.show_nearest(5, {"id": 2, "kind": "fact", "namespace": "workspace:shop", "score": 0.8,
                          "content": old, "diff": word_diff(old, new)})
    text = QTextDocumentFragment.fromHtml(pane.nearest.text()).toPlainText()
    assert text.splitlines()[-1] == shown


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_memory_column_gets_the_width_of_the_approved_list(qtbot, svc, db_path, tmp_path, clock, lang):
    load_demo(svc)
    with open_window(qtbot, db_path, tmp_path, clock, lang=lang) as win:
        win.tabs.setCurrentIndex(1)
        tab = win.approved
        qtbot.waitUntil(lambda: tab.loaded and tab.model.cached(tab.model.id_at(0) or 0) is not None, timeout=5000)
        content = tab.table.horizontalHeader().sectionSize(0)
        assert content >= 0.4 * tab.table.viewport().width(), content  # it was a quarter
        shortest = min((tab.model.cached(tab.model.id_at(r))["content"] for r in range(tab.model.rowCount())), key=len)
        assert tab.table.fontMetrics().horizontalAdvance(shortest) + 12 <= content  # short memories read whole
        for key in ("pinned", "auto"):  # their titles stay as tooltips of the icon headers
            col = tab.model.COLUMNS.index(key)
            assert tab.model.headerData(col, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)


@pytest.mark.parametrize(("lang", "saved_name"), [("en", "Follow the system"), ("zh_CN", "跟随系统")])
def test_the_language_box_shows_the_language_put_in_force_by_lang(qtbot, svc, db_path, tmp_path, clock, lang,
                                                                 saved_name):
    assert svc.settings.get("ui.language") == "system"
    with open_window(qtbot, db_path, tmp_path, clock, lang=lang, command_line_language=lang) as win:
        win.tabs.setCurrentIndex(2)
        tab = win.advanced
        qtbot.waitUntil(lambda: tab.loaded, timeout=5000)
        assert tab.language.currentData() == lang
        assert tab.language_note.isVisible()
        assert f"--lang {lang}" in tab.language_note.text() and saved_name in tab.language_note.text()
    with open_window(qtbot, db_path, tmp_path, clock) as win:  # without --lang: the saved choice, no note
        win.tabs.setCurrentIndex(2)
        qtbot.waitUntil(lambda: win.advanced.loaded, timeout=5000)
        assert win.advanced.language.currentData() == "system" and not win.advanced.language_note.isVisible()
