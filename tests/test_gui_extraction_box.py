"""The Advanced tab's extraction box and project mapping, in a real window over a real file."""

from __future__ import annotations

import pytest

pytest.importorskip("PySide6")

from test_gui_helpers import open_window

from madohub_memory.services import extraction_backend

pytestmark = pytest.mark.qt_log_ignore("propagateSizeHints")


def _advanced(qtbot, win):
    win.tabs.setCurrentIndex(2)
    qtbot.waitUntil(lambda: win.advanced.loaded, timeout=5000)
    return win.advanced


def test_backend_choice_says_where_transcripts_go(qtbot, svc, db_path, tmp_path, clock):
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        box = _advanced(qtbot, win).extraction
        assert box.destination.text().startswith("Nowhere")
        assert not box.base_url.isVisibleTo(box) and not box.claude_program.isVisibleTo(box)

        box.backend.setCurrentIndex(box.backend.findData("claude-code"))
        qtbot.waitUntil(lambda: svc.settings.get("extraction.backend") == "claude-code", timeout=5000)
        qtbot.waitUntil(lambda: "Claude Code on this machine" in box.destination.text(), timeout=5000)
        assert box.destination.font().bold()
        assert box.claude_program.isVisibleTo(box) and not box.base_url.isVisibleTo(box)

        box.backend.setCurrentIndex(box.backend.findData("llm"))
        qtbot.waitUntil(lambda: svc.settings.get("extraction.backend") == "llm", timeout=5000)
        qtbot.waitUntil(lambda: "127.0.0.1:11434 — a server on this computer" in box.destination.text(),
                        timeout=5000)  # a reload started by the previous change may land first
        assert not box.destination.font().bold()
        box.base_url.setFocus()
        box.base_url.selectAll()
        qtbot.keyClicks(box.base_url, "https://api.example.com/v1")  # said while typing, before saving
        assert box.destination.text().startswith("api.example.com — transcripts leave this computer")
        box.base_url.editingFinished.emit()
        qtbot.waitUntil(lambda: svc.settings.get("extraction.llm.base_url") == "https://api.example.com/v1",
                        timeout=5000)


def test_budget_is_settable_and_usage_is_shown(qtbot, svc, db_path, tmp_path, clock):
    svc.settings.set("extraction.backend", "llm")
    budget = extraction_backend.StoreBudget(svc)
    budget.before_call(100)
    budget.after_call(1234)
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        box = _advanced(qtbot, win).extraction
        assert box.usage.text() == "1 of 300 calls, 1,234 of 1,000,000 tokens"
        box.daily_calls.setValue(50)
        box.daily_calls.editingFinished.emit()
        qtbot.waitUntil(lambda: svc.settings.get("extraction.llm.daily_calls") == 50, timeout=5000)
        qtbot.waitUntil(lambda: "1 of 50 calls" in box.usage.text(), timeout=5000)
        box.daily_tokens.setValue(0)
        assert box.daily_tokens.text() == "no limit"


def test_a_bad_url_is_refused_visibly_and_the_stored_one_comes_back(qtbot, svc, db_path, tmp_path, clock):
    svc.settings.set("extraction.backend", "llm")
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        box = _advanced(qtbot, win).extraction
        box.base_url.setText("localhost:11434")
        box.base_url.editingFinished.emit()
        qtbot.waitUntil(lambda: win._error_box is not None and win._error_box.isVisible(), timeout=5000)
        assert "http:// or https://" in win._error_box.text()
        win._error_box.close()
        qtbot.waitUntil(lambda: box.base_url.text() == "http://127.0.0.1:11434/v1", timeout=5000)
        assert svc.settings.get("extraction.llm.base_url") == "http://127.0.0.1:11434/v1"


def test_projects_mapping_is_saved_and_bad_lines_are_reported(qtbot, svc, db_path, tmp_path, clock):
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        projects = _advanced(qtbot, win).projects
        projects.editor.setPlainText("~/clients/acme-2024 = acme\n\n# old checkouts\n/srv/legacy = billing")
        projects.save_button.click()
        qtbot.waitUntil(lambda: svc.settings.get("workspace.map") == {"~/clients/acme-2024": "acme",
                                                                      "/srv/legacy": "billing"}, timeout=5000)
        projects.editor.setPlainText("clients/acme = acme")
        projects.save_button.click()
        qtbot.waitUntil(lambda: win._error_box is not None and win._error_box.isVisible(), timeout=5000)
        assert "absolute path" in win._error_box.text()
        win._error_box.close()
        assert svc.settings.get("workspace.map") == {"~/clients/acme-2024": "acme", "/srv/legacy": "billing"}


def test_chinese_extraction_box(qtbot, svc, db_path, tmp_path, clock):
    svc.settings.set("extraction.backend", "claude-code")
    with open_window(qtbot, db_path, tmp_path, clock, lang="zh_CN") as win:
        box = _advanced(qtbot, win).extraction
        assert box.title() == "提取"
        assert "本机的 Claude Code" in box.destination.text()
        assert box.usage.text().startswith("调用 0 / 300 次")
