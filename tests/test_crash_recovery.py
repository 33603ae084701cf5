"""Crash recovery by liveness: turn claims and job run marks name their process and are
taken over as soon as it is gone (never while it lives); re-ingesting resumes pending
extraction; a ``.part`` left by a killed export is private and removed by the next one."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

from madohub_memory.core.clock import Clock
from madohub_memory.services import Services

ROOT = Path(__file__).resolve().parents[1]


RULES = ["I prefer pnpm over npm for every project.", "We decided to keep SSR because of SEO traffic.",
         "No, the API returns snake_case keys, not camelCase."]


def _chat(path: Path) -> Path:
    path.write_text("".join(f'{{"role": "user", "content": "{rule}"}}\n{{"role": "assistant", "content": "Understood."}}\n'
                            for rule in RULES))
    return path


def _in_child(db_path: Path, body: str, *, wait: bool = True) -> subprocess.Popen[str]:
    """Run ``body`` in another Python process with ``svc`` open on the database (at 08:00)."""
    code = textwrap.dedent("""
        import os, sys, time
        from madohub_memory.core.clock import Clock
        from madohub_memory.services import Services
        svc = Services.open(sys.argv[1], Clock(sys.argv[2]))
    """) + textwrap.dedent(body)
    proc = subprocess.Popen([sys.executable, "-c", code, str(db_path), "2026-11-01T08:00:00Z"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if wait:
        _out, err = proc.communicate(timeout=120)
        assert proc.returncode in (0, 9), err
    return proc


def test_claims_of_a_killed_process_are_taken_over_at_once(db_path: Path, tmp_path: Path) -> None:
    chat = _chat(tmp_path / "chat.jsonl")
    with Services.open(db_path) as svc:
        svc.ingest.ingest_paths([str(chat)], extract=False)
    # A worker claims every pending turn and dies before finishing (like kill -9).
    _in_child(db_path, """
        from madohub_memory.store import ingest as rows
        rows.claim_pending(svc.store, svc.ingest.owner, svc.clock.now_iso(), "0")
        os._exit(9)
    """)
    with Services.open(db_path, Clock("2026-11-01T08:01:00Z")) as svc:  # one minute later
        assert svc.ingest.pending().get("claimed") == 6
        svc.ingest.drain()
        assert svc.ingest.pending().get("claimed", 0) == 0 and svc.ingest.pending().get("pending", 0) == 0


def test_claims_of_a_live_process_are_never_taken_however_old(db_path: Path, tmp_path: Path) -> None:
    chat = _chat(tmp_path / "chat.jsonl")
    with Services.open(db_path) as svc:
        svc.ingest.ingest_paths([str(chat)], extract=False)
    child = _in_child(db_path, """
        from madohub_memory.store import ingest as rows
        rows.claim_pending(svc.store, svc.ingest.owner, svc.clock.now_iso(), "0")
        print("claimed", flush=True)
        time.sleep(60)
    """, wait=False)
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "claimed"
        with Services.open(db_path, Clock("2026-11-01T10:00:00Z")) as svc:  # two hours later
            svc.ingest.drain()
            assert svc.ingest.pending().get("claimed") == 6  # its owner is still extracting
    finally:
        child.kill()
        child.communicate()


def test_a_killed_worker_does_not_block_the_job_for_an_hour(db_path: Path) -> None:
    Services.open(db_path).close()
    _in_child(db_path, """
        from madohub_memory.store import jobs
        jobs.try_start(svc.store, "drain", svc.ingest.owner, svc.clock.now_iso(), "0")
        os._exit(9)
    """)
    with Services.open(db_path, Clock("2026-11-01T08:01:00Z")) as svc:
        assert not next(j for j in svc.jobs.status() if j["name"] == "drain")["running"]
        result = svc.jobs.run_now("drain")
    assert "skipped" not in result and result["error"] is None


def test_reingesting_resumes_extraction_a_crash_left_pending(db_path: Path, tmp_path: Path) -> None:
    chat = _chat(tmp_path / "chat.jsonl")
    with Services.open(db_path) as svc:
        svc.ingest.ingest_paths([str(chat)], extract=False)  # stored, killed before extraction
        assert svc.ingest.pending().get("pending") == 6
        again = svc.ingest.ingest_paths([str(chat)])
        assert again["turns"]["new"] == 0
        assert svc.ingest.pending().get("pending", 0) == 0
        assert svc.review.pending()  # the rules were extracted


def test_a_killed_export_leaves_nothing_readable_and_the_next_export_cleans_up(
        svc: Services, tmp_path: Path) -> None:
    svc.review.add_manual("The user likes green tea", "preference")
    target = tmp_path / "backup.jsonl"
    legacy = tmp_path / "backup.jsonl.part"  # what a killed export of an older version left
    legacy.write_text("half an export")
    dead = tmp_path / "backup.jsonl.999999999-1.part"
    dead.write_text("half an export")
    svc.transfer.export(target)
    assert not legacy.exists() and not dead.exists()
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".part")] == []


def test_an_export_writes_through_a_private_part_file(svc: Services, tmp_path: Path) -> None:
    from madohub_memory.store import transfer as raw

    seen: list[int] = []
    real = raw.iter_rows

    def watching(store, table):  # look at the .part while the export writes it
        for part in tmp_path.glob("*.part"):
            seen.append(stat.S_IMODE(os.stat(part).st_mode))
        yield from real(store, table)

    raw.iter_rows = watching
    try:
        svc.transfer.export(tmp_path / "out.jsonl")
    finally:
        raw.iter_rows = real
    assert seen and set(seen) == {0o600}
