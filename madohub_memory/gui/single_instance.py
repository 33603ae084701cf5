"""One dashboard per database: a second start raises the first window instead of opening a
second one (with a second scheduler running the same background jobs).

The first window listens on a local socket named after the database file; a later start
that reaches it asks it to come to the front and exits.
"""

from __future__ import annotations

import getpass
import hashlib
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtNetwork import QLocalServer, QLocalSocket


def server_name(db_path: Path | str) -> str:
    try:
        user = getpass.getuser()
    except (OSError, KeyError):  # no user name on this system: the path alone still separates files
        user = ""
    digest = hashlib.sha1(f"{user}\0{db_path.resolve() if isinstance(db_path, Path) else db_path}".encode()).hexdigest()[:16]
    return f"madohub-memory-{digest}"


class SingleInstance(QObject):
    activated = Signal()  # another start asked this window to come to the front

    def __init__(self, db_path: Path | str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.name = server_name(db_path)
        self.server: QLocalServer | None = None

    def ask_running_window(self, timeout_ms: int = 500) -> bool:
        """True when a dashboard on this database answered (and was asked to show itself)."""
        socket = QLocalSocket()
        socket.connectToServer(self.name)
        if not socket.waitForConnected(timeout_ms):
            return False
        socket.write(b"raise\n")
        socket.flush()
        socket.waitForBytesWritten(timeout_ms)
        socket.disconnectFromServer()
        return True

    def listen(self) -> bool:
        QLocalServer.removeServer(self.name)  # a stale name left by a crashed dashboard
        server = QLocalServer(self)
        server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        if not server.listen(self.name):
            return False
        server.newConnection.connect(self._connected)
        self.server = server
        return True

    def _connected(self) -> None:
        assert self.server is not None
        while (socket := self.server.nextPendingConnection()) is not None:
            socket.disconnected.connect(socket.deleteLater)
            self.activated.emit()
