"""Opening another database from the dashboard: a file, or a PostgreSQL server address.

A dashboard serves one database (its worker thread, its background jobs and its
single-instance lock are per database), so "Open…" starts a dashboard on the other database
and then quits this one the way the tray's Quit does (decisions in flight are saved first).
The address goes to the new dashboard in ``$MADOHUB_DB``, never on its command line, where a
password would be visible to every program on the machine.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from PySide6.QtCore import QProcess, QProcessEnvironment
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from madohub_memory.core.locations import display_location, is_dsn


def dashboard_command() -> tuple[str, list[str]]:
    """(program, arguments) that start a dashboard of this installation."""
    if getattr(sys, "frozen", False):
        return sys.executable, ["gui"]
    return sys.executable, ["-m", "madohub_memory", "gui"]


def start_dashboard(target: str) -> bool:
    """Start a dashboard on ``target`` (a path or a server address) in a process of its own."""
    program, arguments = dashboard_command()
    process = QProcess()
    environment = QProcessEnvironment.systemEnvironment()
    environment.insert("MADOHUB_DB", target)
    process.setProcessEnvironment(environment)
    process.setProgram(program)
    process.setArguments(arguments)
    started, _pid = process.startDetached()
    return bool(started)


class OpenDatabaseDialog(QDialog):
    """Asks for a database file (Browse…) or a server address, and refuses what cannot be one."""

    def __init__(self, current: str | os.PathLike[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.current = os.fspath(current)
        self.setWindowTitle(self.tr("Open another database"))
        self.address = QLineEdit()
        self.address.setPlaceholderText(self.tr("A database file, or postgresql://host/database"))
        self.address.setAccessibleName(self.tr("Database file or server address"))
        browse = QPushButton(self.tr("&Browse…"))
        browse.clicked.connect(self._browse)
        self.problem = QLabel()
        self.problem.setObjectName("openDatabaseProblem")
        self.problem.setWordWrap(True)
        self.problem.hide()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Open | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        row = QHBoxLayout()
        row.addWidget(self.address, 1)
        row.addWidget(browse)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(self.tr("Now open: %1").replace("%1", display_location(self.current))))
        layout.addLayout(row)
        layout.addWidget(QLabel(self.tr(
            "A password does not belong here: keep it in ~/.pgpass or a libpq service file (service=NAME).")))
        layout.addWidget(self.problem)
        layout.addWidget(buttons)
        self.resize(560, self.sizeHint().height())

    def target(self) -> str:
        text = self.address.text().strip()
        return text if is_dsn(text) else os.path.expanduser(text)

    def _browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Open another database"), "",
                                              self.tr("Databases (*.db *.sqlite);;All files (*)"))
        if path:
            self.address.setText(path)

    def problem_with(self, target: str) -> str | None:
        """The one sentence that says why ``target`` cannot be opened (``None``: it can be tried)."""
        if not target:
            return self.tr("Give a database file or a server address.")
        if is_dsn(target):
            from madohub_memory.store.pg.dsn import has_password

            if has_password(target):
                return self.tr("Take the password out of the address: keep it in ~/.pgpass or a libpq service file.")
            return self.tr("This dashboard already shows that database.") if target == self.current else None
        path = Path(target)
        if not path.is_file():
            return self.tr("There is no database file at %1.").replace("%1", target)
        if not is_dsn(self.current) and path.resolve() == Path(self.current).expanduser().resolve():
            return self.tr("This dashboard already shows that database.")
        return None

    def accept(self) -> None:
        problem = self.problem_with(self.target())
        if problem is not None:
            self.problem.setText(problem)
            self.problem.show()
            return
        super().accept()
