"""The optional tray icon and the notification when candidates arrive (issue 11).

The offscreen platform has no tray, which is the "GNOME without the AppIndicator extension"
case; the tray cases pass ``available=True`` (a real QSystemTrayIcon that no tray host shows).
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtWidgets import QSystemTrayIcon
from test_gui_helpers import open_window

from madohub_memory.gui.tray import TrayController, badge_icon

# offscreen-platform noise: it has no window manager (raise) and no tray host
pytestmark = pytest.mark.qt_log_ignore("propagateSizeHints", "systemTrayWindowChanged", "does not support raise")


def add_from_another_process(db: Path, *texts: str) -> None:
    for text in texts:
        done = subprocess.run([sys.executable, "-m", "madohub_memory", "--db", str(db), "add", text, "--kind", "fact"],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr


def test_without_a_tray_nothing_changes(qtbot, svc, db_path, tmp_path, clock) -> None:
    svc.review.remember("The user prefers pnpm", "preference")
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        assert not QSystemTrayIcon.isSystemTrayAvailable()
        tray = TrayController(win, win.worker)
        qtbot.waitUntil(lambda: tray.count == 1, timeout=5000)
        assert tray.tray is None and not tray.visible
        win.close()
        assert not win.isVisible()  # closing quits as usual: nothing lingers in a tray that is not there


def test_tray_shows_the_count_opens_the_queue_and_keeps_running(qtbot, svc, db_path, tmp_path, clock) -> None:
    for n in range(3):
        svc.review.remember(f"Observation {n} about the nightly build", "fact")
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        tray = TrayController(win, win.worker, available=True)
        qtbot.waitUntil(lambda: tray.visible, timeout=5000)
        assert tray.tray is not None and "3 pending" in tray.tray.toolTip()
        win.select_tab("advanced")

        win.close()  # hides to the tray instead of quitting
        assert not win.isVisible() and tray.visible
        tray.tray.activated.emit(QSystemTrayIcon.ActivationReason.Trigger)  # a click on the icon
        assert win.isVisible() and win.tabs.currentIndex() == 0  # the review queue

        svc.settings.set("desktop.tray", False)  # switched off (another process): the icon goes
        win.worker.data_changed.emit("external")
        qtbot.waitUntil(lambda: not tray.visible, timeout=5000)
        win.close()
        assert not win.isVisible()


def test_quit_from_the_tray_menu_really_closes(qtbot, svc, db_path, tmp_path, clock) -> None:
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        tray = TrayController(win, win.worker, available=True)
        qtbot.waitUntil(lambda: tray.visible, timeout=5000)
        labels = [a.text() for a in tray.tray.contextMenu().actions() if a.text()]
        assert labels == ["Open the review queue", "Notify me when candidates arrive", "Quit MadoHub Memory"]
        tray.quitting = True  # what quit() sets before QApplication.quit(), which would end the test run
        win.close()
        assert not win.isVisible()


def test_notification_when_candidates_arrive_from_another_process(qtbot, svc, db_path, tmp_path, clock,
                                                                 monkeypatch) -> None:
    """Off by default; on, two candidates written by the CLI give one notification (through
    notify-send where there is no tray), and the person's own decisions give none."""
    log = tmp_path / "notify.log"
    stub = tmp_path / "bin" / "notify-send"
    stub.parent.mkdir()
    stub.write_text(f'#!/bin/sh\nprintf "%s|" "$@" >> "{log}"\necho >> "{log}"\n')
    stub.chmod(stub.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{stub.parent}{os.pathsep}{os.environ['PATH']}")
    first = svc.review.remember("The user prefers pnpm", "preference").candidate_id
    with open_window(qtbot, db_path, tmp_path, clock, poll=True) as win:
        tray = TrayController(win, win.worker)
        qtbot.waitUntil(lambda: tray.count == 1, timeout=5000)
        win.hide()

        add_from_another_process(db_path, "Deploys happen on Tuesdays")
        qtbot.waitUntil(lambda: tray.count == 2, timeout=10000)
        assert tray.last_notification is None and not log.exists()  # off by default

        svc.settings.set("desktop.notify", True)
        add_from_another_process(db_path, "The API uses snake_case keys", "Staging runs on Fridays")
        qtbot.waitUntil(lambda: tray.count == 4, timeout=10000)
        qtbot.waitUntil(lambda: log.exists(), timeout=5000)
        assert tray.last_notification == ("MadoHub Memory", "2 new memory candidates to review")
        assert log.read_text().splitlines() == [
            "--app-name=MadoHub Memory|--icon=io.madohub.Memory|MadoHub Memory|2 new memory candidates to review|"]

        svc.review.approve(first)  # a decision lowers the count: nothing to announce
        win.worker.data_changed.emit("external")
        qtbot.waitUntil(lambda: tray.count == 3, timeout=5000)
        assert len(log.read_text().splitlines()) == 1


def test_badge_icon_draws_the_count() -> None:
    plain = badge_icon(0).pixmap(64, 64).toImage()
    badged = badge_icon(120).pixmap(64, 64).toImage()
    corner = (60, 58)
    assert plain.pixelColor(*corner) != badged.pixelColor(*corner)
    assert badged.pixelColor(*corner).red() > 150  # the red badge


def test_tray_speaks_chinese(qtbot, svc, db_path, tmp_path, clock) -> None:
    svc.review.remember("用户喜欢用深色主题", "preference")
    with open_window(qtbot, db_path, tmp_path, clock, lang="zh_CN") as win:
        tray = TrayController(win, win.worker, available=True)
        qtbot.waitUntil(lambda: tray.visible, timeout=5000)
        assert tray.tray.toolTip() == "MadoHub 记忆：1 条待审核"
        assert [a.text() for a in tray.tray.contextMenu().actions() if a.text()] == [
            "打开审核队列", "有新候选时通知我", "退出 MadoHub 记忆"]
        tray.quitting = True


def test_advanced_tab_switches_the_tray_and_notifications(qtbot, svc, db_path, tmp_path, clock) -> None:
    """The Interface group holds both settings: unticking the tray removes the icon at once,
    ticking notifications stores it, and a change made in the tray menu shows up there."""
    svc.review.remember("The user prefers pnpm", "preference")
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        tray = TrayController(win, win.worker, available=True)
        qtbot.waitUntil(lambda: tray.visible, timeout=5000)
        win.select_tab("advanced")
        page = win.advanced
        qtbot.waitUntil(lambda: page.loaded, timeout=5000)
        assert page.tray_box.isChecked() and not page.notify_box.isChecked()  # the defaults
        assert page.tray_note.isVisibleTo(page)  # the offscreen platform has no tray: said so

        page.tray_box.click()
        qtbot.waitUntil(lambda: not tray.visible, timeout=5000)
        assert svc.settings.get("desktop.tray") is False
        assert "Saved: System tray icon." in win.statusBar().currentMessage()
        page.notify_box.click()
        qtbot.waitUntil(lambda: svc.settings.get("desktop.notify") is True, timeout=5000)
        qtbot.waitUntil(lambda: tray.notify, timeout=5000)

        page.tray_box.click()  # back on; then notifications off from the tray menu
        qtbot.waitUntil(lambda: tray.visible, timeout=5000)
        tray._label_menu()
        tray.notify_action.setChecked(False)
        qtbot.waitUntil(lambda: not page.notify_box.isChecked(), timeout=5000)
        assert svc.settings.get("desktop.notify") is False
        tray.quitting = True


def test_tray_settings_read_in_chinese(qtbot, svc, db_path, tmp_path, clock) -> None:
    with open_window(qtbot, db_path, tmp_path, clock, lang="zh_CN") as win:
        win.select_tab("advanced")
        page = win.advanced
        qtbot.waitUntil(lambda: page.loaded, timeout=5000)
        assert page.tray_box.text() == "在系统托盘中显示待审核数量"
        assert page.notify_box.text() == "有新候选时通知我（默认关闭）"
        assert page.tray_note.text() == "当前桌面不显示托盘图标；此设置在有托盘的桌面上生效。"
        assert "AppIndicator" in page.tray_box.toolTip() and "托盘" in page.tray_box.toolTip()
        page.notify_box.click()
        qtbot.waitUntil(lambda: "已保存：桌面通知。" in win.statusBar().currentMessage(), timeout=5000)
