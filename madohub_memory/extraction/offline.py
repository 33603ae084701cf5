"""The default extractor: rules over English and Chinese text, no model service.

Why rules: it runs after every turn on a laptop, offline, and must stay far above the
ingest target (150 turns/s); a rule pass handles thousands of turns per second.

How it works, per turn: drop tool noise and code blocks, split the text into sentences,
drop questions, greetings, acknowledgements and remarks about the other person, and score
what is left (first-person statement, durable cue words, specific details). A turn whose
best sentence scores high enough yields ONE candidate made of its best sentence(s),
rewritten in the third person ("I prefer X" -> "User prefers X", "我喜欢…" -> "用户喜欢…")
so that it reads as a standalone statement, with the kind of the strongest cue. Mostly
user turns carry durable facts; assistant turns only yield explicit postmortems.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from madohub_memory.core.text import clean_text
from madohub_memory.core.types import CandidateDraft
from madohub_memory.extraction.base import Mode, TurnView
from madohub_memory.extraction.chinese import pick_zh, rewrite_zh
from madohub_memory.extraction.dates import absolute_dates_en, absolute_dates_zh, turn_day
from madohub_memory.extraction.english import (  # noqa: F401  (re-exported for bench scripts)
    _FIRST_PERSON_CI,
    pick_en,
    rewrite_en,
    sentences_en,
    turn_features_en,
    turn_score_en,
)
from madohub_memory.extraction.flags import scan
from madohub_memory.extraction.pasted import own_words
from madohub_memory.extraction.rewrite import rewrite_first_person_en  # noqa: F401  (re-exported)
from madohub_memory.extraction.sentences import CJK as _CJK

MAX_TURN_CHARS = 4000
MAX_CONTENT_CHARS = 360

# -- noise --------------------------------------------------------------------------------

_NOISE_TURN = re.compile(
    r"^\s*(?:<(?:command-|local-command|system-reminder|bash-|task-notification|user-prompt-submit)"
    r"|\[Request interrupted|Caveat: |This session is being continued|Base directory for this skill"
    r"|\{\s*\"|Tool (?:use|result)|API Error)",
)
_CODE_BLOCK = re.compile(r"```.*?(?:```|\Z)", re.S)
_TAGS = re.compile(r"<[a-zA-Z\-]+>.*?</[a-zA-Z\-]+>", re.S)
_URL = re.compile(r"https?://\S+")


class OfflineExtractor:
    """Rule-based extractor for English and Chinese turns (see module docstring).

    ``subject``/``subject_zh`` name the speaker in rewritten statements ("User", "用户");
    a benchmark over named speakers may pass their name instead.
    """

    name = "offline"

    def __init__(
        self, subject: str = "User", subject_zh: str = "用户", threshold: float = -0.45,
        zh_threshold: float = 1.0,
    ) -> None:
        self.subject = subject
        self.subject_zh = subject_zh
        self.threshold = threshold  # on the English turn scorer's logit
        self.zh_threshold = zh_threshold  # on the Chinese sentence score

    # -- the protocol ----------------------------------------------------------------------

    def extract(
        self, turns: Sequence[TurnView], *, mode: Mode = "turn", namespace: str | None = None
    ) -> list[CandidateDraft]:
        drafts: list[CandidateDraft] = []
        seen: set[str] = set()
        for turn in turns:
            draft = self.extract_turn(turn, mode=mode, namespace=namespace)
            if draft is not None and draft.content not in seen:
                seen.add(draft.content)
                drafts.append(draft)
        return drafts

    def extract_turn(
        self, turn: TurnView, *, mode: Mode = "turn", namespace: str | None = None
    ) -> CandidateDraft | None:
        """At most one candidate for one turn (``None`` for a quiet or noisy turn)."""
        if turn.role not in ("user", "assistant"):
            return None
        text = turn.content or ""
        if not text.strip() or _NOISE_TURN.match(text):
            return None
        assistant = turn.role == "assistant"
        if not assistant:
            own = own_words(text)
            if own is None:
                return None
            text = own
        text = clean_text(_TAGS.sub(" ", _CODE_BLOCK.sub(" ", text[:MAX_TURN_CHARS])))
        text = _URL.sub("", text)
        zh = len(_CJK.findall(text)) >= max(2, len(text) // 8)
        if zh:
            picks = pick_zh(text, assistant)
            picks = [p for p in picks if p.score >= self.zh_threshold]
        else:
            picks = pick_en(text, assistant, self.threshold)
        if not picks:
            return None
        best = max(picks, key=lambda p: p.score)
        seconds = sorted(
            (p for p in picks if p is not best and p.strength >= 0.6 and p.score >= best.score - 1.0),
            key=lambda p: -p.score,
        )
        chosen = [best, *seconds[:1]]
        chosen.sort(key=lambda p: picks.index(p))
        # Flags are judged on what was said (the rewrite can hide "always run…" or a key);
        # secrets are masked before the sentence is rewritten.
        flags: set[str] = set()
        sentences = []
        for p in chosen:
            masked, found = scan(p.sentence)
            flags.update(found)
            sentences.append(masked)
        # in a workspace "we" is the user's team, elsewhere the user and others
        team = bool(namespace and namespace.startswith("workspace:"))
        if zh:
            content = "".join(rewrite_zh(x, self.subject_zh, team=team) for x in sentences)
        else:
            content = " ".join(rewrite_en(x, self.subject, team=team) for x in sentences)
        content = content.strip()
        day = turn_day(turn.created_at)
        if day is not None:  # "yesterday" means nothing in a memory read next month
            content = absolute_dates_zh(content, day) if zh else absolute_dates_en(content, day)
        if len(content) > MAX_CONTENT_CHARS:
            content = content[: MAX_CONTENT_CHARS - 1].rstrip() + "…"
        if len(content) < 6:
            return None
        confidence = min(0.95, max(0.05, 0.3 + 0.05 * best.score + 0.4 * best.strength))
        if assistant:
            confidence *= 0.7
        return CandidateDraft(
            content=content, kind=best.kind, namespace=namespace, source=mode,
            confidence=round(confidence, 3), turn_ids=(turn.id,), flags=tuple(sorted(flags)),
        )

    # -- English ---------------------------------------------------------------------------

    # -- kept for scripts that study the scorer (bench/extraction_ceiling.py) -------------

    def _sentences_en(self, text: str) -> list[dict]:
        return sentences_en(text)
