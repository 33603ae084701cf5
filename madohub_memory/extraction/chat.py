"""Chat turns (ChatGPT exports, plain JSONL, benchmark dialogues): what a person says about
themselves, one turn at a time.

Why rules here, when coding sessions use the learned selector: a chat has no structure to
learn from (no tools, no summaries, no runs), the turn scorer was fitted on LoCoMo chat
(:mod:`.english`), and the extractor runs after every turn of a long import, thousands
of turns per second.

Per turn: drop tool noise, code and pasted material, split into sentences, drop questions
(with or without their "?": a question is never a fact about the user), greetings,
acknowledgements and remarks about the other person, score what is left, and keep at most
the best two sentences, rewritten in the third person ("I prefer X" -> "User prefers X",
"我喜欢…" -> "用户喜欢…"). A request to the assistant is also read for the situation its
author describes and a standing wish about answers (:mod:`.chat_requests`). A conversation
keeps its language: Dutch statements stay Dutch (:mod:`.dutch`); other languages are left
alone rather than rewritten into English.
"""

from __future__ import annotations

import re

from madohub_memory.core.cjk import CJK_CHAR
from madohub_memory.core.text import clean_text
from madohub_memory.core.types import CandidateDraft, Mode, TurnView
from madohub_memory.extraction.chat_requests import answer_style, context_statement
from madohub_memory.extraction.chinese import pick_zh, rewrite_zh
from madohub_memory.extraction.drafts import make_draft
from madohub_memory.extraction.dutch import looks_dutch, statements
from madohub_memory.extraction.english import pick_en, rewrite_en
from madohub_memory.extraction.flags import scan
from madohub_memory.extraction.pasted import own_words

MAX_TURN_CHARS = 4000
_NOISE_TURN = re.compile(
    r"^\s*(?:<(?:command-|local-command|system-reminder|bash-|task-notification|user-prompt-submit)"
    r"|\[Request interrupted|Caveat: |This session is being continued|Base directory for this skill"
    r"|\{\s*\"|Tool (?:use|result)|API Error)",
)
_CODE_BLOCK = re.compile(r"```.*?(?:```|\Z)", re.S)
_TAGS = re.compile(r"<[a-zA-Z\-_]+>.*?</[a-zA-Z\-_]+>", re.S)
_URL = re.compile(r"https?://\S+")
_TOKEN = re.compile(r"\w+|[\u3400-\u9fff]")


def is_zh(text: str) -> bool:
    return len(CJK_CHAR.findall(text)) >= max(2, len(text) // 8)


def same_statement(a: str, b: str) -> bool:
    """Two drafts of one turn that say mostly the same (most of the shorter one's words)."""
    wa, wb = set(_TOKEN.findall(a.lower())), set(_TOKEN.findall(b.lower()))
    return bool(wa and wb) and len(wa & wb) >= 0.7 * min(len(wa), len(wb))


class ChatTurns:
    """The per-turn extraction of a chat (see the module doc).

    ``subject``/``subject_zh`` name the speaker in rewritten statements ("User", "用户"); a
    benchmark over named speakers may pass their name instead. ``threshold`` is on the
    English turn scorer's logit, ``zh_threshold`` on the Chinese sentence score.
    """

    def __init__(self, subject: str = "User", subject_zh: str = "用户", threshold: float = -0.45,
                 zh_threshold: float = 1.0) -> None:
        self.subject = subject
        self.subject_zh = subject_zh
        self.threshold = threshold
        self.zh_threshold = zh_threshold

    def drafts(self, turn: TurnView, *, mode: Mode = "turn", namespace: str | None = None) -> list[CandidateDraft]:
        """Everything one chat turn yields."""
        draft = self.extract_turn(turn, mode=mode, namespace=namespace)
        found = [draft] if draft is not None else []
        if turn.role == "user":
            found += [d for d in self.request_drafts(turn, mode=mode, namespace=namespace)
                      if draft is None or not same_statement(d.content, draft.content)]
        return found

    def prepare(self, turn: TurnView) -> tuple[str, bool] | None:
        """The text of a turn worth reading (the user's own words, no code, tags or links)
        and whether it is Chinese; ``None`` for noise and pasted material."""
        if turn.role not in ("user", "assistant"):
            return None
        text = turn.content or ""
        if not text.strip() or _NOISE_TURN.match(text):
            return None
        if turn.role == "user":
            own = own_words(text)
            if own is None:
                return None
            text = own
        text = clean_text(_TAGS.sub(" ", _CODE_BLOCK.sub(" ", text[:MAX_TURN_CHARS])))
        text = _URL.sub("", text)
        return text, is_zh(text)

    def request_drafts(self, turn: TurnView, *, mode: Mode = "turn",
                       namespace: str | None = None) -> list[CandidateDraft]:
        """What a request to a chat assistant says about its author: the situation described
        around the task, a standing wish about answers (:mod:`.chat_requests`)."""
        text = turn.content or ""
        if not text.strip() or _NOISE_TURN.match(text):
            return []
        zh = is_zh(text[:400])
        subject = self.subject_zh if zh else self.subject
        drafts = []
        for found in (context_statement(text, subject, zh=zh), answer_style(text, subject, zh=zh)):
            if found is not None:
                drafts.append(make_draft(found.content, found.kind, 0.3 + 0.5 * found.strength, turn, mode, namespace))
        return drafts

    def extract_turn(self, turn: TurnView, *, mode: Mode = "turn",
                     namespace: str | None = None) -> CandidateDraft | None:
        """At most one candidate for one turn (``None`` for a quiet or noisy turn)."""
        prepared = self.prepare(turn)
        if prepared is None:
            return None
        text, zh = prepared
        assistant = turn.role == "assistant"
        if not zh and not assistant and looks_dutch(text):  # kept in Dutch, never rewritten into English
            stated = statements(text)[:2]
            if not stated:
                return None
            return make_draft(" ".join(s for s, _ in stated), stated[0][1], 0.55, turn, mode, namespace)
        if zh:
            picks = [p for p in pick_zh(text, assistant) if p.score >= self.zh_threshold]
        else:
            picks = pick_en(text, assistant, self.threshold)
        if not picks:
            return None
        best = max(picks, key=lambda p: p.score)
        seconds = sorted((p for p in picks if p is not best and p.strength >= 0.6 and p.score >= best.score - 1.0),
                         key=lambda p: -p.score)
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
        team = bool(namespace and namespace.startswith("workspace:"))  # there "we" is the user's team
        if zh:
            content = "".join(rewrite_zh(x, self.subject_zh, team=team) for x in sentences)
        else:
            content = " ".join(rewrite_en(x, self.subject, team=team) for x in sentences)
        if len(content.strip()) < 6:
            return None
        confidence = min(0.95, max(0.05, 0.3 + 0.05 * best.score + 0.4 * best.strength))
        if assistant:
            confidence *= 0.7
        return make_draft(content, best.kind, confidence, turn, mode, namespace, flags, scanned=True)
