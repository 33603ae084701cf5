"""The one clock every service reads, so tests and ``sweep --now`` can set the time.

Timestamps are stored as ISO-8601 UTC strings with millisecond precision and a ``Z``
suffix, which sort lexicographically in time order.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from madohub_memory.core.errors import ValidationError


def to_iso(moment: datetime) -> str:
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def parse_iso(text: str) -> datetime:
    """Parse an ISO-8601 time; a naive time is taken as UTC."""
    try:
        moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except (ValueError, AttributeError):
        raise ValidationError("Time {text!r} is not an ISO-8601 date or date-time.", text=text) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


class Clock:
    """Wall-clock time, or a fixed time when ``fixed`` is given (tests, ``--now``)."""

    def __init__(self, fixed: datetime | str | None = None) -> None:
        self._fixed: datetime | None = None
        if fixed is not None:
            self.set(fixed)

    def set(self, moment: datetime | str) -> None:
        self._fixed = parse_iso(moment) if isinstance(moment, str) else moment.astimezone(UTC)

    def advance(self, **delta: float) -> None:
        if self._fixed is None:
            self._fixed = datetime.now(UTC)
        self._fixed = self._fixed + timedelta(**delta)

    @property
    def is_fixed(self) -> bool:
        return self._fixed is not None

    def now(self) -> datetime:
        return self._fixed if self._fixed is not None else datetime.now(UTC)

    def now_iso(self) -> str:
        return to_iso(self.now())


def date_said(turn_date: str | None, updated_at: str) -> str:
    """The date shown with a memory to agents and people: the day it was said (its earliest
    originating turn), else the day it was last written; not the day a months-old session
    was imported and reviewed."""
    if turn_date:
        try:
            return parse_iso(turn_date).date().isoformat()
        except ValidationError:  # a turn time an importer kept as it came: the stored date instead
            pass
    return str(updated_at)[:10]
