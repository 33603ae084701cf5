"""Entry point of the PyInstaller bundle: the CLI, `gui` when started without arguments."""

import os
import sys

# Started again by multiprocessing ("spawn": the dashboard's nearest-memory helper) a frozen
# app gets its own arguments, not a Python command line. PyInstaller's multiprocessing
# run-time hook would divert them but imports multiprocessing at every start (~20 ms on every
# CLI call and hook), so the spec leaves it out and this does the same for these two cases.
_TRACKER = ("from multiprocessing.resource_tracker import main", "from multiprocessing.forkserver import main",
            "import sys; from multiprocessing.forkserver import main")


def _multiprocessing_child(argv: list[str]) -> bool:
    """Run the multiprocessing child ``argv`` asks for (then the process ends), else False."""
    if len(argv) >= 2 and argv[1] == "--multiprocessing-fork":
        import multiprocessing.spawn

        kwds = {}
        for arg in argv[2:]:
            name, _, value = arg.partition("=")
            kwds[name] = None if value == "None" else int(value)
        multiprocessing.spawn.spawn_main(**kwds)
        return True
    if "-c" in argv[1:-1] and argv[argv.index("-c") + 1].startswith(_TRACKER):
        exec(argv[argv.index("-c") + 1])  # the resource tracker: multiprocessing's own code
        return True
    return False


if getattr(sys, "frozen", False):
    if _multiprocessing_child(sys.argv):
        sys.exit(0)
    # what PyInstaller's PySide6 run-time hook did, without importing Qt
    os.environ.setdefault("QT_PLUGIN_PATH", os.path.join(sys._MEIPASS, "PySide6", "Qt", "plugins"))

from madohub_memory.cli import main  # noqa: E402  (after the child check: a child never needs the CLI)

if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:] or ["gui"]))
