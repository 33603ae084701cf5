"""What a reviewer notices (keyboard triage, item 9): auto-approve that acts and says so, one
window per database, a replaced database file, the Warnings icon, wording, empty states,
batch counts, the shortcuts of every tab, code in the turn viewer."""

from __future__ import annotations

import os
import shutil

import pytest
from PySide6.QtCore import Qt
from test_gui_helpers import open_window

from madohub_memory.core.errors import UserError
from madohub_memory.services import Services
from madohub_memory.services.demo import load_demo

pytestmark = pytest.mark.qt_log_ignore("propagateSizeHints")


def test_switching_auto_approve_on_acts_at_once_says_how_many_and_marks_them(qtbot, svc, db_path, tmp_path, clock):
    svc.settings.set("auto_approve.min_seen", "2")
    for session in ("s1", "s2"):  # sightings count once per session
        svc.review.remember("User prefers dark mode in every editor", "preference", confidence=0.9,
                            session=session)
    kept = svc.review.remember("Maybe try emacs some day", "preference", confidence=0.3).candidate_id
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        messages: list[str] = []
        win.statusBar().messageChanged.connect(messages.append)
        win.tabs.setCurrentIndex(2)
        qtbot.waitUntil(lambda: win.advanced.loaded, timeout=5000)
        win.advanced.auto_enabled.setChecked(True)
        qtbot.waitUntil(lambda: any("approved 1 waiting candidate" in m for m in messages), timeout=5000)
        assert not any("auto_approve" in m for m in messages)  # no raw setting keys
        assert svc.review.get(kept).status == "pending"
        qtbot.waitUntil(lambda: win.pending.model.rowCount() == 1, timeout=5000)
        # a candidate that qualifies when it arrives is approved then, not at the next sweep
        cid = svc.review.remember("The CI runs on GitHub Actions", "fact", confidence=0.95,
                                  session="s1").candidate_id
        svc.review.remember("the CI runs on GitHub Actions", "fact", confidence=0.95, session="s2")
        assert svc.review.get(cid).status == "approved"
        win.tabs.setCurrentIndex(1)
        qtbot.waitUntil(lambda: win.approved.model.rowCount() == 2, timeout=5000)
        qtbot.waitUntil(lambda: len(win.approved.memories) == 2, timeout=5000)
        assert all(row["auto"] for row in win.approved.memories.values())
        win.approved.select_row(0)
        assert "auto-approve" in win.approved.info.text()


def test_a_second_start_raises_the_first_window(qapp, tmp_path):
    from madohub_memory.gui.single_instance import SingleInstance

    first = SingleInstance(tmp_path / "memory.db")
    assert first.listen()
    raised: list[bool] = []
    first.activated.connect(lambda: raised.append(True))
    second = SingleInstance(tmp_path / "memory.db")
    assert second.ask_running_window()
    deadline = 0
    while not raised and deadline < 200:
        qapp.processEvents()
        deadline += 1
        import time

        time.sleep(0.01)
    assert raised == [True]
    assert not SingleInstance(tmp_path / "other.db").ask_running_window(timeout_ms=100)


def test_a_replaced_database_file_refuses_writes_with_a_sentence(db_path, clock, tmp_path):
    with Services.open(db_path, clock) as svc:
        cid = svc.review.add_manual("Keep the changelog in docs/CHANGES.md", "fact").candidate_id
        other = tmp_path / "other.db"
        with Services.open(other, clock) as fresh:
            fresh.review.add_manual("A different file", "fact")
        shutil.copyfile(other, tmp_path / "copy.db")
        os.replace(tmp_path / "copy.db", db_path)  # another program put a file in its place
        with pytest.raises(UserError, match="deleted or replaced"):
            svc.review.approve(cid)
        assert svc.store.file_replaced()
        assert svc.review.get(cid).status == "pending"
    with Services.open(db_path, clock) as svc:  # a fresh start opens the file that is there now
        assert not svc.store.file_replaced()
        svc.review.add_manual("Written to the new file", "fact")


def test_the_warnings_flag_is_an_icon_in_the_first_column(qtbot, svc, db_path, tmp_path, clock):
    from madohub_memory.gui.pending_model import COLUMNS

    flagged = svc.review.remember("The staging key is sk-abcdefghijklmnopqrstuvwx1234", "fact").candidate_id
    svc.review.add_manual("Deploys happen on Tuesdays", "fact")
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        model = win.pending.model
        assert COLUMNS[0] == "flags"
        row = model.row_of(flagged)
        icon = model.index(row, 0).data(Qt.ItemDataRole.DecorationRole)
        assert icon is not None and not icon.isNull()
        assert "secret" in model.index(row, 0).data(Qt.ItemDataRole.ToolTipRole)
        assert model.index(1 - row, 0).data(Qt.ItemDataRole.DecorationRole) is None
        assert win.pending.table.columnViewportPosition(0) == 0  # never scrolled out of sight


def test_wording_reads_as_sentences(qtbot, db_path, tmp_path):
    from datetime import UTC, datetime, timedelta

    from madohub_memory.core.clock import to_iso

    with Services.open(db_path) as real_time:  # ages are measured against the wall clock
        real_time.review.add_manual("Order search uses a trigram index", "fact")
    with open_window(qtbot, db_path, tmp_path) as win:
        facts = win.pending.detail.facts.text()
        assert facts.endswith("just now") and "just now ago" not in facts
    from madohub_memory.gui.i18n import age_label, ago_label

    fourteen = to_iso(datetime.now(UTC) - timedelta(minutes=14, seconds=5))
    assert age_label(fourteen) == "14 min" and ago_label(fourteen) == "14 min ago"
    assert ago_label(None) == "never"


def test_empty_filter_says_so_and_a_batch_shows_its_size(qtbot, svc, db_path, tmp_path, clock):
    load_demo(svc)
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        tab = win.pending
        tab.search.setText("no candidate says this")
        qtbot.waitUntil(lambda: tab.model.rowCount() == 0 and not tab.model.loading, timeout=5000)
        assert tab.empty.isVisible()
        assert tab.empty.text() == "No candidates match the filter — 0 of 15 shown."
        tab.search.clear()
        qtbot.waitUntil(lambda: tab.model.rowCount() == 15, timeout=5000)
        assert not tab.empty.isVisible()
        tab.select_row(0)
        tab.table.setFocus()
        qtbot.keyClick(tab.table, Qt.Key.Key_Down, Qt.KeyboardModifier.ShiftModifier)
        qtbot.keyClick(tab.table, Qt.Key.Key_Down, Qt.KeyboardModifier.ShiftModifier)
        assert tab.approve_btn.text().replace("&", "") == "Approve 3 selected"
        assert tab.reject_btn.text().replace("&", "") == "Reject 3 selected"


def test_ctrl_q_quits(qtbot, svc, db_path, tmp_path, clock):
    svc.review.add_manual("Order search uses a trigram index", "fact")
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        qtbot.keyClick(win.pending.table, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
        qtbot.waitUntil(lambda: not win.isVisible(), timeout=5000)


def test_the_turn_viewer_keeps_code_indentation():
    from madohub_memory.gui.turn_viewer import render_turns

    code = "Fix:\n```python\ndef handler(event):\n    if event:\n        return 1\n```\nDone."
    context = {"focus": 0, "turns": [{"role": "assistant", "seq": 3, "content": code}]}
    rendered = render_turns(context, set(), {"fold": "%1 more", "origin": "origin"})
    assert "<pre" in rendered
    assert "    if event:\n        return 1" in rendered
    assert "```" not in rendered


def test_an_old_imported_turn_shows_when_it_was_said_not_when_it_was_imported(qtbot, svc, db_path, tmp_path, clock):
    from madohub_memory.gui.i18n import age_label

    session = tmp_path / "old.jsonl"
    session.write_text(
        '{"role": "user", "content": "I always use pnpm, never npm, in every project.",'
        ' "timestamp": "2025-01-06T10:00:00Z"}\n'
        '{"role": "assistant", "content": "Noted: pnpm from now on."}\n', encoding="utf-8")
    svc.ingest.ingest_paths([session])
    assert svc.review.pending(), "the rule becomes a candidate"
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        pane = win.pending.detail
        qtbot.waitUntil(lambda: pane.enriched and pane.turns.count() >= 1, timeout=5000)
        item = pane.turns.item(0)
        assert item.text().startswith(age_label("2025-01-06T10:00:00Z") + " · ")  # said, not imported
        assert "2025-01-06T10:00:00Z" in item.toolTip() and clock.now_iso()[:10] in item.toolTip()
