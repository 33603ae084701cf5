"""Adapters for benchmark layouts (LoCoMo, LongMemEval), used by the benchmarks.

LoCoMo dialogues are between two people, so both speakers are ``user`` turns whose
``speaker`` is kept; the turn id keeps the ``dia_id`` so gold facts can be matched to turns.
LongMemEval haystack sessions are user/assistant chats; a session shared by several
questions is stored once (its id is the session id).
"""

from __future__ import annotations

import ast
import re
from datetime import UTC, datetime
from typing import Any

from madohub_memory.core.clock import to_iso
from madohub_memory.core.text import clean_text
from madohub_memory.ingest.model import LineError, ParsedConversation, ParsedTurn, ReadResult
from madohub_memory.ingest.sanitize import Rejected

_LOCOMO_TIME = re.compile(r"(\d{1,2}):(\d{2})\s*([ap]m)\s+on\s+(\d{1,2})\s+(\w+),?\s+(\d{4})", re.I)
_LME_TIME = re.compile(r"(\d{4})/(\d{2})/(\d{2})\s*(?:\(\w+\))?\s*(\d{2}):(\d{2})")


def looks_like_locomo(data: Any) -> bool:
    return isinstance(data, list) and bool(data) and isinstance(data[0], dict) and "conversation" in data[0]


def looks_like_longmemeval(data: Any) -> bool:
    return isinstance(data, list) and bool(data) and isinstance(data[0], dict) and "haystack_sessions" in data[0]


def locomo_time(text: Any) -> str | None:
    match = _LOCOMO_TIME.search(str(text or ""))
    if not match:
        return None
    hour, minute, half, day, month, year = match.groups()
    try:
        moment = datetime.strptime(f"{day} {month[:3]} {year} {hour}:{minute} {half}", "%d %b %Y %I:%M %p")
    except ValueError:
        return None
    return to_iso(moment.replace(tzinfo=UTC))


def lme_time(text: Any) -> str | None:
    match = _LME_TIME.search(str(text or ""))
    if not match:
        return None
    year, month, day, hour, minute = (int(g) for g in match.groups())
    try:
        return to_iso(datetime(year, month, day, hour, minute, tzinfo=UTC))
    except ValueError:  # "2023/13/45 (Mon) 25:61": not a date
        return None


def _session_keys(conversation: dict[str, Any]) -> list[str]:
    keys = [k for k, v in conversation.items() if re.fullmatch(r"session_\d+", k) and isinstance(v, list)]
    return sorted(keys, key=lambda k: int(k.split("_")[1]))


def parse_locomo(path: str, data: Any) -> ReadResult:
    result = ReadResult(path=path, format="locomo")
    for index, sample in enumerate(data if isinstance(data, list) else [], start=1):
        if isinstance(sample, Rejected):
            result.errors.append(LineError(path, None, f"sample #{index} skipped: {sample.reason}"))
            continue
        try:
            _locomo_sample(path, index, sample, result)
        except Exception as exc:  # one malformed sample never costs the others
            result.errors.append(LineError(path, None, f"sample #{index} skipped: {exc}"))
    return result


def _locomo_sample(path: str, index: int, sample: Any, result: ReadResult) -> None:
    conversation = sample.get("conversation") if isinstance(sample, dict) else None
    if not isinstance(conversation, dict):
        result.errors.append(LineError(path, None, f"sample #{index} has no conversation; skipped"))
        return
    sample_id = str(sample.get("sample_id") or f"sample-{index}")
    conv = ParsedConversation(
        f"locomo:{sample_id}", "locomo", source_path=path,
        title=f"{conversation.get('speaker_a', '?')} & {conversation.get('speaker_b', '?')}",
    )
    for key in _session_keys(conversation):
        stamp = locomo_time(conversation.get(f"{key}_date_time"))
        conv.started_at = conv.started_at or stamp
        for turn in conversation[key]:
            if not isinstance(turn, dict) or not turn.get("dia_id"):
                result.errors.append(LineError(path, None, f"{sample_id} {key}: a turn without dia_id"))
                continue
            text = clean_text(str(turn.get("text") or ""))
            if turn.get("blip_caption"):
                text = f"{text}\n[image: {clean_text(str(turn['blip_caption']))}]".strip()
            if not text:
                continue
            meta = {"speaker": turn.get("speaker"), "dia_id": turn["dia_id"], "session": key}
            conv.turns.append(ParsedTurn(f"locomo:{sample_id}:{turn['dia_id']}", "user", text, stamp, meta))
    result.conversations.append(conv)


def _listish(value: Any) -> list[Any]:
    if isinstance(value, list):
        return value
    if isinstance(value, str):
        try:
            parsed = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            return []
        return parsed if isinstance(parsed, list) else []
    return []


def parse_longmemeval(path: str, data: Any) -> ReadResult:
    result = ReadResult(path=path, format="longmemeval")
    seen: set[str] = set()
    for index, item in enumerate(data if isinstance(data, list) else [], start=1):
        if isinstance(item, Rejected):
            result.errors.append(LineError(path, None, f"item #{index} skipped: {item.reason}"))
            continue
        if not isinstance(item, dict):
            result.errors.append(LineError(path, None, f"item #{index} is not an object; skipped"))
            continue
        try:
            _lme_item(path, item, seen, result)
        except Exception as exc:  # one malformed item never costs the others
            result.errors.append(LineError(path, None, f"item #{index} skipped: {exc}"))
    return result


def _lme_item(path: str, item: dict[str, Any], seen: set[str], result: ReadResult) -> None:
    sessions = _listish(item.get("haystack_sessions"))
    ids = _listish(item.get("haystack_session_ids"))
    dates = _listish(item.get("haystack_dates"))
    for number, session in enumerate(sessions):
        session_id = str(ids[number]) if number < len(ids) else f"{item.get('question_id')}-{number}"
        if session_id in seen or not isinstance(session, list):
            continue
        seen.add(session_id)
        stamp = lme_time(dates[number]) if number < len(dates) else None
        conv = ParsedConversation(f"lme:{session_id}", "longmemeval", source_path=path,
                                  title=session_id, started_at=stamp)
        for position, turn in enumerate(session):
            if not isinstance(turn, dict) or turn.get("role") not in ("user", "assistant"):
                continue
            text = clean_text(str(turn.get("content") or ""))
            if text:
                conv.turns.append(ParsedTurn(f"lme:{session_id}:{position}", turn["role"], text, stamp,
                                             {"has_answer": bool(turn.get("has_answer"))}))
        result.conversations.append(conv)
