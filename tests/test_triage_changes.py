"""Undo per actor instance, and typed change notification (keyboard triage, items 3 and 8)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from test_gui_helpers import open_window

from madohub_memory.cli import main
from madohub_memory.core.errors import NotFoundError
from madohub_memory.services import Services
from madohub_memory.services.demo import load_demo

pytestmark = pytest.mark.qt_log_ignore("propagateSizeHints")


def test_undo_takes_back_only_what_this_origin_did(db_path, clock, capsys):
    with Services.open(db_path, clock, origin="gui:window-1") as gui:
        first = gui.review.add_manual("Use pnpm, not npm", "preference").candidate_id
        second = gui.review.add_manual("Tabs over spaces in Makefiles", "preference").candidate_id
        gui.review.approve(first)
        # the CLI decides something else afterwards, then undoes: only its own decision comes back
        assert main(["reject", str(second), "--db", str(db_path)]) == 0
        assert main(["undo", "--db", str(db_path), "--json"]) == 0
        assert '"action": "reject"' in capsys.readouterr().out
        assert gui.review.get(second).status == "pending"
        assert gui.review.get(first).status == "approved"
        assert main(["undo", "--db", str(db_path)]) != 0  # the CLI has nothing of its own left
        assert "Nothing to undo" in capsys.readouterr().err
        # an agent and another window are other actors too
        with Services.open(db_path, clock, origin="gui:window-2") as other, pytest.raises(NotFoundError):
            other.review.undo()
        gui.review.undo()
        assert gui.review.get(first).status == "pending"


def test_a_settings_change_is_never_undone_by_undo(svc):
    cid = svc.review.add_manual("Deploys happen on Tuesdays", "fact").candidate_id
    svc.review.reject(cid)
    svc.settings.set("archive_days", "45")
    svc.review.undo()  # takes back the reject, not the setting made after it
    assert svc.review.get(cid).status == "pending"
    assert svc.settings.get("archive_days") == 45
    svc.review.undo()  # then the candidate typed by hand
    assert svc.review.pending() == []
    with pytest.raises(NotFoundError):
        svc.review.undo()
    assert svc.settings.get("archive_days") == 45


def test_an_operation_says_what_it_changed(svc):
    from madohub_memory.services.changes import OpChanges

    log = svc.changelog
    log.take_changes()
    cid = svc.review.add_manual("The API uses snake_case keys", "fact").candidate_id
    assert log.take_changes() == OpChanges(candidates=True)
    svc.review.approve(cid)
    assert log.take_changes() == OpChanges(candidates=True, memories=True)
    svc.settings.set("archive_days", "40")
    assert log.take_changes() == OpChanges(settings=True)
    assert log.take_changes() == OpChanges()
    assert not OpChanges() and OpChanges.everything().names() == ["candidates", "memories", "settings", "jobs",
                                                                  "decisions"]


def _count_refreshes(model) -> list[int]:
    calls: list[int] = []
    original = model.refresh

    def counting(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)

    model.refresh = counting
    return calls


def test_views_refresh_only_for_what_concerns_them(qtbot, svc, db_path, tmp_path, clock):
    load_demo(svc)
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        pending = win.pending
        win.tabs.setCurrentIndex(1)
        qtbot.waitUntil(lambda: win.approved.loaded, timeout=5000)
        win.tabs.setCurrentIndex(0)
        pending_refreshes = _count_refreshes(pending.model)
        # a setting changes nothing in the queue: the queue does not reload
        win.tabs.setCurrentIndex(2)
        qtbot.waitUntil(lambda: win.advanced.loaded, timeout=5000)
        win.advanced.min_seen.setValue(4)
        win.advanced.min_seen.editingFinished.emit()
        qtbot.waitUntil(lambda: svc.settings.get("auto_approve.min_seen") == 4, timeout=5000)
        qtbot.wait(300)
        assert pending_refreshes == []
        # the queue's own decision: the queue has already taken the row out and does not reload;
        # the Approved list (a memory was created) does
        win.tabs.setCurrentIndex(1)
        approved_refreshes = _count_refreshes(win.approved.model)
        win.tabs.setCurrentIndex(0)
        pending.table.setFocus()
        cid = pending.current_id()
        qtbot.keyClick(pending.table, Qt.Key.Key_A)
        qtbot.waitUntil(lambda: svc.review.get(cid).status == "approved", timeout=5000)
        qtbot.wait(300)
        assert pending_refreshes == []
        win.tabs.setCurrentIndex(1)
        qtbot.waitUntil(lambda: len(approved_refreshes) >= 1, timeout=5000)
        qtbot.waitUntil(lambda: win.approved.model.rowCount() == 10, timeout=5000)


def test_the_approved_tab_is_a_lazy_id_list_sortable_by_recall(qtbot, svc, db_path, tmp_path, clock):
    from madohub_memory.core.text import fingerprint
    from madohub_memory.gui.lazy_model import LazyIdModel
    from madohub_memory.gui.memory_model import COLUMNS
    from madohub_memory.store.memory_list import insert_bulk_memories

    now = clock.now_iso()
    insert_bulk_memories(svc.store, [
        {"content": f"Service {n} listens on port {8000 + n}", "kind": "fact", "namespace": f"workspace:s{n % 7}",
         "fingerprint": fingerprint(f"Service {n} listens on port {8000 + n}"), "hit_count": n % 50,
         "last_hit_at": now if n % 2 else None, "created_at": now, "updated_at": now}
        for n in range(5000)
    ])
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        win.tabs.setCurrentIndex(1)
        tab = win.approved
        qtbot.waitUntil(lambda: tab.loaded, timeout=5000)
        assert isinstance(tab.model, LazyIdModel)
        assert tab.model.rowCount() == 5000
        assert len(tab.model._cache) < 400  # rows are fetched when painted, not all at once
        tab.table.sortByColumn(COLUMNS.index("hit_count"), Qt.SortOrder.DescendingOrder)
        qtbot.waitUntil(lambda: tab.model.filter.sort == "hit_count" and not tab.model.loading, timeout=5000)
        qtbot.waitUntil(lambda: tab.model.cached(tab.model.id_at(0)) is not None, timeout=5000)
        top = tab.model.cached(tab.model.id_at(0))
        assert top["hit_count"] == 49
        assert tab.model.index(0, COLUMNS.index("hit_count")).data() == "49"
        assert tab.model.headerData(COLUMNS.index("last_hit_at"), Qt.Orientation.Horizontal) == "Last recalled"
