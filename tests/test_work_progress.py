"""How far an import or an extraction is, seen from another connection (issue 27): the
dashboard's status bar reads it; a row is removed when the work ends, however it ends."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from madohub_memory.core.types import CandidateDraft
from madohub_memory.extraction.base import TurnView
from madohub_memory.services import Services
from madohub_memory.services import progress as progress_module
from madohub_memory.services.ingest import IngestService
from madohub_memory.services.progress import running


class _Watching:
    """One draft per user turn; before each pass, what another connection sees of the progress."""

    name = "test"

    def __init__(self, db_path: Path, fail_after: int | None = None) -> None:
        self.db_path = db_path
        self.seen: list[list[dict[str, Any]]] = []
        self.fail_after = fail_after

    def extract(self, turns: list[TurnView], *, mode: str, namespace: str | None) -> list[CandidateDraft]:
        with Services.open(self.db_path) as other:
            self.seen.append(running(other))
        if self.fail_after is not None and len(self.seen) > self.fail_after:
            raise RuntimeError("the model went away")
        return [CandidateDraft(f"Rule {t.content}", "fact", namespace, source=mode, confidence=0.7, turn_ids=(t.id,))
                for t in turns if t.role == "user"]


def _transcript(path: Path, exchanges: int) -> Path:
    path.write_text("".join(json.dumps({"role": "user", "content": f"keep file {i} under 600 lines"}) + "\n"
                            + json.dumps({"role": "assistant", "content": "ok"}) + "\n" for i in range(exchanges)))
    return path


def test_an_import_shows_its_file_and_turns_then_goes(svc: Services, db_path: Path, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(progress_module, "EVERY_S", 0.0)  # every update written at once, to see each step
    watching = _Watching(db_path)
    summary = IngestService(svc, extractor=watching).ingest_paths([str(_transcript(tmp_path / "chat.jsonl", 5))])
    assert summary["candidates"]["new"] == 5
    rows = [r for seen in watching.seen for r in seen]
    assert rows and all(r["work"] == "import" and r["detail"]["file"] == "chat.jsonl" for r in rows)
    assert {r["total"] for r in rows} == {10} and [r["done"] for r in rows] == sorted(r["done"] for r in rows)
    assert running(svc) == []


def test_a_failed_extraction_leaves_no_progress_behind(svc: Services, db_path: Path, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(progress_module, "EVERY_S", 0.0)
    _transcript(tmp_path / "chat.jsonl", 5)
    svc.ingest.ingest_paths([str(tmp_path / "chat.jsonl")], extract=False)
    watching = _Watching(db_path, fail_after=1)
    with pytest.raises(RuntimeError):
        IngestService(svc, extractor=watching).drain()  # the extraction job, its own row
    assert watching.seen[0][0]["work"] == "extract" and watching.seen[0][0]["total"] == 10
    assert running(svc) == [] and svc.store.query("SELECT * FROM work_progress") == []


def test_a_short_import_writes_no_progress_at_all(svc: Services, db_path: Path, tmp_path: Path) -> None:
    """The Stop hook imports a turn or two on every agent turn: no row, no extra transaction."""
    watching = _Watching(db_path)
    IngestService(svc, extractor=watching).ingest_paths([str(_transcript(tmp_path / "chat.jsonl", 2))])
    assert watching.seen == [[], []]


def test_a_quitting_process_ends_its_extraction_after_the_pass_it_is_in(svc: Services, db_path: Path,
                                                                       tmp_path: Path) -> None:
    """The dashboard quits while its extraction job works through an import's turns: what
    finished is stored, the other claims are given back at once, the job returns."""
    from madohub_memory.services import stopping
    from madohub_memory.store import ingest as ingest_rows

    _transcript(tmp_path / "chat.jsonl", 6)
    svc.ingest.ingest_paths([str(tmp_path / "chat.jsonl")], extract=False)

    class QuitAfterOnePass(_Watching):
        def extract(self, turns: list[TurnView], *, mode: str, namespace: str | None) -> list[CandidateDraft]:
            stopping.request_stop()
            return super().extract(turns, mode=mode, namespace=namespace)

    try:
        counts = IngestService(svc, extractor=QuitAfterOnePass(db_path)).drain()
    finally:
        stopping._STOP.clear()
    states = ingest_rows.count_by_state(svc.store)
    assert counts["turns"] == 2 and counts["new"] == 1  # one pass: one exchange
    assert states == {"done": 2, "pending": 10} and ingest_rows.claim_owners(svc.store) == []


def test_the_extraction_job_waits_while_another_process_imports(svc: Services, tmp_path: Path) -> None:
    import subprocess
    import sys

    from madohub_memory.services.job_catalog import drain
    from madohub_memory.services.progress import WorkProgress
    from madohub_memory.store import ingest as ingest_rows

    _transcript(tmp_path / "chat.jsonl", 3)
    svc.ingest.ingest_paths([str(tmp_path / "chat.jsonl")], extract=False)
    importer = subprocess.Popen([sys.executable, "-c", "import sys, time; from madohub_memory.store.liveness import"
                                 " new_owner; print(new_owner(), flush=True); time.sleep(60)"],
                                stdout=subprocess.PIPE, text=True)
    try:
        assert importer.stdout is not None
        elsewhere = WorkProgress(svc, "import", importer.stdout.readline().strip())
        elsewhere._written -= 5  # it has run for a while
        elsewhere.update(done=10, total=600, file="big.jsonl")
        assert drain(svc) == 0 and ingest_rows.count_by_state(svc.store) == {"pending": 6}
    finally:
        importer.kill()
        importer.communicate()
    assert drain(svc) == 6  # the import's process is gone: the job goes on
