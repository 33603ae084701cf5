"""Plain JSONL: one ``{role, content[, timestamp]}`` object per line.

Lines may carry ``conversation_id`` (or ``session_id``) to split one file into several
conversations and ``id`` for their own stable turn id; otherwise the turn id is derived
from the file and the line number, so a file that grows keeps its old ids.
"""

from __future__ import annotations

import hashlib
import os
from typing import Any

from madohub_memory.core.text import clean_text
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


def _turn(record: Any, conv_id: str, line: int) -> ParsedTurn:
    if not isinstance(record, dict):
        raise ValueError("not a JSON object with role and content")
    role = _ROLE_ALIASES.get(str(record.get("role", "")).strip().lower())
    if role is None:
        raise ValueError(f"role {record.get('role')!r} is not user, assistant, system or tool")
    text = content_text(record.get("content"))
    if text is None:
        raise ValueError("content is missing or not text")
    stamp = record.get("timestamp") or record.get("created_at")
    own = record.get("id")
    turn_id = f"{conv_id}:{own}" if isinstance(own, (str, int)) and str(own) else f"{conv_id}:L{line}"
    meta: dict[str, Any] = {"line": line}
    if record.get("name"):
        meta["speaker"] = str(record["name"])
    return ParsedTurn(turn_id, role, clean_text(text), str(stamp) if stamp else None, meta,
                      extract=role in ("user", "assistant"))


def read_plain_jsonl(
    path: str, start_offset: int = 0, start_line: int = 0, state: dict[str, Any] | None = None
) -> ReadResult:
    result = ReadResult(path=path, format=FORMAT, end_offset=start_offset, end_line=start_line)
    default_id = file_conversation_id(path)
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
        conv_id = f"jsonl:{own_conv}" if isinstance(own_conv, (str, int)) and str(own_conv) else default_id
        try:
            turn = _turn(record, conv_id, line.number)
        except ValueError as exc:
            result.errors.append(LineError(path, line.number, str(exc)))
            continue
        if not turn.content.strip():
            continue
        conv = conversations.get(conv_id)
        if conv is None:
            conv = conversations[conv_id] = ParsedConversation(
                conv_id, FORMAT, source_path=path, title=os.path.basename(path), started_at=turn.created_at,
            )
        conv.turns.append(turn)
    result.conversations.extend(conversations.values())
    return result
