"""Scheduling the jobs with APScheduler's ``BackgroundScheduler`` (threads, no event loop)."""

from __future__ import annotations

import logging
import os
from datetime import UTC, datetime, timedelta
from typing import Any

from apscheduler.schedulers.background import BackgroundScheduler

from madohub_memory.core.clock import Clock
from madohub_memory.services.job_catalog import JOBS

log = logging.getLogger(__name__)


def run_job(db_path: str | os.PathLike[str], name: str, clock: Clock | None = None) -> dict[str, Any]:
    """Run one job in its own ``Services`` (safe from any thread); errors are recorded, not raised."""
    from madohub_memory.services import Services

    with Services.open(db_path, clock, origin="worker") as svc:
        return svc.jobs.run_now(name)


def _safe_run(db_path: str, name: str) -> None:
    try:
        run_job(db_path, name)
    except Exception:  # the scheduler thread must survive anything
        log.exception("job %s crashed", name)


def build_scheduler(db_path: str | os.PathLike[str], *, first_run_delay: float = 2.0) -> BackgroundScheduler:
    """A scheduler with every job at its configured interval (not started)."""
    from madohub_memory.services import Services

    with Services.open(db_path) as svc:
        intervals = {name: int(svc.settings.get(spec.interval_setting)) for name, spec in JOBS.items()}
    scheduler = BackgroundScheduler(timezone=UTC)
    start = datetime.now(UTC) + timedelta(seconds=first_run_delay)
    for name, seconds in intervals.items():
        scheduler.add_job(
            _safe_run, "interval", seconds=seconds, args=[str(db_path), name], id=name, name=name,
            next_run_time=start, max_instances=1, coalesce=True, misfire_grace_time=seconds,
        )
    return scheduler


def start_workers(db_path: str | os.PathLike[str]) -> BackgroundScheduler:
    """Start the jobs in background threads (the dashboard calls this; stop with ``shutdown()``)."""
    scheduler = build_scheduler(db_path)
    scheduler.start()
    return scheduler
