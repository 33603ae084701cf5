"""Every tab and the turn viewer rendered in English and in Simplified Chinese."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton, QGroupBox, QLabel
from test_gui_helpers import open_window

from madohub_memory.gui.i18n import TsTranslator
from madohub_memory.gui.pending_model import COLUMNS
from madohub_memory.services.demo import load_demo, resources_dir

pytestmark = pytest.mark.qt_log_ignore("propagateSizeHints")
LATIN_WORD = re.compile(r"[A-Za-z]{3,}")
# Words that stay as they are in Chinese: product and model names, key names, formats.
ALLOWED = {"MadoHub", "Ctrl", "Enter", "Del", "JSONL", "jsonl", "OpenAI", "API", "USE", "MiniLM",
           "English", "Claude", "Code", "default", "shop", "blog", "Space"}


def untranslated(texts: list[str]) -> list[str]:
    bad = []
    for text in texts:
        words = [w for w in LATIN_WORD.findall(text.replace("&", "")) if w not in ALLOWED]
        if words:
            bad.append(text)
    return bad


def visible_texts(widget) -> list[str]:
    texts = []
    for child in widget.findChildren(QLabel):
        if child.isVisibleTo(widget) and child.objectName() not in ("facts", "nearest", "detailTitle", "databaseLocation"):
            texts.append(child.text())
    for child in widget.findChildren(QAbstractButton):
        if child.isVisibleTo(widget):
            texts.append(child.text())
    for child in widget.findChildren(QGroupBox):
        texts.append(child.title())
    return [t for t in texts if t and not t.startswith("<")]


def test_chinese_interface_has_no_english_left(qtbot, svc, db_path, tmp_path, clock):
    load_demo(svc)
    with open_window(qtbot, db_path, tmp_path, clock, lang="zh_CN") as win:
        titles = [win.tabs.tabText(i) for i in range(win.tabs.count())]
        assert titles[:3] == ["待审核（15）", "已批准", "高级"]
        assert untranslated(titles) == []
        model = win.pending.model
        headers = [model.headerData(c, Qt.Orientation.Horizontal)
                   for c in range(model.columnCount())]
        assert untranslated(headers) == []
        columns = [COLUMNS.index(k) for k in ("kind", "source", "created_at")]
        cells = [model.index(r, c).data() or "" for r in range(model.rowCount()) for c in columns]
        flags = model.index(0, COLUMNS.index("flags"))
        cells += [model.index(r, flags.column()).data(Qt.ItemDataRole.ToolTipRole) or ""
                  for r in range(model.rowCount())]
        assert untranslated(cells) == []
        for page in (win.pending, win.approved, win.advanced):
            assert untranslated(visible_texts(page)) == [], page
        assert "偏好" in win.pending.detail.kind.itemText(0)
        # the turn viewer: roles and controls in Chinese
        turn = svc.review.get(model.id_at(0)).turn_ids[0]
        win.open_turn(turn)
        viewer = win.turn_viewer
        qtbot.waitUntil(lambda: viewer.loaded, timeout=5000)
        body = viewer.browser.toPlainText()
        assert "用户" in body and "User" not in body
        assert viewer.windowTitle() == "来源轮次"
        assert untranslated(visible_texts(viewer)) == []


def test_english_interface_and_live_language_switch(qtbot, svc, db_path, tmp_path, clock):
    load_demo(svc)
    with open_window(qtbot, db_path, tmp_path, clock, lang="en") as win:
        assert win.tabs.tabText(0) == "Pending (15)"
        assert win.tabs.tabText(2) == "Advanced"
        win.tabs.setCurrentIndex(2)
        combo = win.advanced.language
        combo.setCurrentIndex(combo.findData("zh_CN"))
        qtbot.waitUntil(lambda: win.tabs.tabText(2) == "高级", timeout=5000)
        assert win.tabs.currentIndex() == 2
        assert svc.settings.get("ui.language") == "zh_CN"
        qtbot.waitUntil(lambda: win.tabs.tabText(0) == "待审核（15）", timeout=5000)
        turn = svc.review.get(win.pending.model.id_at(0) or 1).turn_ids[0]
        win.open_turn(turn)
        qtbot.waitUntil(lambda: win.turn_viewer.loaded, timeout=5000)


def test_every_chinese_message_is_translated():
    ts = resources_dir() / "translations" / "madohub_zh_CN.ts"
    text = ts.read_text(encoding="utf-8")
    assert 'type="unfinished"' not in text
    assert TsTranslator(Path(ts)).translate("Vocab", "postmortem") == "复盘"


def test_errors_read_in_the_interface_language(qtbot, svc, db_path, tmp_path, clock):
    """A Chinese user sees a service's error sentence in Chinese, values kept."""
    cid = svc.review.add_manual("The deploy script lives in ops/deploy.sh", "fact").candidate_id
    with open_window(qtbot, db_path, tmp_path, clock, lang="zh_CN") as win:
        tab = win.pending
        qtbot.waitUntil(lambda: tab.detail.candidate_id == cid, timeout=5000)
        tab.detail.namespace.setEditText("project shop")
        qtbot.keyClick(tab.table, Qt.Key.Key_A)
        text = tab.detail.error.text()
        assert text == "命名空间 'project shop' 格式不对：请使用 persona:<名称> 或 workspace:<项目>。"
        assert win.statusBar().currentMessage() == text
        assert svc.review.get(cid).status == "pending"


def test_every_error_template_has_a_translation_with_its_placeholders(qapp):
    from error_templates_scan import fields, raised_templates

    from madohub_memory.core.errors import ConflictError, UserError
    from madohub_memory.gui.i18n import error_text, install_language

    ts = TsTranslator(resources_dir() / "translations" / "madohub_zh_CN.ts")
    for template in raised_templates():
        translated = ts.translate("Errors", template)
        assert translated, template
        assert fields(translated) == fields(template), template
    install_language("zh_CN")
    try:
        def not_in(status: str, expected: str) -> ConflictError:
            return ConflictError("Candidate {candidate_id} is {status}, not {expected}.",
                                 candidate_id=7, status=status, expected=expected)

        assert error_text(not_in("rejected", "pending")) == "候选 7 当前为“已拒绝”，而不是“待审核”。"
        assert error_text(not_in("archived", "pending or approved")).endswith("“待审核或已批准”。")
        assert error_text(UserError("Some sentence nobody templated.")) == "Some sentence nobody templated."
    finally:
        install_language("en")
