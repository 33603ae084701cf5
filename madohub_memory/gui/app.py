"""Application start-up: database choice, demo copy, language, screenshot mode."""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import cast

from madohub_memory.core.errors import UserError


def database_path(args: argparse.Namespace) -> Path | str:
    """The file to open: a fresh demo copy with ``--demo`` (never the real database)."""
    if getattr(args, "demo", False):
        from madohub_memory.services.demo import create_demo_db

        return create_demo_db()
    from madohub_memory.core.paths import default_database, is_server_address

    if args.db:
        return args.db if is_server_address(args.db) else Path(args.db)  # an address stays a string
    return default_database()


def create_app(lang: str | None = None):
    """The QApplication with style sheet and translator installed."""
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from madohub_memory.gui.i18n import icon, install_language, resolve_language, stylesheet

    app = cast(QApplication, QApplication.instance() or QApplication(sys.argv[:1]))
    app.setApplicationName("MadoHub Memory")
    app.setOrganizationName("MadoHub")
    app.setDesktopFileName("io.madohub.Memory")
    app.setStyle("Fusion")
    app.setStyleSheet(stylesheet())
    app.setWindowIcon(icon("app"))
    chosen = lang or QSettings("MadoHub", "MadoHub Memory").value("ui/language", "system")
    install_language(resolve_language(str(chosen)))
    return app


def wait_until(app, predicate, timeout: float = 20.0, step: float = 0.01) -> bool:
    """Run the event loop until ``predicate()`` holds (screenshot mode, benchmarks)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        app.processEvents()
        if predicate():
            return True
        time.sleep(step)
    return False


def _quiet_offscreen_noise() -> None:
    """The offscreen platform warns about window size hints it cannot honour; drop that."""
    from PySide6.QtCore import qInstallMessageHandler

    def handler(_mode, _context, message: str) -> None:
        if "propagateSizeHints" not in message:
            sys.stderr.write(message + "\n")

    qInstallMessageHandler(handler)


def start_background_jobs(path: Path | str) -> list:
    """Start extraction, folder watching and sweeps beside the dashboard, off the GUI thread
    (building the scheduler reads settings from SQLite). Returns a list that receives the
    scheduler once it runs, so the caller can shut it down."""
    import logging
    import threading

    from madohub_memory.workers import start_workers

    started: list = []

    def start() -> None:
        try:
            started.append(start_workers(path))
        except UserError:  # the file cannot be opened: the dashboard's own worker says why
            logging.getLogger(__name__).warning("background jobs did not start: the database cannot be opened")

    threading.Thread(target=start, name="madohub-jobs-start", daemon=True).start()
    return started


def run(args: argparse.Namespace) -> int:
    if args.screenshot:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    path = database_path(args)
    _quiet_offscreen_noise()
    app = create_app(args.lang)

    from madohub_memory.gui.main_window import MainWindow
    from madohub_memory.gui.worker import DbWorker

    instance = None
    if not args.screenshot:
        from madohub_memory.gui.single_instance import SingleInstance

        instance = SingleInstance(path)
        if instance.ask_running_window():
            print(f"MadoHub Memory is already open on {path}; brought that window to the front.")
            return 0
        instance.listen()
    worker = DbWorker(path)
    window = MainWindow(worker, restore=not args.screenshot, language_fixed=False, command_line_language=args.lang)
    try:
        if args.tab:
            window.select_tab(args.tab)
        if args.screenshot:
            window.resize(1280, 800)
            window.show()
            if not wait_until(app, lambda: window.ready or worker.open_error is not None):
                raise UserError("The dashboard did not finish loading within 20 seconds; no screenshot taken.")
            if worker.open_error is not None:
                raise worker.open_error
            # the nearest approved memory loads the embedding model once: show it when it comes
            settled = wait_until(app, lambda: window.pending.nearest_settled, timeout=30)
            for _ in range(5):
                app.processEvents()
                time.sleep(0.02)
            target = Path(args.screenshot)
            target.parent.mkdir(parents=True, exist_ok=True)
            if not window.grab().save(str(target)):
                raise UserError("Cannot write the screenshot {target}.", target=target)
            if getattr(args, "json", False):  # what the shot shows, for checks (packaging/check_bundle.py)
                import json

                from PySide6.QtGui import QTextDocumentFragment

                nearest = QTextDocumentFragment.fromHtml(window.pending.detail.nearest.text()).toPlainText()
                print(json.dumps({"screenshot": str(target), "nearest_settled": settled, "nearest": nearest},
                                 ensure_ascii=False))
            else:
                print(str(target))
            return 0
        worker.start_polling()
        if instance is not None:
            instance.activated.connect(lambda: (window.showNormal(), window.raise_(), window.activateWindow()))
        window.show()
        from madohub_memory.gui.tray import TrayController

        window.tray = TrayController(window, worker)  # type: ignore[attr-defined]  # no-op without a tray
        schedulers = start_background_jobs(path)
        try:
            return int(app.exec())
        finally:
            from madohub_memory.services.stopping import request_stop

            request_stop()  # a running extraction job ends after its pass instead of holding up the exit
            for scheduler in schedulers:
                scheduler.shutdown(wait=False)
    finally:
        window.close()
        worker.stop()
