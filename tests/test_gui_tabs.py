"""Models under Qt's model tester; the Approved and Advanced tabs; the first-run page."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt
from test_gui_helpers import open_window

from madohub_memory.gui.pending_model import COLUMNS, ID_ROLE
from madohub_memory.gui.worker import query_op
from madohub_memory.services.demo import load_demo

pytestmark = pytest.mark.qt_log_ignore("propagateSizeHints")


def test_models_pass_the_qt_model_tester(qtbot, qtmodeltester, svc, db_path, tmp_path, clock):
    load_demo(svc)
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        model = win.pending.model
        qtmodeltester.check(model)
        win.tabs.setCurrentIndex(1)
        qtbot.waitUntil(lambda: win.approved.loaded, timeout=5000)
        qtmodeltester.check(win.approved.model)
        win.tabs.setCurrentIndex(0)
        # live changes (rows removed and inserted by a refresh) keep the model consistent
        victim = model.id_at(2)
        svc.review.reject(victim)
        svc.review.add_manual("Release notes are written in docs/CHANGES.md", "fact")
        model.refresh()
        qtbot.waitUntil(lambda: model.row_of(victim) == -1 and model.rowCount() == 15, timeout=5000)
        qtmodeltester.check(model)
        assert model.index(0, 0).data(ID_ROLE) == model.id_at(0)


def test_lazy_model_fetches_only_what_is_painted(qtbot, svc, db_path, tmp_path, clock):
    svc.store.execute("BEGIN")
    from madohub_memory.core.text import fingerprint  # bulk rows straight into the file

    now = clock.now_iso()
    svc.store.conn.executemany(
        "INSERT INTO candidates (content, kind, namespace, source, confidence, fingerprint, created_at, updated_at)"
        " VALUES (?, 'fact', 'workspace:bulk', 'turn', 0.5, ?, ?, ?)",
        [(f"Bulk fact {n}", fingerprint(f"Bulk fact {n}"), now, now) for n in range(5000)],
    )
    svc.store.execute("COMMIT")
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        model = win.pending.model
        assert model.rowCount() == 5000
        assert len(model._cache) < 400
        win.pending.table.scrollToBottom()
        last = model.index(4999, COLUMNS.index("content"))
        qtbot.waitUntil(lambda: model.cached(model.id_at(4999)) is not None, timeout=5000)
        assert last.data() == "Bulk fact 4999"
        assert len(model._cache) < 800


def test_approved_tab_filters_edits_pins_deletes_and_undoes(qtbot, svc, db_path, tmp_path, clock):
    load_demo(svc)
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        win.tabs.setCurrentIndex(1)
        tab = win.approved
        qtbot.waitUntil(lambda: tab.loaded and tab.ns_filter.count() > 1, timeout=5000)
        namespaces = {tab.ns_filter.itemText(i) for i in range(tab.ns_filter.count())}
        assert "persona · default  (3)" in namespaces
        assert "workspace · shop  (4)" in namespaces
        assert tab.model.rowCount() == 9
        tab.table.setFocus()
        mid = tab.current_id()
        assert mid is not None
        before = svc.memories.get(mid)
        qtbot.keyClick(tab.table, Qt.Key.Key_E)
        assert tab.editor.hasFocus()
        qtbot.keyClicks(tab.editor, " Always.")
        qtbot.keyClick(tab.editor, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
        qtbot.waitUntil(lambda: svc.memories.get(mid).content.endswith("Always."), timeout=5000)
        qtbot.waitUntil(lambda: tab.current_id() == mid, timeout=5000)
        tab.table.setFocus()
        qtbot.keyClick(tab.table, Qt.Key.Key_P)
        qtbot.waitUntil(lambda: svc.memories.get(mid).pinned != before.pinned, timeout=5000)
        qtbot.waitUntil(lambda: tab.memories[mid]["pinned"] != before.pinned, timeout=5000)
        qtbot.keyClick(tab.table, Qt.Key.Key_Delete)
        assert mid not in tab.memories  # gone from the list at once
        qtbot.waitUntil(lambda: all(m.id != mid for m in svc.memories.list()), timeout=5000)
        qtbot.keyClick(tab.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
        qtbot.waitUntil(lambda: mid in tab.memories, timeout=5000)
        qtbot.waitUntil(lambda: tab.current_id() == mid, timeout=5000)
        assert svc.memories.get(mid).content.endswith("Always.")
        assert "Restored memory" in win.statusBar().currentMessage()
        # filter by text, then by namespace
        tab.search.setText("Stripe")
        qtbot.waitUntil(lambda: tab.model.rowCount() == 1, timeout=5000)
        tab.search.clear()
        qtbot.waitUntil(lambda: tab.model.rowCount() == 9, timeout=5000)
        tab.ns_filter.setCurrentIndex(tab.ns_filter.findData("workspace:shop"))
        qtbot.waitUntil(lambda: tab.model.rowCount() == 4, timeout=5000)
        tab.ns_filter.setCurrentIndex(0)
        qtbot.waitUntil(lambda: tab.model.rowCount() == 9, timeout=5000)
        # jump to the originating turn of a memory that came from a candidate
        with_turn = next(r for r in tab.memories.values() if r["first_turn"])
        tab.select_memory(with_turn["id"])
        tab.table.setFocus()
        qtbot.keyClick(tab.table, Qt.Key.Key_Return)
        qtbot.waitUntil(lambda: win.turn_viewer is not None and win.turn_viewer.loaded, timeout=5000)
        assert win.turn_viewer.turn_id == with_turn["first_turn"]


def test_advanced_tab_stores_settings_without_restart(qtbot, svc, db_path, tmp_path, clock):
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        tab = win.advanced
        win.tabs.setCurrentIndex(2)  # hidden tabs load when first shown
        qtbot.waitUntil(lambda: tab.loaded, timeout=5000)
        assert tab.auto_enabled.isChecked() is False
        tab.auto_enabled.setChecked(True)
        qtbot.waitUntil(lambda: svc.settings.get("auto_approve.enabled") is True, timeout=5000)
        tab.excluded["event"].setChecked(True)
        qtbot.waitUntil(lambda: "event" in svc.settings.get("auto_approve.excluded_kinds"), timeout=5000)
        tab.min_seen.setValue(5)
        tab.min_seen.editingFinished.emit()
        qtbot.waitUntil(lambda: svc.settings.get("auto_approve.min_seen") == 5, timeout=5000)
        tab.backend.setCurrentIndex(tab.backend.findData("llm"))
        qtbot.waitUntil(lambda: svc.settings.get("extraction.backend") == "llm", timeout=5000)
        # export then import into the same window's database via the tab's functions
        target = tmp_path / "out.jsonl"
        tab.export_to(str(target))
        qtbot.waitUntil(target.exists, timeout=5000)
        assert target.read_text(encoding="utf-8").startswith('{"format":"madohub-memory-export"')
        broken = tmp_path / "broken.jsonl"
        broken.write_text("not json\n", encoding="utf-8")
        tab.import_from(str(broken))
        qtbot.waitUntil(lambda: win._error_box is not None and win._error_box.isVisible(), timeout=5000)
        assert "nothing was imported" in win._error_box.text()
        win._error_box.close()


def test_first_run_offers_demo_data(qtbot, db_path, tmp_path, clock):
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        assert win.pending_stack.currentWidget() is win.welcome
        for button in (win.welcome.demo_btn, win.welcome.import_btn, win.welcome.connect_btn):
            assert button.accessibleName()
        win.welcome.demo_btn.click()
        qtbot.waitUntil(lambda: win.pending_stack.currentWidget() is win.pending, timeout=5000)
        qtbot.waitUntil(lambda: win.pending.model.rowCount() == 15, timeout=5000)
        win.tabs.setCurrentIndex(1)  # a hidden tab refreshes when it is shown
        qtbot.waitUntil(lambda: len(win.approved.memories) == 9, timeout=5000)


def test_import_runs_beside_the_queue_and_fills_an_empty_database(qtbot, db_path, tmp_path, clock):
    transcript = tmp_path / "session.jsonl"
    lines = []
    for n in range(300):
        lines.append({"role": "user", "content": f"Question {n}: how do we deploy service {n}?"})
        lines.append({"role": "assistant", "content": f"Service {n} deploys with `make deploy-{n}`."})
    transcript.write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        assert win.pending_stack.currentWidget() is win.welcome
        messages: list[str] = []
        win.statusBar().messageChanged.connect(messages.append)
        win.welcome.import_paths([str(transcript)])
        # the DB worker answers while the import runs on its own thread
        answered: list[int] = []
        query_op(win.worker, lambda ctx: ctx.queue.count(), answered.append)
        qtbot.waitUntil(lambda: bool(answered), timeout=5000)
        qtbot.waitUntil(lambda: any("600" in m for m in messages), timeout=60000)
        qtbot.waitUntil(lambda: win.totals is not None and win.totals["turns"] == 600, timeout=5000)
        assert win.pending_stack.currentWidget() is win.pending


def test_window_geometry_and_last_tab_are_restored(qtbot, db_path, tmp_path, clock):
    from PySide6.QtCore import QSettings

    from madohub_memory.gui.main_window import MainWindow
    from madohub_memory.gui.worker import DbWorker

    with open_window(qtbot, db_path, tmp_path, clock) as win:
        win.tabs.setCurrentIndex(2)
        win.resize(740, 520)
    worker = DbWorker(db_path, clock)
    settings = QSettings(str(tmp_path / "qsettings.ini"), QSettings.Format.IniFormat)
    again = MainWindow(worker, settings=settings)
    qtbot.addWidget(again)
    try:
        assert again.tabs.currentIndex() == 2
        assert (again.size().width(), again.size().height()) == (740, 520)
        qtbot.waitUntil(lambda: again.totals is not None, timeout=5000)
    finally:
        again.close()
        worker.stop()


def test_run_a_background_job_now_from_the_advanced_tab(qtbot, svc, db_path, tmp_path, clock):
    pytest.importorskip("madohub_memory.services.jobs")
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        tab = win.advanced
        win.tabs.setCurrentIndex(2)
        qtbot.waitUntil(lambda: tab.loaded, timeout=5000)
        names = [tab.jobs.item(r, 0).data(Qt.ItemDataRole.UserRole) for r in range(tab.jobs.rowCount())]
        assert "sweep" in names and tab.run_now.isEnabled()
        tab.jobs.setCurrentCell(names.index("sweep"), 0)
        tab.run_now.click()
        qtbot.waitUntil(lambda: tab.jobs.item(names.index("sweep"), 1).text() != "—", timeout=30000)
        assert any(j["name"] == "sweep" and j["last_run"] for j in svc.jobs.status())


def test_every_focusable_control_has_an_accessible_name(qtbot, svc, db_path, tmp_path, clock):
    from PySide6.QtWidgets import QAbstractButton, QWidget

    load_demo(svc)
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        nameless = []
        for index in range(3):
            win.tabs.setCurrentIndex(index)
            page = win.tabs.currentWidget()
            for widget in page.findChildren(QWidget):
                if widget.focusPolicy() == Qt.FocusPolicy.NoFocus or not widget.isVisibleTo(page):
                    continue
                if widget.parentWidget() is not None and widget.parentWidget().inherits("QAbstractSpinBox"):
                    continue  # the line edit inside a spin box is named by the spin box
                if widget.inherits("QScrollBar") or widget.inherits("QScrollArea") or widget.inherits("QSplitterHandle"):
                    continue
                text = widget.text() if isinstance(widget, QAbstractButton) else ""
                if not (widget.accessibleName() or text):
                    nameless.append(f"{type(widget).__name__} {widget.objectName()}")
        assert nameless == []


def test_a_one_line_memory_is_edited_in_place(qtbot, svc, db_path, tmp_path, clock):
    load_demo(svc)
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        win.tabs.setCurrentIndex(1)
        tab = win.approved
        qtbot.waitUntil(lambda: tab.loaded and tab.current_id() is not None, timeout=5000)
        mid = tab.current_id()
        index = tab.table.currentIndex().siblingAtColumn(0)
        assert tab.model.flags(index) & Qt.ItemFlag.ItemIsEditable
        tab.table.setFocus()
        qtbot.keyClick(tab.table, Qt.Key.Key_F2)
        editor = tab.table.focusWidget()
        editor.selectAll()
        qtbot.keyClicks(editor, "Reply in the language of the question.")
        qtbot.keyClick(editor, Qt.Key.Key_Return)
        qtbot.waitUntil(lambda: svc.memories.get(mid).content == "Reply in the language of the question.",
                        timeout=5000)
        qtbot.waitUntil(lambda: tab.memories[mid]["content"].startswith("Reply"), timeout=5000)
