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
from madohub_memory.extraction import render
from madohub_memory.extraction.base import Mode, TurnView
from madohub_memory.extraction.chat_requests import answer_style, context_statement
from madohub_memory.extraction.chinese import pick_zh, rewrite_zh
from madohub_memory.extraction.coding_rules import rules_en, rules_zh
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
from madohub_memory.extraction.selector import Selector, shipped
from madohub_memory.extraction.sentences import CJK as _CJK
from madohub_memory.extraction.summary_candidates import SummaryCandidate, summary_candidates
from madohub_memory.extraction.units import Unit, pass_units

MAX_TURN_CHARS = 4000
MAX_CONTENT_CHARS = 360
MAX_RULES_PER_TURN = 3
_REPORTED = ("User reported a problem", "用户报告的问题")

# -- noise --------------------------------------------------------------------------------

_NOISE_TURN = re.compile(
    r"^\s*(?:<(?:command-|local-command|system-reminder|bash-|task-notification|user-prompt-submit)"
    r"|\[Request interrupted|Caveat: |This session is being continued|Base directory for this skill"
    r"|\{\s*\"|Tool (?:use|result)|API Error)",
)
_CODE_BLOCK = re.compile(r"```.*?(?:```|\Z)", re.S)
_TAGS = re.compile(r"<[a-zA-Z\-]+>.*?</[a-zA-Z\-]+>", re.S)
_URL = re.compile(r"https?://\S+")


# In a coding session "you" is the agent: a sentence about it is not about the user.
_ABOUT_AGENT = re.compile(r"\b(?:you|your|you're|yourself)\b|你", re.I)
_TASK_INTENT = re.compile(
    r"(?i)^(?:and |so |now |ok,? )?(?:i'm|i am|we're|we are) (?:going|gonna|about) to\b|^(?:i|we)(?:'d| would) like to\b"
    r"|^(?:i|we) (?:want|need) to (?:start|add|fix|make|try|see|check|create|run|build|update)\b|^(?:and )?let's\b"
    r"|^我(?:现在|先|要|想)(?:去|来)?(?:试|看|跑|改|加|写)")


# Names something of this project: a path, a file, code, an identifier, "this repo".
_PROJECT_SPECIFIC = re.compile(
    r"`|[\w.-]+/[\w.-]|\b\w+\.(?:py|js|ts|tsx|jsx|json|toml|ya?ml|md|ex|exs|rb|go|rs|java|kt|sh|sql|env|lock)\b"
    r"|\b[a-z]+[A-Z]\w*|\b[a-z]+_[a-z_]+\b|\b[A-Z]{1,5}\d+|\b(?:this|the|our) (?:project|repo|repository|codebase|app"
    r"|service|package|monorepo|module|branch)\b|\bmonorepo\b|\b(?:folder|directory|module|endpoint|function|class"
    r"|method|table|column|schema|migrations?|component|route|model|view|page|screen)s?\b|这个项目|本项目|该项目|仓库|代码库")


_TOKEN = re.compile(r"\w+|[\u3400-\u9fff]")
_QUESTION = re.compile(r"[?？]\s*$|[吗嗎呢]\s*[。.]?\s*$")


def _same_statement(a: str, b: str) -> bool:
    """Two drafts of one turn that say mostly the same (most of the shorter one's words)."""
    wa, wb = set(_TOKEN.findall(a.lower())), set(_TOKEN.findall(b.lower()))
    return bool(wa and wb) and len(wa & wb) >= 0.7 * min(len(wa), len(wb))


def selectable(unit: Unit) -> bool:
    """A unit the selector may choose: never a question the user asked (a question states
    nothing about the person; what they say about themselves beside it is its own unit)."""
    return not (unit.source == "user" and _QUESTION.search(unit.text))


def project_specific(text: str) -> bool:
    return bool(_PROJECT_SPECIFIC.search(text))


def is_coding_pass(turns: Sequence[TurnView], namespace: str | None) -> bool:
    """A pass from a coding session: a workspace, or tool calls in the exchange."""
    if namespace and namespace.startswith("workspace:"):
        return True
    return any(t.role == "tool" or (t.role == "assistant" and "\n[tool " in f"\n{t.content}") for t in turns)


class OfflineExtractor:
    """Rule-based extractor for English and Chinese turns (see module docstring).

    ``subject``/``subject_zh`` name the speaker in rewritten statements ("User", "用户");
    a benchmark over named speakers may pass their name instead.
    """

    name = "offline"
    # Passes as long as the claimed rounds allow: a long autonomous run is one exchange, and
    # its final report is seen as its end (a model backend keeps the shorter default).
    max_exchange = 2000
    max_span = 2000

    def __init__(
        self, subject: str = "User", subject_zh: str = "用户", threshold: float = -0.45,
        zh_threshold: float = 1.0, persona: str = "default", *, selector: Selector | None = None,
    ) -> None:
        self.selector = selector  # None: the shipped one, loaded on first use
        self.subject = subject
        self.persona = persona  # where the user's working-style rules go (persona:<name>)
        self.subject_zh = subject_zh
        self.threshold = threshold  # on the English turn scorer's logit
        self.zh_threshold = zh_threshold  # on the Chinese sentence score

    # -- the protocol ----------------------------------------------------------------------

    def extract(
        self, turns: Sequence[TurnView], *, mode: Mode = "turn", namespace: str | None = None
    ) -> list[CandidateDraft]:
        coding = is_coding_pass(turns, namespace)
        drafts: list[CandidateDraft] = []
        if coding:
            drafts += self.selected_drafts(turns, mode=mode, namespace=namespace)
        else:
            summaries = [t for t in turns if t.role == "system"]
            if summaries:
                drafts += self.selected_drafts(summaries, mode=mode, namespace=namespace)
            for turn in turns:
                if turn.role == "system":
                    continue
                draft = self.extract_turn(turn, mode=mode, namespace=namespace)
                if draft is not None:
                    drafts.append(draft)
                if turn.role == "user":
                    drafts += [d for d in self.chat_request_drafts(turn, mode=mode, namespace=namespace)
                               if draft is None or not _same_statement(d.content, draft.content)]
        seen: set[str] = set()
        unique = []
        for draft in drafts:
            if draft.content not in seen:
                seen.add(draft.content)
                unique.append(draft)
        return unique

    def selected_drafts(
        self, turns: Sequence[TurnView], *, mode: Mode = "turn", namespace: str | None = None
    ) -> list[CandidateDraft]:
        """The units of a coding pass (:mod:`.units`) the learned selector chooses, written
        as statements (:mod:`.render`)."""
        units = [u for u in pass_units(turns) if selectable(u)]
        if not units:
            return []
        selector = self.selector or shipped()
        probs = selector.score(units)
        team = bool(namespace and namespace.startswith("workspace:"))
        drafts = []
        for i in selector.choose(units, probs):
            unit = units[i]
            text = render.content(unit, team=team)
            if len(text.strip()) < 6:
                continue
            kind = selector.kind(unit)
            _, said = scan(unit.text)  # flags are judged on what was written
            # How the user wants an agent to work holds in every project; a rule that names
            # this project's files, commands or code stays with the project.
            persona_wide = kind == "preference" and unit.source == "user" and not project_specific(unit.text)
            source: Mode = "compaction" if unit.turn.role == "system" else mode
            drafts.append(self._draft(text, kind, float(probs[i]), unit.turn, mode,
                                      f"persona:{self.persona}" if persona_wide else namespace, set(said),
                                      source=source))
        return drafts

    def _prepare(self, turn: TurnView) -> tuple[str, bool] | None:
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
        return text, len(_CJK.findall(text)) >= max(2, len(text) // 8)

    def _draft(
        self, content: str, kind: str, confidence: float, turn: TurnView, mode: Mode, namespace: str | None,
        flags: set[str] | None = None, source: Mode | None = None, scanned: bool = False,
    ) -> CandidateDraft:
        """A draft with dates written out, masked secrets and a bounded length (``scanned``:
        the content was built from sentences already scanned and masked)."""
        found: tuple[str, ...] = ()
        if not scanned:
            content, found = scan(content)
        content = content.strip()
        day = turn_day(turn.created_at)
        if day is not None:  # "yesterday" means nothing in a memory read next month
            content = absolute_dates_zh(content, day) if _CJK.search(content) else absolute_dates_en(content, day)
        if len(content) > MAX_CONTENT_CHARS:
            content = content[: MAX_CONTENT_CHARS - 1].rstrip() + "…"
        return CandidateDraft(
            content=content, kind=kind, namespace=namespace, source=source or mode,
            confidence=round(min(0.95, max(0.05, confidence)), 3), turn_ids=(turn.id,),
            flags=tuple(sorted((flags or set()) | set(found))),
        )

    def coding_user_drafts(
        self, turn: TurnView, *, mode: Mode = "turn", namespace: str | None = None
    ) -> list[CandidateDraft]:
        """A user turn of a coding session: its standing rules and design decisions, else
        whatever the general pass finds in it."""
        prepared = self._prepare(turn)
        if prepared is None:
            return []
        text, zh = prepared
        rules = rules_zh(text, self.subject_zh) if zh else rules_en(text, self.subject)
        rules = sorted(rules, key=lambda r: -r.strength)[:MAX_RULES_PER_TURN]
        if not rules:
            draft = self.extract_turn(turn, mode=mode, namespace=namespace, coding=True)
            return [draft] if draft is not None else []
        drafts = []
        for rule in rules:
            _, said = scan(rule.sentence)  # judged on what was typed
            # How the user wants an agent to work holds in every project; a rule that names
            # this project's files, commands or code stays with the project.
            persona_wide = rule.kind == "preference" and not project_specific(rule.sentence)
            drafts.append(self._draft(rule.content, rule.kind, 0.35 + 0.5 * rule.strength, turn, mode,
                                      f"persona:{self.persona}" if persona_wide else namespace, set(said)))
        return drafts

    def summary_drafts(self, turn: TurnView, *, namespace: str | None = None) -> list[CandidateDraft]:
        """Candidates from a compaction summary (a model-written ``system`` turn)."""

        def mine(text: str) -> list[SummaryCandidate]:
            quoted = TurnView(turn.id, "user", text, turn.conversation_id, turn.created_at)
            drafts = self.coding_user_drafts(quoted, namespace=namespace) if is_coding_pass([], namespace) else []
            if not drafts and not is_coding_pass([], namespace):
                found = self.extract_turn(quoted, namespace=namespace)
                drafts = [found] if found is not None else []
            return [SummaryCandidate(d.content, d.kind, d.confidence, d.namespace) for d in drafts]

        return [self._draft(c.content, c.kind, c.confidence, turn, "compaction", c.namespace or namespace,
                            source="compaction")
                for c in summary_candidates(turn.content or "", mine)]

    def chat_request_drafts(
        self, turn: TurnView, *, mode: Mode = "turn", namespace: str | None = None
    ) -> list[CandidateDraft]:
        """What a request to a chat assistant says about its author: the situation described
        around the task, a standing wish about answers (:mod:`.chat_requests`)."""
        text = turn.content or ""
        if not text.strip() or _NOISE_TURN.match(text):
            return []
        zh = len(_CJK.findall(text[:400])) >= max(2, len(text[:400]) // 8)
        subject = self.subject_zh if zh else self.subject
        drafts = []
        for found in (context_statement(text, subject, zh=zh), answer_style(text, subject, zh=zh)):
            if found is not None:
                drafts.append(self._draft(found.content, found.kind, 0.3 + 0.5 * found.strength, turn, mode,
                                          namespace))
        return drafts

    def extract_turn(
        self, turn: TurnView, *, mode: Mode = "turn", namespace: str | None = None, coding: bool = False,
    ) -> CandidateDraft | None:
        """At most one candidate for one turn (``None`` for a quiet or noisy turn).

        ``coding``: a user turn of a coding session, where a sentence needs a durable cue
        and must not be about the agent ("your compliance is inconsistent") or announce a
        step of the current task ("I'd like to start committing the files")."""
        prepared = self._prepare(turn)
        if prepared is None:
            return None
        text, zh = prepared
        assistant = turn.role == "assistant"
        if zh:
            picks = pick_zh(text, assistant)
            picks = [p for p in picks if p.score >= self.zh_threshold]
        else:
            picks = pick_en(text, assistant, self.threshold)
        if coding:
            picks = [p for p in picks if p.strength > 0 and p.kind != "event" and not _ABOUT_AGENT.search(p.sentence)
                     and not _TASK_INTENT.match(p.sentence)]
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
        # in a workspace "we" is the user's team, elsewhere the user taking part
        team = bool(namespace and namespace.startswith("workspace:"))
        if zh:
            content = "".join(rewrite_zh(x, self.subject_zh, team=team) for x in sentences)
        else:
            content = " ".join(rewrite_en(x, self.subject, team=team) for x in sentences)
        if len(content.strip()) < 6:
            return None
        confidence = min(0.95, max(0.05, 0.3 + 0.05 * best.score + 0.4 * best.strength))
        if assistant:
            confidence *= 0.7
        return self._draft(content, best.kind, confidence, turn, mode, namespace, flags, scanned=True)

    # -- kept for scripts that study the scorer (bench/extraction_ceiling.py) -------------

    def _sentences_en(self, text: str) -> list[dict]:
        return sentences_en(text)
