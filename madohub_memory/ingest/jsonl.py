"""Plain JSONL: one ``{role, content[, timestamp]}`` object per line.

Lines may carry ``conversation_id`` (or ``session_id``) to split one file into several
conversations and ``id`` for their own stable turn id. Otherwise identity comes from the
content, never from the path or the line number: the conversation is named by its first
turn (role, text, time) and each turn by its text, its position and the turn before it
(so a conversation rewritten after a shared beginning is new from the first difference on).
So a copy of a file in another folder adds nothing, a file that grows adds its new lines,
and a file overwritten with another conversation adds that conversation. (Two files whose
first turns are identical are read as one conversation.)
"""

from __future__ import annotations

import hashlib
import os
from typing import Any

from madohub_memory.core.text import clean_text, shown
from madohub_memory.ingest.lines import iter_json_lines
from madohub_memory.ingest.model import LineError, ParsedConversation, ParsedTurn, ReadResult

FORMAT = "jsonl"
_ROLE_ALIASES = {
    "user": "user", "human": "user", "assistant": "assistant", "ai": "assistant", "bot": "assistant",
    "model": "assistant", "gpt": "assistant", "system": "system", "tool": "tool", "function": "tool",
}


def looks_like_plain(records: list[Any]) -> bool:
    return any(isinstance(r, dict) and "role" in r and "content" in r for r in records)


def file_conversation_id(path: str) -> str:
    digest = hashlib.sha1(os.path.realpath(path).encode("utf-8", "surrogateescape")).hexdigest()[:16]
    return f"jsonl:{digest}"


def content_text(content: Any) -> str | None:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [p if isinstance(p, str) else p.get("text") for p in content if isinstance(p, (str, dict))]
        return "\n".join(p for p in parts if isinstance(p, str))
    return None


def _digest(*parts: str) -> str:
    data = "\x1f".join(parts).encode("utf-8", "surrogatepass")
    return hashlib.sha1(data).hexdigest()[:16]


def content_conversation_id(role: str, text: str, stamp: str | None) -> str:
    """The id of a conversation without an id of its own: its first turn's content."""
    return f"jsonl:c{_digest(role, text, stamp or '')}"


def _turn(record: Any, conv_id: str, line: int, position: int, previous: str = "") -> ParsedTurn:
    if not isinstance(record, dict):
        raise ValueError("not a JSON object with role and content")
    role = _ROLE_ALIASES.get(str(record.get("role", "")).strip().lower())
    if role is None:
        raise ValueError(f"role {shown(record.get('role'))} is not user, assistant, system or tool")
    text = content_text(record.get("content"))
    if text is None:
        raise ValueError("content is missing or not text")
    stamp = record.get("timestamp") or record.get("created_at")
    stamp = str(stamp) if isinstance(stamp, (str, int, float)) and not isinstance(stamp, bool) and stamp else None
    own = record.get("id")
    text = clean_text(text)
    if isinstance(own, (str, int)) and not isinstance(own, bool) and str(own):
        turn_id = f"{conv_id}:{own}"
    else:
        turn_id = f"{conv_id}:{_digest(previous, str(position), role, text)}"
    meta: dict[str, Any] = {"line": line}
    if isinstance(record.get("name"), (str, int, float)) and record.get("name"):
        meta["speaker"] = str(record["name"])
    return ParsedTurn(turn_id, role, text, stamp, meta, extract=role in ("user", "assistant"))


def read_plain_jsonl(
    path: str, start_offset: int = 0, start_line: int = 0, state: dict[str, Any] | None = None
) -> ReadResult:
    result = ReadResult(path=path, format=FORMAT, end_offset=start_offset, end_line=start_line)
    state = state or {}
    default_id: str | None = state.get("conversation_id")
    if default_id is None and start_offset > 0:
        default_id = file_conversation_id(path)  # read before ids came from content: stay in it
    positions: dict[str, int] = dict(state.get("positions") or {})
    last: dict[str, str] = dict(state.get("last") or {})  # the newest turn id per conversation
    conversations: dict[str, ParsedConversation] = {}
    for line in iter_json_lines(path, start_offset, start_line):
        result.lines_read += 1
        if line.end != result.end_offset:
            result.end_offset, result.end_line = line.end, line.number
        if line.error is not None:
            result.errors.append(LineError(path, line.number, line.error))
            continue
        record = line.value
        own_conv = record.get("conversation_id") or record.get("session_id") if isinstance(record, dict) else None
        if isinstance(own_conv, (str, int)) and not isinstance(own_conv, bool) and str(own_conv):
            conv_id = f"jsonl:{own_conv}"
        else:
            conv_id = default_id or ""
        try:
            turn = _turn(record, conv_id, line.number, positions.get(conv_id, 0), last.get(conv_id, ""))
        except ValueError as exc:
            result.errors.append(LineError(path, line.number, str(exc)))
            continue
        if not turn.content.strip():
            continue
        if not conv_id:  # the first turn of a conversation without an id names it
            conv_id = default_id = content_conversation_id(turn.role, turn.content, turn.created_at)
            turn = _turn(record, conv_id, line.number, 0)
        positions[conv_id] = positions.get(conv_id, 0) + 1
        last[conv_id] = turn.id
        conv = conversations.get(conv_id)
        if conv is None:
            conv = conversations[conv_id] = ParsedConversation(
                conv_id, FORMAT, source_path=path, title=os.path.basename(path), started_at=turn.created_at,
            )
        conv.turns.append(turn)
    result.conversations.extend(conversations.values())
    result.state = {"positions": positions, "last": last}
    if default_id:
        result.state["conversation_id"] = default_id
    return result
