"""Domain records passed between layers (plain dataclasses, no behaviour beyond views)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Mode = Literal["turn", "compaction"]  # which extraction pass a span of turns goes through


@dataclass(frozen=True)
class TurnView:
    """A stored turn as an extractor sees it (the extractor contract: :mod:`madohub_memory.extraction.base`)."""

    id: str
    role: str
    content: str
    conversation_id: str = ""
    created_at: str | None = None


@dataclass(frozen=True)
class CandidateDraft:
    """What an extractor, an agent or a person proposes; validated by ``services.review.submit``."""

    content: str
    kind: str
    namespace: str | None = None
    source: str = "manual"
    confidence: float = 1.0
    turn_ids: tuple[str, ...] = ()
    flags: tuple[str, ...] = ()


@dataclass(frozen=True)
class SubmitResult:
    """Outcome of submitting a draft.

    ``outcome`` is ``new`` (queued), ``seen_again`` (an equivalent pending candidate was
    counted), ``suppressed`` (equivalent to a rejected one: counted, not re-proposed) or
    ``reinforced`` (equivalent to an approved memory, which was reinforced).
    """

    outcome: str
    candidate_id: int
    memory_id: int | None = None
    auto_approved: bool = False
    store: str | None = None  # the mapped store it went to (setting stores.map); None: this one

    def sentence(self) -> str:
        """What happened, in the words the CLI prints and the MCP server hands the agent."""
        prefix = f"{self.store}:" if self.store else ""
        text = OUTCOME_SENTENCES[self.outcome].format(
            candidate_id=f"{prefix}{self.candidate_id}", memory_id=f"{prefix}{self.memory_id}")
        return f"{text} (store {self.store})" if self.store else text


OUTCOME_SENTENCES = {
    "new": "queued candidate {candidate_id} for review",
    "seen_again": "an equivalent candidate ({candidate_id}) is already waiting for review; it was counted",
    "suppressed": "an equivalent candidate ({candidate_id}) was rejected before; it was counted, not re-proposed",
    "reinforced": "an equivalent approved memory ({memory_id}) exists; it was reinforced",
}


@dataclass
class Candidate:
    id: int
    content: str
    kind: str
    namespace: str
    source: str
    confidence: float
    seen_count: int
    status: str
    flags: tuple[str, ...]
    fingerprint: str
    created_at: str
    updated_at: str
    memory_id: int | None = None
    turn_ids: list[str] = field(default_factory=list)
    decided_by: str | None = None  # the person who approved, rejected or restored it

    def to_dict(self) -> dict[str, Any]:
        data = dict(self.__dict__)
        data["flags"] = list(self.flags)
        return data


@dataclass
class Memory:
    id: int
    candidate_id: int | None
    content: str
    kind: str
    namespace: str
    pinned: bool
    weight: float
    hit_count: int
    last_hit_at: str | None
    reinforced_count: int
    status: str
    created_at: str
    updated_at: str
    turn_ids: list[str] = field(default_factory=list)
    approved_by: str | None = None  # the person who approved it (None: the policy, or unknown)
    edited_by: str | None = None  # the last person who changed it by hand, and when
    edited_at: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass(frozen=True)
class Equivalent:
    """What a new candidate matched (semantic or by fingerprint): an active memory, or a
    candidate in some status."""

    memory: dict[str, Any] | None = None
    candidate: dict[str, Any] | None = None
