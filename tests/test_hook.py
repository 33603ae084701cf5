"""``madohub-memory hook``: Claude Code hook events on stdin, always exit 0, never block the agent."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_ingest_helpers import CWD, SESSION, cc_assistant, cc_user, small_session, text, write_jsonl

from madohub_memory.services import Services


def hook(db: Path, payload: str | bytes, log: Path, **env_extra: str) -> tuple[subprocess.CompletedProcess[bytes], float]:
    env = {**os.environ, "MADOHUB_DB": str(db), "MADOHUB_HOOK_LOG": str(log)}
    env.pop("MADOHUB_HOOK_INLINE", None)
    env.update(env_extra)
    data = payload.encode() if isinstance(payload, str) else payload
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "madohub_memory", "hook"], input=data, capture_output=True,
                          env=env, timeout=120)
    return done, time.monotonic() - started


def event(name: str, transcript: Path | None = None, **extra: object) -> str:
    data: dict[str, object] = {"session_id": SESSION, "hook_event_name": name, "cwd": CWD, **extra}
    if transcript is not None:
        data["transcript_path"] = str(transcript)
    return json.dumps(data)


@pytest.mark.parametrize("payload", [b"", b"garbage{", b"[1, 2]", b"\xff\xfe\x00", b'{"hook_event_name": "Stop"}',
                                     b'{"hook_event_name": "Stop", "transcript_path": "/no/such/file.jsonl"}'])
def test_garbage_exits_0_quickly_and_is_logged(db_path: Path, tmp_path: Path, payload: bytes) -> None:
    log = tmp_path / "hook.log"
    done, seconds = hook(db_path, payload, log)
    assert done.returncode == 0 and done.stdout == b"" and done.stderr == b""
    assert seconds < 10
    assert "error:" in log.read_text()


def test_unknown_events_are_ignored(db_path: Path, tmp_path: Path) -> None:
    done, _ = hook(db_path, event("Notification", message="hi"), tmp_path / "hook.log")
    assert done.returncode == 0 and done.stdout == b""


def _wait_until_extracted(db: Path, turns: int) -> None:
    """The hook hands extraction to a detached worker process: wait for it to finish."""
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        with Services.open(db) as svc:
            states = dict(svc.store.query("SELECT extract_state, COUNT(*) FROM turns GROUP BY extract_state"))
            running = any(job["running"] for job in svc.jobs.status())
        if sum(states.values()) == turns and not states.get("pending") and not states.get("claimed") and not running:
            return
        time.sleep(0.2)
    raise AssertionError(f"extraction did not finish: {states}")


def test_stop_ingests_the_new_lines_and_extracts_the_last_exchange(db_path: Path, tmp_path: Path) -> None:
    transcript = write_jsonl(tmp_path / "proj" / f"{SESSION}.jsonl", small_session())
    log = tmp_path / "hook.log"
    done, _ = hook(db_path, event("Stop", transcript, stop_hook_active=False), log)
    assert done.returncode == 0, log.read_text() if log.exists() else done.stderr
    _wait_until_extracted(db_path, 6)
    with open(transcript, "a", encoding="utf-8") as handle:
        for record in [cc_user("u9", "We decided to use Postgres because SQLite locks under load."),
                       cc_assistant("a9", "m9", [text("Understood, switching the demo-app to Postgres.")])]:
            handle.write(json.dumps(record) + "\n")
    done, _ = hook(db_path, event("Stop", transcript), log)
    assert done.returncode == 0 and done.stdout == b""
    _wait_until_extracted(db_path, 8)
    with Services.open(db_path) as svc:
        assert svc.store.query_one("SELECT COUNT(*) FROM turns")[0] == 8
        states = dict(svc.store.query("SELECT extract_state, COUNT(*) FROM turns GROUP BY extract_state"))
        assert states == {"done": 7, "skipped": 1}
        decisions = [c for c in svc.review.pending() if c.kind == "decision"]
        assert [c.turn_ids for c in decisions] == [["u9"]]
        assert decisions[0].namespace == "workspace:demo-app" and decisions[0].source == "turn"
        assert {r["name"]: r["runs"] for r in svc.jobs.status()}["drain"] == 2  # the detached workers
    assert "Stop:" in log.read_text()


def test_pre_compact_runs_the_compaction_pass(db_path: Path, tmp_path: Path) -> None:
    transcript = write_jsonl(tmp_path / f"{SESSION}.jsonl", [
        cc_user("u1", "We decided to use Postgres because SQLite locks under load."),
        cc_assistant("a1", "m1", [text("OK.")]),
    ])
    done, _ = hook(db_path, event("PreCompact", transcript, trigger="auto"), tmp_path / "hook.log",
                   MADOHUB_HOOK_INLINE="1")
    assert done.returncode == 0
    with Services.open(db_path) as svc:
        [candidate] = svc.review.pending()
        assert candidate.source == "compaction" and candidate.turn_ids == ["u1"]
        modes = {r[0] for r in svc.store.query("SELECT extract_mode FROM turns")}
        assert modes == {"compaction"}


def test_session_start_prints_recall_for_the_workspace(db_path: Path, tmp_path: Path) -> None:
    if importlib.util.find_spec("madohub_memory.services.recall") is None:
        pytest.skip("recall is not built yet")
    with Services.open(db_path) as svc:
        result = svc.review.add_manual("The demo-app repo uses pnpm, not npm.", "fact", "workspace:demo-app")
        svc.review.approve(result.candidate_id)
        other = svc.review.add_manual("The billing repo deploys on Fridays.", "fact", "workspace:billing")
        svc.review.approve(other.candidate_id)
    done, _ = hook(db_path, event("SessionStart", source="startup"), tmp_path / "hook.log")
    assert done.returncode == 0
    output = done.stdout.decode()
    assert "The demo-app repo uses pnpm, not npm." in output and "billing" not in output
