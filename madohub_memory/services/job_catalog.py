"""What each background job does, given an open ``Services``; returns how many items it
processed, or, for a job that does several things (the sweep), how many per action.

The jobs are use cases like any other (the dashboard's "run now", ``madohub-memory sweep``
and the scheduler all run them through :class:`~madohub_memory.services.jobs.JobsService`);
:mod:`madohub_memory.workers` only decides when.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from stat import S_ISREG
from typing import TYPE_CHECKING

from madohub_memory.store import ingest as ingest_rows

if TYPE_CHECKING:
    from madohub_memory.services import Services

DEFAULT_WATCH = "~/.claude/projects"


@dataclass(frozen=True)
class JobSpec:
    name: str
    run: Callable[[Services], int | dict[str, int]]
    interval_setting: str
    description: str


def drain(svc: Services) -> int:
    """Extract candidates from every pending turn (claimed, so never twice).

    Not while another process imports (its progress row says so): that import extracts its
    own turns, and a second extraction beside it (in the dashboard's own process, most often)
    would take the CPU a person reviewing meanwhile needs; measured beside a 6,000-line
    import, keys 100 ms apart, load 11: 5 of 76 decisions stored after more than 2 s with it,
    none without. The next round finds what is left."""
    from madohub_memory.services.progress import running
    from madohub_memory.store.liveness import process_identity

    here = process_identity()
    if any(r["work"] == "import" and not r["owner"].startswith(here + "|") for r in running(svc)):
        return 0
    return int(svc.ingest.drain()["turns"])


def watch_folders(svc: Services) -> list[str]:
    """The folders set in ``workers.watch_paths``, else those of the agents used here: Claude
    Code's projects and Codex's sessions (``$CODEX_HOME/sessions``) when they exist."""
    configured = list(svc.settings.get("workers.watch_paths") or [])
    if configured:
        return [os.path.expanduser(p) for p in configured]
    from madohub_memory.agents.codex.sessions import default_sessions_folder

    defaults = [os.path.expanduser(DEFAULT_WATCH), str(default_sessions_folder())]
    return [folder for folder in defaults if os.path.isdir(folder)]


def changed_files(svc: Services) -> list[str]:
    """Session files under the watched folders that are new or changed since their last read."""
    known = {row["path"]: row for row in ingest_rows.files(svc.store)}
    changed: list[str] = []
    for folder in watch_folders(svc):
        for root, dirs, names in os.walk(folder):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for name in sorted(names):
                if not name.endswith(".jsonl"):
                    continue
                path = os.path.realpath(os.path.join(root, name))
                try:
                    stat = os.stat(path)
                except OSError:
                    continue
                if not S_ISREG(stat.st_mode):
                    continue  # a pipe or a device would hang the import
                row = known.get(path)
                if row is None or row["size"] != stat.st_size or row["mtime"] != stat.st_mtime:
                    changed.append(path)
    return changed


def watch(svc: Services) -> int:
    """Import new lines of watched transcript files (extraction runs on them right away)."""
    if not svc.settings.get("workers.watch_enabled"):
        return 0
    files = changed_files(svc)
    if not files:
        return 0
    summary = svc.ingest.ingest_paths(files)
    return int(summary["turns"]["new"])


def sweep(svc: Services) -> dict[str, int]:
    """Archive stale pending candidates, run auto-approve (when enabled), decay approved
    memory and decision memory (once a day): how many each of them touched."""
    from madohub_memory.services.sweep import sweep_counts

    return sweep_counts(svc.sweep.run())


def backup(svc: Services) -> int:
    """Back the database up when the newest backup is a day old (keeps ``backup.keep``)."""
    return int(svc.backup.daily())


def reembed(svc: Services) -> int:
    """Embed active memories lacking a vector of the chosen model; switch recall to it when none is left."""
    return svc.embedding.reembed()


JOBS: dict[str, JobSpec] = {
    spec.name: spec
    for spec in [
        JobSpec("drain", drain, "workers.drain_interval", "extract candidates from new turns"),
        JobSpec("watch", watch, "workers.watch_interval", "import appended lines of watched transcripts"),
        JobSpec("sweep", sweep, "workers.sweep_interval",
                "archive stale candidates, auto-approve, decay and archive unused memories"),
        JobSpec("backup", backup, "workers.backup_interval", "daily backup of the database, keeping backup.keep"),
        JobSpec("reembed", reembed, "workers.reembed_interval",
                "embed memories with the chosen model, then switch recall to it"),
    ]
}
