"""``gui``: the dashboard (Qt is imported only when this command runs)."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("gui", parents=[common], help="open the review dashboard")
    p.add_argument("--demo", action="store_true", help="use a copy of the bundled demo data")
    p.add_argument("--screenshot", metavar="PNG", help="render the window offscreen to PNG and exit")
    p.add_argument("--tab", choices=["pending", "approved", "advanced", "decisions"], default=None)
    p.add_argument("--lang", choices=["en", "zh_CN"], default=None, help="interface language")
    p.set_defaults(handler=_gui)


def _gui(args: argparse.Namespace) -> int:
    from madohub_memory.gui.app import run

    return run(args)
