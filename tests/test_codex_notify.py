"""``madohub-memory codex-notify JSON``: what Codex runs after each turn (set by ``setup codex``).

Run as Codex runs it (a process, the notification as last argument): it imports the
session's rollout, always exits 0, logs to hook.log, and runs the person's own notify too.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_codex_ingest import SESSION, sessions_tree

from madohub_memory.agents.codex.sessions import find_rollout, parse_notice
from madohub_memory.services import Services

TURN = "01a23278-a11d-7402-a11a-8e0ad23fab8d"  # the fixture's second turn


def notice(thread: str = SESSION, **extra: object) -> str:
    return json.dumps({"type": "agent-turn-complete", "thread-id": thread, "turn-id": TURN,
                       "cwd": "/home/dev/src/shop", "client": "codex_exec",
                       "input-messages": ["Add a CHANGELOG entry."], "last-assistant-message": "Done.", **extra})


def notify(db: Path, codex_home: Path, *args: str, inline: bool = True) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CODEX_HOME": str(codex_home), "MADOHUB_HOOK_LOG": str(db.parent / "hook.log")}
    env.pop("MADOHUB_HOOK_INLINE", None)
    if inline:
        env["MADOHUB_HOOK_INLINE"] = "1"  # extract in the process: the test reads the result at once
    return subprocess.run([sys.executable, "-m", "madohub_memory", "codex-notify", "--db", str(db), *args],
                          capture_output=True, text=True, env=env, timeout=180, check=False)


def wait_until(check, timeout: float = 60.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_a_finished_turn_is_imported_and_extracted(tmp_path: Path) -> None:
    sessions_tree(tmp_path / "codex")
    db = tmp_path / "memory.db"
    done = notify(db, tmp_path / "codex", notice())
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    with Services.open(db) as svc:
        assert svc.store.query_one("SELECT COUNT(*) FROM turns")[0] == 17
        assert any(c.namespace == "workspace:shop" and c.kind == "postmortem" for c in svc.review.pending())
    assert f"codex-notify {SESSION}: turns {{'new': 17, 'known': 0}}" in (tmp_path / "hook.log").read_text()
    again = notify(db, tmp_path / "codex", notice())  # the same turn notified twice: nothing new
    assert again.returncode == 0
    with Services.open(db) as svc:
        assert svc.store.query_one("SELECT COUNT(*) FROM turns")[0] == 17


@pytest.mark.parametrize("argument", ["", "{not json", "[1]", json.dumps({"type": "agent-turn-complete"}),
                                      notice(thread="../../etc/passwd"), notice(thread="0" * 36)])
def test_bad_notifications_exit_0_and_are_logged(tmp_path: Path, argument: str) -> None:
    sessions_tree(tmp_path / "codex")
    done = notify(tmp_path / "memory.db", tmp_path / "codex", argument)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    log = (tmp_path / "hook.log").read_text()
    assert "codex-notify" in log and ("error" in log or "no rollout file" in log)
    assert not (tmp_path / "memory.db").exists() or "turns {'new'" not in log


def test_other_notification_types_are_ignored(tmp_path: Path) -> None:
    done = notify(tmp_path / "memory.db", tmp_path / "codex", json.dumps({"type": "approval-requested"}))
    assert done.returncode == 0 and not (tmp_path / "memory.db").exists()


def test_the_persons_own_notify_still_runs_with_the_same_argument(tmp_path: Path) -> None:
    sessions_tree(tmp_path / "codex")
    seen = tmp_path / "their-notify.json"
    theirs = [sys.executable, "-c", f"import sys, pathlib; pathlib.Path({str(seen)!r}).write_text(sys.argv[-1])"]
    argument = notice()
    done = notify(tmp_path / "memory.db", tmp_path / "codex", "--then", *theirs, argument)
    assert done.returncode == 0
    wait_until(lambda: seen.exists() and seen.read_text() == argument)


def test_the_rollout_is_found_by_thread_id_newest_day_first(tmp_path: Path) -> None:
    path = sessions_tree(tmp_path / "codex")
    assert find_rollout(SESSION, tmp_path / "codex") == path
    assert find_rollout(SESSION.upper(), tmp_path / "codex") == path
    assert find_rollout("*", tmp_path / "codex") is None
    assert parse_notice(json.dumps({"type": "other"})) is None
    with pytest.raises(ValueError):
        parse_notice(notice(thread="a b"))
