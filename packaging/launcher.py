"""Entry point of the PyInstaller bundle: the CLI, `gui` when started without arguments."""

import sys

from madohub_memory.cli import main

if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:] or ["gui"]))
