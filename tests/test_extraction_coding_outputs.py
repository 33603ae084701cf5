"""Bad outputs seen in the queue after real coding sessions, each pinned down.

- the same "Checks run in this project: …" proposed again by every pass that saw a few of
  the checks (near-duplicates, or the first, narrower listing kept);
- "Key technologies and concepts of the project: OAuth2 Authentication Flow, Rate
  Limiting, …": a list of the session's notions instead of what the project is built with;
- a rule carrying the one-off request typed after it ("…, and tell me what they should be"),
  or two numbered rules glued into one;
- kinds: a choice between alternatives is a decision, a linter's finding a convention, a
  decision that leaves a known gap open an open problem.
"""

from __future__ import annotations

from madohub_memory.core.types import CandidateDraft
from madohub_memory.extraction.base import TurnView
from madohub_memory.extraction.coding_rules import rules_en
from madohub_memory.extraction.offline import OfflineExtractor
from madohub_memory.extraction.routines import widen_listing
from madohub_memory.extraction.tech_names import tech_names
from madohub_memory.services import Services

WS = "workspace:shop"
PREAMBLE = ("This session is being continued from a previous conversation that ran out of context. "
            "The summary below covers the earlier portion of the conversation.\n\nSummary:\n")


def summary(body: str):
    turn = TurnView("sum1", "system", PREAMBLE + body, "cc:s", "2026-02-11T21:16:56Z")
    return OfflineExtractor().extract([turn], namespace=WS)


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


def test_concepts_give_one_specific_stack_fact_not_a_list_of_notions():
    drafts = summary("""2. Key Technical Concepts:
   - **OAuth2 Authentication Flow**: Authorization URL → consent → code → tokens
   - **Rate Limiting**: Exponential backoff with jitter for 429 errors
   - **Cross-platform Compatibility**: OS-independent filesystem root detection
   - **Gmail API Integration**: googleapis library, OAuth2Client
   - **Monorepo Workspace Architecture**: npm workspaces with standalone package capability
   - Phoenix LiveView hooks (JS), event handling, push_event
""")
    contents = [d.content for d in drafts]
    assert "The project is built with Gmail API, googleapis, npm workspaces and Phoenix LiveView." in contents
    assert not any("Rate Limiting" in c or "Key technologies" in c for c in contents)


def test_only_known_technologies_count_as_the_stack():
    assert tech_names("AshSqlite data layer with SQLite-safe migrations") == ["AshSqlite", "SQLite"]
    assert tech_names("Ash Framework resources, actions and identities") == ["Ash Framework"]
    assert tech_names("Go to the settings and mix the results") == []  # "Go", "mix" as words
    assert tech_names("Hierarchical Environment Loading: walk up the directory tree") == []


def test_concept_kinds_follow_what_the_item_says():
    drafts = summary("""2. Key Technical Concepts:
   - TranscriptRenderer message ID normalization (prefer DB `id` over JSONL `uuid`)
   - Ecto sandbox `{:shared, self()}` mode required for LiveView tests
   - Beads (bd) for issue tracking with dependency chains
""")
    kinds = {d.content: d.kind for d in drafts}
    assert kinds["The project uses TranscriptRenderer message ID normalization (prefer DB `id` over JSONL `uuid`)."] \
        == "decision"
    assert kinds["The project uses Ecto sandbox `{:shared, self()}` mode required for LiveView tests."] == "pattern"
    assert kinds["The project uses Beads (bd) for issue tracking with dependency chains."] == "fact"


def test_a_linter_finding_is_a_convention_and_a_known_gap_an_open_problem():
    drafts = summary("""4. Errors and fixes:
   - Credo warning about `length/1` in guard: Changed `when length(ids) > 0` to pattern match `[_ | _] = ids`.
   - Migration failed on SQLite (ALTER COLUMN unsupported): Rewrote it as a table copy.

**Key Decisions:**
- No token persistence in initial implementation (noted as critical security gap by code-reviewer)
- Listen on 0.0.0.0 for WSL compatibility
""")
    kinds = {d.content: d.kind for d in drafts}
    assert kinds["Credo warning about `length/1` in guard: Changed `when length(ids) > 0` to pattern match "
                 "`[_ | _] = ids`."] == "pattern"
    assert kinds["Migration failed on SQLite (ALTER COLUMN unsupported): Rewrote it as a table copy."] == "postmortem"
    assert kinds["Open problem: no token persistence in initial implementation (noted as critical security gap by "
                 "code-reviewer)."] == "event"
    assert kinds["Decision: listen on 0.0.0.0 for WSL compatibility."] == "decision"


def test_numbered_rules_in_one_turn_are_separate_rules():
    rules = rules_en("Let's (1) just have 1 shell script that takes a parameter to indicate which operation it "
                     "should do, (2) don't output the response count - we just need to track it")
    assert [(r.kind, r.content) for r in rules] == [
        ("decision", "User decided to have 1 shell script that takes a parameter to indicate which operation it "
                     "should do."),
        ("preference", "User wants the agent to not output the response count."),
    ]


def test_the_request_typed_after_a_rule_is_not_part_of_it():
    [rule] = rules_en("For API keys, don't put placeholders into the code, assume we need environment variables "
                      "and tell me what they should be.")
    assert rule.content == ("User wants the agent, for API keys, to not put placeholders into the code, assume the "
                            "user and their team need environment variables.")
