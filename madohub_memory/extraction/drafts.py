"""Turning a statement into a candidate draft: the same finishing for every offline path.

Relative dates are written out with the turn's day ("yesterday" means nothing in a memory
read next month), secrets are masked and the text is flagged (secret, personal data,
instruction-like), and the length is bounded so that a reviewer reads it at a glance.
"""

from __future__ import annotations

from madohub_memory.core.cjk import CJK_CHAR
from madohub_memory.core.types import CandidateDraft, Mode, TurnView
from madohub_memory.extraction.dates import absolute_dates_en, absolute_dates_zh, turn_day
from madohub_memory.extraction.flags import scan

MAX_CONTENT_CHARS = 360


def make_draft(
    content: str, kind: str, confidence: float, turn: TurnView, mode: Mode, namespace: str | None,
    flags: set[str] | None = None, source: Mode | None = None, scanned: bool = False,
) -> CandidateDraft:
    """A draft with dates written out, masked secrets and a bounded length (``scanned``: the
    content was built from text already scanned and masked; ``flags`` were found there)."""
    found: tuple[str, ...] = ()
    if not scanned:
        content, found = scan(content)
    content = content.strip()
    day = turn_day(turn.created_at)
    if day is not None:
        content = absolute_dates_zh(content, day) if CJK_CHAR.search(content) else absolute_dates_en(content, day)
    if len(content) > MAX_CONTENT_CHARS:
        content = content[: MAX_CONTENT_CHARS - 1].rstrip() + "…"
    return CandidateDraft(
        content=content, kind=kind, namespace=namespace, source=source or mode,
        confidence=round(min(0.95, max(0.05, confidence)), 3), turn_ids=(turn.id,),
        flags=tuple(sorted((flags or set()) | set(found))),
    )
