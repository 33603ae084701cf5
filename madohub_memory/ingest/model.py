"""What a reader produces: conversations of turns with stable ids, and per-line errors."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from madohub_memory.core.types import TurnView


@dataclass
class ParsedTurn:
    """One turn as read from a source file.

    ``extract`` is False for turns that must never reach an extractor (a compaction
    summary written by the model, subagent chatter). ``segment`` counts the compaction
    boundaries seen before the turn; a turn whose segment is below the conversation's
    ``boundaries`` lies before a boundary and goes through the compaction pass.
    """

    id: str
    role: str
    content: str
    created_at: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    extract: bool = True
    segment: int = 0


@dataclass
class ParsedConversation:
    id: str
    format: str
    source_path: str | None = None
    title: str | None = None
    parent_id: str | None = None
    namespace: str | None = None
    started_at: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    turns: list[ParsedTurn] = field(default_factory=list)
    boundaries: int = 0  # compaction boundaries seen in this read


@dataclass(frozen=True)
class LineError:
    file: str
    line: int | None
    message: str

    def to_dict(self) -> dict[str, Any]:
        return {"file": self.file, "line": self.line, "message": self.message}


@dataclass
class ReadResult:
    """Everything read from one file (or from the new tail of a grown file).

    ``end_offset``/``end_line`` say where the next read of a growing JSONL file starts:
    after the last complete line, so a half-written last line is read again once complete.
    """

    path: str
    format: str
    conversations: list[ParsedConversation] = field(default_factory=list)
    errors: list[LineError] = field(default_factory=list)
    end_offset: int = 0
    end_line: int = 0
    lines_read: int = 0
    state: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class SpeakerTurnView(TurnView):
    """A :class:`TurnView` that also names the speaker (LoCoMo dialogues between two people)."""

    speaker: str | None = None
