"""Decay and GC: idle demotion, archive of never-hit memories, transient TTL, caps, the daily gate."""

from __future__ import annotations

import json

import pytest

from madohub_memory.cli import main
from madohub_memory.services import Services
from madohub_memory.services.decay import DecayService, transient_weight

pytestmark = pytest.mark.both_backends


def approved(svc: Services, content: str, kind: str = "fact") -> int:
    return svc.review.approve(svc.review.add_manual(content, kind).candidate_id)


def history_actions(svc: Services, memory_id: int) -> list[tuple[str, str]]:
    rows = svc.store.query(
        "SELECT action, actor FROM history WHERE entity = 'memory' AND entity_id = ? ORDER BY id",
        (str(memory_id),),
    )
    return [(r[0], r[1]) for r in rows]


def test_idle_demotion_archive_and_pinned(svc: Services) -> None:
    used = approved(svc, "The build uses Gradle 8")
    idle = approved(svc, "The mascot is a red panda")
    core = approved(svc, "Never push to main directly")
    svc.memories.pin(core)
    svc.clock.advance(days=10)
    svc.recall.search("Gradle build", k=1)  # a hit keeps `used` active
    svc.clock.advance(days=5)
    report = DecayService(svc).run()
    assert report["idle"] == [idle]
    assert svc.memories.get(idle).weight == 0.5 and svc.memories.get(used).weight == 1.0
    assert ("decay", "auto") in history_actions(svc, idle)
    # A hit on an idle memory brings its weight back.
    svc.recall.search("red panda mascot", k=1)
    assert svc.memories.get(idle).weight == 1.0
    svc.clock.advance(days=100)
    report = DecayService(svc).run()
    assert report["archived"] == []  # every unpinned memory here was hit once
    never_hit = approved(svc, "Old note nobody reads")  # created now: too young to archive
    svc.clock.advance(days=91)
    report = DecayService(svc).run()
    assert never_hit in report["archived"]
    assert svc.memories.get(never_hit).status == "archived"
    assert ("archive", "auto") in history_actions(svc, never_hit)
    pinned = svc.memories.get(core)
    assert pinned.status == "active" and pinned.weight == 1.0 and pinned.hit_count == 0
    # Archived by decay: never recalled again.
    assert never_hit not in [h.id for h in svc.recall.search("Old note nobody reads", k=10)]


def test_transient_power_law_and_ttl_lowest_weight_first(svc: Services) -> None:
    a = approved(svc, "Release 1.2 shipped today", "event")
    svc.clock.advance(days=3)
    b = approved(svc, "The staging database was restored", "event")
    stable = approved(svc, "Staging runs on port 8080", "fact")
    svc.clock.advance(days=6)
    report = DecayService(svc).run()
    assert set(report["transient"]) == {a, b}
    assert svc.memories.get(a).weight == pytest.approx(transient_weight(9), abs=1e-3)
    assert svc.memories.get(b).weight == pytest.approx(transient_weight(6), abs=1e-3)
    assert svc.memories.get(a).weight < svc.memories.get(b).weight < 1.0
    svc.clock.advance(days=30)
    report = DecayService(svc).run()
    assert report["evicted"] == [a, b]  # lowest weight first
    assert svc.memories.get(a).status == "archived" and svc.memories.get(stable).status == "active"
    assert ("evict", "auto") in history_actions(svc, a)


def test_cap_evicts_lowest_weight_first(svc: Services) -> None:
    keep = approved(svc, "Keep me: used often")
    low = approved(svc, "Low weight one")
    svc.settings.set("decay.max_active", "1")
    svc.clock.advance(days=15)
    svc.recall.search("Keep me used often", k=1)
    report = DecayService(svc).run()
    assert report["idle"] == [low] and report["evicted"] == [low]
    assert [m.id for m in svc.memories.list()] == [keep]


def test_gate_runs_once_a_day_unless_forced(svc: Services) -> None:
    first = svc.sweep.run()["decay"]
    assert first["skipped"] is False
    svc.clock.advance(hours=5)
    assert svc.sweep.run()["decay"]["skipped"] is True
    assert svc.sweep.run(force=True)["decay"]["skipped"] is False
    svc.clock.advance(hours=25)
    assert svc.sweep.run()["decay"]["skipped"] is False


def test_sweep_cli_with_injected_time(db_path, capsys) -> None:
    with Services.open(db_path) as svc:
        svc.clock.set("2026-01-01T00:00:00Z")
        memory_id = approved(svc, "A note from January")
    assert main(["sweep", "--db", str(db_path), "--now", "2026-06-01T00:00:00Z", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["decay"]["archived"] == [memory_id]
    assert main(["sweep", "--db", str(db_path), "--now", "2026-06-01T06:00:00Z", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["decay"]["skipped"] is True
    # A person can undo nothing of it by mistake: the change is recorded as made by `auto`.
    with Services.open(db_path) as svc:
        assert ("archive", "auto") in history_actions(svc, memory_id)
