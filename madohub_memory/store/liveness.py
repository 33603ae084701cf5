"""Who holds a claim or a run mark, and whether that process is still alive.

A turn claim (``turns.claimed_by``) or a job's run mark (``jobs.running_by``) names its
process as ``host|pid|start|nonce``: ``start`` is the process's start time (clock ticks
since boot, with the boot id, from ``/proc``), so a pid reused by another program after
a reboot or a crash is not mistaken for the owner. A mark whose owner is gone is taken
over at once, instead of after a timeout; a mark from another host (a file on a shared
disk) can only be judged by its age.
"""

from __future__ import annotations

import os
from functools import lru_cache

_SEP = "|"


@lru_cache(maxsize=1)
def _boot_id() -> str:
    try:
        with open("/proc/sys/kernel/random/boot_id", encoding="ascii") as handle:
            return handle.read().strip()[:8]
    except OSError:
        return ""


def _start_ticks(pid: int) -> str | None:
    """The start time of ``pid`` (``None`` when the process does not exist or /proc is absent)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            data = handle.read()
    except FileNotFoundError:
        return None
    except OSError:
        return ""
    # The command name (field 2) may hold spaces and parentheses: split after the last ')'.
    fields = data[data.rfind(b")") + 2:].split()
    return fields[19].decode("ascii") if len(fields) > 19 else ""


def process_start(pid: int) -> str:
    """``<boot id>.<start ticks>`` of a running process ('' where that cannot be known)."""
    ticks = _start_ticks(pid)
    return f"{_boot_id()}.{ticks}" if ticks else ""


def _hostname() -> str:
    return os.uname().nodename.replace(_SEP, "_")


_identity: tuple[int, str] | None = None


def process_identity() -> str:
    """``host|pid|start`` of this process (recomputed after a fork)."""
    global _identity
    pid = os.getpid()
    if _identity is None or _identity[0] != pid:
        _identity = (pid, _SEP.join((_hostname(), str(pid), process_start(pid))))
    return _identity[1]


def new_owner() -> str:
    """A claim owner for one worker object of this process: ``host|pid|start|nonce``.

    ``os.uname`` and ``urandom`` rather than ``socket`` and ``uuid``: the Stop hook builds an
    owner on every turn, and those two imports cost it ~10 ms."""
    return f"{process_identity()}{_SEP}{os.urandom(4).hex()}"


def _pid_exists(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # it exists, it is just not ours
    except OSError:
        return True
    return True


def is_alive(owner: str | None) -> bool | None:
    """True/False when the owner's process is known to run / to be gone; ``None`` when it
    cannot be told from here (another host, or an owner string of unknown shape)."""
    if not owner:
        return False
    if _SEP in owner:
        parts = owner.split(_SEP)
        if len(parts) < 3:
            return None
        host, pid_text, start = parts[0], parts[1], parts[2]
    else:  # the older "host:pid:nonce" form
        parts = owner.rsplit(":", 2)
        if len(parts) != 3:
            return None
        host, pid_text, start = parts[0], parts[1], ""
    if host != _hostname():
        return None
    try:
        pid = int(pid_text)
    except ValueError:
        return None
    if not _pid_exists(pid):
        return False
    if start:
        now = process_start(pid)
        if now and now != start:
            return False  # the pid now belongs to another process
    return True


def terminal_session() -> str:
    """The POSIX session this process runs in (a terminal, or an agent's shell), as a stable
    name: every command typed in one terminal, or run by one agent process, shares it."""
    getsid = getattr(os, "getsid", None)
    if getsid is None:
        return f"process{_SEP}{process_identity()}"
    sid = getsid(0)
    return _SEP.join(("terminal", _hostname(), str(sid), process_start(sid)))
