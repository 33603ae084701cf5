"""``backup [FILE] [--list]`` and ``restore FILE|latest``: copies of the database file.

``restore`` is shared with candidates (``restore ID`` puts a rejected candidate back in the
queue): a whole number is a candidate id, anything else a backup file (``--backup`` forces it).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from madohub_memory.cli.output import emit, open_services, table
from madohub_memory.core.errors import StorageError
from madohub_memory.core.paths import default_db_path


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("backup", parents=[common], help="copy the database to a backup file (SQLite backup API)",
                       description="Write a consistent copy of the database while other programs keep using it."
                                   " Without FILE it goes to the backup folder (setting backup.folder), next to"
                                   " the daily backups.")
    p.add_argument("file", nargs="?", metavar="FILE", help="where to write the copy")
    p.add_argument("--list", action="store_true", help="list the backups in the backup folder instead")
    p.set_defaults(handler=_backup)



def _backup(args: argparse.Namespace) -> int:
    with open_services(args, create=False, check=False) as svc:
        if args.list:
            rows = [{"taken_at": b.taken_at, "size": b.size, "path": str(b.path)} for b in svc.backup.list()]
            emit(args, rows, table(rows, ["taken_at", "size", "path"]))
            return 0
        made = svc.backup.create(args.file)
    emit(args, {"path": str(made.path), "size": made.size}, f"backed up to {made.path} ({made.size:,} bytes)")
    return 0


def restore_backup(args: argparse.Namespace) -> int:
    from madohub_memory.services.backup import restore
    from madohub_memory.store import backup as backup_files

    db_path = Path(args.db).expanduser() if args.db else default_db_path()
    folder = backup_files.default_folder(db_path)
    try:
        with open_services(args, create=False, check=False) as svc:
            folder = svc.backup.folder()
    except StorageError:
        pass  # a file too damaged to read its settings: the default folder
    if args.target == "latest":
        found = backup_files.list_backups(folder, backup_files.prefix_for(db_path))
        if not found:
            raise StorageError("There is no backup in {folder} to restore.", folder=folder)
        source = found[0].path
    else:
        source = Path(args.target).expanduser()
    keep = folder / backup_files.backup_name(db_path, "before-restore")
    data = restore(db_path, source, keep)
    note = f" (the previous file is kept as {data['previous_copy']})" if data["previous_copy"] else ""
    emit(args, data, f"restored {db_path} from {source}{note}")
    return 0
