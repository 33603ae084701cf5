"""The versioned extraction prompt shared by the model backends, and strict reading of replies.

Why one module: the OpenAI-compatible endpoint and Claude Code's headless mode must ask
the same question and accept exactly the same answers, so a change of the prompt is one
change with one version number (:data:`PROMPT_VERSION`, sent in the request and logged).

Everything sent is masked first (:func:`madohub_memory.extraction.flags.mask_secrets`):
turns are already stored masked, but a transcript is the one thing that leaves the machine,
so the mask runs again right before it does. Replies are validated item by item against
the closed vocabularies; an invalid item is dropped and logged, never stored.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Sequence
from typing import Any

from madohub_memory.core.text import clean_text
from madohub_memory.core.types import CandidateDraft
from madohub_memory.core.vocab import KINDS, MAX_CONTENT_CHARS
from madohub_memory.extraction.base import Mode, TurnView
from madohub_memory.extraction.flags import mask_secrets

log = logging.getLogger(__name__)

PROMPT_VERSION = 2
MAX_PROMPT_CHARS_PER_TURN = 4000
SCOPES = ("workspace", "persona")
SENT_ROLES = ("user", "assistant", "tool")

SYSTEM_PROMPT = f"""You extract long-term memories from a transcript of a person working with an AI agent \
(usually a coding agent). Keep only what the person would want an agent to know in a later session:
- preference: how the user wants things done, including corrections they gave ("use pnpm, not npm").
- fact: a durable fact about the project or the user: stack, commands to build and test, paths, conventions, tools, workflow.
- decision: a choice that was made, with its reason (answers to the agent's questions count).
- pattern: a rule or recurring practice to follow.
- postmortem: what broke, the root cause that was established and the fix or lesson (not a first guess).
- event: a milestone reached or an open problem worth knowing next time.
Never extract: tool output, file contents, code, pasted documents or slogans, the assistant describing its next step, \
one-off commands, greetings, questions, prompts written for the assistant, or anything shown as [REDACTED].
Write each memory as one standalone sentence in the third person ("User prefers ...", "The project uses ..."; \
in Chinese "用户……"), in the language the user wrote in, with absolute dates instead of "today" or "last week" \
(each turn shows its date).
scope: "persona" for the user's personal preferences that hold in any project, "workspace" for anything about this project.
Reply with JSON only: {{"memories": [{{"content": str, "kind": one of {", ".join(KINDS)}, \
"scope": "workspace" or "persona", "confidence": number 0 to 1, "turn_ids": [ids of the turns it comes from, at least one]}}]}}. \
If nothing qualifies, reply {{"memories": []}}."""

_FENCE = re.compile(r"^\s*```(?:json)?\s*|\s*```\s*$", re.S)


def sent_turns(turns: Sequence[TurnView]) -> list[TurnView]:
    """The turns worth sending (conversation and short tool results, not empty or system ones)."""
    return [t for t in turns if t.role in SENT_ROLES and (t.content or "").strip()]


def render_turn(turn: TurnView) -> str:
    text = mask_secrets(turn.content)[0]
    if len(text) > MAX_PROMPT_CHARS_PER_TURN:
        text = text[:MAX_PROMPT_CHARS_PER_TURN] + " …[cut]"
    date = f" ({turn.created_at[:10]})" if turn.created_at else ""
    return f"[{turn.id}]{date} {turn.role}: {text}"


def user_message(turns: Sequence[TurnView], mode: Mode) -> str:
    """The request: which span, then one line per turn with its id and date."""
    what = "the latest exchanges" if mode == "turn" else "messages about to be compacted away (summarised and lost)"
    lines = [render_turn(t) for t in turns]
    return f"Prompt v{PROMPT_VERSION}. Extract memories from {what}:\n\n" + "\n".join(lines)


def parse_items(raw: str) -> list[Any] | None:
    """The list of memory items in the model's reply, or ``None`` (logged) when malformed."""
    text = _FENCE.sub("", raw.strip())
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        start, end = text.find("{"), text.rfind("}")
        try:  # prose around one JSON object ("Here you go: {...}")
            data = json.loads(text[start:end + 1]) if 0 <= start < end else None
        except json.JSONDecodeError:
            data = None
        if data is None:
            log.warning("LLM extractor: reply is not JSON: %.200r", raw)
            return None
    if isinstance(data, dict):
        data = data.get("memories", data.get("candidates"))
    if not isinstance(data, list):
        log.warning("LLM extractor: reply has no list of memories: %.200r", raw)
        return None
    return data


def validate_item(
    item: Any, known_turns: set[str], mode: Mode, namespace: str | None, persona: str | None = None
) -> CandidateDraft | None:
    """A draft from one item if every field is valid; otherwise ``None`` and a log line.

    ``namespace`` is the span's own (``workspace:<project>`` or None); ``scope: persona``
    sends the item to ``persona:<persona>`` (the active persona) instead.
    """
    if not isinstance(item, dict):
        log.warning("LLM extractor: dropped a non-object item: %.200r", item)
        return None
    content = item.get("content")
    kind = item.get("kind")
    confidence = item.get("confidence", 0.5)
    turn_ids = item.get("turn_ids")
    scope = item.get("scope", "workspace")
    problem = None
    if not isinstance(content, str) or not clean_text(content):
        problem = "empty or non-text content"
    elif len(clean_text(content)) > MAX_CONTENT_CHARS:
        problem = "content too long"
    elif not isinstance(kind, str) or kind not in KINDS:
        problem = f"kind {kind!r} is not one of {', '.join(KINDS)}"
    elif isinstance(confidence, bool) or not isinstance(confidence, int | float) or not 0 <= confidence <= 1:
        problem = f"confidence {confidence!r} is not a number between 0 and 1"
    elif not isinstance(turn_ids, list) or not turn_ids or not all(isinstance(t, str) for t in turn_ids):
        problem = "turn_ids is not a list of turn ids (every memory must name the turns it comes from)"
    elif any(t not in known_turns for t in turn_ids):
        problem = f"turn_ids {turn_ids!r} name turns that were not sent"
    elif scope not in SCOPES:
        problem = f"scope {scope!r} is not one of {', '.join(SCOPES)}"
    if problem:
        log.warning("LLM extractor: dropped an item (%s): %.200r", problem, item)
        return None
    return CandidateDraft(
        content=clean_text(str(content)), kind=str(kind), namespace=(f"persona:{persona}" if persona else None) if scope == "persona" else namespace,
        source=mode, confidence=float(confidence), turn_ids=tuple(dict.fromkeys(turn_ids or ())),
    )
