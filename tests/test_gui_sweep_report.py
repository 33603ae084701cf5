"""The dashboard says what the sweep did (issue 25): per action in the jobs table, a note in
the status bar when approved memories were archived with a key that shows them, the sweep
named as the actor of its changes (translated), and R restores an archived memory (Ctrl+Z
archives it again). Real widgets, a real database, the sweep run as the background worker
runs it (another connection)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from test_gui_helpers import open_window

from madohub_memory.services import Services

pytestmark = pytest.mark.qt_log_ignore("propagateSizeHints")


def approved(svc: Services, content: str, kind: str) -> int:
    return svc.review.approve(svc.review.add_manual(content, kind).candidate_id)


def aged_store(svc: Services) -> tuple[list[int], list[int]]:
    """Six events past their 28-day lifetime and three facts idle for 30 days."""
    events = [approved(svc, f"Release 1.{n} shipped to the staging cluster", "event") for n in range(6)]
    facts = [approved(svc, f"Service {n} listens on port {8080 + n}", "fact") for n in range(3)]
    svc.clock.advance(days=30)
    return events, facts


def sweep_row(win) -> int:
    tab = win.advanced
    names = [tab.jobs.item(r, 0).data(Qt.ItemDataRole.UserRole) for r in range(tab.jobs.rowCount())]
    return names.index("sweep")


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", ["Sweep: archive, auto-approve, decay", "6 archived as expired", "3 lowered in weight"]),
    ("zh_CN", ["定期清理：归档、自动批准、衰减", "6 条因过期归档", "3 条降低权重"]),
])
def test_the_jobs_table_counts_each_action_of_the_sweep(qtbot, svc, db_path, tmp_path, clock, lang, expected):
    aged_store(svc)
    assert svc.jobs.run_now("sweep")["counts"]["memories_evicted"] == 6
    with open_window(qtbot, db_path, tmp_path, clock, lang=lang) as win:
        win.tabs.setCurrentIndex(2)
        qtbot.waitUntil(lambda: win.advanced.loaded, timeout=5000)
        row = sweep_row(win)
        label, result = win.advanced.jobs.item(row, 0).text(), win.advanced.jobs.item(row, 3).text()
        assert label == expected[0]
        assert expected[1] in result and expected[2] in result, result
        assert "processed" not in result and len(result.split(" · ")) == 2  # the actions that did nothing: unsaid


def test_the_status_bar_says_the_sweep_archived_memories_and_ctrl_shift_a_shows_them(qtbot, svc, db_path,
                                                                                  tmp_path, clock):
    events, _facts = aged_store(svc)
    with open_window(qtbot, db_path, tmp_path, clock, poll=True) as win:
        note = win.sweep_note
        assert not note.isVisible()  # nothing archived yet
        qtbot.waitUntil(lambda: win.worker._last_version is not None, timeout=5000)  # polling has begun
        svc.sweep.run()  # as the background worker does, on its own connection
        qtbot.waitUntil(lambda: note.isVisible(), timeout=10000)
        assert "The sweep archived 6 approved memories" in note.label.text()
        assert "Ctrl+Shift+A" in note.label.text()
        assert win.tabs.currentIndex() == 0
        qtbot.keyClick(win.pending.table, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier
                       | Qt.KeyboardModifier.ShiftModifier)
        assert win.tabs.currentIndex() == 1 and not note.isVisible()
        tab = win.approved
        assert tab.view_box.currentData() == "archived"
        qtbot.waitUntil(lambda: tab.model.filter.status == "archived" and not tab.model.loading
                        and tab.model.rowCount() == 6, timeout=5000)
        assert sorted(tab.model.id_at(r) for r in range(6)) == events
        assert tab.restore_btn.isVisible() and "R restore" in tab.hint.text()
        assert not tab.editor.isEnabled()  # read-only until restored
    # told once: the next window does not say it again, until the sweep archives more
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        qtbot.wait(300)
        assert not win.sweep_note.isVisible()


def test_r_restores_an_archived_memory_and_ctrl_z_archives_it_again(qtbot, svc, db_path, tmp_path, clock):
    aged_store(svc)
    svc.sweep.run()
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        qtbot.waitUntil(lambda: win.sweep_note.isVisible(), timeout=5000)
        win.show_archived()
        tab = win.approved
        qtbot.waitUntil(lambda: tab.model.rowCount() == 6 and tab.current_id() is not None, timeout=5000)
        chosen = tab.current_id()
        qtbot.keyClick(tab.table, Qt.Key.Key_P)  # read-only while archived: restore it to pin it
        qtbot.keyClick(tab.table, Qt.Key.Key_E)
        assert tab.table.hasFocus() and not svc.memories.get(chosen).pinned
        qtbot.keyClick(tab.table, Qt.Key.Key_R)
        assert tab.model.rowCount() == 5 and tab.current_id() != chosen  # at once, not after the write
        qtbot.waitUntil(lambda: svc.memories.get(chosen).status == "active", timeout=5000)
        qtbot.waitUntil(lambda: win.statusBar().currentMessage().startswith(f"Restored memory #{chosen}"),
                        timeout=5000)
        assert chosen in [m.id for m in svc.recall.search("Release shipped staging cluster", k=10)]
        qtbot.keyClick(tab.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
        qtbot.waitUntil(lambda: svc.memories.get(chosen).status == "archived", timeout=5000)
        qtbot.waitUntil(lambda: tab.current_id() == chosen, timeout=5000)
        assert win.statusBar().currentMessage() == f"Archived memory #{chosen} again."
        # restored for good: the next pass of the sweep does not archive it again
        qtbot.keyClick(tab.table, Qt.Key.Key_R)
        qtbot.waitUntil(lambda: svc.memories.get(chosen).status == "active", timeout=5000)
        svc.clock.advance(days=2)
        assert chosen not in svc.sweep.run(force=True)["decay"]["evicted"]
        assert svc.memories.get(chosen).status == "active"


@pytest.mark.parametrize(("lang", "who", "archived", "lowered"), [
    ("en", "the sweep", "archived as expired or over the limit", "lowered its weight to 0.18"),
    ("zh_CN", "定期清理", "因过期或超出上限而归档", "权重降为 0.18"),
])
def test_the_change_list_names_the_sweep_and_what_it_did(qtbot, svc, db_path, tmp_path, clock, lang, who,
                                                        archived, lowered):
    event = approved(svc, "The staging cluster was rebuilt", "event")
    svc.clock.advance(days=29)
    svc.decay.run(force=True)  # its weight follows its age: (1 + 29) ** -0.5 ≈ 0.18, then past 28 days
    fact = approved(svc, "Staging runs on port 8080", "fact")
    svc.memories.pin(fact)
    with open_window(qtbot, db_path, tmp_path, clock, lang=lang) as win:
        win.show_archived()
        tab = win.approved
        qtbot.waitUntil(lambda: tab.current_id() == event and win.worker.busy == 0 and tab.changes.count() > 0,
                        timeout=5000)
        lines = [tab.changes.item(i).text() for i in range(tab.changes.count())]
        assert f"{who} · {archived}" in lines[0], lines
        assert not any("decay" in line or "evict" in line or "auto-approve" in line or "自动批准" in line
                       for line in lines), lines


def test_a_lowered_weight_reads_as_such_in_the_change_list(qtbot, svc, db_path, tmp_path, clock):
    event = approved(svc, "The staging cluster was rebuilt", "event")
    svc.clock.advance(days=8)
    svc.decay.run(force=True)  # (1 + 8) ** -0.5 = 0.33, still within its lifetime
    with open_window(qtbot, db_path, tmp_path, clock, lang="zh_CN") as win:
        win.tabs.setCurrentIndex(1)
        tab = win.approved
        qtbot.waitUntil(lambda: tab.current_id() == event and win.worker.busy == 0 and tab.changes.count() > 0,
                        timeout=5000)
        assert tab.changes.item(0).text().endswith("定期清理 · 权重降为 0.33")
