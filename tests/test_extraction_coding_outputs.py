"""Bad outputs seen in the queue after real coding sessions, each pinned down: the same
"Checks run in this project: …" proposed again by every pass that saw a few of the checks
(near-duplicates, or the first, narrower listing kept).

(The cue-based summary mining these tests also pinned — stack lists from "key concepts",
kinds of concept items, numbered rules — is replaced by the learned selector; its
behaviour is in ``test_extraction_coding.py`` and ``test_extraction_units.py``.)
"""

from __future__ import annotations

from madohub_memory.core.types import CandidateDraft
from madohub_memory.extraction.routines import widen_listing
from madohub_memory.services import Services

WS = "workspace:shop"


def listing(*checks: str, turn: str = "t1") -> CandidateDraft:
    listed = ", ".join(f"`{c}`" for c in checks)
    return CandidateDraft(f"Checks run in this project: {listed}.", "fact", WS, source="turn", confidence=0.5,
                          turn_ids=(turn,))


def test_a_later_pass_widens_the_pending_checks_listing_instead_of_adding_a_near_duplicate(svc: Services):
    svc.settings.set("dedup.semantic", False)  # the listing rule must not depend on the embedding model
    first = svc.review.submit(listing("mix test", "mix credo --strict"))
    again = svc.review.submit(listing("mix compile --warnings-as-errors", "mix test", turn="t2"))
    assert first.outcome == "new" and again.outcome == "seen_again"
    assert again.candidate_id == first.candidate_id
    [pending] = svc.review.pending()
    assert pending.content == ("Checks run in this project: `mix compile --warnings-as-errors`, `mix test`, "
                               "`mix credo --strict`.")
    assert pending.seen_count == 2
    # the same checks once more change nothing
    svc.review.submit(listing("mix test", "mix compile --warnings-as-errors", turn="t3"))
    assert [c.content for c in svc.review.pending()] == [pending.content]


def test_listings_of_other_projects_stay_apart(svc: Services):
    svc.settings.set("dedup.semantic", False)
    svc.review.submit(listing("mix test", "mix credo --strict"))
    other = CandidateDraft("Checks run in this project: `npm test`, `npx tsc --noEmit`.", "fact", "workspace:mail",
                           source="turn", confidence=0.5)
    assert svc.review.submit(other).outcome == "new"
    assert len(svc.review.pending()) == 2


def test_one_commit_style_and_one_routine_per_project(svc: Services):
    svc.settings.set("dedup.semantic", False)
    for turn, example in (("t1", "feat: close review sessions"), ("t2", "fix: keep the cursor on delete")):
        svc.review.submit(CandidateDraft(f'Commit messages in this project use conventional prefixes, e.g. "{example}".',
                                         "pattern", WS, source="turn", confidence=0.45, turn_ids=(turn,)))
    for turn, steps in (("t3", "`bd close <id>`, then `git push`"),
                        ("t4", "`bd close <id>`, then `bd sync`, then `git push`"),
                        ("t5", "`git push`, then `bd close <id>`")):
        svc.review.submit(CandidateDraft(f"Workflow in this project: {steps}.", "pattern", WS, source="turn",
                                         confidence=0.5, turn_ids=(turn,)))
    assert sorted(c.content for c in svc.review.pending()) == [
        'Commit messages in this project use conventional prefixes, e.g. "feat: close review sessions".',
        "Workflow in this project: `bd close <id>`, then `bd sync`, then `git push`.",
    ]


def test_widen_listing_only_joins_listings_of_the_same_kind():
    assert widen_listing("Checks run in this project: `a test`, `b lint`.", "Checks run in this project: `a test`.") is None
    assert widen_listing("Checks run in this project: `pytest`.", "Workflow in this project: `git push`.") is None
    assert widen_listing("本项目运行的检查：`pytest`、`ruff check`。", "本项目运行的检查：`mypy`、`pytest`。") == \
        "本项目运行的检查：`mypy`、`pytest`、`ruff check`。"
