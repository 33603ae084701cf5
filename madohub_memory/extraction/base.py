"""The extractor contract: turns in, candidate drafts out.

An extractor sees either the last exchange (``mode="turn"``, run after every turn, so it
must stay quiet on chit-chat) or a span about to be compacted away (``mode="compaction"``).
It returns :class:`~madohub_memory.core.types.CandidateDraft` objects whose content is a
standalone statement, with kind, namespace (``None`` = active persona), confidence in
[0, 1], ``source`` equal to the mode, and the originating turn id(s).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from madohub_memory.core.types import CandidateDraft, Mode, TurnView

__all__ = ["Extractor", "Mode", "TurnView"]


class Extractor(Protocol):
    name: str

    def extract(
        self, turns: Sequence[TurnView], *, mode: Mode = "turn", namespace: str | None = None
    ) -> list[CandidateDraft]: ...
