"""Where Codex keeps its sessions, and what its turn-completion notification says.

Codex runs the ``notify`` command of its config after every finished turn with one JSON
argument: ``{"type": "agent-turn-complete", "thread-id", "turn-id", "cwd",
"input-messages", "last-assistant-message", "client"}`` (0.171). It names the session
(thread) but not its file, so the rollout is looked up under ``$CODEX_HOME/sessions``:
``YYYY/MM/DD/rollout-<time>-<thread-id>.jsonl``, newest day first.

Codex writes its rollout lines from a writer task of its own, so the notification can
arrive before the turn's last lines are on disk: :func:`wait_for_turn` waits (briefly, and
only in the detached notify process, never in Codex) until the turn's ``task_complete``
line is there.
"""

from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path

from madohub_memory.agents.codex.setup import codex_home

_ID = re.compile(r"^[0-9A-Za-z][0-9A-Za-z-]{7,63}$")
_TAIL_BYTES = 256 * 1024
TURN_WAIT_S = 5.0


@dataclass(frozen=True)
class TurnNotice:
    thread_id: str
    turn_id: str | None
    cwd: str | None


def parse_notice(argument: str) -> TurnNotice | None:
    """The notice in ``argument`` (None for another notification type); ValueError when it is
    not the JSON Codex sends."""
    data = json.loads(argument)
    if not isinstance(data, dict):
        raise ValueError("the notification is not a JSON object")
    if data.get("type") != "agent-turn-complete":
        return None
    thread = data.get("thread-id")
    if not isinstance(thread, str) or not _ID.match(thread):
        raise ValueError(f"the notification names no valid thread-id ({thread!r})")
    turn = data.get("turn-id")
    cwd = data.get("cwd")
    return TurnNotice(thread, turn if isinstance(turn, str) else None, cwd if isinstance(cwd, str) else None)


def sessions_folders(home: Path | None = None) -> list[Path]:
    """Codex's session folders that exist (``sessions``, then ``archived_sessions``)."""
    base = home or codex_home()
    return [p for p in (base / "sessions", base / "archived_sessions") if p.is_dir()]


def default_sessions_folder() -> Path:
    return codex_home() / "sessions"


def _days(folder: Path) -> list[Path]:
    """``YYYY/MM/DD`` folders, newest first (and the folder itself, for flat layouts)."""
    days: list[Path] = []
    for year in sorted((p for p in folder.iterdir() if p.is_dir() and p.name.isdigit()), reverse=True):
        for month in sorted((p for p in year.iterdir() if p.is_dir()), reverse=True):
            days.extend(sorted((p for p in month.iterdir() if p.is_dir()), reverse=True))
    return [*days, folder]


def find_rollout(thread_id: str, home: Path | None = None) -> Path | None:
    """The rollout file of a Codex session (thread), or None."""
    if not _ID.match(thread_id):
        return None
    suffix = f"-{thread_id.lower()}.jsonl"
    for folder in sessions_folders(home):
        for day in _days(folder):
            try:
                names = os.listdir(day)
            except OSError:
                continue
            for name in names:
                if name.startswith("rollout-") and name.lower().endswith(suffix):
                    return day / name
    return None


def turn_written(path: Path, turn_id: str) -> bool:
    """Whether the rollout's tail holds the end of the turn (its ``task_complete`` line)."""
    try:
        with open(path, "rb") as handle:
            handle.seek(max(0, os.path.getsize(path) - _TAIL_BYTES))
            tail = handle.read()
    except OSError:
        return True  # the import reports the problem
    needle = turn_id.encode()
    return any(b"task_complete" in line and needle in line for line in tail.splitlines() if line.endswith(b"}"))


def wait_for_turn(path: Path, turn_id: str | None, timeout: float = TURN_WAIT_S) -> bool:
    """Wait until the turn's last line is written (True), or ``timeout`` seconds (False: the
    import then reads what is there, and the next one reads the rest)."""
    if not turn_id:
        return True
    deadline = time.monotonic() + timeout
    while not turn_written(path, turn_id):
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.05)
    return True
