"""Background job status and "run now", shared by the dashboard, the CLI and the workers."""

from __future__ import annotations

import logging
import time
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from madohub_memory.core.clock import parse_iso, to_iso
from madohub_memory.core.errors import NotFoundError, UserError
from madohub_memory.services.job_catalog import JOBS, JobSpec
from madohub_memory.store import jobs as job_rows
from madohub_memory.store.liveness import is_alive

if TYPE_CHECKING:
    from madohub_memory.services import Services

log = logging.getLogger(__name__)
RUN_STALE = timedelta(hours=1)  # a run mark of another host older than this is taken over


class JobsService:
    def __init__(self, svc: Services) -> None:
        self.svc = svc

    def _spec(self, name: str) -> JobSpec:
        if name not in JOBS:
            raise NotFoundError(
                "No job named {name!r}: use one of {choices}.", name=name, choices=', '.join(JOBS),
            )
        return JOBS[name]

    def names(self) -> list[str]:
        return list(JOBS)

    def status(self) -> list[dict[str, Any]]:
        """One row per job: name, last_run, next_run, processed (and ``counts`` per action
        for a job that reports them, else ``None``), last_error, running."""
        rows = job_rows.all_rows(self.svc.store)
        stale = to_iso(self.svc.clock.now() - RUN_STALE)
        out = []
        for name, spec in JOBS.items():
            row = rows.get(name, {})
            running_since = row.get("running_since")
            alive = is_alive(row.get("running_by")) if row.get("running_by") else False
            out.append({
                "name": name,
                "description": spec.description,
                "last_run": row.get("last_run"),
                "next_run": row.get("next_run"),
                "processed": row.get("processed", 0),
                "counts": row.get("counts"),
                "total_processed": row.get("total_processed", 0),
                "runs": row.get("runs", 0),
                "last_error": row.get("last_error"),
                "last_error_at": row.get("last_error_at"),
                "last_duration_ms": row.get("last_duration_ms"),
                "running": bool(alive) or (alive is None and running_since is not None and running_since >= stale),
            })
        return out

    def run_now(self, name: str) -> dict[str, Any]:
        """Run one job here and record its outcome; skipped when another process is running it."""
        spec = self._spec(name)
        store = self.svc.store
        owner = self.svc.ingest.owner
        now = self.svc.clock.now()
        # A run mark names its process: a dead owner's mark is taken over now, a live one's
        # never (however long it runs), one from another host after RUN_STALE.
        current = (job_rows.get(store, name) or {}).get("running_by")
        alive = is_alive(current) if current and current != owner else False
        orphan = current if current and alive is False else None
        if alive is True or not job_rows.try_start(
                store, name, owner, to_iso(now), to_iso(now - RUN_STALE), orphan=orphan):
            return {"name": name, "skipped": "already running in another process", "processed": 0, "error": None}
        started = time.monotonic()
        processed = 0
        counts: dict[str, int] | None = None
        error: str | None = None
        try:
            done = spec.run(self.svc)
            if isinstance(done, dict):  # several actions: each counted, and their sum
                counts = {key: int(value) for key, value in done.items()}
                processed = sum(counts.values())
            else:
                processed = int(done)
        except UserError as exc:  # a state the user can fix (model unreachable...): its sentence, no traceback
            log.warning("job %s: %s", name, exc)
            error = str(exc)
        except Exception as exc:
            log.exception("job %s failed", name)
            error = f"{type(exc).__name__}: {exc}"
        interval = int(self.svc.settings.get(spec.interval_setting))
        finished = self.svc.clock.now()
        job_rows.finish(
            store, name, owner, now=to_iso(finished), next_run=to_iso(finished + timedelta(seconds=interval)),
            processed=processed, error=error, duration_ms=int((time.monotonic() - started) * 1000), counts=counts,
        )
        result: dict[str, Any] = {"name": name, "processed": processed, "error": error}
        if counts is not None:
            result["counts"] = counts
        return result

    def run_all(self) -> list[dict[str, Any]]:
        return [self.run_now(name) for name in self.names()]

    def set_next_run(self, name: str, when: str | None) -> None:
        self._spec(name)
        job_rows.set_next_run(self.svc.store, name, to_iso(parse_iso(when)) if when else None)
