"""Claude Code session files (``~/.claude/projects/<slug>/<session>.jsonl``).

Kept: human prompts (string content, text blocks, and prompts typed while the agent was
busy, which exist only as ``queue-operation`` enqueue records), the text typed after a
slash command (``/implement T037, no API keys in code``), assistant text with tool calls in
a compact one-line form (an API response split over several lines is merged on
``message.id``), and tool results as short ``tool`` turns. Skipped: progress, snapshots,
thinking, meta, command echoes and command expansions, machine envelopes
(``<agent-notification>``, hook output) and repeats of a prompt already read (CLI 2.0.x
re-enqueues a waiting prompt, sometimes a thousand times). Unknown record types and
fields are accepted and ignored. A ``compact_boundary`` starts a new segment: the turns
before it go through the compaction pass. The ``isCompactSummary`` record is model-written,
so it is stored as a ``system`` turn (never user text); it is still extracted, because its
named sections hold what the session established. Files under ``<session>/subagents/``
(or ``agent-*.jsonl`` beside the sessions, CLI 2.0.x) are their own conversations whose
``parent_id`` is the session; sidechain records inside a session file (2.0.x subagents, the
"Warmup" exchange) are kept for context but never extracted.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections import Counter
from typing import Any

from madohub_memory.agents.remember_calls import (
    KEPT_CALLS,
    call_record,
    is_remember_tool,
    link,
    queued_candidate,
)
from madohub_memory.core.text import clean_text
from madohub_memory.ingest.lines import read_records
from madohub_memory.ingest.model import ParsedConversation, ParsedTurn, ReadResult
from madohub_memory.ingest.workspace import is_home, project_from_paths, workspace_namespace

FORMAT = "claude-code"
_NOT_HUMAN = ("<command-", "<local-command-", "<bash-", "<task-notification>", "<system-reminder>")
_INTERRUPT = "[Request interrupted"
_TOOL_RESULT_CHARS = 300
_ANSWER_CHARS = 2000
# "<agent-notification>…", "<user-prompt-submit-hook>…": an envelope written by the CLI or a hook.
_ENVELOPE = re.compile(r"^<([a-z][a-z0-9]*(?:[-_][a-z0-9]+)+)>[\s\S]*</\1>\s*$")
_COMMAND_NAME = re.compile(r"<command-name>\s*/?([^<\s]+)\s*</command-name>")
_COMMAND_ARGS = re.compile(r"<command-args>([\s\S]*?)</command-args>")
_RECENT_PROMPTS = 50  # prompts remembered to drop re-enqueued copies
_TOOL_INPUT_CHARS = 200
KNOWN_TYPES = frozenset({"user", "assistant", "system", "queue-operation", "progress", "summary",
                         "file-history-snapshot", "custom-title", "ai-title", "last-prompt", "attachment",
                         "mode", "permission-mode", "agent-name"})
# Titles, weakest first: a later stronger one replaces a weaker one, never the reverse.
_TITLES = (("summary", "summary"), ("ai-title", "aiTitle"), ("agent-name", "agentName"), ("custom-title", "customTitle"))
# "(disable recaps in /config)": the CLI's hint at the end of a recap, not part of it.
_RECAP_HINT = re.compile(r"\s*\((?:disable|turn off)[^()]*/config\)\s*$", re.I)
_PATH_KEYS = ("file_path", "path", "notebook_path")
_MAX_PLACES = 20  # working folders and touched folders remembered across appends


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


def _machine_text(text: str) -> bool:
    """Written by the CLI, a hook or a command, not typed by the person."""
    return text.startswith(_NOT_HUMAN) or bool(_ENVELOPE.match(text))


def _command_args(text: str) -> tuple[str, str] | None:
    """``(command, args)`` of a slash-command echo whose arguments are words the person typed
    (``/implement T037. For API keys, don't put placeholders…``); ``None`` otherwise."""
    name = _COMMAND_NAME.search(text)
    args = _COMMAND_ARGS.search(text)
    if name is None or args is None:
        return None
    typed = clean_text(args.group(1)).strip()
    if len(typed.split()) < 3:  # "/model opus", "/clear": a setting, not a statement
        return None
    return name.group(1), typed


def _short(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _tool_input(name: str, data: Any) -> str:
    if isinstance(data, dict):
        # "content": what a remember call proposes, shown as Codex calls are (not as JSON)
        for key in ("command", "file_path", "path", "pattern", "url", "query", "description", "prompt", "content"):
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
    def __init__(self, path: str, state: dict[str, Any] | None, workspace_map: dict[str, str] | None = None) -> None:
        self.path = path
        self.workspace_map = workspace_map
        state = state or {}
        self.segment = int(state.get("segment", 0))
        self.conv: ParsedConversation | None = None
        self.conversation_id: str | None = state.get("conversation_id")
        self.last_assistant: ParsedTurn | None = None
        self.title: str | None = None  # from summary/title records, which may come first
        # The file says what it is: a sidechain first record does not make a session file a
        # subagent conversation (CLI 2.0.x opens sessions with a sidechain "Warmup" exchange).
        self.is_subagent = (os.path.basename(os.path.dirname(path)) == "subagents"
                            or os.path.basename(path).startswith("agent-"))
        # Prompts already read (CLI 2.0.x writes a waiting prompt as a user record and then
        # re-enqueues it, up to thousands of times); bounded, carried across appends.
        self.recent: list[str] = [str(t) for t in state.get("recent_prompts", [])][-_RECENT_PROMPTS:]
        self.last_command: str | None = None  # uuid of the last slash-command echo
        # the agent's remember calls awaiting their reply: tool_use id -> [turn id, fingerprint]
        calls = state.get("remember_calls")
        self.remember_calls: dict[str, list[str]] = dict(calls) if isinstance(calls, dict) else {}
        self.cwds: Counter[str] = Counter({str(k): int(v) for k, v in (state.get("cwds") or {}).items()})
        self.touched: Counter[str] = Counter({str(k): int(v) for k, v in (state.get("touched") or {}).items()})
        self.title_rank = -1

    def conversation(self, record: dict[str, Any]) -> ParsedConversation:
        if self.conv is not None:
            return self.conv
        session = str(record.get("sessionId") or "")
        agent = record.get("agentId")
        stem = os.path.splitext(os.path.basename(self.path))[0]
        if not session:
            session = os.path.basename(os.path.dirname(os.path.dirname(self.path))) if self.is_subagent else stem
        parent_id = None
        if self.is_subagent:
            agent_name = f"agent-{agent}" if agent else stem
            conv_id = f"{session_conversation_id(session)}:{agent_name}"
            parent_id = session_conversation_id(session)
        else:
            conv_id = session_conversation_id(session)
        if self.conversation_id:
            conv_id = self.conversation_id
        meta = {k: record[k] for k in ("cwd", "gitBranch", "version", "slug", "agentId") if record.get(k)}
        self.conv = ParsedConversation(
            id=conv_id, format=FORMAT, source_path=self.path, title=self.title or record.get("slug"),
            parent_id=parent_id, started_at=record.get("timestamp"), meta=meta,
        )
        return self.conv

    def namespace(self) -> str | None:
        """The session's workspace: the first working folder it ran in that names a project
        (or a folder above it that it also ran in: ``shop`` before ``shop/backend``); when it
        only ran in a home folder (or no folder is recorded), the folder below it that its
        tools worked in (``~/shop/…``)."""
        named = [c for c in self.cwds if workspace_namespace(c, self.workspace_map)]
        if named:
            first = named[0]
            above = [c for c in named if _inside(first, c)]
            return workspace_namespace(min(above, key=len) if above else first, self.workspace_map)
        homes = [c for c, _ in Counter(self.cwds).most_common() if is_home(c)]
        folder = project_from_paths(Counter(self.touched).elements(), homes[0] if homes else None)
        return workspace_namespace(folder, self.workspace_map) if folder else None

    def places(self) -> dict[str, Any]:
        """Where the session worked, carried to the next read of a growing file."""
        return {"cwds": dict(list(self.cwds.items())[:_MAX_PLACES]),  # first seen first
                "touched": dict(Counter(self.touched).most_common(_MAX_PLACES))}

    def add(self, turn: ParsedTurn, sidechain: bool = False) -> None:
        assert self.conv is not None
        turn.segment = self.segment
        if self.conv.parent_id is not None or sidechain:
            turn.extract = False  # subagent chatter: kept for context, never a source of candidates
            turn.meta["subagent"] = True
        self.conv.turns.append(turn)

    def seen_prompt(self, text: str) -> bool:
        """True when this prompt was read already; remembers it otherwise (as a short hash,
        so that the state carried across appends stays small)."""
        key = hashlib.sha1(" ".join(text.split()).encode("utf-8")).hexdigest()[:16]
        if key in self.recent:
            return True
        self.recent = [*self.recent, key][-_RECENT_PROMPTS:]
        return False

    def _place(self, record: dict[str, Any]) -> None:
        """The session's details from the first record that has them: ``claude -p`` (2.1.x)
        opens a session with ``queue-operation`` records, which carry no ``cwd`` (the
        workspace itself is decided at the end of the read, :meth:`namespace`)."""
        if self.conv is None:
            return
        for key in ("cwd", "gitBranch", "version", "slug"):
            if record.get(key) and key not in self.conv.meta:
                self.conv.meta[key] = record[key]

    def _title(self, kind: str, record: dict[str, Any]) -> None:
        rank = next(n for n, (name, _) in enumerate(_TITLES) if name == kind)
        title = record.get(_TITLES[rank][1])
        if isinstance(title, str) and title.strip() and rank >= self.title_rank:
            self.title, self.title_rank = title.strip(), rank
            if self.conv is not None:
                self.conv.title = self.title

    def record(self, record: dict[str, Any], line: int) -> None:
        self._place(record)
        kind = record.get("type")
        cwd = record.get("cwd")
        if isinstance(cwd, str) and cwd.strip() and len(cwd) < 1000 and (
                cwd.strip() in self.cwds or len(self.cwds) < _MAX_PLACES):
            self.cwds[cwd.strip()] += 1
        if kind in ("user", "assistant", "system", "queue-operation"):
            conv = self.conversation(record)
        elif kind == "attachment":
            self._attachment(record, line)
            return
        elif kind in dict(_TITLES):
            self._title(str(kind), record)
            return
        else:
            return  # progress, snapshots, modes, last-prompt copies and unknown records carry no content
        stamp = record.get("timestamp") if isinstance(record.get("timestamp"), str) else None
        if kind == "assistant":
            self._assistant(record, stamp, line)
            return
        self.last_assistant = None
        if kind == "system":
            if record.get("subtype") == "compact_boundary":
                self.segment += 1
                conv.boundaries += 1
            elif record.get("subtype") == "away_summary" and isinstance(record.get("content"), str):
                # the agent's recap of the session so far: model-written, read like a summary
                text = _RECAP_HINT.sub("", clean_text(record["content"])).strip()
                if text:
                    uuid = record.get("uuid") or f"{conv.id}:L{line}"
                    self.add(ParsedTurn(uuid, "system", text, stamp, {"line": line, "recap": True}))
            return
        if kind == "queue-operation":
            content = record.get("content")
            if record.get("operation") == "enqueue" and isinstance(content, str):
                text = clean_text(content).strip()
                if text and not _machine_text(text) and not self.seen_prompt(text):
                    self.add(ParsedTurn(f"{conv.id}:q{line}", "user", text, stamp,
                                        {"line": line, "queued": True}))
            return
        self._user(record, stamp, line)

    def _attachment(self, record: dict[str, Any], line: int) -> None:
        """A prompt the person typed while the agent was busy (CLI 2.1.x ``queued_command``
        attachment); every other attachment (files, hook output, tool lists) is context."""
        attachment = record.get("attachment")
        if not isinstance(attachment, dict) or attachment.get("type") != "queued_command":
            return
        origin = attachment.get("origin")
        prompt = attachment.get("prompt")
        if (isinstance(origin, dict) and origin.get("kind") not in (None, "human")) or not isinstance(prompt, str):
            return
        text = clean_text(prompt).strip()
        if not text or _machine_text(text) or self.seen_prompt(text):
            return
        conv = self.conversation(record)
        stamp = record.get("timestamp") if isinstance(record.get("timestamp"), str) else None
        self.last_assistant = None
        self.add(ParsedTurn(record.get("uuid") or f"{conv.id}:a{line}", "user", text, stamp,
                            {"line": line, "queued": True}))

    def _user(self, record: dict[str, Any], stamp: str | None, line: int) -> None:
        assert self.conv is not None
        uuid = record.get("uuid") or f"{self.conv.id}:L{line}"
        message = record.get("message")
        message = message if isinstance(message, dict) else {}
        content = message.get("content")
        sidechain = bool(record.get("isSidechain")) and self.conv.parent_id is None
        after_command, self.last_command = self.last_command, None
        if record.get("isCompactSummary"):
            text = clean_text(_result_text(content) if not isinstance(content, str) else content)
            self.add(ParsedTurn(uuid, "system", text, stamp, {"line": line, "compact_summary": True}))
            return
        if record.get("isMeta"):
            return
        if isinstance(content, str):
            text = clean_text(content).strip()
            if not text or text.startswith(_INTERRUPT):
                return
            if _machine_text(text):
                command = _command_args(text)
                if command is not None and not sidechain:
                    # what the person typed after the command is theirs; the echo around it is not
                    self.last_command = uuid
                    self.add(ParsedTurn(uuid, "user", command[1], stamp,
                                        {"line": line, "command": command[0]}))
                    self.seen_prompt(command[1])
                    return
                if _COMMAND_NAME.search(text):
                    self.last_command = uuid
                self.add(ParsedTurn(uuid, "system", text, stamp, {"line": line, "echo": True}, extract=False))
                return
            meta: dict[str, Any] = {"line": line}
            turn = ParsedTurn(uuid, "user", text, stamp, meta)
            if not sidechain and self.seen_prompt(text):
                turn.extract, meta["repeat"] = False, True  # the same prompt sent again
            self.add(turn, sidechain)
            return
        if not isinstance(content, list):
            return
        if after_command is not None and record.get("parentUuid") == after_command and not any(
                isinstance(b, dict) and b.get("type") == "tool_result" for b in content):
            # the expanded body of a slash command (CLI 2.0.x does not mark it isMeta): a
            # prompt written for the model, not by the person
            body = "\n".join(clean_text(b["text"]) for b in content
                             if isinstance(b, dict) and isinstance(b.get("text"), str))
            if body.strip():
                self.add(ParsedTurn(uuid, "system", body, stamp, {"line": line, "expansion": True},
                                    extract=False))
            return
        texts: list[str] = []
        results: list[str] = []
        remembered: list[dict[str, Any]] = []  # the agent's remember calls this reply answers
        for block in content:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "text" and isinstance(block.get("text"), str):
                text = clean_text(block["text"]).strip()
                if text and not text.startswith(_INTERRUPT) and not _machine_text(text):
                    texts.append(text)
            elif block.get("type") == "tool_result":
                label = "[tool error]" if block.get("is_error") else "[tool result]"
                body = clean_text(_result_text(block.get("content")))
                call = self.remember_calls.pop(str(block.get("tool_use_id")), None)
                candidate = queued_candidate(body) if call and not block.get("is_error") else None
                if call and candidate is not None:
                    remembered.append(link(call, candidate))
                # the user's answers to AskUserQuestion are decisions: kept whole, not cut at 300
                limit = _ANSWER_CHARS if body.startswith("User has answered") else _TOOL_RESULT_CHARS
                body = _short(body, limit)
                results.append(f"{label} {body}".rstrip())
        if results:
            meta = {"line": line, **({"remembered": remembered} if remembered else {})}
            self.add(ParsedTurn(uuid, "tool", "\n".join(results + texts), stamp, meta), sidechain)
        elif texts:
            self.add(ParsedTurn(uuid, "user", "\n".join(texts), stamp, {"line": line}), sidechain)

    def _touch(self, data: Any) -> None:
        """Remember the folder of a file a tool worked on (to find the project when the session
        ran in a home folder)."""
        if isinstance(data, dict):
            for key in _PATH_KEYS:
                value = data.get(key)
                if isinstance(value, str) and 1 < len(value) < 1000 and (value[:1] in "/\\" or value[1:3] in (":\\", ":/")):
                    self.touched[value.strip()] += 1
                    if len(self.touched) > 4 * _MAX_PLACES:
                        self.touched = Counter(dict(self.touched.most_common(_MAX_PLACES)))
                    return

    def _assistant(self, record: dict[str, Any], stamp: str | None, line: int) -> None:
        assert self.conv is not None
        message = record.get("message")
        message = message if isinstance(message, dict) else {}
        content = message.get("content")
        blocks = content if isinstance(content, list) else [{"type": "text", "text": content}]
        parts: list[str] = []
        calls: list[tuple[str, Any]] = []  # (tool_use id, input) of remember calls
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
                if is_remember_tool(name) and isinstance(block.get("id"), str):
                    calls.append((block["id"], block.get("input")))
                self._touch(block.get("input"))
        if not parts:
            return
        message_id = message.get("id")
        last = self.last_assistant
        if last is not None and message_id and last.meta.get("message_id") == message_id:
            last.content = last.content + "\n" + "\n".join(parts)
            self._note_calls(calls, last.id)
            return
        uuid = record.get("uuid") or f"{self.conv.id}:L{line}"
        self._note_calls(calls, uuid)
        meta: dict[str, Any] = {"line": line}
        sidechain = bool(record.get("isSidechain")) and self.conv.parent_id is None
        if message_id:
            meta["message_id"] = message_id
        if message.get("model"):
            meta["model"] = message["model"]
        turn = ParsedTurn(uuid, "assistant", "\n".join(parts), stamp, meta)
        self.add(turn, sidechain)
        self.last_assistant = turn


    def _note_calls(self, calls: list[tuple[str, Any]], turn_id: str) -> None:
        for call_id, arguments in calls:
            noted = call_record(turn_id, arguments)
            if noted is not None:
                self.remember_calls[call_id] = noted
        if len(self.remember_calls) > KEPT_CALLS:
            self.remember_calls = dict(list(self.remember_calls.items())[-KEPT_CALLS:])


def _inside(path: str, folder: str) -> bool:
    """``folder`` is ``path`` or one of its ancestors (either path style)."""
    a, b = path.replace("\\", "/").rstrip("/"), folder.replace("\\", "/").rstrip("/")
    return a == b or a.startswith(b + "/")


def read_claude_code(
    path: str, start_offset: int = 0, start_line: int = 0, state: dict[str, Any] | None = None,
    workspace_map: dict[str, str] | None = None,
) -> ReadResult:
    """Read a session file from ``start_offset`` (the end of the previous read); ``workspace_map``
    is the user's folder -> project mapping (setting ``workspace.map``)."""
    reader = _SessionReader(path, state, workspace_map)
    result = ReadResult(path=path, format=FORMAT)
    read_records(result, start_offset, start_line, reader.record)
    if reader.conv is not None:
        reader.conv.namespace = reader.namespace()
        result.conversations.append(reader.conv)
        result.state = {"segment": reader.segment, "conversation_id": reader.conv.id,
                        "recent_prompts": reader.recent, "remember_calls": reader.remember_calls, **reader.places()}
    return result
