"""``sweep [--now ISO]``: run the archive, auto-approve and decay jobs once."""

from __future__ import annotations

import argparse

from madohub_memory.cli.output import emit, open_services
from madohub_memory.core.clock import Clock, parse_iso


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("sweep", parents=[common], help="run archive, auto-approve and decay jobs once")
    p.add_argument("--now", metavar="ISO", help="pretend the current time is ISO (for tests)")
    p.add_argument("--force", action="store_true", help="run the once-a-day decay scan even if it ran today")
    p.set_defaults(handler=_sweep)


def _sweep(args: argparse.Namespace) -> int:
    clock = Clock(parse_iso(args.now)) if args.now else Clock()
    with open_services(args, clock, create=False) as svc:
        report = svc.sweep.run(force=args.force)
    emit(args, report, "; ".join(f"{key.replace('_', ' ')}: {_part(value)}" for key, value in report.items()))
    return 0


def _part(value: object) -> str:
    """One report entry as words: counts of what each rule touched, not a Python dict."""
    if isinstance(value, list):
        return str(len(value))
    if not isinstance(value, dict):
        return str(value)
    if value.get("skipped") or value.get("ran") is False:
        last = value.get("last_run")
        return f"not due (last run {last})" if last else "not due"
    counts = {k: v for k, v in value.items() if k not in ("skipped", "ran", "last_run", "next_run")}
    return ", ".join(f"{k.replace('_', ' ')} {len(v) if isinstance(v, list) else v}" for k, v in counts.items())
