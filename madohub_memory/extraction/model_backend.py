"""The part of a model-backed extractor that does not depend on how the model is reached.

A subclass only says how to send one request (:meth:`ModelExtractor._complete`: an HTTP
call, a subprocess...). Here: consecutive passes are packed into one request (one model
call per exchange would spend the budget on a few sessions), the daily budget is
checked before each call, transport failures are retried with backoff and then postpone
the extraction (the turns stay pending), an unreadable reply is asked for once more and
then that span goes to the offline extractor (so a confused model costs no memories),
and every item is validated against the closed vocabularies.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Protocol

from madohub_memory.core.text import estimate_tokens
from madohub_memory.core.types import CandidateDraft
from madohub_memory.extraction.base import Extractor, Mode, TurnView
from madohub_memory.extraction.limits import (
    Budget,
    RetryPolicy,
    UnlimitedBudget,
    with_retries,
)
from madohub_memory.extraction.llm_prompt import (
    MAX_PROMPT_CHARS_PER_TURN,
    PROMPT_VERSION,
    SYSTEM_PROMPT,
    parse_items,
    sent_turns,
    user_message,
    validate_item,
)

log = logging.getLogger(__name__)

MAX_REQUEST_CHARS = 24_000  # about 6-8k tokens of transcript per call
BAD_REPLY_ATTEMPTS = 2


class Span(Protocol):
    """One extraction pass: turns of one conversation, one mode, one namespace."""

    mode: Mode
    namespace: str | None
    turns: Sequence[TurnView]


class _Single:
    def __init__(self, turns: Sequence[TurnView], mode: Mode, namespace: str | None) -> None:
        self.turns, self.mode, self.namespace = turns, mode, namespace


def _cost(span: Span) -> int:
    return sum(min(len(t.content), MAX_PROMPT_CHARS_PER_TURN) + 40 for t in sent_turns(span.turns))


def pack_spans(spans: Iterable[Span], max_chars: int = MAX_REQUEST_CHARS) -> Iterator[list[Span]]:
    """Consecutive spans of one mode and namespace, grouped up to about ``max_chars``."""
    pack: list[Span] = []
    size = 0
    for span in spans:
        cost = _cost(span)
        if pack and (span.mode != pack[0].mode or span.namespace != pack[0].namespace or size + cost > max_chars):
            yield pack
            pack, size = [], 0
        pack.append(span)
        size += cost
    if pack:
        yield pack


class ModelExtractor:
    """Base of the LLM backends; subclasses implement :meth:`_complete` and set ``where``."""

    name = "model"
    where = "the model"  # for messages: "endpoint 127.0.0.1:11434", "Claude Code"
    prompt_version = PROMPT_VERSION

    def __init__(
        self,
        *,
        budget: Budget | None = None,
        retry: RetryPolicy | None = None,
        fallback: Extractor | None = None,
        persona: str | None = None,
        max_request_chars: int = MAX_REQUEST_CHARS,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.budget = budget or UnlimitedBudget()
        self.retry = retry or RetryPolicy()
        self.fallback = fallback
        self.persona = persona
        self.max_request_chars = max_request_chars
        self._sleep = sleep

    # -- what a subclass provides ----------------------------------------------------------

    def _complete(self, system: str, user: str) -> tuple[str, int | None]:
        """Send one request; return the reply text and the tokens it used (None if unknown).

        Raise :class:`~madohub_memory.extraction.limits.RetryableError` for a failure worth
        another attempt, :class:`~madohub_memory.extraction.limits.ExtractionPostponed` for
        one that needs the user (bad key, missing program)."""
        raise NotImplementedError

    # -- the extractor protocol ------------------------------------------------------------

    def extract(
        self, turns: Sequence[TurnView], *, mode: Mode = "turn", namespace: str | None = None
    ) -> list[CandidateDraft]:
        return [d for _, drafts in self.extract_spans([_Single(turns, mode, namespace)]) for d in drafts]

    def extract_spans(self, spans: Iterable[Span]) -> Iterator[tuple[list[Span], list[CandidateDraft]]]:
        """Drafts per pack of spans, as each request completes (so a caller can keep the
        finished part when a later request is postponed)."""
        for pack in pack_spans(spans, self.max_request_chars):
            yield pack, self._extract_pack(pack)

    # -- one request -----------------------------------------------------------------------

    def _extract_pack(self, pack: list[Span]) -> list[CandidateDraft]:
        turns = [t for span in pack for t in sent_turns(span.turns)]
        if not turns:
            return []
        mode, namespace = pack[0].mode, pack[0].namespace
        user = user_message(turns, mode)
        items = None
        for _ in range(BAD_REPLY_ATTEMPTS):
            reply = with_retries(lambda: self._send(user), self.retry, what=self.where,
                                 on_long_wait=self.budget.pause_for, sleep=self._sleep)
            items = parse_items(reply)
            if items is not None:
                break
        if items is None:
            log.warning("%s gave no readable JSON twice (prompt v%s); %d turns go to the offline extractor",
                        self.where, PROMPT_VERSION, len(turns))
            return self._fall_back(pack)
        known = {t.id for t in turns}
        drafts = [validate_item(item, known, mode, namespace, self.persona) for item in items]
        return [d for d in drafts if d is not None]

    def _send(self, user: str) -> str:
        self.budget.before_call(estimate_tokens(SYSTEM_PROMPT) + estimate_tokens(user))
        text, tokens = self._complete(SYSTEM_PROMPT, user)
        used = tokens if tokens is not None else (
            estimate_tokens(SYSTEM_PROMPT) + estimate_tokens(user) + estimate_tokens(text))
        self.budget.after_call(used)
        return text

    def _fall_back(self, pack: list[Span]) -> list[CandidateDraft]:
        if self.fallback is None:
            return []
        drafts: list[CandidateDraft] = []
        for span in pack:
            drafts.extend(self.fallback.extract(span.turns, mode=span.mode, namespace=span.namespace))
        return drafts
