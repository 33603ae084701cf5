"""``worker [--once]``: the background jobs without the dashboard (daemon, or one pass and exit)."""

from __future__ import annotations

import argparse
import signal
import threading
from typing import Any

from madohub_memory.cli.output import emit, open_services
from madohub_memory.core.paths import default_database


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("worker", parents=[common], help="run the background jobs (extraction, folder watch, sweep)")
    p.add_argument("--once", action="store_true", help="run every job once, print their status and exit")
    p.add_argument("--job", action="append", metavar="NAME", help="with --once: only this job (repeatable)")
    p.set_defaults(handler=_worker)


def _worker(args: argparse.Namespace) -> int:
    if args.once:
        with open_services(args) as svc:
            names = args.job or svc.jobs.names()
            results = [svc.jobs.run_now(name) for name in names]
            data: dict[str, Any] = {"results": results, "jobs": svc.jobs.status()}
        text = "\n".join(f"{r['name']}: {_outcome(r)}" for r in results)
        emit(args, data, text)
        return 1 if any(r["error"] for r in results) else 0
    from madohub_memory.services.stopping import request_stop
    from madohub_memory.workers import start_workers

    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    scheduler = start_workers(args.db or default_database())
    try:
        stop.wait()
    finally:
        request_stop()  # a running job ends at its next safe point, so the wait below is short
        scheduler.shutdown(wait=True)
    return 0


def _outcome(result: dict[str, Any]) -> str:
    """One job's run in words: skipped, its error, or what it did (per action when it says)."""
    if result.get("skipped"):
        return str(result["skipped"])
    if result["error"]:
        return f"error: {result['error']}"
    counts = {k: v for k, v in (result.get("counts") or {}).items() if v}
    if result.get("counts") is not None:
        return ", ".join(f"{k.replace('_', ' ')} {v:,}" for k, v in counts.items()) or "nothing to change"
    return f"{result['processed']} processed"
