"""Codex CLI rollout files (``~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<session>.jsonl``).

The format, field by field and per CLI version, is in ``tests/fixtures/codex/FORMAT.md``.
Each line is ``{"timestamp", "type", "payload"}`` (0.171 adds ``ordinal`` and ``metadata``);
the file opens with ``session_meta`` (session id, working directory, CLI version) and grows
by one line per item while the session runs, also across ``codex resume``. Kept: what the
person typed (``response_item`` messages of role ``user``, minus the context Codex injects:
AGENTS.md, ``<environment_context>`` and other envelopes; 0.171 marks each part's
provenance), the assistant's text, its tool calls in the one-line form the Claude Code
reader uses (``[tool shell] npm test``, so the same extractor applies), and tool output as
``tool`` turns (``[tool error]`` when the command failed). One turn per item: a read may
stop between two items of one response (Codex writes as it goes), and a turn's text must
not depend on when the file was read. Skipped: ``developer`` messages, reasoning,
``event_msg`` (progress, and copies of the messages), ``turn_context``, token counts and
every record type this reader does not know (newer CLIs add some in every release).

A ``compacted`` record is a compaction: the turns before it go through the compaction
pass, and its summary (written by the model; empty when the provider compacts remotely and
encrypted) is stored as a ``system`` turn that the extractor reads like Claude Code's
compaction summary. The model's reply to the compaction prompt (``compaction_output``) is
the same text and is not stored twice.

Turn ids are ``cx:<session>:L<line>``: a rollout is append-only, so a line keeps its number
and a re-import (or the read of a grown file from where the last one stopped) adds nothing
twice. A subagent's rollout (``source.subagent``) is its own conversation under its parent
session, kept for context and never extracted.
"""

from __future__ import annotations

import os
import re
from typing import Any

from madohub_memory.agents.codex.rollout_items import (
    call_line,
    compaction_summary,
    message_texts,
    remember_call,
    remembered_candidate,
    result_line,
    short,
)
from madohub_memory.core.text import fingerprint
from madohub_memory.ingest.lines import read_records
from madohub_memory.ingest.model import ParsedConversation, ParsedTurn, ReadResult
from madohub_memory.ingest.workspace import workspace_namespace

FORMAT = "codex"
ENVELOPE_TYPES = frozenset({"session_meta", "response_item", "event_msg", "turn_context", "compacted",
                            "world_state", "token_usage_record"})
ITEM_TYPES = frozenset({"message", "reasoning", "function_call", "function_call_output", "custom_tool_call",
                        "custom_tool_call_output", "local_shell_call", "web_search_call"})
_CALLS = frozenset({"function_call", "custom_tool_call", "local_shell_call", "web_search_call", "tool_search_call"})
_OUTPUTS = frozenset({"function_call_output", "custom_tool_call_output", "tool_search_output"})
_ROLLOUT_NAME = re.compile(r"rollout-.*?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$", re.I)
_META_KEYS = ("cwd", "cli_version", "originator", "source", "model_provider", "forked_from_id")
_ANSWER_TOOLS = ("request_user_input",)  # the person's answer: kept whole, like AskUserQuestion's


def session_conversation_id(session_id: str) -> str:
    return f"cx:{session_id}"


def session_from_name(path: str) -> str | None:
    """The session id in a rollout file name (``rollout-2026-12-01T16-26-00-<uuid>.jsonl``)."""
    found = _ROLLOUT_NAME.search(os.path.basename(path))
    return found.group(1).lower() if found else None


def looks_like_codex(records: list[Any]) -> bool:
    """True when sniffed records are rollout lines (an envelope with a payload, or the
    payload-less lines of the first 2025 releases: a meta line, then bare items)."""
    for record in records:
        if not isinstance(record, dict):
            continue
        if record.get("type") in ENVELOPE_TYPES and isinstance(record.get("payload"), dict):
            return True
    legacy_meta = any(isinstance(r, dict) and "type" not in r and isinstance(r.get("id"), str)
                      and isinstance(r.get("timestamp"), str) for r in records[:1])
    return legacy_meta and any(
        isinstance(r, dict) and (("role" in r and r.get("type") in ITEM_TYPES) or r.get("type") in _CALLS)
        for r in records[1:])


def _parent_thread(source: Any) -> str | None:
    """The parent thread of a subagent session (``source.subagent…parent_thread_id``), if any."""
    if isinstance(source, dict):
        for key, value in source.items():
            if key == "parent_thread_id" and isinstance(value, str):
                return value
            found = _parent_thread(value)
            if found:
                return found
    return None


class _RolloutReader:
    def __init__(self, path: str, state: dict[str, Any] | None, workspace_map: dict[str, str] | None) -> None:
        self.path = path
        self.workspace_map = workspace_map
        state = state or {}
        self.segment = int(state.get("segment", 0))
        self.session: str | None = state.get("session")
        self.namespace: str | None = state.get("namespace")
        self.parent_id: str | None = state.get("parent_id")
        self.conversation_id: str | None = state.get("conversation_id")
        self.meta: dict[str, Any] = dict(state.get("meta") or {})
        self.started_at: str | None = state.get("started_at")
        self.title: str | None = None
        self.conv: ParsedConversation | None = None
        self.answer_calls: set[str] = set(state.get("answer_calls") or [])
        # call id -> (turn id, content fingerprint) of the agent's ``remember`` calls whose output is still to come
        self.remember_calls: dict[str, list[str]] = dict(state.get("remember_calls") or {})

    # -- the conversation ----------------------------------------------------------------

    def session_meta(self, payload: dict[str, Any], stamp: str | None) -> None:
        if self.conv is not None or self.conversation_id:
            return  # a later session_meta (a fork's copy of its parent's) names nothing new
        session = payload.get("id") or payload.get("session_id")
        if isinstance(session, str) and session.strip():
            self.session = session.strip()
        cwd = payload.get("cwd")
        if isinstance(cwd, str) and cwd.strip():
            self.namespace = workspace_namespace(cwd, self.workspace_map)
        parent = _parent_thread(payload.get("source"))
        if parent:
            self.parent_id = session_conversation_id(parent)
        self.meta = {k: payload[k] for k in _META_KEYS if payload.get(k)}
        git = payload.get("git")
        if isinstance(git, dict):
            self.meta.update({f"git_{k}": v for k, v in git.items() if isinstance(v, str) and v})
        self.started_at = payload.get("timestamp") if isinstance(payload.get("timestamp"), str) else stamp

    def conversation(self, stamp: str | None) -> ParsedConversation:
        if self.conv is None:
            session = self.session or session_from_name(self.path) or os.path.splitext(os.path.basename(self.path))[0]
            self.session = session
            conv_id = self.conversation_id or session_conversation_id(session)
            self.conv = ParsedConversation(
                id=conv_id, format=FORMAT, source_path=self.path, title=self.title, parent_id=self.parent_id,
                namespace=self.namespace, started_at=self.started_at or stamp, meta=dict(self.meta),
            )
        return self.conv

    def add(self, turn: ParsedTurn) -> None:
        conv = self.conversation(turn.created_at)
        turn.segment = self.segment
        if conv.parent_id is not None:
            turn.extract = False  # a subagent's chatter: context, never a source of candidates
            turn.meta["subagent"] = True
        conv.turns.append(turn)

    # -- records -------------------------------------------------------------------------

    def record(self, record: dict[str, Any], line: int) -> None:
        kind = record.get("type")
        stamp = record.get("timestamp") if isinstance(record.get("timestamp"), str) else None
        payload = record.get("payload")
        if not isinstance(payload, dict):
            if kind in ITEM_TYPES or kind in _CALLS or kind in _OUTPUTS:  # 2025 layout: bare items
                kind, payload = "response_item", record
            elif kind is None and isinstance(record.get("id"), str) and line <= 1:
                self.session_meta(record, stamp)
                return
            else:
                return
        if kind == "session_meta":
            self.session_meta(payload, stamp)
        elif kind == "turn_context":
            cwd = payload.get("cwd")
            if self.namespace is None and self.conv is None and isinstance(cwd, str) and cwd.strip():
                self.namespace = workspace_namespace(cwd, self.workspace_map)
        elif kind == "response_item":
            metadata = record.get("metadata")
            self.item(payload, stamp, line, metadata if isinstance(metadata, dict) else {})
        elif kind == "compacted":
            self.compacted(payload, stamp, line)
        # other event_msg, world_state, token_usage_record and unknown records: no conversation content

    def item(self, payload: dict[str, Any], stamp: str | None, line: int, metadata: dict[str, Any]) -> None:
        kind = payload.get("type")
        if kind == "message":
            role = payload.get("role")
            if role == "user":
                texts = message_texts(payload, user=True)
                if texts:
                    conv = self.conversation(stamp)
                    text = "\n".join(texts)
                    if conv.title is None and conv.parent_id is None:
                        conv.title = short(text, 80)
                    self.add(ParsedTurn(f"{conv.id}:L{line}", "user", text, stamp, {"line": line}))
            elif role == "assistant":
                if metadata.get("compaction_output") or payload.get("compaction_output"):
                    return  # the summary again: the compacted record stores it
                texts = message_texts(payload, user=False)
                if texts:
                    self.assistant("\n".join(texts), stamp, line)
            return
        if kind in _CALLS:
            call = call_line(payload)
            if call:
                call_id = payload.get("call_id")
                if payload.get("name") in _ANSWER_TOOLS and isinstance(call_id, str):
                    self.answer_calls.add(call_id)
                content = remember_call(payload)
                if content is not None and isinstance(call_id, str):
                    self.remember_calls[call_id] = [f"{self.conversation(stamp).id}:L{line}", fingerprint(content)]
                self.assistant(call, stamp, line)
            return
        if kind in _OUTPUTS:
            answer = payload.get("call_id") in self.answer_calls
            conv = self.conversation(stamp)
            meta: dict[str, Any] = {"line": line}
            remembered = self.remember_calls.pop(str(payload.get("call_id")), None)
            candidate = remembered_candidate(payload) if remembered else None
            if remembered and candidate is not None:
                # the agent's remember call queued this candidate: the call is its originating turn
                meta["remembered"] = {"candidate_id": candidate, "turn_id": remembered[0],
                                      "fingerprint": remembered[1]}
            self.add(ParsedTurn(f"{conv.id}:L{line}", "tool", result_line(payload, answer=answer), stamp, meta))
        # reasoning (often encrypted), ghost snapshots, compaction items: not conversation text

    def assistant(self, text: str, stamp: str | None, line: int) -> None:
        """One assistant turn per item (its text, or one tool call). Not merged into the
        response's other items: a read may stop between two of them (Codex writes as it
        goes), and a turn's text must not depend on when the file was read."""
        conv = self.conversation(stamp)
        self.add(ParsedTurn(f"{conv.id}:L{line}", "assistant", text, stamp, {"line": line}))

    def compacted(self, payload: dict[str, Any], stamp: str | None, line: int) -> None:
        conv = self.conversation(stamp)
        self.segment += 1
        conv.boundaries += 1
        summary = compaction_summary(payload.get("message"))
        if summary:
            self.add(ParsedTurn(f"{conv.id}:L{line}", "system", summary, stamp,
                                {"line": line, "compact_summary": True}))

    def state(self) -> dict[str, Any]:
        return {"segment": self.segment, "conversation_id": self.conv.id if self.conv else self.conversation_id,
                "session": self.session, "namespace": self.namespace, "parent_id": self.parent_id,
                "meta": self.meta, "started_at": self.started_at, "answer_calls": sorted(self.answer_calls)[-50:],
                "remember_calls": dict(list(self.remember_calls.items())[-20:])}


def read_codex(
    path: str, start_offset: int = 0, start_line: int = 0, state: dict[str, Any] | None = None,
    workspace_map: dict[str, str] | None = None,
) -> ReadResult:
    """Read a rollout file from ``start_offset`` (the end of the previous read).

    A last line still being written is left for the next read (reported as a warning-level
    line error by the caller); ``workspace_map`` is the setting ``workspace.map``."""
    reader = _RolloutReader(path, state, workspace_map)
    result = ReadResult(path=path, format=FORMAT)
    read_records(result, start_offset, start_line, reader.record)
    if reader.conv is not None:
        result.conversations.append(reader.conv)
    if reader.conv is not None or reader.session or reader.conversation_id:
        result.state = reader.state()
    return result
