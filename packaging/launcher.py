"""Entry point of the PyInstaller bundle: the CLI, `gui` when started without arguments."""

import os
import sys

if getattr(sys, "frozen", False):  # what PyInstaller's PySide6 run-time hook did, without importing Qt
    os.environ.setdefault("QT_PLUGIN_PATH", os.path.join(sys._MEIPASS, "PySide6", "Qt", "plugins"))

from madohub_memory.cli import main

if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:] or ["gui"]))
