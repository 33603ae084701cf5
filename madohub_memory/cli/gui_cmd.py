"""``gui``: the dashboard (Qt is imported only when this command runs).

``--detach`` starts it as its own process, detached from the caller's terminal and process
group, and returns at once with its process id: an agent's slash command or a launcher
must not wait for a window to close (and Claude Code refuses a command ending in ``&``).
The database goes to that process in ``$MADOHUB_DB``, never on its command line.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("gui", parents=[common], help="open the review dashboard")
    p.add_argument("--demo", action="store_true", help="use a copy of the bundled demo data")
    p.add_argument("--screenshot", metavar="PNG", help="render the window offscreen to PNG and exit")
    p.add_argument("--tab", choices=["pending", "approved", "advanced", "decisions"], default=None)
    p.add_argument("--lang", choices=["en", "zh_CN"], default=None, help="interface language")
    p.add_argument("--detach", action="store_true",
                   help="open the dashboard in the background and return at once (prints its process id)")
    p.set_defaults(handler=_gui)


def _gui(args: argparse.Namespace) -> int:
    if not args.screenshot:
        _require_display()
    if args.detach and not args.screenshot:
        return _detached(args)
    from madohub_memory.gui.app import run

    return run(args)


def _require_display() -> None:
    """One sentence, before Qt aborts the process with its own messages (and before ``--detach``
    reports a window opening that dies at once): there is no display to show a window on."""
    if not sys.platform.startswith("linux") or any(
            os.environ.get(name) for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")):
        return
    from madohub_memory.core.errors import UserError

    raise UserError("There is no display here (DISPLAY and WAYLAND_DISPLAY are unset: an SSH session?), so the "
                    "dashboard cannot open; review with madohub-memory pending, approve ID and reject ID, or "
                    "render it with gui --screenshot FILE.png.")


def _detached(args: argparse.Namespace) -> int:
    program = [sys.executable] if getattr(sys, "frozen", False) else [sys.executable, "-m", "madohub_memory"]
    options = [*(["--tab", args.tab] if args.tab else []), *(["--lang", args.lang] if args.lang else []),
               *(["--demo"] if args.demo else [])]
    env = {**os.environ, "MADOHUB_DB": args.db} if args.db else None
    child = subprocess.Popen([*program, "gui", *options], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, start_new_session=True, close_fds=True, env=env)
    sys.stdout.write(f"Opening the MadoHub Memory dashboard (process {child.pid}).\n")
    return 0
