"""Pieces shared by the English and Chinese sentence pickers."""

from __future__ import annotations

import re
from dataclasses import dataclass

from madohub_memory.core.cjk import CJK_CHAR

CJK = CJK_CHAR  # one Chinese character (the pickers count them)


@dataclass(frozen=True)
class Pick:
    """A sentence worth keeping, its score within the turn, and the kind of its strongest cue."""

    sentence: str
    score: float
    kind: str
    strength: float


def split(pattern: re.Pattern[str], text: str) -> list[str]:
    return [s.strip() for s in pattern.split(text) if s and s.strip()]


def kind_of(sentence: str, cues: list[tuple[str, re.Pattern[str], float]]) -> tuple[str, float] | None:
    """The first (strongest) cue that matches: postmortem > decision > preference > pattern > …"""
    return next(((kind, strength) for kind, pattern, strength in cues if pattern.search(sentence)), None)


def lower_pattern(pattern: re.Pattern[str]) -> re.Pattern[str]:
    """The same pattern for lower-cased text without IGNORECASE (about 3x faster in ``re``)."""
    source = re.sub(r"(?<!\\)[A-Z]", lambda m: m.group(0).lower(), pattern.pattern.replace("(?i)", ""))
    return re.compile(source, pattern.flags & ~re.I)
