"""The default extractor: offline, no model service, English and Chinese.

Two paths, chosen per pass:

- **a coding session** (a workspace, or tool calls in the pass): the pass is cut into
  units, each statement with its place in the session (:mod:`.units`); a learned selector
  (:mod:`.selector`) chooses the few worth a reviewer's keystroke, measured on projects
  and people it was not trained on; each is written as a standalone statement
  (:mod:`.render`). A compaction summary or an agent's recap goes the same way.
- **a chat** (ChatGPT, plain JSONL, benchmark dialogues): turn by turn, what the person
  says about themselves (:mod:`.chat`).

Why offline by default: it runs after every turn on a laptop, privately, at hundreds of
turns per second. The agent's own model, where one runs, is the stronger extractor (a
"Memory candidates" section in its compaction summary, its ``remember`` calls).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from madohub_memory.core.types import CandidateDraft
from madohub_memory.extraction import render
from madohub_memory.extraction.base import Mode, TurnView
from madohub_memory.extraction.chat import ChatTurns
from madohub_memory.extraction.drafts import make_draft
from madohub_memory.extraction.english import sentences_en
from madohub_memory.extraction.flags import scan
from madohub_memory.extraction.rewrite import rewrite_first_person_en  # noqa: F401  (re-exported)
from madohub_memory.extraction.selector import Selector, shipped
from madohub_memory.extraction.units import Unit, pass_units

# Names something of this project: a path, a file, code, an identifier, a command with its
# subcommand or a flag ("make lint", "--no-verify"), "this repo", or says "here".
_PROJECT_SPECIFIC = re.compile(
    r"`|[\w.-]+/[\w.-]|(?:^|\s)[/~][\w.-]|\b\w+\.(?:py|js|ts|tsx|jsx|json|toml|ya?ml|md|ex|exs|rb|go|rs|java|kt|sh|sql|env|lock)\b"
    r"|\b[a-z]+[A-Z]\w*|\b[a-z]+_[a-z_]+\b|\b[A-Z]{1,5}\d+|\b(?:this|the|our) (?:project|repo|repository|codebase|app"
    r"|service|package|monorepo|module|branch)\b|\bmonorepo\b|\b(?:folder|directory|module|endpoint|function|class"
    r"|method|table|column|schema|migrations?|component|route|model|view|page|screen)s?\b"
    r"|(?:^|\s)--?[a-z][\w-]+|\b(?:make|npm run|pnpm|yarn|cargo|mix|gradle|mvn|uv run|poetry run|just|rake|bin/\w+)\s+[a-z][\w:-]*"
    r"|\bhere\b|\bin this (?:one|codebase|repo)\b"
    r"|这个项目|本项目|该项目|仓库|代码库|這個項目|專案|倉庫|这里|這裡|这边|這邊|此处|此處|项目里|項目裡")
_QUESTION = re.compile(r"[?？]\s*$|[吗嗎呢]\s*[。.]?\s*$")
# A request to act now ("Please fix the failing test", "go ahead", "check again", "继续"): a
# one-off command, which DESIGN.md says is no memory, unless it is said for always or as a
# "don't" (the selector's standing-rule words, checked apart).
_ACT_NOW = re.compile(
    r"^(?:(?:ok(?:ay)?|so|now|then|and|also)[, ]+)*(?:please\s+|pls\s+|can you\s+|could you\s+)?"
    r"(?:fix|debug|investigate|look (?:at|into)|check|continue|proceed|go ahead|try|figure out|find out|diagnose|repair"
    r"|resolve|help|read|open|review)\b|^(?:请|請)?(?:修复|修復|修一下|看一下|看看|检查|檢查|继续|繼續|调试|調試|排查|阅读|閱讀|看)",
    re.I)
_STANDING = re.compile(r"\b(?:always|never|every|each time|whenever|from now on|in future|don't|do not)\b"
                       r"|以后|以後|每次|总是|總是|永远|永遠|不要|别|別", re.I)
# A short report of a check's result ("All 8 tests pass.", "Gmail client tests: 22/22
# passing", "ESLint: no warnings or errors"): the state of the work at that moment, which the
# next run changes (the "N/N passed" noise). A longer sentence may say what was
# covered or why, and is left to the selector.
_CHECK_RESULT = re.compile(
    r"\b(?:\d+\s*/\s*\d+|all \d+|\d+)\s+(?:\w+\s+){0,3}(?:tests?|specs?|checks?|cases?)\s+(?:are\s+)?(?:pass|passing|passed"
    r"|green)\b|\b\d+\s*/\s*\d+\s+(?:passing|passed|pass)\b|^[^a-z]*\w+\s*:\s*no (?:errors?|warnings?)(?: or (?:errors?"
    r"|warnings?))?\W*$|\b0 failures\b|\(\d+ lines?\)|(?:测试|測試)(?:全部)?通过|(?:测试|測試)(?:全部)?通過", re.I)
_SHORT_REPORT_WORDS = 14
# An error the summary itself calls passing: "Missing module: expected while editing".
_TRANSIENT = re.compile(r"\b(?:expected (?:while|during|as|when|since)|as expected|transient|just a typo|temporar(?:y|ily))\b"
                        r"|预期之中|預期之中|暂时的|暫時的|临时的|臨時的", re.I)


def selectable(unit: Unit) -> bool:
    """A unit the selector may choose: never a question the user asked (a question states
    nothing about the person; what they say about themselves beside it is its own unit),
    nor a request to act now (:data:`_ACT_NOW`), nor the agent's short report of a check's
    result (:data:`_CHECK_RESULT`), nor an error a summary calls expected or transient (a
    step of editing, no postmortem)."""
    if unit.source == "user" and (_QUESTION.search(unit.text) or _act_now(unit.text)):
        return False
    if unit.source != "user" and _CHECK_RESULT.search(unit.text) and len(unit.text.split()) <= _SHORT_REPORT_WORDS:
        return False
    return not (unit.section == "errors" and _TRANSIENT.search(unit.text))


def _act_now(text: str) -> bool:
    text = render.strip_lead(text)
    return bool(_ACT_NOW.search(text)) and not _STANDING.search(text)


def project_specific(text: str) -> bool:
    return bool(_PROJECT_SPECIFIC.search(text))


def is_coding_pass(turns: Sequence[TurnView], namespace: str | None) -> bool:
    """A pass from a coding session: a workspace, or tool calls in the exchange."""
    if namespace and namespace.startswith("workspace:"):
        return True
    return any(t.role == "tool" or (t.role == "assistant" and "\n[tool " in f"\n{t.content}") for t in turns)


class OfflineExtractor:
    """The offline extractor (see the module doc). ``selector``: the learned selector to
    use (the shipped one when ``None``); ``persona``: where the user's working-style rules
    go (``persona:<name>``); the other arguments configure the chat path (:class:`.ChatTurns`)."""

    name = "offline"
    # Passes as long as the claimed rounds allow: a long autonomous run is one exchange, and
    # its final report is seen as its end (a model backend keeps the shorter default).
    max_exchange = 2000
    max_span = 2000

    def __init__(
        self, subject: str = "User", subject_zh: str = "用户", threshold: float = -0.45,
        zh_threshold: float = 1.0, persona: str = "default", *, selector: Selector | None = None,
    ) -> None:
        self.chat = ChatTurns(subject, subject_zh, threshold, zh_threshold)
        self.persona = persona
        self.selector = selector

    def extract(
        self, turns: Sequence[TurnView], *, mode: Mode = "turn", namespace: str | None = None
    ) -> list[CandidateDraft]:
        if is_coding_pass(turns, namespace):
            drafts = self.selected_drafts(turns, mode=mode, namespace=namespace)
        else:  # a chat: turn by turn, and any model-written summary the selector's way
            drafts = self.selected_drafts([t for t in turns if t.role == "system"], mode=mode, namespace=namespace)
            for turn in turns:
                if turn.role != "system":
                    drafts += self.chat.drafts(turn, mode=mode, namespace=namespace)
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
        as statements (:mod:`.render`). A compaction summary's units are among them: a
        summary that brings its own candidate lines would be read back here instead."""
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
            drafts.append(make_draft(
                text, kind, float(probs[i]), unit.turn, mode, f"persona:{self.persona}" if persona_wide else namespace,
                set(said), source="compaction" if unit.turn.role == "system" else mode))
        return drafts

    # -- the chat path, for scripts that study it (bench/extraction_ceiling.py) -------------

    def extract_turn(self, turn: TurnView, *, mode: Mode = "turn", namespace: str | None = None) -> CandidateDraft | None:
        return self.chat.extract_turn(turn, mode=mode, namespace=namespace)

    def _sentences_en(self, text: str) -> list[dict]:
        return sentences_en(text)
