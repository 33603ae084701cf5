"""Decisions hidden in Claude Code transcripts: ``AskUserQuestion`` calls and their answers.

An assistant record holds a ``tool_use`` block named ``AskUserQuestion`` whose input has
``questions[]`` (``question``, ``header``, ``options[].label``, ``multiSelect``). The
matching user record holds the ``tool_result`` (same ``tool_use_id``) and, structured,
``toolUseResult.answers`` = {question text: chosen label}. A rejected or failed call
(``is_error`` or a string ``toolUseResult``) is not a decision and is skipped. Each captured
answer gets a stable reference (session, tool-use id, question index), so capturing the
same transcript twice records nothing new.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any

from madohub_memory.core.jsonsafe import clean_value, needs_walk

TOOL_NAME = "AskUserQuestion"
_PAIR = re.compile(r'"((?:[^"\\]|\\.)*)"="((?:[^"\\]|\\.)*)"')


@dataclass(frozen=True)
class CapturedDecision:
    question: str
    options: list[str]
    answer: str
    ref: str
    session: str | None = None
    timestamp: str | None = None
    context: dict[str, Any] = field(default_factory=dict)
    multi_select: bool = False
    descriptions: dict[str, str] = field(default_factory=dict)  # option label -> what it means


def _answers_from_text(text: str) -> dict[str, str]:
    """Fallback: ``User has answered your questions: "Q"="A", "Q2"="B".``"""
    return {q: a for q, a in _PAIR.findall(text)}


def _result_text(block: Mapping[str, Any]) -> str:
    content = block.get("content")
    if isinstance(content, list):
        return "\n".join(str(c.get("text", "")) for c in content if isinstance(c, Mapping))
    return str(content or "")


def from_tool_call(
    tool_input: Mapping[str, Any],
    answers: Mapping[str, Any],
    *,
    ref: str,
    session: str | None = None,
    timestamp: str | None = None,
    context: Mapping[str, Any] | None = None,
) -> list[CapturedDecision]:
    """Pair each asked question with its answer (also usable from a PostToolUse hook payload)."""
    found: list[CapturedDecision] = []
    questions = tool_input.get("questions") if isinstance(tool_input, Mapping) else None
    if not isinstance(questions, list):
        return found
    for index, item in enumerate(questions):
        if not isinstance(item, Mapping):
            continue
        question = str(item.get("question") or "").strip()
        options = [
            str(o.get("label")) for o in item.get("options") or []
            if isinstance(o, Mapping) and str(o.get("label") or "").strip()
        ]
        descriptions = {
            str(o.get("label")): str(o.get("description")).strip() for o in item.get("options") or []
            if isinstance(o, Mapping) and o.get("label") and isinstance(o.get("description"), str)
        }
        answer = answers.get(question)
        if not question or len(options) < 2 or answer is None:
            continue
        if isinstance(answer, list):
            answer = ", ".join(str(a) for a in answer)
        answer = str(answer).strip()
        if not answer:
            continue
        found.append(CapturedDecision(
            question=question, options=options, answer=answer, ref=f"{ref}:{index}",
            session=session, timestamp=timestamp, context=dict(context or {}),
            multi_select=bool(item.get("multiSelect")), descriptions=descriptions,
        ))
    return found


def _records(lines: Iterable[str]) -> Iterator[dict[str, Any]]:
    for line in lines:
        line = line.strip()
        if not line:
            continue
        try:
            record = json.loads(line)
            if needs_walk(line):
                record = clean_value(record)  # cut emoji, 2^64, deep nesting: never a crash
        except (ValueError, RecursionError):
            continue  # a torn last line of a live transcript: skip, the next capture sees it whole
        if isinstance(record, dict):
            yield record


def _content(record: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    message = record.get("message")
    content = message.get("content") if isinstance(message, Mapping) else None
    return [b for b in content if isinstance(b, Mapping)] if isinstance(content, list) else []


WorkspaceOf = Callable[[str], "str | None"]


def _folder_name(cwd: str) -> str | None:
    return PurePath(cwd).name or None


def _context(record: Mapping[str, Any], workspace_of: WorkspaceOf) -> dict[str, Any]:
    cwd = record.get("cwd")
    workspace = workspace_of(str(cwd)) if cwd else None
    return {"workspace": workspace} if workspace else {}


def parse_lines(lines: Iterable[str], workspace_of: WorkspaceOf | None = None) -> list[CapturedDecision]:
    """Every answered ``AskUserQuestion`` in a Claude Code JSONL transcript, in order.

    ``workspace_of`` names the project of a working directory (the caller passes the
    repository-aware resolver with the user's mapping; the folder name otherwise)."""
    workspace_of = workspace_of or _folder_name
    asked: dict[str, tuple[dict[str, Any], Mapping[str, Any]]] = {}
    found: list[CapturedDecision] = []
    for record in _records(lines):
        for block in _content(record):
            kind = block.get("type")
            if kind == "tool_use" and block.get("name") == TOOL_NAME and block.get("id"):
                asked[str(block["id"])] = (record, block.get("input") or {})
            elif kind == "tool_result" and str(block.get("tool_use_id")) in asked:
                if block.get("is_error"):
                    continue
                use_record, tool_input = asked.pop(str(block["tool_use_id"]))
                structured = record.get("toolUseResult")
                if isinstance(structured, Mapping) and isinstance(structured.get("answers"), Mapping):
                    answers = structured["answers"]
                elif isinstance(structured, str):
                    continue  # "User rejected tool use" and similar
                else:
                    answers = _answers_from_text(_result_text(block))
                session = record.get("sessionId") or use_record.get("sessionId")
                found.extend(from_tool_call(
                    tool_input, answers,
                    ref=f"claude-code:{session}:{block['tool_use_id']}",
                    session=str(session) if session else None,
                    timestamp=record.get("timestamp") or use_record.get("timestamp"),
                    context=_context(use_record, workspace_of),
                ))
    return found
