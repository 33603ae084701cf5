"""Opt-in extractor over an OpenAI-compatible chat-completions endpoint.

A local Ollama or llama.cpp server, or a hosted API (``extraction.llm.base_url``,
``extraction.llm.model``, API key read from the environment variable named by
``extraction.llm.api_key_env``). The model is asked for a JSON object; every item is
validated strictly against the closed vocabularies and anything invalid (unknown kind,
empty content, confidence out of range, a turn id that was not in the request) is
dropped and logged, never stored. A timeout, an HTTP error or malformed output yields no
candidates (logged): extraction must never break ingestion.
"""

from __future__ import annotations

import json
import logging
import os
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import httpx

from madohub_memory.core.text import clean_text
from madohub_memory.core.types import CandidateDraft
from madohub_memory.core.vocab import KINDS, MAX_CONTENT_CHARS
from madohub_memory.extraction.base import Mode, TurnView

if TYPE_CHECKING:
    from madohub_memory.services import Services

log = logging.getLogger(__name__)

MAX_PROMPT_CHARS_PER_TURN = 4000

SYSTEM_PROMPT = (
    "You extract durable long-term memories from a conversation between a user and an AI agent. "
    "Return ONLY a JSON object {\"memories\": [...]} where each item is "
    "{\"content\": str, \"kind\": one of " + ", ".join(KINDS) + ", \"confidence\": number 0..1, "
    "\"turn_ids\": [ids of the turns it comes from]}. "
    "Kinds: preference (a confirmed user preference), fact (a durable fact about the user or project), "
    "decision (a choice made, with its reason), pattern (a recurring behaviour), postmortem (what went "
    "wrong and what to do next time), event (something notable that happened). "
    "Write each content as one standalone statement in the third person (\"User prefers ...\", "
    "Chinese: \"用户…\"), in the language of the conversation. Skip greetings, acknowledgements, "
    "questions, task requests and tool output. If nothing is worth remembering return {\"memories\": []}."
)


class LLMExtractor:
    """Candidates from a chat-completions model, validated item by item."""

    name = "llm"

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str | None = None,
        timeout: float = 30.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.api_key = api_key
        self.timeout = timeout
        self._transport = transport

    @classmethod
    def from_settings(cls, svc: Services) -> LLMExtractor:
        env = svc.settings.get("extraction.llm.api_key_env")
        return cls(
            base_url=svc.settings.get("extraction.llm.base_url"),
            model=svc.settings.get("extraction.llm.model"),
            api_key=os.environ.get(env) if env else None,
        )

    # -- the protocol ----------------------------------------------------------------------

    def extract(
        self, turns: Sequence[TurnView], *, mode: Mode = "turn", namespace: str | None = None
    ) -> list[CandidateDraft]:
        turns = [t for t in turns if t.role in ("user", "assistant") and (t.content or "").strip()]
        if not turns:
            return []
        payload = self._payload(turns, mode)
        try:
            raw = self._post(payload)
        except (httpx.HTTPError, ValueError) as exc:
            log.warning("LLM extractor: request to %s failed: %s", self.base_url, exc)
            return []
        items = parse_items(raw)
        if items is None:
            return []
        known = {t.id for t in turns}
        drafts: list[CandidateDraft] = []
        for item in items:
            draft = validate_item(item, known, mode, namespace)
            if draft is not None:
                drafts.append(draft)
        return drafts

    # -- HTTP ------------------------------------------------------------------------------

    def _payload(self, turns: Sequence[TurnView], mode: Mode) -> dict[str, Any]:
        lines = [
            f"[{t.id}] {t.role}: {t.content[:MAX_PROMPT_CHARS_PER_TURN]}" for t in turns
        ]
        what = "the last exchange" if mode == "turn" else "messages about to be compacted away"
        return {
            "model": self.model,
            "temperature": 0,
            "response_format": {"type": "json_object"},
            "messages": [
                {"role": "system", "content": SYSTEM_PROMPT},
                {"role": "user", "content": f"Extract memories from {what}:\n\n" + "\n".join(lines)},
            ],
        }

    def _post(self, payload: dict[str, Any]) -> str:
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        timeout = httpx.Timeout(self.timeout, connect=min(5.0, self.timeout))
        with httpx.Client(timeout=timeout, transport=self._transport) as client:
            response = client.post(f"{self.base_url}/chat/completions", json=payload, headers=headers)
            response.raise_for_status()
            body = response.json()
        try:
            content = body["choices"][0]["message"]["content"]
        except (KeyError, IndexError, TypeError):
            raise ValueError("response has no choices[0].message.content") from None
        if not isinstance(content, str):
            raise ValueError("message content is not text")
        return content


_FENCE = re.compile(r"^\s*```(?:json)?\s*|\s*```\s*$", re.S)


def parse_items(raw: str) -> list[Any] | None:
    """The list of memory items in the model's reply, or ``None`` (logged) when malformed."""
    text = _FENCE.sub("", raw.strip())
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        log.warning("LLM extractor: reply is not JSON (%s): %.200r", exc, raw)
        return None
    if isinstance(data, dict):
        data = data.get("memories", data.get("candidates"))
    if not isinstance(data, list):
        log.warning("LLM extractor: reply has no list of memories: %.200r", raw)
        return None
    return data


def validate_item(
    item: Any, known_turns: set[str], mode: Mode, namespace: str | None
) -> CandidateDraft | None:
    """A draft from one item if every field is valid; otherwise ``None`` and a log line."""
    if not isinstance(item, dict):
        log.warning("LLM extractor: dropped a non-object item: %.200r", item)
        return None
    content = item.get("content")
    kind = item.get("kind")
    confidence = item.get("confidence", 0.5)
    turn_ids = item.get("turn_ids", [])
    problem = None
    if not isinstance(content, str) or not clean_text(content):
        problem = "empty or non-text content"
    elif len(clean_text(content)) > MAX_CONTENT_CHARS:
        problem = "content too long"
    elif not isinstance(kind, str) or kind not in KINDS:
        problem = f"kind {kind!r} is not one of {', '.join(KINDS)}"
    elif isinstance(confidence, bool) or not isinstance(confidence, int | float) or not 0 <= confidence <= 1:
        problem = f"confidence {confidence!r} is not a number between 0 and 1"
    elif not isinstance(turn_ids, list) or not all(isinstance(t, str) for t in turn_ids):
        problem = "turn_ids is not a list of strings"
    elif any(t not in known_turns for t in turn_ids):
        problem = f"turn_ids {turn_ids!r} name turns that were not sent"
    if problem:
        log.warning("LLM extractor: dropped an item (%s): %.200r", problem, item)
        return None
    return CandidateDraft(
        content=clean_text(content), kind=kind, namespace=namespace, source=mode,
        confidence=float(confidence), turn_ids=tuple(turn_ids or sorted(known_turns)),
    )
