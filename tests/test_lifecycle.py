"""The candidate lifecycle through the services every front end uses."""

from __future__ import annotations

import pytest

from madohub_memory.core.clock import Clock
from madohub_memory.core.errors import ConflictError, NotFoundError, ValidationError
from madohub_memory.core.types import CandidateDraft
from madohub_memory.services import Services
from madohub_memory.store import history

pytestmark = pytest.mark.both_backends


def test_manual_add_then_approve_with_edit_keeps_the_original_in_history(svc: Services) -> None:
    result = svc.review.add_manual("we use postgres 15", "fact", "workspace:shop")
    memory_id = svc.review.approve(result.candidate_id, content="The shop runs PostgreSQL 15.")
    memory = svc.memories.get(memory_id)
    assert memory.content == "The shop runs PostgreSQL 15."
    assert memory.namespace == "workspace:shop"
    assert svc.review.get(result.candidate_id).status == "approved"
    rows = history.for_entity(svc.store, "candidate", result.candidate_id)
    assert rows[0]["after"]["content"] == "we use postgres 15"
    assert [r["action"] for r in rows] == ["create", "approve"]


def test_equivalent_pending_candidate_is_counted_with_a_new_sighting(svc: Services) -> None:
    first = svc.review.submit(CandidateDraft("User prefers pnpm.", "preference", source="turn", confidence=0.6, turn_ids=("t1",)))
    again = svc.review.submit(CandidateDraft("user prefers  PNPM", "preference", source="turn", confidence=0.7, turn_ids=("t2",)))
    assert again.outcome == "seen_again" and again.candidate_id == first.candidate_id
    candidate = svc.review.get(first.candidate_id)
    assert candidate.seen_count == 2
    assert candidate.turn_ids == ["t1", "t2"]
    assert candidate.confidence == pytest.approx(0.7)
    assert len(svc.review.pending()) == 1


def test_same_text_in_another_namespace_or_kind_is_a_different_candidate(svc: Services) -> None:
    a = svc.review.add_manual("Deploys happen on Fridays", "fact", "workspace:a")
    b = svc.review.add_manual("Deploys happen on Fridays", "fact", "workspace:b")
    c = svc.review.add_manual("Deploys happen on Fridays", "event", "workspace:a")
    assert len({a.candidate_id, b.candidate_id, c.candidate_id}) == 3


def test_equivalent_to_rejected_is_counted_and_not_reproposed(svc: Services) -> None:
    first = svc.review.remember("User hates tabs", "preference")
    svc.review.reject(first.candidate_id)
    again = svc.review.remember("user hates tabs!", "preference", session="another agent session")
    assert again.outcome == "suppressed"
    assert svc.review.pending() == []
    assert svc.review.get(first.candidate_id).seen_count == 2


def test_equivalent_to_approved_reinforces_the_memory(svc: Services) -> None:
    first = svc.review.remember("Use pnpm, not npm", "preference")
    memory_id = svc.review.approve(first.candidate_id, content="The user wants pnpm instead of npm.")
    for number, text in enumerate(("use pnpm, not npm", "The user wants pnpm instead of npm")):
        result = svc.review.remember(text, "preference", turn_id="t9", session=f"session {number}")
        assert result.outcome == "reinforced" and result.memory_id == memory_id
    assert svc.review.pending() == []
    memory = svc.memories.get(memory_id)
    assert memory.reinforced_count == 2
    assert "t9" in memory.turn_ids


def test_approving_text_equal_to_an_existing_memory_reinforces_instead_of_duplicating(svc: Services) -> None:
    a = svc.review.add_manual("Tests run with pytest", "fact")
    b = svc.review.add_manual("CI uses pytest for tests", "fact")
    m1 = svc.review.approve(a.candidate_id)
    m2 = svc.review.approve(b.candidate_id, content="tests run with PYTEST.")
    assert m1 == m2
    assert len(svc.memories.list()) == 1


def test_decisions_apply_only_to_pending_candidates(svc: Services) -> None:
    cid = svc.review.add_manual("A fact", "fact").candidate_id
    svc.review.reject(cid)
    with pytest.raises(ConflictError, match="rejected"):
        svc.review.approve(cid)
    with pytest.raises(NotFoundError):
        svc.review.reject(12345)
    svc.review.restore(cid)
    assert svc.review.get(cid).status == "pending"


@pytest.mark.parametrize(
    ("content", "kind", "namespace", "message"),
    [
        ("x", "opinion", None, "Unknown kind"),
        ("x", "fact", "persona:", "Malformed namespace"),
        ("x", "fact", "project:x", "Malformed namespace"),
        ("   \n\t", "fact", None, "Content is empty"),
        ("y" * 10_001, "fact", None, "more than the limit"),
    ],
)
def test_bad_input_is_rejected_and_nothing_is_written(
    svc: Services, content: str, kind: str, namespace: str | None, message: str
) -> None:
    with pytest.raises(ValidationError, match=message):
        svc.review.add_manual(content, kind, namespace)
    assert svc.store.query_one("SELECT COUNT(*) FROM candidates")[0] == 0
    assert svc.store.query_one("SELECT COUNT(*) FROM history")[0] == 0


def test_invisible_characters_are_removed_before_storing(svc: Services) -> None:
    cid = svc.review.add_manual("Use\u200b tabs\u202e for Makefiles\ufeff", "preference").candidate_id
    assert svc.review.get(cid).content == "Use tabs for Makefiles"


def test_default_namespace_follows_the_active_persona(svc: Services) -> None:
    svc.settings.set("persona", "alice")
    cid = svc.review.add_manual("Alice likes green tea", "preference").candidate_id
    assert svc.review.get(cid).namespace == "persona:alice"


def test_archive_sweep_archives_only_untouched_pending(svc: Services, clock: Clock) -> None:
    old = svc.review.add_manual("Old idea", "fact").candidate_id
    clock.advance(days=20)
    fresh = svc.review.add_manual("Fresh idea", "fact").candidate_id
    clock.advance(days=11)
    report = svc.sweep.run()
    assert report["archived"] == [old]
    assert svc.review.get(old).status == "archived"
    assert svc.review.get(fresh).status == "pending"
    svc.review.restore(old)
    assert svc.review.get(old).status == "pending"


def test_a_new_sighting_keeps_a_pending_candidate_from_being_archived(svc: Services, clock: Clock) -> None:
    cid = svc.review.remember("Builds use make", "pattern").candidate_id
    clock.advance(days=25)
    svc.review.remember("builds use make", "pattern", session="a later session")
    clock.advance(days=10)
    assert svc.sweep.run()["archived"] == []
    assert svc.review.get(cid).status == "pending"


def test_auto_approve_is_off_by_default(svc: Services) -> None:
    for _ in range(5):
        svc.review.remember("Prefers dark mode", "preference", confidence=1.0)
    assert svc.sweep.run()["auto_approved"] == []
    assert len(svc.review.pending()) == 1


def test_auto_approve_respects_seen_confidence_kind_and_flags(svc: Services) -> None:
    svc.settings.set("auto_approve.enabled", "true")
    svc.settings.set("auto_approve.min_seen", "2")
    svc.settings.set("auto_approve.min_confidence", "0.8")
    ok = svc.review.remember("Prefers dark mode", "preference", confidence=0.9, session="s1").candidate_id
    assert svc.review.get(ok).status == "pending"  # seen once: below min_seen
    svc.review.remember("prefers dark mode", "preference", confidence=0.9, session="s2")
    # it qualifies the moment its second sighting arrives, not at the next sweep
    assert svc.review.get(ok).status == "approved"
    once = svc.review.remember("Likes vim", "preference", confidence=0.9, session="s1").candidate_id
    low = svc.review.remember("Maybe likes emacs", "preference", confidence=0.5, session="s1").candidate_id
    svc.review.remember("maybe likes emacs", "preference", confidence=0.5, session="s2")
    decision = svc.review.remember("We chose Rust because of safety", "decision", confidence=1.0, session="s1").candidate_id
    svc.review.remember("we chose rust because of safety", "decision", confidence=1.0, session="s2")
    flagged = svc.review.remember("Mail bob@example.com about invoices", "fact", confidence=1.0, session="s1").candidate_id
    svc.review.remember("mail bob@example.com about invoices", "fact", confidence=1.0, session="s2")
    assert svc.review.get(flagged).flags == ("pii",)
    assert svc.sweep.run()["auto_approved"] == []
    for cid in (once, low, decision, flagged):
        assert svc.review.get(cid).status == "pending"
    actors = {r["actor"] for r in history.for_entity(svc.store, "candidate", ok)}
    assert "auto" in actors


def test_secrets_are_masked_before_anything_is_stored(svc: Services, tmp_path) -> None:
    cid = svc.review.remember("The staging key is sk-abcdefghijklmnopqrstuvwx1234", "fact").candidate_id
    candidate = svc.review.get(cid)
    assert "sk-abcdefghijklmnopqrstuvwx1234" not in candidate.content
    assert "secret" in candidate.flags
    svc.transfer.export(tmp_path / "out.jsonl")
    assert "sk-abcdefghijklmnopqrstuvwx1234" not in (tmp_path / "out.jsonl").read_text()


def test_undo_reverts_the_last_ten_decisions_in_order(svc: Services) -> None:
    ids = [svc.review.add_manual(f"Fact number {i}", "fact").candidate_id for i in range(12)]
    for i, cid in enumerate(ids):
        (svc.review.approve if i % 2 == 0 else svc.review.reject)(cid)
    for _ in range(10):
        svc.review.undo()
    statuses = [svc.review.get(cid).status for cid in ids]
    assert statuses[:2] == ["approved", "rejected"]
    assert statuses[2:] == ["pending"] * 10
    assert len(svc.memories.list()) == 1


def test_undo_after_a_batch_reverts_the_whole_batch(svc: Services) -> None:
    ids = [svc.review.add_manual(f"Batch fact {i}", "fact").candidate_id for i in range(5)]
    svc.review.approve_many(ids[:3])
    assert len(svc.memories.list()) == 3
    svc.review.undo()
    assert len(svc.memories.list()) == 0
    assert all(svc.review.get(cid).status == "pending" for cid in ids)


def test_undo_keeps_counts_raised_by_agents_in_between(svc: Services) -> None:
    cid = svc.review.add_manual("Lint with ruff", "pattern").candidate_id
    svc.review.reject(cid)
    svc.review.remember("lint with ruff", "pattern", session="an agent")
    svc.review.undo()
    candidate = svc.review.get(cid)
    assert candidate.status == "pending" and candidate.seen_count == 2


def test_memory_edit_pin_delete_and_undo(svc: Services) -> None:
    cid = svc.review.add_manual("Service runs on port 8080", "fact", "workspace:api").candidate_id
    mid = svc.review.approve(cid)
    svc.memories.edit(mid, content="The API service listens on port 8081.")
    svc.memories.pin(mid)
    assert svc.memories.get(mid).pinned
    svc.memories.delete(mid)
    with pytest.raises(NotFoundError):
        svc.memories.get(mid)
    svc.memories.undo()
    restored = svc.memories.get(mid)
    assert restored.pinned and restored.content == "The API service listens on port 8081."
    svc.memories.undo()
    svc.memories.undo()
    assert svc.memories.get(mid).content == "Service runs on port 8080"
    assert svc.memories.get(mid).turn_ids == []


def test_nothing_to_undo_is_a_clear_error(svc: Services) -> None:
    with pytest.raises(NotFoundError, match="Nothing to undo"):
        svc.review.undo()


def test_settings_are_validated_and_persist_across_processes(db_path, svc: Services) -> None:
    with pytest.raises(ValidationError):
        svc.settings.set("auto_approve.min_confidence", "1.5")
    with pytest.raises(ValidationError):
        svc.settings.set("auto_approve.excluded_kinds", "decision,opinion")
    svc.settings.set("auto_approve.excluded_kinds", "postmortem")
    with Services.open(db_path) as other:
        assert other.settings.get("auto_approve.excluded_kinds") == ["postmortem"]


def test_undo_refuses_a_step_that_another_actor_overwrote_since(tmp_path) -> None:
    """Found by the property test: undoing a restore after the archive sweep archived the
    candidate revived it as a second pending twin of a newer candidate."""
    clock = Clock("2026-11-01T09:00:00Z")
    draft = CandidateDraft(content="Use pnpm", kind="preference", namespace=None, source="remember",
                           confidence=0.3, turn_ids=())
    with Services.open(tmp_path / "m.db", clock) as svc:
        first = svc.review.submit(draft).candidate_id
        svc.review.reject(first)
        svc.review.restore(first)
        clock.advance(days=31)
        svc.sweep.run()  # archives the untouched pending candidate (another actor)
        second = svc.review.submit(draft).candidate_id
        assert second != first
        with pytest.raises(ConflictError, match=f"Candidate {first} has changed since"):
            svc.review.undo()
        rows = svc.store.query("SELECT id, status FROM candidates ORDER BY id")
        assert [tuple(r) for r in rows] == [(first, "archived"), (second, "pending")]
