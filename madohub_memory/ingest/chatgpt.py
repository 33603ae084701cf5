"""ChatGPT data export (``conversations.json``): the active branch of each conversation tree.

The active transcript starts at ``current_node`` and follows ``parent`` to the root; empty
or hidden system nodes and tool traffic (``recipient != "all"``, tool outputs) are dropped.
The message id is the turn id, so a regenerated answer on another branch is never mixed in.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from madohub_memory.core.clock import to_iso
from madohub_memory.core.text import clean_text
from madohub_memory.ingest.model import LineError, ParsedConversation, ParsedTurn, ReadResult
from madohub_memory.ingest.sanitize import Rejected

FORMAT = "chatgpt"
_ROLES = {"user", "assistant", "system"}


def looks_like_chatgpt(data: Any) -> bool:
    items = data if isinstance(data, list) else [data]
    return bool(items) and all(isinstance(c, dict) and "mapping" in c for c in items[:5])


def _time(value: Any) -> str | None:
    """A Unix time as ISO text; ``None`` for anything that is not a plausible time (1e20, inf)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
        try:
            return to_iso(datetime.fromtimestamp(float(value), UTC))
        except (OverflowError, OSError, ValueError):
            return None
    return None


def _text(content: Any) -> str:
    if not isinstance(content, dict):
        return ""
    kind = content.get("content_type")
    if kind in ("text", "multimodal_text"):
        parts = content.get("parts") or []
        return "\n".join(p for p in parts if isinstance(p, str))
    return ""


def _active_path(mapping: dict[str, Any], current: Any) -> list[dict[str, Any]]:
    if not isinstance(current, str) or current not in mapping:
        leaves = [k for k, n in mapping.items() if isinstance(n, dict) and not n.get("children")]
        if not leaves:
            raise ValueError("it has no leaf node")
        current = leaves[-1]
    path: list[dict[str, Any]] = []
    seen: set[str] = set()
    node_id: Any = current
    while isinstance(node_id, str) and node_id in mapping and node_id not in seen:
        seen.add(node_id)
        node = mapping[node_id]
        if not isinstance(node, dict):
            raise ValueError(f"node {node_id} is not an object")
        path.append(node)
        node_id = node.get("parent")
    path.reverse()
    return path


def _conversation(data: dict[str, Any]) -> ParsedConversation:
    raw_id = data.get("conversation_id") or data.get("id")
    if not isinstance(raw_id, str) or not raw_id:
        raise ValueError("it has no id")
    mapping = data.get("mapping")
    if not isinstance(mapping, dict):
        raise ValueError("its mapping is not an object")
    conv = ParsedConversation(
        id=f"chatgpt:{raw_id}", format=FORMAT, title=data.get("title") if isinstance(data.get("title"), str) else None,
        started_at=_time(data.get("create_time")),
    )
    for node in _active_path(mapping, data.get("current_node")):
        message = node.get("message")
        if not isinstance(message, dict):
            continue
        author = message.get("author")
        author = author if isinstance(author, dict) else {}
        role = author.get("role")
        metadata = message.get("metadata")
        metadata = metadata if isinstance(metadata, dict) else {}
        if role not in _ROLES or message.get("recipient", "all") != "all":
            continue
        if metadata.get("is_visually_hidden_from_conversation"):
            continue
        text = clean_text(_text(message.get("content")))
        if not text:
            continue
        turn_id = message.get("id") or node.get("id")
        if not isinstance(turn_id, (str, int)) or isinstance(turn_id, bool):
            continue  # no stable id to store it under
        meta: dict[str, Any] = {"node": node.get("id")}
        if metadata.get("model_slug"):
            meta["model"] = metadata["model_slug"]
        conv.turns.append(ParsedTurn(
            f"chatgpt:{turn_id}", role, text, _time(message.get("create_time")), meta,
            extract=role != "system",
        ))
    return conv


def parse_chatgpt(path: str, data: Any) -> ReadResult:
    result = ReadResult(path=path, format=FORMAT)
    items = data if isinstance(data, list) else [data]
    for index, item in enumerate(items, start=1):
        try:
            if isinstance(item, Rejected):
                raise ValueError(item.reason)
            if not isinstance(item, dict):
                raise ValueError("it is not an object")
            conv = _conversation(item)
        except Exception as exc:  # one malformed conversation never costs the others
            result.errors.append(LineError(path, None, f"conversation #{index} skipped: {exc}"))
            continue
        conv.source_path = path
        result.conversations.append(conv)
    return result
