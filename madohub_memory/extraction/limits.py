"""What every model-backed extractor shares: the daily budget, retries with backoff, and
the error that postpones extraction instead of losing it.

Why: a model service fails in ordinary ways (slow, rate-limited, down, out of quota) and a
user who switched it on must be able to trust that nothing is lost and nothing runs up a
bill. So a failure that may pass raises :class:`ExtractionPostponed`: the drain releases
the turns, they stay pending and the next pass tries again. The budget is checked and
counted before every request (retries included), by an object the caller supplies (the
services layer keeps it in the database, so the CLI, hook, worker and dashboard share it).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, TypeVar

from madohub_memory.core.errors import UserError

T = TypeVar("T")


class ExtractionPostponed(UserError):
    """The model backend cannot extract now (one sentence why); the turns stay pending."""


class RetryableError(Exception):
    """A failure worth another attempt (timeout, connection, 429, 5xx, unreadable reply)."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class Budget(Protocol):
    """A daily allowance of model calls and tokens."""

    def before_call(self, estimated_tokens: int) -> None:
        """Count one call about to be sent; raise :class:`ExtractionPostponed` when the day's
        budget (or a pause after a long rate limit) does not allow it."""

    def after_call(self, tokens: int) -> None:
        """Add the tokens the call used (as reported, else estimated)."""

    def pause_for(self, seconds: float, reason: str) -> None:
        """No calls for ``seconds`` (a rate limit that asked for a long wait)."""


class UnlimitedBudget:
    """No limit and no memory: for direct use and tests that are not about the budget."""

    def __init__(self) -> None:
        self.calls = 0
        self.tokens = 0

    def before_call(self, estimated_tokens: int) -> None:
        self.calls += 1

    def after_call(self, tokens: int) -> None:
        self.tokens += tokens

    def pause_for(self, seconds: float, reason: str) -> None:
        pass


@dataclass(frozen=True)
class RetryPolicy:
    retries: int = 2  # attempts after the first
    base_delay: float = 2.0  # seconds; doubled each attempt, with jitter
    max_delay: float = 30.0
    max_retry_after: float = 60.0  # a longer Retry-After pauses extraction instead of waiting


def with_retries(
    attempt: Callable[[], T],
    policy: RetryPolicy,
    *,
    what: str,
    on_long_wait: Callable[[float, str], None],
    sleep: Callable[[float], None] = time.sleep,
) -> T:
    """Run ``attempt`` until it succeeds or retries run out; then raise ``ExtractionPostponed``.

    A ``Retry-After`` up to ``policy.max_retry_after`` is waited out; a longer one calls
    ``on_long_wait(seconds, reason)`` (which pauses the budget) and postpones at once.
    """
    last = ""
    for number in range(policy.retries + 1):
        try:
            return attempt()
        except RetryableError as exc:
            last = str(exc)
            wait = exc.retry_after
            if wait is not None and wait > policy.max_retry_after:
                on_long_wait(wait, last)
                raise ExtractionPostponed(
                    f"{what} asked to wait {round(wait)} s ({last}); extraction resumes after that."
                ) from None
            if number == policy.retries:
                break
            if wait is None:
                wait = min(policy.max_delay, policy.base_delay * 2 ** number) * (0.5 + random.random() / 2)
            sleep(max(0.0, wait))
    tries = policy.retries + 1
    raise ExtractionPostponed(
        f"{what} failed {tries} time{'s' if tries != 1 else ''} ({last}); the turns stay pending."
    )
