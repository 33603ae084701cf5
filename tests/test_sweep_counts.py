"""What the sweep did, per action, where every front end reads it (issue 25): the jobs table,
the memories it archived since a mark, the archived list, and restoring one."""

from __future__ import annotations

import json

import pytest

from madohub_memory.cli import main
from madohub_memory.core.errors import ConflictError
from madohub_memory.services import Services
from madohub_memory.services.queue import MemoryFilter

pytestmark = pytest.mark.both_backends


def approved(svc: Services, content: str, kind: str) -> int:
    return svc.review.approve(svc.review.add_manual(content, kind).candidate_id)


def test_the_sweep_job_counts_each_action_and_the_jobs_table_keeps_it(svc: Services) -> None:
    events = [approved(svc, f"Release 2.{n} went out", "event") for n in range(4)]
    approved(svc, "Builds run on the ci-large runners", "fact")
    old = approved(svc, "The mascot is a red panda", "fact")
    svc.clock.advance(days=30)
    svc.review.add_manual("A candidate nobody looks at", "fact")
    svc.clock.advance(days=61)  # the candidate is stale (30 d), the fact 91 d old and never recalled
    done = svc.jobs.run_now("sweep")
    counts = done["counts"]
    assert counts["memories_evicted"] == 4 and counts["memories_archived"] == 2 and counts["candidates_archived"] == 1
    assert done["processed"] == sum(counts.values())
    row = next(j for j in svc.jobs.status() if j["name"] == "sweep")
    assert row["counts"] == counts and row["processed"] == done["processed"]
    assert svc.memories.get(old).status == "archived" and all(svc.memories.get(e).status == "archived" for e in events)
    # a job of one action keeps its one number, and no counts
    assert "counts" not in svc.jobs.run_now("drain")
    assert next(j for j in svc.jobs.status() if j["name"] == "drain")["counts"] is None


def test_what_the_sweep_archived_since_a_mark_leaves_out_what_was_restored(svc: Services) -> None:
    events = [approved(svc, f"Release 3.{n} went out", "event") for n in range(3)]
    assert svc.sweep.archived_since(0) == {"count": 0, "memory_ids": [], "last": 0}
    svc.clock.advance(days=29)
    svc.sweep.run()
    found = svc.sweep.archived_since(0)
    assert found["count"] == 3 and found["memory_ids"] == events and found["last"] > 0
    svc.memories.restore(events[0])
    assert svc.sweep.archived_since(0)["memory_ids"] == events[1:]
    assert svc.sweep.archived_since(found["last"])["count"] == 0  # nothing new after the mark
    # the archived list, newest archive first; a memory a person archived is in it too
    manual = approved(svc, "Use the old VPN profile", "fact")
    svc.memories.set_status(manual, "archived")
    listed = svc.queue.memory_ids(MemoryFilter(status="archived", sort="archived_at", descending=True))
    assert listed[0] == manual and sorted(listed[1:]) == events[1:]
    assert svc.queue.memory_count("archived") == 3 and svc.queue.memory_namespaces("archived") == [("persona:default", 3)]


def test_a_restored_memory_stays_restored_and_undo_archives_it_again(svc: Services) -> None:
    event = approved(svc, "The staging cluster was rebuilt", "event")
    never = approved(svc, "Old note nobody reads", "fact")
    svc.clock.advance(days=91)
    report = svc.sweep.run()["decay"]
    assert report["evicted"] == [event] and report["archived"] == [never]
    with pytest.raises(ConflictError, match="active already"):
        svc.memories.restore(approved(svc, "Staging runs on port 8080", "fact"))
    for mid in (event, never):
        svc.memories.restore(mid)
    svc.clock.advance(days=2)
    report = svc.sweep.run(force=True)["decay"]
    assert event not in report["evicted"] and never not in report["archived"]
    assert svc.memories.get(event).status == "active" and svc.memories.get(never).status == "active"
    assert event in [m.id for m in svc.recall.search("staging cluster rebuilt", k=5)]
    svc.memories.undo()  # the newest human step: the restore of `never`
    assert svc.memories.get(never).status == "archived"


def test_memory_restore_on_the_command_line(db_path, capsys) -> None:
    with Services.open(db_path) as svc:
        mid = approved(svc, "Old note nobody reads", "fact")
        svc.memories.set_status(mid, "archived")
    assert main(["memory", "restore", str(mid), "--db", str(db_path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"memory_id": mid, "status": "active"}
    assert main(["memory", "restore", str(mid), "--db", str(db_path)]) != 0
    assert "active already" in capsys.readouterr().err
