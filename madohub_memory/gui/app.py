"""Application start-up: database choice, demo data, screenshot mode."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path


def run(args: argparse.Namespace) -> int:
    if args.screenshot:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication, QLabel, QMainWindow

    from madohub_memory.services import Services

    app = QApplication.instance() or QApplication(sys.argv[:1])
    db_path = Path(args.db) if args.db else None
    svc = Services.open(db_path)
    window = QMainWindow()
    window.setWindowTitle("MadoHub Memory")
    counts = len(svc.review.pending())
    window.setCentralWidget(QLabel(f"{counts} pending candidates"))
    window.resize(1100, 700)
    if args.screenshot:
        window.show()
        app.processEvents()
        window.grab().save(args.screenshot)
        svc.close()
        return 0
    window.show()
    code = app.exec()
    svc.close()
    return int(code)
