"""A coding session cut into the statements a memory could be made of, each with where it stands.

The offline extractor does not look for wording; it looks at what a statement is and where
it sits in the session, and a learned selector (:mod:`.selector`) decides which ones are
worth a reviewer's keystroke. This module only finds the statements ("units") and their
place:

- **user**: a sentence or bullet the person typed (pasted material, code and envelopes
  left out); the few prompts of a long autonomous run hold its standing rules;
- **assistant**: a sentence or bullet of the agent's text (tool calls left out), with its
  place in the exchange: the final report (the last text before the person speaks again),
  narration that goes with a tool call, a statement after a failing run or before a
  passing one;
- **summary**: an item of a model-written compaction summary, with its section
  (:mod:`.summary_sections`); the "all user messages" section is read as the user's words;
- **recap**: a sentence of any other model-written recap (``away_summary``);
- **answer**, **routine**: the person's AskUserQuestion answers and the project's own
  commands (:mod:`.answers`, :mod:`.routines`), already written as statements.

Everything here is structure: exchanges, roles, tool results, sections and sentence
boundaries, the same for English and Chinese.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from madohub_memory.core.cjk import CJK_CHAR
from madohub_memory.core.types import TurnView
from madohub_memory.extraction.answers import question_answers
from madohub_memory.extraction.pasted import own_words
from madohub_memory.extraction.routines import project_routines
from madohub_memory.extraction.summary_sections import (
    is_framing,
    looks_like_summary,
    parse_sections,
    summary_body,
)

MAX_UNIT_CHARS = 400
MIN_UNIT_CHARS = 8
MAX_TEXT_CHARS = 20_000  # a turn is read up to here (a pasted 5 MB log is never split whole)
MAX_UNITS_PER_TURN = 60

_FENCE = re.compile(r"```.*?(?:```|\Z)", re.S)
_TAG_BLOCK = re.compile(r"<([a-zA-Z][\w-]*)(?:\s[^>]*)?>[\s\S]*?</\1>")
_URL = re.compile(r"https?://\S+")
_LINK = re.compile(r"\[([^\]\n]{1,200})\]\([^)\s]*\)")
_MARKS = re.compile(r"\*\*|__|(?<!\w)\*(?!\s)|(?<!\s)\*(?!\w)|^#{1,6}\s*")
_BULLET = re.compile(r"^\s*(?:[-*•·+]|\d{1,2}[.)、]|[a-z][.)]|\[[ xX]\])\s+")
_TABLE = re.compile(r"^\s*\|")
_RULE_LINE = re.compile(r"^\s*(?:[-=*_]{3,}|>)")
_HEADING = re.compile(r"^\s{0,3}(?:#{1,6}\s+\S|\*\*[^*]{2,80}\*\*:?\s*$)")
# Sentence ends: English after . ! ? (not "e.g.", "i.e.", "vs.", a version "1.2"), Chinese after 。！？；
_SPLIT = re.compile(r"(?<=[.!?])(?<!\be\.g\.)(?<!\bi\.e\.)(?<!\bvs\.)\s+(?=[A-Z`\"'(\[\u3400-\u9fff])|(?<=[。！？；])"
                    r"|,?\s+(?=\([2-9]\)\s)")  # "(1) one rule, (2) another rule": one statement each
_NOISE = re.compile(
    r"^\s*(?:<(?:command-|local-command|system-reminder|bash-|task-notification|user-prompt-submit)"
    r"|\[Request interrupted|Caveat: |Base directory for this skill|API Error)")
_LABEL_START = re.compile(r"^[A-Z][a-z]+(?: [a-z]+){0,2}(?=[:：]\s)")  # "Root cause: …"
_TOOL_LINE = re.compile(r"^\[tool (?P<name>[\w.:-]+)\]\s?(?P<body>.*)$")
_RESULT = re.compile(r"^\[tool (?P<kind>error|result)\]\s?(?P<body>.*)$")
_FAILED = re.compile(
    r"\b[1-9]\d* (?:failures?|failed|errors?|failing)\b|\bFAILED\b|\bFAIL\b|Traceback \(most recent|\b\w*Error:|"
    r"\berror(?:\[\w+\])?:|\bBUILD FAILED|[Ee]xit code [1-9]|npm ERR!|command not found|失败|错误|錯誤")
_PASSED = re.compile(
    r"\b0 failures\b|\b0 failed\b|\b\d+ (?:tests? )?passed\b|\ball (?:\d+ )?tests? pass|\bTests?:\s+\d+ passed"
    r"|✓|✔|\bPASS\b|no issues|0 errors|succeeded|\bpassed\b|通过|通過|成功")
_NOT_A_RUN = re.compile(r"has been (?:updated|created)|File created successfully|User has answered"
                        r"|tool use was rejected|<tool_use_error>|File does not exist", re.I)


@dataclass
class Unit:
    """One statement with its place in the session (see the module doc)."""

    text: str
    source: str  # user | assistant | summary | recap | answer | routine
    turn: TurnView
    exchange: str = ""  # the exchange (or summary) it belongs to: at most a few are chosen from each
    section: str = ""  # summary: the section kind ("errors", "user_messages", …)
    heading: str = ""  # the heading the statement stands under in the agent's text
    zh: bool = False
    bullet: bool = False
    index: int = 0  # position of the unit in its turn
    count: int = 1  # units in its turn
    final: bool = False  # assistant: in the last text of the exchange (its report)
    with_tool: bool = False  # assistant: the turn also calls a tool (narration of a step)
    after_failure: bool = False  # a run failed earlier in the exchange and has not passed since
    resolved: bool = False  # a run failed earlier in the exchange and a later one passed
    before_pass: bool = False  # a run passes after this turn, with no failure in between
    pass_users: int = 1  # user turns in the pass (few in a long autonomous run)
    exchange_tools: int = 0  # tool results in the exchange
    first_exchange: bool = False  # the exchange opens the pass (the session's first prompt, often)
    turn_chars: int = 0  # length of the turn's text (a short correction or a long task description)
    replies_to_question: bool = False  # user: the agent's text just before asked something
    preset: str = ""  # answer/routine: the statement already written
    kind_hint: str = ""  # answer/routine: the kind they were written as


def is_zh(text: str) -> bool:
    """Written in Chinese: a sentence that mixes in English terms or clauses counts (its
    Chinese carries a third of its words or more, a character being ~2/3 of a word)."""
    sample = text[:400]
    cjk = len(CJK_CHAR.findall(sample))
    return cjk >= 2 and cjk / 1.5 >= len(re.findall(r"[A-Za-z]+", sample)) / 3


def _clean(line: str) -> str:
    line = _LINK.sub(r"\1", line.strip())  # "[the docs](https://…)" -> "the docs"
    line = _MARKS.sub("", line)
    line = _BULLET.sub("", line)
    return re.sub(r"\s+", " ", _URL.sub("", line)).strip(" -–—>:;,")


@dataclass(frozen=True)
class Piece:
    text: str
    bullet: bool = False
    heading: str = ""  # the heading the piece stands under ("Root cause", "下一步")


def sentences(text: str) -> list[Piece]:
    """The statements of a text: code blocks, tables, quotes and rules left out, a bullet
    kept whole (one bullet is one statement), other lines split into sentences; each with
    the heading it stands under (a heading is not a statement itself)."""
    out: list[Piece] = []
    heading = ""
    for raw in _FENCE.sub("\n", text[:MAX_TEXT_CHARS]).splitlines():
        if not raw.strip() or _TABLE.match(raw) or _RULE_LINE.match(raw) or _TOOL_LINE.match(raw.strip()):
            continue
        # a heading, or a line that introduces what follows ("Files created:", "- `x.ts` - a server that:")
        if _HEADING.match(raw) or (raw.rstrip().endswith((":", "：")) and len(raw) < 120):
            heading = _clean(raw)
            continue
        bullet = bool(_BULLET.match(raw))
        line = _clean(raw)
        if not line:
            continue
        pieces = [line] if bullet and len(line) <= MAX_UNIT_CHARS else _SPLIT.split(line)
        for piece in pieces:
            piece = piece.strip(" -–—")
            if MIN_UNIT_CHARS <= len(piece) <= MAX_UNIT_CHARS:
                out.append(Piece(piece, bullet, heading))
    return out


def _user_text(turn: TurnView) -> str | None:
    text = turn.content or ""
    if not text.strip() or _NOISE.match(text):
        return None
    text = _TAG_BLOCK.sub(" ", text)
    return own_words(text)


def _runs(turn: TurnView) -> list[str]:
    """"fail"/"pass" for each tool result of a tool turn that reports a run."""
    out = []
    for line in (turn.content or "").splitlines():
        m = _RESULT.match(line.strip())
        if m is None or _NOT_A_RUN.search(m.group("body")):
            continue
        if m.group("kind") == "error" or _FAILED.search(m.group("body")):
            out.append("fail")
        elif _PASSED.search(m.group("body")):
            out.append("pass")
    return out


def exchanges(turns: Sequence[TurnView]) -> list[list[TurnView]]:
    """The pass cut before each user turn (turns before the first user turn form their own)."""
    out: list[list[TurnView]] = []
    for turn in turns:
        if turn.role == "system":
            continue
        if not out or turn.role == "user":
            out.append([])
        out[-1].append(turn)
    return out


def _exchange_units(exchange: list[TurnView], first: bool, users: int) -> list[Unit]:
    tools = sum(t.role == "tool" for t in exchange)
    texts = [i for i, t in enumerate(exchange) if t.role == "assistant" and _has_text(t)]
    last_text = texts[-1] if texts else -1
    # Where runs failed and passed, to place each statement between them.
    verdicts = [_runs(t) if t.role == "tool" else [] for t in exchange]
    units: list[Unit] = []
    failing = failed = resolved = False
    asked = False  # the agent's last text asked the person something
    for i, turn in enumerate(exchange):
        if turn.role == "tool":
            for verdict in verdicts[i]:
                failing = verdict == "fail"
                failed = failed or failing
                resolved = resolved or (failed and not failing)
            continue
        replying = False
        if turn.role == "user":
            text = _user_text(turn)
            pieces = sentences(text) if text else []
            source = "user"
            replying = asked
        elif turn.role == "assistant":
            pieces = sentences(turn.content or "")
            source = "assistant"
            if pieces:
                asked = "?" in pieces[-1].text or "？" in pieces[-1].text
        else:
            continue
        passes_next = _passes_after(verdicts, i)
        with_tool = source == "assistant" and "\n[tool " in f"\n{turn.content}"
        pieces = pieces[:MAX_UNITS_PER_TURN]
        for n, piece in enumerate(pieces):
            units.append(Unit(
                piece.text, source, turn, exchange=f"{exchange[0].id}:{source}", heading=piece.heading, zh=is_zh(piece.text), bullet=piece.bullet,
                index=n, count=len(pieces),
                final=i == last_text, with_tool=with_tool, after_failure=failing, before_pass=passes_next,
                resolved=resolved,
                pass_users=users, exchange_tools=tools, first_exchange=first,
                turn_chars=len(turn.content or ""), replies_to_question=replying,
            ))
    return units


def _has_text(turn: TurnView) -> bool:
    return any(line.strip() and not line.startswith("[tool ") for line in (turn.content or "").splitlines())


def _passes_after(verdicts: list[list[str]], index: int) -> bool:
    for found in verdicts[index + 1:]:
        if "fail" in found:
            return False
        if "pass" in found:
            return True
    return False


def summary_units(turn: TurnView, summary: bool) -> list[Unit]:
    """Units of a model-written system turn: a compaction summary by section (the user's
    quoted messages as user units), or a recap sentence by sentence."""
    if not summary:
        pieces = [p for p in sentences(turn.content or "") if not is_framing(p.text)]
        return [Unit(p.text, "recap", turn, exchange=turn.id, heading=p.heading, zh=is_zh(p.text), bullet=p.bullet, index=n,
                     count=len(pieces)) for n, p in enumerate(pieces)]
    body = summary_body(turn.content or "")
    sections = parse_sections(body)
    units: list[Unit] = []
    if not sections:  # an unknown layout: plain sentences, marked as such
        pieces = [p for p in sentences(body) if not is_framing(p.text)]
        return [Unit(p.text, "summary", turn, exchange=turn.id, section="unknown", heading=p.heading, zh=is_zh(p.text),
                     bullet=p.bullet, index=n, count=len(pieces)) for n, p in enumerate(pieces)]
    for section in sections:
        items = [_item_statement(item.text, item.details) for item in section.items] + section.prose
        items = [item for item in items if not is_framing(item)]
        for n, item in enumerate(items):
            if section.kind == "user_messages":
                quoted = re.match(r"^[\"“「](?P<text>.+?)[\"”」](?:\s*[(（].*[)）])?\s*$", item)
                if quoted is None:
                    continue
                for m, piece in enumerate(sentences(quoted.group("text"))):
                    units.append(Unit(piece.text, "user", turn, exchange=f"{turn.id}:user", section="summary_user", zh=is_zh(piece.text),
                                      bullet=piece.bullet, index=m, count=1))
                continue
            text = _clean(item)
            if len(text) >= MIN_UNIT_CHARS:
                if len(text) > MAX_UNIT_CHARS:
                    text = text[:MAX_UNIT_CHARS].rsplit(" ", 1)[0] + "…"
                units.append(Unit(text, "summary", turn, exchange=f"{turn.id}:{section.kind}", section=section.kind, zh=is_zh(text), bullet=True,
                                  index=n, count=len(items)))
    return units


def _item_statement(title: str, details: list[str]) -> str:
    """A summary item with the lines under it as one readable sentence: "Type mismatch —
    root cause: imported twice; fix: import it once." (a detail that only introduces what
    follows, "Full content:", is left out)."""
    parts = [title.rstrip(" :："), *(d for d in details if d.strip() and not d.rstrip().endswith((":", "：")))]
    parts = [p.strip().rstrip(" .;。；") for p in parts]
    if len(parts) == 1:
        return parts[0]
    zh = is_zh(" ".join(parts))
    rest = [_LABEL_START.sub(lambda m: m.group(0).lower(), p) for p in parts[1:]]
    return parts[0] + ("——" if zh else " — ") + ("；" if zh else "; ").join(rest)


def pass_units(turns: Sequence[TurnView]) -> list[Unit]:
    """Every unit of a pass. A system turn that reaches an extractor is model-written: a
    compaction summary, or a recap."""
    units: list[Unit] = []
    for turn in turns:
        if turn.role == "system":
            units += summary_units(turn, looks_like_summary(turn.content or ""))
    users = sum(t.role == "user" for t in turns)
    for n, exchange in enumerate(exchanges(turns)):
        units += _exchange_units(exchange, first=n == 0, users=users)
    zh = any(t.role == "user" and is_zh(t.content or "") for t in turns)
    by_id = {t.id: t for t in turns}
    found = [("answer", f.content, f.kind, f.turn_id) for f in question_answers(turns, "用户" if zh else "User", zh)]
    found += [("routine", r.content, r.kind, r.turn_id) for r in project_routines(turns, zh)]
    for source, content, kind, turn_id in found:
        turn = by_id[turn_id]
        units.append(Unit(content, source, turn, exchange=f"{source}:{turn.id}", zh=zh, preset=content,
                          kind_hint=kind))
    return units
