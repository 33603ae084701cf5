"""What each background job does, given an open ``Services``; returns how many items it processed.

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
    run: Callable[[Services], int]
    interval_setting: str
    description: str


def drain(svc: Services) -> int:
    """Extract candidates from every pending turn (claimed, so never twice)."""
    return int(svc.ingest.drain()["turns"])


def watch_folders(svc: Services) -> list[str]:
    configured = list(svc.settings.get("workers.watch_paths") or [])
    if configured:
        return [os.path.expanduser(p) for p in configured]
    default = os.path.expanduser(DEFAULT_WATCH)
    return [default] if os.path.isdir(default) else []


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


def sweep(svc: Services) -> int:
    """Archive stale pending candidates and run auto-approve (when enabled)."""
    report = svc.sweep.run()
    return sum(len(v) if isinstance(v, list) else int(v or 0)
               for k, v in report.items() if k in ("archived", "auto_approved"))


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
        JobSpec("sweep", sweep, "workers.sweep_interval", "archive stale candidates, auto-approve"),
        JobSpec("backup", backup, "workers.backup_interval", "daily backup of the database, keeping backup.keep"),
        JobSpec("reembed", reembed, "workers.reembed_interval",
                "embed memories with the chosen model, then switch recall to it"),
    ]
}
