"""Claude Code session files (``~/.claude/projects/<slug>/<session>.jsonl``).

Kept: human prompts (string content, text blocks, and prompts typed while the agent was
busy, which exist only as ``queue-operation`` enqueue records), assistant text with tool
calls in a compact one-line form (an API response split over several lines is merged on
``message.id``), and tool results as short ``tool`` turns. Skipped: progress, snapshots,
thinking, meta and command echoes. Unknown record types and fields are accepted and
ignored. A ``compact_boundary`` starts a new segment: the turns before it go through the
compaction pass. The ``isCompactSummary`` record is model-written, so it is stored as a
``system`` turn that is never extracted. Files under ``<session>/subagents/`` are their own
conversations whose ``parent_id`` is the session.
"""

from __future__ import annotations

import json
import os
from typing import Any

from madohub_memory.core.text import clean_text
from madohub_memory.ingest.lines import iter_json_lines
from madohub_memory.ingest.model import LineError, ParsedConversation, ParsedTurn, ReadResult
from madohub_memory.ingest.workspace import workspace_namespace

FORMAT = "claude-code"
_NOT_HUMAN = ("<command-", "<local-command-", "<bash-", "<task-notification>", "<system-reminder>")
_INTERRUPT = "[Request interrupted"
_TOOL_RESULT_CHARS = 300
_TOOL_INPUT_CHARS = 200
KNOWN_TYPES = frozenset({"user", "assistant", "system", "queue-operation", "progress", "summary",
                         "file-history-snapshot", "custom-title", "ai-title", "last-prompt", "attachment"})


def session_conversation_id(session_id: str) -> str:
    return f"cc:{session_id}"


def looks_like_claude_code(records: list[Any]) -> bool:
    """True when sniffed records carry the Claude Code envelope."""
    for record in records:
        if isinstance(record, dict) and record.get("type") in KNOWN_TYPES and (
            "sessionId" in record or "uuid" in record or "leafUuid" in record or "messageId" in record
        ):
            return True
    return False


def _short(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _tool_input(name: str, data: Any) -> str:
    if isinstance(data, dict):
        for key in ("command", "file_path", "path", "pattern", "url", "query", "description", "prompt"):
            value = data.get(key)
            if isinstance(value, str) and value.strip():
                return _short(value, _TOOL_INPUT_CHARS)
        if name == "AskUserQuestion" and isinstance(data.get("questions"), list) and data["questions"]:
            first = data["questions"][0]
            if isinstance(first, dict) and isinstance(first.get("question"), str):
                return _short(first["question"], _TOOL_INPUT_CHARS)
    return _short(json.dumps(data, ensure_ascii=False, default=str), _TOOL_INPUT_CHARS)


def _result_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text")
    return ""


class _SessionReader:
    def __init__(self, path: str, state: dict[str, Any] | None) -> None:
        self.path = path
        state = state or {}
        self.segment = int(state.get("segment", 0))
        self.conv: ParsedConversation | None = None
        self.conversation_id: str | None = state.get("conversation_id")
        self.last_assistant: ParsedTurn | None = None
        self.title: str | None = None  # from summary/title records, which may come first
        self.is_subagent = os.path.basename(os.path.dirname(path)) == "subagents"

    def conversation(self, record: dict[str, Any]) -> ParsedConversation:
        if self.conv is not None:
            return self.conv
        session = str(record.get("sessionId") or "")
        agent = record.get("agentId")
        stem = os.path.splitext(os.path.basename(self.path))[0]
        if not session:
            session = os.path.basename(os.path.dirname(os.path.dirname(self.path))) if self.is_subagent else stem
        parent_id = None
        if self.is_subagent or agent or record.get("isSidechain"):
            agent_name = f"agent-{agent}" if agent else stem
            conv_id = f"{session_conversation_id(session)}:{agent_name}"
            parent_id = session_conversation_id(session)
        else:
            conv_id = session_conversation_id(session)
        if self.conversation_id:
            conv_id = self.conversation_id
        cwd = record.get("cwd")
        namespace = workspace_namespace(cwd) if isinstance(cwd, str) else None
        meta = {k: record[k] for k in ("cwd", "gitBranch", "version", "slug", "agentId") if record.get(k)}
        self.conv = ParsedConversation(
            id=conv_id, format=FORMAT, source_path=self.path, title=self.title or record.get("slug"),
            parent_id=parent_id, namespace=namespace, started_at=record.get("timestamp"), meta=meta,
        )
        return self.conv

    def add(self, turn: ParsedTurn) -> None:
        assert self.conv is not None
        turn.segment = self.segment
        if self.conv.parent_id is not None:
            turn.extract = False  # subagent chatter: kept for context, never a source of candidates
            turn.meta["subagent"] = True
        self.conv.turns.append(turn)

    def record(self, record: dict[str, Any], line: int) -> None:
        kind = record.get("type")
        if kind in ("user", "assistant", "system", "queue-operation"):
            conv = self.conversation(record)
        elif kind in ("summary", "custom-title", "ai-title"):
            title = record.get("summary") or record.get("customTitle") or record.get("aiTitle")
            if isinstance(title, str) and title.strip():
                self.title = title.strip()
                if self.conv is not None:
                    self.conv.title = self.title
            return
        else:
            return  # progress, snapshots and unknown records carry no conversation content
        stamp = record.get("timestamp") if isinstance(record.get("timestamp"), str) else None
        if kind == "assistant":
            self._assistant(record, stamp, line)
            return
        self.last_assistant = None
        if kind == "system":
            if record.get("subtype") == "compact_boundary":
                self.segment += 1
                conv.boundaries += 1
            return
        if kind == "queue-operation":
            content = record.get("content")
            if record.get("operation") == "enqueue" and isinstance(content, str):
                text = clean_text(content).strip()
                if text and not text.startswith(_NOT_HUMAN):
                    self.add(ParsedTurn(f"{conv.id}:q{line}", "user", text, stamp,
                                        {"line": line, "queued": True}))
            return
        self._user(record, stamp, line)

    def _user(self, record: dict[str, Any], stamp: str | None, line: int) -> None:
        assert self.conv is not None
        uuid = record.get("uuid") or f"{self.conv.id}:L{line}"
        message = record.get("message") if isinstance(record.get("message"), dict) else {}
        content = message.get("content")
        if record.get("isCompactSummary"):
            text = clean_text(_result_text(content) if not isinstance(content, str) else content)
            self.add(ParsedTurn(uuid, "system", text, stamp, {"line": line, "compact_summary": True},
                                extract=False))
            return
        if record.get("isMeta"):
            return
        if isinstance(content, str):
            text = clean_text(content).strip()
            if not text or text.startswith(_INTERRUPT):
                return
            if text.startswith(_NOT_HUMAN):
                self.add(ParsedTurn(uuid, "system", text, stamp, {"line": line, "echo": True}, extract=False))
                return
            self.add(ParsedTurn(uuid, "user", text, stamp, {"line": line}))
            return
        if not isinstance(content, list):
            return
        texts: list[str] = []
        results: list[str] = []
        for block in content:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "text" and isinstance(block.get("text"), str):
                text = clean_text(block["text"]).strip()
                if text and not text.startswith(_INTERRUPT) and not text.startswith(_NOT_HUMAN):
                    texts.append(text)
            elif block.get("type") == "tool_result":
                label = "[tool error]" if block.get("is_error") else "[tool result]"
                body = _short(clean_text(_result_text(block.get("content"))), _TOOL_RESULT_CHARS)
                results.append(f"{label} {body}".rstrip())
        if results:
            self.add(ParsedTurn(uuid, "tool", "\n".join(results + texts), stamp, {"line": line}))
        elif texts:
            self.add(ParsedTurn(uuid, "user", "\n".join(texts), stamp, {"line": line}))

    def _assistant(self, record: dict[str, Any], stamp: str | None, line: int) -> None:
        assert self.conv is not None
        message = record.get("message") if isinstance(record.get("message"), dict) else {}
        content = message.get("content")
        blocks = content if isinstance(content, list) else [{"type": "text", "text": content}]
        parts: list[str] = []
        for block in blocks:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "text" and isinstance(block.get("text"), str):
                text = clean_text(block["text"]).strip()
                if text:
                    parts.append(text)
            elif block.get("type") == "tool_use":
                name = str(block.get("name") or "tool")
                parts.append(f"[tool {name}] {_tool_input(name, block.get('input'))}".rstrip())
        if not parts:
            return
        message_id = message.get("id")
        last = self.last_assistant
        if last is not None and message_id and last.meta.get("message_id") == message_id:
            last.content = last.content + "\n" + "\n".join(parts)
            return
        uuid = record.get("uuid") or f"{self.conv.id}:L{line}"
        meta: dict[str, Any] = {"line": line}
        if message_id:
            meta["message_id"] = message_id
        if message.get("model"):
            meta["model"] = message["model"]
        turn = ParsedTurn(uuid, "assistant", "\n".join(parts), stamp, meta)
        self.add(turn)
        self.last_assistant = turn


def read_claude_code(
    path: str, start_offset: int = 0, start_line: int = 0, state: dict[str, Any] | None = None
) -> ReadResult:
    """Read a session file from ``start_offset`` (the end of the previous read)."""
    reader = _SessionReader(path, state)
    result = ReadResult(path=path, format=FORMAT, end_offset=start_offset, end_line=start_line)
    for line in iter_json_lines(path, start_offset, start_line):
        result.lines_read += 1
        if line.error is not None:
            result.errors.append(LineError(path, line.number, line.error))
        elif not isinstance(line.value, dict):
            result.errors.append(LineError(path, line.number, "not a JSON object"))
        else:
            try:
                reader.record(line.value, line.number)
            except Exception as exc:  # one malformed record costs its line, never the file
                result.errors.append(LineError(path, line.number, f"unreadable record ({exc})"))
        if line.end != result.end_offset:
            result.end_offset, result.end_line = line.end, line.number
    if reader.conv is not None:
        result.conversations.append(reader.conv)
        result.state = {"segment": reader.segment, "conversation_id": reader.conv.id}
    return result
