"""The optional system tray icon, and a desktop notification when candidates arrive.

Where a tray exists (KDE, Xfce, Cinnamon, GNOME with the AppIndicator extension) the icon
shows the pending count; a click opens the review queue; closing the window hides it to
the tray, so the background jobs keep running, and the tray menu quits. Where there is
none (GNOME as shipped, offscreen) nothing changes: no icon, and closing quits.

Settings: ``desktop.tray`` (on) and ``desktop.notify`` (off). A notification is sent when
candidates written by another process (the hook, the worker, an agent over MCP) arrive
while the window is not in front: through the tray where there is one, otherwise through
``notify-send`` when it is installed.
"""

from __future__ import annotations

import shutil
import subprocess
import threading
from typing import Any

from PySide6.QtCore import QEvent, QObject, QRectF, Qt
from PySide6.QtGui import QAction, QColor, QFont, QIcon, QPainter
from PySide6.QtWidgets import QApplication, QMainWindow, QMenu, QSystemTrayIcon

from madohub_memory.gui.i18n import icon
from madohub_memory.gui.worker import DbWorker, collection_op, query_op


def badge_icon(count: int, size: int = 64) -> QIcon:
    """The app icon with the pending count in a red badge (99+ above 99; none at 0)."""
    pixmap = icon("app").pixmap(size, size)
    if count <= 0:
        return QIcon(pixmap)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    label = "99+" if count > 99 else str(count)
    height = size * 0.5
    width = max(height, height * (0.45 + 0.3 * len(label)))
    rect = QRectF(size - width, size - height, width, height)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor("#d93025"))
    painter.drawRoundedRect(rect, height / 2, height / 2)
    font = QFont()
    font.setBold(True)
    font.setPixelSize(int(height * 0.7))
    painter.setFont(font)
    painter.setPen(QColor("#ffffff"))
    painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, label)
    painter.end()
    return QIcon(pixmap)


class TrayController(QObject):
    """Owns the tray icon of one main window; created by :func:`madohub_memory.gui.app.run`."""

    def __init__(self, window: QMainWindow, worker: DbWorker, *, available: bool | None = None) -> None:
        super().__init__(window)
        self.window = window
        self.worker = worker
        self.available = QSystemTrayIcon.isSystemTrayAvailable() if available is None else available
        self.enabled = False
        self.notify = False
        self.count: int | None = None
        self.quitting = False
        self.last_notification: tuple[str, str] | None = None
        self.tray: QSystemTrayIcon | None = None
        self._told_hidden = False
        worker.data_changed.connect(self._changed)
        window.installEventFilter(self)
        self._refresh("start")

    # -- state ---------------------------------------------------------------------------

    def _changed(self, origin: str) -> None:
        self._refresh(origin)

    def _refresh(self, origin: str) -> None:
        def read(ctx: Any) -> dict[str, Any]:
            settings = ctx.svc.settings
            return {"tray": bool(settings.get("desktop.tray")), "notify": bool(settings.get("desktop.notify")),
                    "count": int(ctx.queue.count())}

        query_op(self.worker, read, lambda state: self._apply(state, origin), lambda _message: None)

    def _apply(self, state: dict[str, Any], origin: str) -> None:
        previous = self.count
        self.enabled, self.notify, self.count = state["tray"], state["notify"], state["count"]
        self._show()
        if origin == "external" and self.notify and previous is not None and self.count > previous:
            self.announce(self.count - previous)

    @property
    def visible(self) -> bool:
        return self.tray is not None and self.tray.isVisible()

    def _show(self) -> None:
        wanted = self.available and self.enabled
        if wanted and self.tray is None:
            self.tray = QSystemTrayIcon(self)
            self.tray.setContextMenu(self._menu())
            self.tray.activated.connect(self._activated)
            self.tray.messageClicked.connect(self.open_queue)
        if self.tray is None:
            return
        count = self.count or 0
        self.tray.setIcon(badge_icon(count))
        self.tray.setToolTip(self.tr("MadoHub Memory: %1 pending").replace("%1", f"{count:,}"))
        self.tray.setVisible(wanted)

    def _menu(self) -> QMenu:
        menu = QMenu(self.window)
        self.open_action = QAction(menu)
        self.open_action.triggered.connect(self.open_queue)
        font = self.open_action.font()
        font.setBold(True)
        self.open_action.setFont(font)
        self.notify_action = QAction(menu)
        self.notify_action.setCheckable(True)
        self.notify_action.toggled.connect(self._set_notify)
        self.quit_action = QAction(menu)
        self.quit_action.triggered.connect(self.quit)
        menu.addAction(self.open_action)
        menu.addSeparator()
        menu.addAction(self.notify_action)
        menu.addSeparator()
        menu.addAction(self.quit_action)
        menu.aboutToShow.connect(self._label_menu)  # in the language chosen meanwhile
        self._label_menu()
        return menu

    def _label_menu(self) -> None:
        self.open_action.setText(self.tr("Open the review queue"))
        self.notify_action.setText(self.tr("Notify me when candidates arrive"))
        self.notify_action.blockSignals(True)
        self.notify_action.setChecked(self.notify)
        self.notify_action.blockSignals(False)
        self.quit_action.setText(self.tr("Quit MadoHub Memory"))

    def _set_notify(self, on: bool) -> None:
        self.notify = on
        collection_op(self.worker, lambda ctx: ctx.svc.settings.set("desktop.notify", on))

    # -- actions -------------------------------------------------------------------------

    def _activated(self, reason: QSystemTrayIcon.ActivationReason) -> None:
        if reason in (QSystemTrayIcon.ActivationReason.Trigger, QSystemTrayIcon.ActivationReason.DoubleClick):
            self.open_queue()

    def open_queue(self) -> None:
        select = getattr(self.window, "select_tab", None)
        if select is not None:
            select("pending")
        self.window.showNormal()
        self.window.raise_()
        self.window.activateWindow()

    def quit(self) -> None:
        self.quitting = True
        self.window.close()
        QApplication.quit()

    def announce(self, new: int) -> None:
        """Tell the person that ``new`` candidates arrived, unless the window is in front."""
        if self.window.isVisible() and self.window.isActiveWindow():
            return
        title = self.tr("MadoHub Memory")
        text = (self.tr("1 new memory candidate to review") if new == 1
                else self.tr("%1 new memory candidates to review").replace("%1", f"{new:,}"))
        self.last_notification = (title, text)
        if self.visible:
            assert self.tray is not None
            self.tray.showMessage(title, text, self.tray.icon(), 8000)
            return
        sender = shutil.which("notify-send")
        if sender:
            proc = subprocess.Popen([sender, "--app-name=MadoHub Memory", "--icon=io.madohub.Memory", title, text],
                                    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            threading.Thread(target=proc.wait, name="madohub-notify", daemon=True).start()  # reaps it

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Closing the window hides it to the tray while the tray icon is shown."""
        if watched is self.window and event.type() == QEvent.Type.Close and self.visible and not self.quitting:
            event.ignore()
            self.window.hide()
            if not self._told_hidden and self.tray is not None:
                self._told_hidden = True
                self.tray.showMessage(
                    self.tr("MadoHub Memory"),
                    self.tr("Still running in the tray, so agents' candidates keep arriving. Quit from its menu."),
                    self.tray.icon(), 6000)
            return True
        return super().eventFilter(watched, event)
