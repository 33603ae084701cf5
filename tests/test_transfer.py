"""Lossless JSONL export / all-or-nothing import."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from madohub_memory.core.errors import ImportFileError
from madohub_memory.core.types import CandidateDraft
from madohub_memory.services import Services

pytestmark = pytest.mark.both_backends  # export from and import into a server too


def populate(svc: Services) -> None:
    svc.settings.set("archive_days", 12)
    a = svc.review.submit(CandidateDraft("用户喜欢用 pnpm 而不是 npm", "preference", "workspace:web", "turn", 0.7, ("t1",)))
    svc.review.submit(CandidateDraft("用户喜欢用pnpm而不是npm。", "preference", "workspace:web", "compaction", 0.8, ("t2",)))
    b = svc.review.remember("Deploys happen on Fridays", "event")
    c = svc.review.add_manual("Never force-push to main", "postmortem")
    svc.review.approve(a.candidate_id, content="The web project uses pnpm, not npm.")
    svc.review.reject(b.candidate_id)
    mid = svc.review.approve(c.candidate_id)
    svc.memories.pin(mid)


def test_export_import_export_is_identical(tmp_path: Path, svc: Services) -> None:
    populate(svc)
    first = tmp_path / "first.jsonl"
    counts = svc.transfer.export(first)
    assert counts["candidates"] == 3 and counts["memories"] == 2 and counts["candidate_sightings"] == 4
    with Services.open(tmp_path / "copy.db") as other:
        other.transfer.import_file(first)
        other.transfer.export(tmp_path / "second.jsonl")
        assert [m.content for m in other.memories.list()] == [m.content for m in svc.memories.list()]
        # The copy keeps working: undo, history and dedup all see the imported rows.
        assert other.review.remember("user likes PNPM over npm", "preference").outcome == "new"
        assert other.review.remember("Deploys happen on fridays", "event").outcome == "suppressed"
    assert first.read_bytes() == (tmp_path / "second.jsonl").read_bytes()


@pytest.mark.parametrize(
    ("mutate", "line", "message"),
    [
        (lambda lines: lines.__setitem__(4, lines[4][:-5]), 5, "not valid JSON"),
        (lambda lines: lines.__setitem__(3, json.dumps({"table": "nope", "row": {}})), 4, "unknown table"),
        (lambda lines: lines.__setitem__(0, '{"format": "other"}'), 1, "not a MadoHub Memory export"),
    ],
)
def test_a_broken_line_imports_nothing_and_names_the_line(tmp_path: Path, svc: Services, mutate, line: int, message: str) -> None:
    populate(svc)
    path = tmp_path / "export.jsonl"
    svc.transfer.export(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    mutate(lines)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with Services.open(tmp_path / "target.db") as target:
        with pytest.raises(ImportFileError, match=message) as err:
            target.transfer.import_file(path)
        assert err.value.line == line
        assert target.store.query_one("SELECT COUNT(*) FROM candidates")[0] == 0
        assert target.store.query_one("SELECT COUNT(*) FROM history")[0] == 0


def test_a_row_breaking_a_rule_late_in_the_file_rolls_back_everything(tmp_path: Path, svc: Services) -> None:
    populate(svc)
    path = tmp_path / "export.jsonl"
    svc.transfer.export(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    last_memory = max(i for i, text in enumerate(lines) if '"table":"memories"' in text)
    obj = json.loads(lines[last_memory])
    obj["row"]["kind"] = "opinion"
    lines[last_memory] = json.dumps(obj, ensure_ascii=False)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with Services.open(tmp_path / "target.db") as target:
        with pytest.raises(ImportFileError) as err:
            target.transfer.import_file(path)
        assert err.value.line == last_memory + 1
        assert target.store.query_one("SELECT COUNT(*) FROM candidates")[0] == 0


def test_importing_twice_is_refused_without_changes(tmp_path: Path, svc: Services) -> None:
    populate(svc)
    path = tmp_path / "export.jsonl"
    svc.transfer.export(path)
    before = svc.store.query_one("SELECT COUNT(*) FROM history")[0]
    with pytest.raises(ImportFileError, match="conflicts with stored data"):
        svc.transfer.import_file(path)
    assert svc.store.query_one("SELECT COUNT(*) FROM history")[0] == before
