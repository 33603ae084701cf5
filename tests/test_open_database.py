"""The dashboard's "Open another…" (Advanced tab): it names the database now open, refuses
what cannot be opened with a sentence in the dialog, and hands a good choice to a new
dashboard through ``$MADOHUB_DB`` (never on a command line, where a password would show)."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QDialog
from test_gui_helpers import open_window

from madohub_memory.gui.open_database import OpenDatabaseDialog, dashboard_command
from madohub_memory.services import Services

pytestmark = pytest.mark.qt_log_ignore("propagateSizeHints")


def test_the_advanced_tab_names_the_database_it_shows(qtbot, svc, db_path, tmp_path, clock):
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        assert win.advanced.location.text() == f"Now open: {db_path}"
        assert win.advanced.open_btn.isEnabled()


def refused(dialog: OpenDatabaseDialog, text: str) -> str:
    dialog.address.setText(text)
    dialog.accept()
    assert dialog.result() != QDialog.DialogCode.Accepted and not dialog.problem.isHidden()
    return dialog.problem.text()


def test_the_dialog_refuses_what_cannot_be_opened_and_takes_another_database(qtbot, svc, db_path, tmp_path):
    other = tmp_path / "team.db"
    Services.open(other).close()
    dialog = OpenDatabaseDialog(db_path)
    qtbot.addWidget(dialog)
    assert refused(dialog, "  ") == "Give a database file or a server address."
    assert refused(dialog, str(tmp_path / "missing.db")).startswith("There is no database file at")
    assert refused(dialog, str(db_path)) == "This dashboard already shows that database."
    assert "password" in refused(dialog, "postgresql://wei:s3cret@db.lan/team")
    assert "s3cret" not in dialog.findChild(type(dialog.problem), "openDatabaseProblem").text()
    dialog.address.setText(str(other))
    dialog.accept()
    assert dialog.result() == QDialog.DialogCode.Accepted and dialog.target() == str(other)
    server = OpenDatabaseDialog(db_path)
    qtbot.addWidget(server)
    server.address.setText("postgresql://db.lan/team?sslmode=verify-full")
    server.accept()
    assert server.result() == QDialog.DialogCode.Accepted


def test_a_new_dashboard_is_started_with_the_gui_command():
    program, arguments = dashboard_command()
    assert program and arguments[-1] == "gui" and "--db" not in arguments
