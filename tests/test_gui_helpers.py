"""Shared set-up for the dashboard tests: a real database file, a real worker, a real window."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from PySide6.QtCore import QSettings

from madohub_memory.core.clock import Clock
from madohub_memory.gui.i18n import install_language
from madohub_memory.gui.main_window import MainWindow
from madohub_memory.gui.worker import DbWorker


@contextmanager
def open_window(qtbot, db_path: Path, tmp_path: Path, clock: Clock | None = None,
                lang: str = "en", poll: bool = False, **window_args: object) -> Iterator[MainWindow]:
    """A shown MainWindow over ``db_path`` with its data loaded; joins the worker after.
    ``window_args`` go to :class:`MainWindow` (``command_line_language``: as ``--lang``)."""
    install_language(lang)
    worker = DbWorker(db_path, clock)
    settings = QSettings(str(tmp_path / "qsettings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(worker, restore=False, settings=settings, **window_args)  # type: ignore[arg-type]
    qtbot.addWidget(window)
    try:
        window.resize(1280, 800)
        window.show()
        qtbot.waitUntil(lambda: window.ready, timeout=15000)
        if poll:
            worker.start_polling()
        yield window
    finally:
        if window.turn_viewer is not None:
            window.turn_viewer.close()
        window.close()
        worker.stop()
        assert not worker._thread.is_alive()
        install_language("en")
