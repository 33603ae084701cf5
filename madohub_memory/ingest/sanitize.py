"""Making parsed JSON safe to store, and checking what a reader produced before it is written.

Transcripts are written by other programs and sometimes cut, corrupted or hostile. What
JSON allows but SQLite, UTF-8 or Python cannot take is fixed or rejected here, value by
value, so that one bad value costs its line (reported with file, line and reason) and
never the file, the hook or the watch job:

* a lone surrogate escape (``"\\ud83d"``, a string cut mid-emoji) becomes U+FFFD;
* an integer beyond 64 bits becomes its decimal text, ``Infinity``/``NaN`` become null;
* nesting deeper than :data:`MAX_DEPTH` rejects the line (Python's parser and encoder
  recurse; a thousand ``[`` would end in ``RecursionError``).

The walk is skipped for the usual line, where cheap byte counts show none of these can occur.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from madohub_memory.core.jsonsafe import MAX_DEPTH, clean_value, needs_walk
from madohub_memory.core.text import replace_surrogates
from madohub_memory.core.vocab import ROLES
from madohub_memory.ingest.model import LineError, ReadResult

MAX_ID_CHARS = 512


@dataclass(frozen=True)
class Rejected:
    """An element of a whole-document file that could not be used; the reader reports it."""

    reason: str


def clean_document(data: Any) -> Any:
    """A whole-document file (ChatGPT export, LoCoMo, LongMemEval): each top-level element is
    cleaned on its own, and one that cannot be becomes :class:`Rejected`."""
    if not isinstance(data, list):
        return clean_value(data)
    out: list[Any] = []
    for item in data:
        try:
            out.append(clean_value(item, MAX_DEPTH - 1))
        except ValueError as exc:
            out.append(Rejected(str(exc)))
    return out


def _text_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def check_result(result: ReadResult) -> list[LineError]:
    """Drop what cannot be stored from a reader's output; one error per dropped item.

    Readers build ids, roles and times from input fields; a field of the wrong type (an id
    that is an object, a time that is a list) must cost that turn, not the file.
    """
    errors: list[LineError] = []
    kept = []
    for conv in result.conversations:
        if not isinstance(conv.id, str) or not conv.id or len(conv.id) > MAX_ID_CHARS:
            errors.append(LineError(result.path, None, "a conversation without a usable id was skipped"))
            continue
        conv.title = _text_or_none(conv.title)
        conv.started_at = _text_or_none(conv.started_at)
        conv.namespace = _text_or_none(conv.namespace)
        conv.parent_id = _text_or_none(conv.parent_id)
        conv.source_path = _text_or_none(conv.source_path)
        if not isinstance(conv.meta, dict):
            conv.meta = {}
        turns = []
        for turn in conv.turns:
            line = turn.meta.get("line") if isinstance(turn.meta, dict) else None
            line = line if isinstance(line, int) else None
            if isinstance(turn.id, int) and not isinstance(turn.id, bool):
                turn.id = str(turn.id)
            if not isinstance(turn.id, str) or not turn.id or len(turn.id) > MAX_ID_CHARS:
                errors.append(LineError(result.path, line, "the turn's id is not usable text; skipped"))
                continue
            if turn.role not in ROLES or not isinstance(turn.content, str):
                errors.append(LineError(result.path, line, "the turn's role or text is not usable; skipped"))
                continue
            turn.content = replace_surrogates(turn.content)
            turn.created_at = _text_or_none(turn.created_at)
            if not isinstance(turn.meta, dict):
                turn.meta = {}
            if not isinstance(turn.segment, int):
                turn.segment = 0
            turns.append(turn)
        conv.turns = turns
        kept.append(conv)
    result.conversations = kept
    return errors


__all__ = ["MAX_DEPTH", "Rejected", "check_result", "clean_document", "clean_value", "needs_walk"]
