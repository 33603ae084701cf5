"""Background jobs (APScheduler 3.x): drain new turns through extraction, watch transcript
folders for appended lines, and sweep (archive + auto-approve).

What each job does is a use case (:mod:`madohub_memory.services.job_catalog`); this
package only schedules them. They run inside the dashboard process (:func:`start_workers`)
and headless (``madohub-memory worker``). Every run opens its own
:class:`~madohub_memory.services.Services` (a Store is used by one thread at a time); turn
claims keep two processes from extracting the same turn twice.
"""

from madohub_memory.workers.scheduler import build_scheduler, run_job, start_workers

__all__ = ["build_scheduler", "run_job", "start_workers"]
