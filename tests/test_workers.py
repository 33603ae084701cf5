"""Background jobs: claims across processes, job status, folder watch, the scheduler, ``worker --once``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from datetime import timedelta
from pathlib import Path

import pytest
from cli_runner import invoke
from test_ingest_helpers import (
    SESSION,
    PreferenceExtractor,
    append_jsonl,
    cc_assistant,
    cc_user,
    disable_semantic_dedup,
    small_session,
    text,
    write_jsonl,
)

from madohub_memory.core.clock import Clock, to_iso
from madohub_memory.core.errors import NotFoundError
from madohub_memory.services import Services
from madohub_memory.services.ingest import IngestService
from madohub_memory.store import ingest as ingest_rows
from madohub_memory.workers import build_scheduler

WORKER_SCRIPT = textwrap.dedent("""
    import os, sys, time
    from madohub_memory.services import Services
    from madohub_memory.services.ingest import IngestService

    class LoggingExtractor:
        name = "logging"

        def __init__(self, log_path):
            self.log_path = log_path

        def extract(self, turns, *, mode="turn", namespace=None):
            with open(self.log_path, "a") as handle:
                for turn in turns:
                    handle.write(turn.id + "\\n")
            time.sleep(0.01)
            return []

    db, log_path, go, files = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    with Services.open(db) as svc:
        ingest = IngestService(svc, extractor=LoggingExtractor(log_path))
        open(log_path + ".ready", "w").close()
        while not os.path.exists(go):  # the test says go once both are ready
            time.sleep(0.005)
        if files:  # both import the same files at once, then extract what is new
            ingest.ingest_paths(files)
        counts = ingest.drain(batch_turns=4)
    print(counts["turns"])
""")


def _chat_files(folder: Path, conversations: int, turns: int) -> list[str]:
    paths = []
    for c in range(conversations):
        path = folder / f"chat-{c:03d}.jsonl"
        lines = [{"role": "user" if i % 2 == 0 else "assistant", "content": f"conversation {c} line {i}"}
                 for i in range(turns)]
        write_jsonl(path, lines)
        paths.append(str(path))
    return paths


@pytest.mark.parametrize("import_in_workers", [False, True], ids=["drain", "import-and-drain"])
def test_two_worker_processes_never_extract_the_same_turn_twice(
    svc: Services, db_path: Path, tmp_path: Path, import_in_workers: bool
) -> None:
    files = _chat_files(tmp_path / "chats", conversations=60, turns=4)
    if not import_in_workers:
        summary = IngestService(svc, extractor=PreferenceExtractor()).ingest_paths(files, extract=False)
        assert summary["turns"]["new"] == 240
    script = tmp_path / "worker.py"
    script.write_text(WORKER_SCRIPT)
    go = tmp_path / "go"  # both processes start at the same moment: once both are ready
    extra = files if import_in_workers else []
    procs = [
        subprocess.Popen([sys.executable, str(script), str(db_path), str(tmp_path / f"log{i}.txt"), str(go),
                          *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for i in range(2)
    ]
    deadline = time.monotonic() + 60
    while not all((tmp_path / f"log{i}.txt.ready").exists() for i in range(2)) and time.monotonic() < deadline:
        if any(p.poll() is not None for p in procs):
            break  # a worker failed to start: its stderr is asserted below
        time.sleep(0.005)
    go.touch()
    outputs = [p.communicate(timeout=120) for p in procs]
    assert all(p.returncode == 0 for p in procs), [o[1] for o in outputs]
    logs = [(tmp_path / f"log{i}.txt").read_text().split() if (tmp_path / f"log{i}.txt").exists() else []
            for i in range(2)]
    every = logs[0] + logs[1]
    assert len(every) == 240 and len(set(every)) == 240  # each turn extracted exactly once
    if not import_in_workers:
        assert all(logs), "both workers should have taken part"
        assert [int(o[0]) for o in outputs] == [len(logs[0]), len(logs[1])]
    assert ingest_rows.count_by_state(svc.store) == {"done": 240}
    assert svc.store.query_one("SELECT COUNT(*) FROM turns")[0] == 240


def test_a_dead_workers_claim_is_taken_over_after_it_goes_stale(svc: Services, clock: Clock, tmp_path: Path) -> None:
    files = _chat_files(tmp_path, conversations=1, turns=2)
    IngestService(svc, extractor=PreferenceExtractor()).ingest_paths(files, extract=False)
    now = clock.now()
    stale = to_iso(now - timedelta(minutes=10))
    assert len(ingest_rows.claim_pending(svc.store, "dead", to_iso(now), stale)) == 2
    assert ingest_rows.claim_pending(svc.store, "other", to_iso(now), stale) == []
    clock.advance(minutes=11)
    later = IngestService(svc, extractor=PreferenceExtractor())
    assert later.drain()["turns"] == 2
    assert ingest_rows.count_by_state(svc.store) == {"done": 2}


def test_job_status_run_now_and_errors(svc: Services, tmp_path: Path) -> None:
    disable_semantic_dedup(svc)
    status = {row["name"]: row for row in svc.jobs.status()}
    assert set(status) == {"drain", "watch", "sweep", "backup", "reembed"}
    assert status["drain"]["last_run"] is None and status["drain"]["running"] is False
    svc.ingest._extractor = PreferenceExtractor()
    svc.ingest.ingest_paths([str(write_jsonl(tmp_path / "s.jsonl", small_session()))], extract=False)

    class Broken:
        name = "broken"

        def extract(self, turns, *, mode="turn", namespace=None):
            raise RuntimeError("model crashed")

    good, svc.ingest._extractor = svc.ingest._extractor, Broken()
    failed = svc.jobs.run_now("drain")
    assert failed["processed"] == 0 and "model crashed" in failed["error"]
    row = {r["name"]: r for r in svc.jobs.status()}["drain"]
    assert "model crashed" in row["last_error"] and row["last_run"] == "2026-11-01T09:00:00.000Z"
    svc.ingest._extractor = good
    done = svc.jobs.run_now("drain")
    assert done == {"name": "drain", "processed": 5, "error": None}
    row = {r["name"]: r for r in svc.jobs.status()}["drain"]
    assert row["processed"] == 5 and row["last_error"] is None
    assert row["next_run"] == "2026-11-01T09:00:30.000Z"  # workers.drain_interval = 30 s
    assert len(svc.review.pending()) == 2
    with pytest.raises(NotFoundError, match="No job named"):
        svc.jobs.run_now("defragment")


def test_watch_job_picks_up_new_files_and_appended_lines(svc: Services, tmp_path: Path) -> None:
    disable_semantic_dedup(svc)
    svc.ingest._extractor = PreferenceExtractor()
    folder = tmp_path / "projects" / "-home-ana-demo-app"
    svc.settings.set("workers.watch_paths", [str(tmp_path / "projects")])
    assert svc.jobs.run_now("watch")["processed"] == 0
    path = write_jsonl(folder / f"{SESSION}.jsonl", small_session())
    assert svc.jobs.run_now("watch")["processed"] == 6
    assert svc.jobs.run_now("watch")["processed"] == 0  # unchanged: nothing read again
    append_jsonl(path, [cc_user("u9", "I prefer rebase."), cc_assistant("a9", "m9", [text("OK")])])
    assert svc.jobs.run_now("watch")["processed"] == 2
    assert "User prefers rebase." in {c.content for c in svc.review.pending()}
    svc.settings.set("workers.watch_enabled", False)
    append_jsonl(path, [cc_user("u10", "more")])
    assert svc.jobs.run_now("watch")["processed"] == 0


def test_scheduler_runs_every_job_in_the_background(db_path: Path, tmp_path: Path) -> None:
    with Services.open(db_path) as setup:
        setup.settings.set("workers.watch_paths", [str(tmp_path / "nothing-here")])
        disable_semantic_dedup(setup)
    scheduler = build_scheduler(db_path, first_run_delay=0.2)
    scheduler.start()
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with Services.open(db_path) as svc:
                runs = {row["name"]: row["runs"] for row in svc.jobs.status()}
            if all(runs.values()):
                break
            time.sleep(0.2)
    finally:
        scheduler.shutdown(wait=True)
    assert runs == {"drain": 1, "watch": 1, "sweep": 1, "backup": 1, "reembed": 1}


def test_worker_once_cli(db_path: Path, tmp_path: Path) -> None:
    env = {**os.environ, "MADOHUB_DB": str(db_path)}
    with Services.open(db_path) as svc:
        svc.settings.set("workers.watch_paths", [str(tmp_path / "none")])
    done = invoke("worker", "--once", "--json", env=env)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert [r["name"] for r in data["results"]] == ["drain", "watch", "sweep", "backup", "reembed"]
    assert all(job["last_run"] for job in data["jobs"])


def test_worker_daemon_runs_jobs_and_stops_cleanly_on_sigterm(db_path: Path, tmp_path: Path) -> None:
    import signal

    with Services.open(db_path) as svc:
        svc.settings.set("workers.watch_paths", [str(tmp_path / "none")])
    env = {**os.environ, "MADOHUB_DB": str(db_path)}
    proc = subprocess.Popen([sys.executable, "-m", "madohub_memory", "worker"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        runs: dict[str, int] = {}
        while time.monotonic() < deadline and not all(runs.values() or [0]):
            time.sleep(0.3)
            with Services.open(db_path) as svc:
                runs = {row["name"]: row["runs"] for row in svc.jobs.status()}
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert all(runs.values()), runs
