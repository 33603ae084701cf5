"""Property-based tests: DESIGN invariants 1, 3, 4 and 5 hold for any sequence of operations."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from madohub_memory.core.clock import Clock
from madohub_memory.core.errors import UserError
from madohub_memory.core.text import fingerprint
from madohub_memory.core.types import CandidateDraft
from madohub_memory.services import Services
from madohub_memory.store import history

pytestmark = pytest.mark.both_backends

TEXTS = ["Use pnpm", "use PNPM!", "Deploy on Fridays", "我喜欢用 pnpm", "我喜欢用pnpm。",
         "Tests use pytest", "Mail ops@example.com on failure", "Prefers dark mode"]
KINDS = ["preference", "fact", "decision"]
NAMESPACES = [None, "workspace:shop"]

draft = st.builds(
    CandidateDraft,
    content=st.sampled_from(TEXTS), kind=st.sampled_from(KINDS), namespace=st.sampled_from(NAMESPACES),
    source=st.sampled_from(["remember", "turn", "compaction", "manual"]),
    confidence=st.sampled_from([0.3, 0.8, 0.95]), turn_ids=st.sampled_from([(), ("t1",), ("t2",)]),
)
operation = st.one_of(
    st.tuples(st.just("submit"), draft),
    st.tuples(st.just("submit"), draft),
    st.tuples(st.just("submit"), draft),
    st.tuples(st.just("approve"), st.integers(1, 8), st.sampled_from([None, "Edited: use pnpm"])),
    st.tuples(st.just("reject"), st.integers(1, 8)),
    st.tuples(st.just("restore"), st.integers(1, 8)),
    st.tuples(st.just("sweep"), st.integers(0, 40)),
    st.tuples(st.just("edit_memory"), st.integers(1, 5), st.sampled_from(TEXTS)),
    st.tuples(st.just("delete_memory"), st.integers(1, 5)),
    st.tuples(st.just("undo")),
    st.tuples(st.just("auto"), st.booleans(), st.integers(1, 3)),
)


def snapshot(svc: Services) -> dict[str, list[dict[str, Any]]]:
    q = svc.store.query
    return {
        "candidates": [dict(r) for r in q("SELECT id, content, kind, namespace, status, memory_id, flags FROM candidates ORDER BY id")],
        "memories": [dict(r) for r in q("SELECT id, content, kind, namespace, status, pinned FROM memories ORDER BY id")],
    }


def apply(svc: Services, clock: Clock, op: tuple[Any, ...]) -> bool:
    """Run one operation; return True when it was a human change that undo should revert."""
    name = op[0]
    candidate_ids = [r[0] for r in svc.store.query("SELECT id FROM candidates ORDER BY id")] or [1]
    memory_ids = [r[0] for r in svc.store.query("SELECT id FROM memories ORDER BY id")] or [1]
    if name in ("approve", "reject", "restore"):
        op = (name, candidate_ids[op[1] % len(candidate_ids)], *op[2:])
    elif name in ("edit_memory", "delete_memory"):
        op = (name, memory_ids[op[1] % len(memory_ids)], *op[2:])
    try:
        if name == "submit":
            svc.review.submit(op[1])
        elif name == "approve":
            svc.review.approve(op[1], content=op[2])
            return True
        elif name == "reject":
            svc.review.reject(op[1])
            return True
        elif name == "restore":
            svc.review.restore(op[1])
            return True
        elif name == "sweep":
            clock.advance(days=op[1])
            svc.sweep.run()
        elif name == "edit_memory":
            svc.memories.edit(op[1], content=op[2])
            return True
        elif name == "delete_memory":
            svc.memories.delete(op[1])
            return True
        elif name == "undo":
            svc.review.undo()
        elif name == "auto":
            svc.settings.set("auto_approve.enabled", op[1])
            svc.settings.set("auto_approve.min_seen", op[2])
            svc.sweep.run()
    except UserError:
        return False
    return False


def check_invariants(
    svc: Services, excluded: tuple[str, ...] = ("decision", "postmortem"), min_confidence: float = 0.8
) -> None:
    q = svc.store.query
    # Invariant 1 (store side): every active memory comes from an approved candidate or a reinforcement.
    for row in q("SELECT m.id, c.status FROM memories m LEFT JOIN candidates c ON c.id = m.candidate_id"):
        assert row["status"] in ("approved", None)
    # Invariant 3: no two live candidates are equivalent; no pending one duplicates an active memory.
    dupes = q("SELECT fingerprint, namespace, kind, COUNT(*) n FROM candidates WHERE status IN ('pending','rejected')"
              " GROUP BY fingerprint, namespace, kind HAVING n > 1")
    for d in dupes:  # a restore may legitimately bring back an equivalent; never two pending ones
        pending = q("SELECT COUNT(*) FROM candidates WHERE status='pending' AND fingerprint=? AND namespace=? AND kind=?",
                    (d["fingerprint"], d["namespace"], d["kind"]))[0][0]
        assert pending <= 1
    for c in q("SELECT * FROM candidates WHERE status = 'pending'"):
        assert c["fingerprint"] == fingerprint(c["content"])
    # Invariant 4: auto-approvals only under the policy.
    for row in q("SELECT * FROM history WHERE actor = 'auto' AND action = 'approve' AND undone = 0"):
        before = history.decode(dict(row))["before"]
        assert before["flags"] == ""
        assert before["kind"] not in excluded
        assert before["confidence"] >= min_confidence
    # Invariant 5: every row's current state is the 'after' of its newest history row.
    for table, entity in (("candidates", "candidate"), ("memories", "memory")):
        for row in q(f"SELECT * FROM {table}"):
            rows = history.for_entity(svc.store, entity, row["id"])
            assert rows, f"{entity} {row['id']} has no history"
            assert rows[-1]["after"] == dict(row), f"{entity} {row['id']} changed outside history"


@given(st.lists(operation, min_size=1, max_size=25))
def test_invariants_hold_for_any_sequence(fresh_db: Callable[[Path], Path], ops: list[tuple[Any, ...]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        clock = Clock("2026-11-01T09:00:00Z")
        with Services.open(fresh_db(Path(tmp)), clock) as svc:
            for op in ops:
                apply(svc, clock, op)
                check_invariants(svc)


@given(st.lists(operation, min_size=0, max_size=15), operation)
def test_undo_restores_the_state_before_any_human_change(
    fresh_db: Callable[[Path], Path], prefix: list[tuple[Any, ...]], last: tuple[Any, ...]
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        clock = Clock("2026-11-01T09:00:00Z")
        with Services.open(fresh_db(Path(tmp)), clock) as svc:
            for op in prefix:
                apply(svc, clock, op)
            before = snapshot(svc)
            if apply(svc, clock, last):
                svc.review.undo()
                assert snapshot(svc) == before


@given(
    st.lists(draft, min_size=1, max_size=20),
    st.integers(1, 3),
    st.sampled_from([0.5, 0.8, 0.9]),
    st.sampled_from([[], ["decision"], ["decision", "postmortem"]]),
)
def test_auto_approve_promotes_exactly_what_the_policy_allows(
    fresh_db: Callable[[Path], Path], drafts: list[CandidateDraft], min_seen: int, min_confidence: float,
    excluded: list[str],
) -> None:
    with tempfile.TemporaryDirectory() as tmp, Services.open(fresh_db(Path(tmp)), Clock("2026-11-01T09:00:00Z")) as svc:
        for number, d in enumerate(drafts):
            svc.review.submit(d, session=f"session {number}")
        eligible = {
            c.id for c in svc.review.pending()
            if c.seen_count >= min_seen and c.confidence >= min_confidence
            and not c.flags and c.kind not in excluded
        }
        assert svc.sweep.run()["auto_approved"] == []  # off by default
        svc.settings.set("auto_approve.enabled", True)
        svc.settings.set("auto_approve.min_seen", min_seen)
        svc.settings.set("auto_approve.min_confidence", min_confidence)
        svc.settings.set("auto_approve.excluded_kinds", excluded)
        assert set(svc.sweep.run()["auto_approved"]) == eligible
        for c in svc.review.pending():
            assert c.id not in eligible
        check_invariants(svc, tuple(excluded), min_confidence)
