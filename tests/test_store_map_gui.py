"""The Pending tab says which namespaces are queued in another store (setting stores.map)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_gui_helpers import open_window

from madohub_memory.services import Services

pytestmark = pytest.mark.qt_log_ignore("propagateSizeHints")  # the offscreen platform's, as elsewhere


def test_pending_tab_names_the_store_of_a_mapped_queue(qtbot, svc: Services, db_path: Path, tmp_path: Path,
                                                       clock) -> None:
    svc.review.add_manual("The user prefers pnpm over npm", "preference")
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        assert win.pending.elsewhere.isHidden()  # no map: nothing said, nothing opened
    svc.settings.set("stores.map", "workspace:shop=/srv/team.db,workspace:infra=postgresql://wei@db.lan/infra")
    with open_window(qtbot, db_path, tmp_path, clock, lang="zh_CN") as win:
        qtbot.waitUntil(lambda: win.pending.elsewhere.isVisible(), timeout=5000)
        text = win.pending.elsewhere.text()
        assert "workspace:shop" in text and "team" in text and "--db /srv/team.db" in text
        assert "postgresql://wei@db.lan/infra" in text and "请在那里审核" in text
