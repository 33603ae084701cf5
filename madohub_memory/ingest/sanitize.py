"""Making parsed JSON safe to store, and checking what a reader produced before it is written.

Transcripts are written by other programs and sometimes cut, corrupted or hostile. What
JSON allows but SQLite, UTF-8 or Python cannot take is fixed or rejected here, value by
value, so that one bad value costs its line (reported with file, line and reason) and
never the file, the hook or the watch job:

* a lone surrogate escape (``"\\ud83d"``, a string cut mid-emoji) becomes U+FFFD;
* an integer beyond 64 bits becomes its decimal text, ``Infinity``/``NaN`` become null;
* a value nested deeper than :data:`MAX_DEPTH` is dropped, and the rest of its line kept: a
  message that carries an irrelevant field nested 5,000 deep is still a message. Python's
  parser and encoder recurse (a thousand ``[`` end in ``RecursionError``), so such a text
  is first cut without recursion (:func:`parse_json`), then walked (:func:`clean_parsed`).

The walk is skipped for the usual line, where cheap byte counts show none of these can occur.
"""

from __future__ import annotations

import json
import re
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


# What a value nested too deep is replaced by in the text before it is parsed; the walk then
# drops the field (or list item) that holds it. The NUL makes it text no transcript holds.
_DROPPED = "\x00madohub:nested-too-deep"
_DROPPED_JSON = json.dumps(_DROPPED)
# A JSON string (escapes included) or one bracket: strings are skipped whole, so a bracket
# inside text is never counted.
_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')


def cut_deep(text: str, max_depth: int) -> str:
    """``text`` with every array or object that opens ``max_depth`` levels deep replaced by
    :data:`_DROPPED` (a scan without recursion; unbalanced text is left to the parser)."""
    pieces: list[str] = []
    depth = 0
    kept_until = 0
    cut_from: int | None = None
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token in "[{":
            if depth == max_depth and cut_from is None:
                cut_from = match.start()
            depth += 1
        elif token in "]}":
            depth -= 1
            if depth == max_depth and cut_from is not None:
                pieces += [text[kept_until:cut_from], _DROPPED_JSON]
                kept_until, cut_from = match.end(), None
    pieces.append(text[kept_until:])
    return "".join(pieces)


def parse_json(text: str) -> Any:
    """``json.loads`` for text written by other programs: never a ``RecursionError``; a
    value nested deeper than :data:`MAX_DEPTH` is dropped, the rest kept and cleaned
    (``json.JSONDecodeError`` or ``ValueError`` for what cannot be read at all)."""
    try:
        value = json.loads(text)
    except RecursionError:
        value = json.loads(cut_deep(text, MAX_DEPTH))
    return clean_parsed(value) if needs_walk(text) else value


def parse_document(text: str) -> Any:
    """:func:`parse_json` for a whole-document file (:func:`clean_document` per element)."""
    try:
        value = json.loads(text)
    except RecursionError:
        value = json.loads(cut_deep(text, MAX_DEPTH))
    return clean_document(value) if needs_walk(text) else value


def clean_parsed(value: Any, max_depth: int = MAX_DEPTH) -> Any:
    """:func:`clean_value`, except that a value nested deeper than ``max_depth`` (or cut
    before parsing) is dropped with the field that holds it: the outermost object member or
    list item whose whole content was that nesting (``{"x": {"y": [[[…]]]}}`` loses ``x``;
    ``None`` when nothing else is left)."""
    cleaned = _drop_deep(value, 0, max_depth)
    return None if cleaned is _GONE else cleaned


_GONE = object()


def _drop_deep(value: Any, depth: int, max_depth: int) -> Any:
    if isinstance(value, dict | list):
        if depth >= max_depth:
            return _GONE
        if isinstance(value, dict):
            members = {clean_value(str(k)): _drop_deep(v, depth + 1, max_depth) for k, v in value.items()}
            kept: Any = {k: v for k, v in members.items() if v is not _GONE}
        else:
            items = [_drop_deep(v, depth + 1, max_depth) for v in value]
            kept = [v for v in items if v is not _GONE]
        # a container that held only dropped values goes with them (a field is dropped whole)
        return _GONE if value and not kept else kept
    if value == _DROPPED:
        return _GONE
    return clean_value(value)


def clean_document(data: Any) -> Any:
    """A whole-document file (ChatGPT export, LoCoMo, LongMemEval): each top-level element is
    cleaned on its own; a field nested too deep is dropped from it, the element kept."""
    if not isinstance(data, list):
        return clean_parsed(data)
    return [clean_parsed(item, MAX_DEPTH - 1) for item in data]


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


__all__ = ["MAX_DEPTH", "Rejected", "check_result", "clean_document", "clean_parsed", "clean_value", "needs_walk",
           "parse_document", "parse_json"]
