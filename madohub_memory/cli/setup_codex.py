"""``setup codex``: not built yet (see setup_cmd.py for what every target does)."""

from __future__ import annotations

import argparse

from madohub_memory.core.errors import UserError


def run(args: argparse.Namespace) -> int:
    raise UserError("setup codex is not available in this version.")
