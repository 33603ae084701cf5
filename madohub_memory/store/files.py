"""Private files: the database, its WAL, backups, exports and logs are 0600 in 0700 folders.

Memories are personal (preferences, project rules, sometimes a name or an address): other
accounts on the machine must not read them. Files are created with the private mode from
the start (never created readable and tightened later), and written through a private
``.part`` file that is renamed into place, so a reader never sees half a file. A ``.part``
left by a killed writer names its process and is removed by the next writer.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from madohub_memory.store.liveness import process_identity

FILE_MODE = 0o600
DIR_MODE = 0o700
_PART = ".part"


def make_private(fd: int) -> None:
    """0600 on an open file (it may have existed with another mode); a no-op where the
    platform has no ``fchmod`` (Windows keeps files private through the profile folder)."""
    if hasattr(os, "fchmod"):
        os.fchmod(fd, FILE_MODE)


def ensure_private_dir(folder: Path) -> None:
    """Create ``folder`` (and any missing parent) as 0700; existing folders are left alone."""
    missing: list[Path] = []
    current = folder
    while not current.exists():
        missing.append(current)
        if current.parent == current:
            break
        current = current.parent
    for path in reversed(missing):
        try:
            path.mkdir(mode=DIR_MODE)
        except FileExistsError:
            continue
        os.chmod(path, DIR_MODE)  # mkdir's mode is filtered by the umask


def tighten(path: Path) -> None:
    """Take group and other access away from a file or folder we own (best effort)."""
    try:
        info = path.stat()
        if hasattr(os, "geteuid") and info.st_uid != os.geteuid():
            return
        if stat.S_IMODE(info.st_mode) & 0o077:
            os.chmod(path, stat.S_IMODE(info.st_mode) & ~0o077)
    except OSError:
        pass


def create_private(path: Path) -> bool:
    """Create an empty 0600 file unless it exists; True when this call created it."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    except FileExistsError:
        return False
    os.close(fd)
    return True


def _owner_token() -> str:
    return process_identity().split("|", 1)[1].replace("|", "-")  # pid-start


def part_path(target: Path) -> Path:
    """The private temporary file a writer of ``target`` fills before renaming it."""
    return target.with_name(f"{target.name}.{_owner_token()}{_PART}")


def remove_stale_parts(target: Path) -> list[Path]:
    """Delete ``.part`` files of ``target`` whose writer process is gone; return them."""
    from madohub_memory.store.liveness import is_alive

    removed: list[Path] = []
    folder = target.parent
    try:
        names = os.listdir(folder)
    except OSError:
        return removed
    prefix = target.name + "."
    for name in names:
        if not (name.startswith(prefix) and name.endswith(_PART)):
            continue
        token = name[len(prefix):-len(_PART)]
        pid, _, start = token.partition("-")
        alive = is_alive(f"{_hostname_of_this()}|{pid}|{start}") if pid.isdigit() else False
        if alive:
            continue
        path = folder / name
        with contextlib.suppress(OSError):
            path.unlink()
            removed.append(path)
    return removed


def _hostname_of_this() -> str:
    return process_identity().split("|", 1)[0]


@contextlib.contextmanager
def private_output(target: Path, mode: str = "w") -> Iterator[IO[Any]]:
    """Write ``target`` through a 0600 ``.part`` file renamed into place on success.

    On any error the ``.part`` file is removed and ``target`` is untouched.
    """
    remove_stale_parts(target)
    part = part_path(target)
    fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE)
    try:
        make_private(fd)
        handle = os.fdopen(fd, mode, encoding="utf-8" if "b" not in mode else None)
    except BaseException:
        os.close(fd)
        part.unlink(missing_ok=True)
        raise
    try:
        with handle:
            yield handle
        os.replace(part, target)
    except BaseException:
        part.unlink(missing_ok=True)
        raise


def open_private_append(path: Path) -> IO[str]:
    """Open a log file for appending, creating it 0600."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, FILE_MODE)
    return os.fdopen(fd, "a", encoding="utf-8")
