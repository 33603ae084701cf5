"""The extractor contract: turns in, candidate drafts out.

An extractor sees either the last exchange (``mode="turn"``, run after every turn, so it
must stay quiet on chit-chat) or a span about to be compacted away (``mode="compaction"``).
It returns :class:`~madohub_memory.core.types.CandidateDraft` objects whose content is a
standalone statement, with kind, namespace (``None`` = active persona), confidence in
[0, 1], ``source`` equal to the mode, and the originating turn id(s).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from madohub_memory.core.types import CandidateDraft

Mode = Literal["turn", "compaction"]


@dataclass(frozen=True)
class TurnView:
    id: str
    role: str
    content: str
    conversation_id: str = ""
    created_at: str | None = None


class Extractor(Protocol):
    name: str

    def extract(
        self, turns: Sequence[TurnView], *, mode: Mode = "turn", namespace: str | None = None
    ) -> list[CandidateDraft]: ...
