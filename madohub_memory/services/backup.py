"""Backups, restore and the health check (``madohub-memory backup|restore|doctor``).

A daily backup runs as the background job ``backup`` (the daemon, the dashboard, and the
drain a Claude Code hook starts): when the newest backup in ``backup.folder`` is a day old
it writes a new one and keeps the newest ``backup.keep``.
"""

from __future__ import annotations

import calendar
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from madohub_memory.core.errors import StorageError
from madohub_memory.store import backup as backup_files
from madohub_memory.store import health
from madohub_memory.store.backup import BackupFile

if TYPE_CHECKING:
    from madohub_memory.services import Services

DAY_S = 24 * 3600


class BackupService:
    def __init__(self, svc: Services) -> None:
        self.svc = svc

    def _on_server(self) -> bool:
        return self.svc.store.backend != "sqlite"

    def folder(self) -> Path:
        configured = str(self.svc.settings.get("backup.folder") or "").strip()
        return Path(configured).expanduser() if configured else backup_files.default_folder(self.svc.store.path)

    def create(self, target: str | Path | None = None) -> BackupFile:
        """Back up now, to ``target`` or to a new dated file in the backup folder."""
        if str(self.svc.store.path) == ":memory:":
            raise StorageError("An in-memory database cannot be backed up.")
        if self._on_server():
            raise StorageError(
                "{path} is on a PostgreSQL server: back it up with the server's tools (pg_dump), or copy it"
                " into a file with `madohub-memory export`.", path=self.svc.store.path,
            )
        path = Path(target).expanduser() if target else self.folder() / backup_files.backup_name(self.svc.store.path)
        if path.resolve() == self.svc.store.path.resolve():
            raise StorageError("The backup must go to another file than the database itself.")
        return backup_files.write_backup(self.svc.store.conn, path)

    def list(self) -> list[BackupFile]:
        if self._on_server():
            return []
        return backup_files.list_backups(self.folder(), backup_files.prefix_for(self.svc.store.path))

    def daily(self, now: float | None = None) -> int:
        """The background job: back up when the newest backup is a day old; 1 if one was written."""
        if not self.svc.settings.get("backup.enabled") or str(self.svc.store.path) == ":memory:" \
                or self._on_server():
            return 0
        now = time.time() if now is None else now
        newest = self.list()
        if newest:
            taken = calendar.timegm(time.strptime(newest[0].taken_at, "%Y%m%dT%H%M%SZ"))
            if now - taken < DAY_S:
                return 0
        self.create()
        backup_files.rotate(self.folder(), int(self.svc.settings.get("backup.keep")),
                            backup_files.prefix_for(self.svc.store.path))
        return 1

    def doctor(self) -> dict[str, Any]:
        """Every check with its outcome; ``ok`` when the file is sound."""
        report = health.check(self.svc.store)
        if self._on_server():
            report["latest_backup"] = None
            return report
        newest = self.list()
        report["checks"].append({
            "check": "backups", "ok": bool(newest),
            "detail": (f"{len(newest)} in {self.folder()}, newest {newest[0].taken_at}" if newest
                       else f"none yet in {self.folder()} (`madohub-memory backup` writes one)"),
        })
        report["latest_backup"] = str(newest[0].path) if newest else None
        return report


def restore(db_path: Path, source: Path, keep_current: Path | None) -> dict[str, Any]:
    """Replace the database at ``db_path`` with ``source``; the current file is first copied
    to ``keep_current`` (when it can still be read)."""
    from madohub_memory.store import Store

    kept = None
    if db_path.exists() and keep_current is not None:
        try:
            with Store(db_path, check=False, migrate_schema=False) as store:
                kept = backup_files.write_backup(store.conn, keep_current).path
        except StorageError:
            kept = None  # the current file is too damaged to copy: the restore replaces it
    backup_files.restore_into(source, db_path)
    with Store(db_path):  # brings an older backup up to the current schema
        pass
    return {"restored_from": str(source), "database": str(db_path),
            "previous_copy": str(kept) if kept else None}
