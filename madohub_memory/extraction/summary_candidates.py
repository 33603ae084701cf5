"""Candidates from a compaction summary, each section mined for what it is good for.

- errors and fixes -> postmortem (the problem with its cause and fix; "expected" errors
  of incremental editing are left out);
- problem solving -> pattern or fact (what the session established about the project);
- key decisions -> decision (with the reason when the item gives one);
- key technical concepts -> one fact naming the known technologies the project is built
  with, and a fact or pattern for items that say how the project works ("Beads (bd) for
  issue tracking", "… required for LiveView tests"); the session's notions ("Rate
  Limiting") are not listed;
- primary request -> preference, only for the user's standing requirements ("no API key
  placeholders in code", "the user wants all tasks committed and pushed");
- all user messages -> whatever the user's own words yield (rules, decisions, facts);
- constraints / rules / preferences sections of other layouts -> preference.
Files, current work, next step, pending and solved lists are narration of this session.
A summary in an unknown layout falls back to sentences with a strong cue (root cause,
decided, the user wants/prefers), at most a few.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from madohub_memory.extraction.sentences import CJK
from madohub_memory.extraction.summary_sections import (
    Item,
    Section,
    parse_sections,
    summary_analysis,
    summary_body,
)
from madohub_memory.extraction.tech_names import tech_names

MAX_ITEM_CHARS = 340
MAX_FALLBACK = 5


@dataclass(frozen=True)
class SummaryCandidate:
    content: str
    kind: str
    confidence: float
    namespace: str | None = None  # None: the session's namespace


UserTextMiner = Callable[[str], list[SummaryCandidate]]

_LABEL = re.compile(r"^(?P<label>[^:：]{2,90}?)\s*[:：]\s*(?P<body>\S.*)$")
_ERROR_NO = re.compile(r"^(?:error|issue|bug|problem|错误|问题)\s*\d+\s*[:：.]\s*", re.I)
_DETAIL_LABEL = re.compile(
    r"^(?P<label>description|root cause|cause|fix|solution|resolution|user report|reason|why|lesson|symptom"
    r"|原因|根因|修复|解决|描述|现象|教训)\s*[:：]\s*(?P<body>.*)$", re.I)
_TRIVIAL = re.compile(r"^(?:expected|as expected|normal|预期)", re.I)
_DONE = re.compile(r"^(?:✅|☑|✔|\[x\])|^(?:no (?:pending|next)|none\b|无)", re.I)
_CONCEPT_ROLE = re.compile(
    r"\b(?:for (?:\w+ )?(?:issue|task|bug|project|migration|test|deploy|ci|lint|format|package|dependenc|build|release)\w*"
    r"|(?:not )?allowed|forbidden|only\b"
    r"|required|requires|must|always|never|instead of|rather than|prefer|convention|pattern|often need\w*|workflow"
    r"|tracker|tracking|package manager|monorepo|workspaces?|standalone)\b|必须|需要|约定|规范|而不是|用于",
    re.I)
_STANDING_REQ = re.compile(
    r"\b(?:no|not|don't|do not|never|always|must|should|instead|follow|use|prefer|avoid|without|only|tdd"
    r"|test-first|tests? first|standalone)\b|不要|别|禁止|必须|总是|始终|而不是|统一", re.I)
_USER_WANTS = re.compile(
    r"\b(?:the )?user (?:wants|prefers|expects|insists|requires|asked (?:that|for|to) \w+ (?:always|never)"
    r"|explicitly (?:asked|requested|wants)|does not want|doesn't want|likes)\b|用户(?:希望|要求|偏好|喜欢|不希望|不想)",
    re.I)
_RULE_WORDS = re.compile(r"\b(?:should|always|never|must|convention|pattern|rule|established|every|all future)\b"
                         r"|应该|总是|必须|约定|规范", re.I)
_REASON = re.compile(r"\b(?:for|because|since|so that|to avoid|to keep|instead of)\b|因为|为了|以便|而不是", re.I)
# "The user can now run `npm run authorize:gmail` to complete the OAuth2 flow": a command and its use.
_RUN_TO = re.compile(r"\brun\s+`(?P<cmd>[^`]{3,80})`\s+(?:to|for)\s+(?P<what>[^.;\n]{6,160})", re.I)
_CONCEPT_RULE = re.compile(
    r"\b(?:required|requires|must|always|never|convention|pattern|often need\w*)\b|必须|需要|约定|规范", re.I)
_CONCEPT_CHOICE = re.compile(r"\b(?:instead of|rather than|prefer\w*\s+\S+(?:\s+\S+){0,3}\s+over)\b|而不是|优先", re.I)
# "Credo warning about `length/1` in guard: …": what the linter enforces is a convention.
_LINT = re.compile(r"\b(?:credo|eslint|tslint|lint(?:er|ing)?|rubocop|clippy|ruff|flake8|pylint|stylelint"
                   r"|warnings?)\b", re.I)
# "no token persistence in the initial implementation (noted as a critical security gap)":
# a decision that leaves a known problem open.
_GAP = re.compile(r"\b(?:gap|known (?:issue|problem|bug)|limitation|not yet|todo|technical debt|follow-?up)\b"
                  r"|待办|遗留|尚未", re.I)
MAX_STACK_NAMES = 8
_QUOTED = re.compile(r"^[\"“「](?P<text>.+?)[\"”」](?:\s*[(（].*[)）])?\s*$")
_FALLBACK_CUES: list[tuple[str, re.Pattern[str]]] = [
    ("postmortem", re.compile(r"\b(?:root cause|was caused by|failed because|the (?:bug|issue|problem) was)\b|根因|原因是", re.I)),
    ("decision", re.compile(r"\b(?:decided|chose|agreed|settled on|went with)\b|决定|选择了", re.I)),
    ("preference", _USER_WANTS),
]


def _zh(text: str) -> bool:
    return len(CJK.findall(text)) >= max(2, len(text) // 8)


def _sentence(text: str, limit: int = MAX_ITEM_CHARS) -> str:
    """Trimmed to a length a reviewer reads at a glance, ending like a sentence."""
    text = re.sub(r"\s+", " ", text).strip(" -—:;,")
    if len(text) > limit:
        cut = text[:limit]
        stop = max(cut.rfind(". "), cut.rfind("; "), cut.rfind("。"))
        text = cut[: stop + 1] if stop > limit // 2 else cut.rstrip() + "…"
    if text and text[-1] not in ".!?…。！？":
        text += "。" if _zh(text) else "."
    return text


def _lower_first(text: str) -> str:
    return text[0].lower() + text[1:] if text[:1].isupper() and not text[1:2].isupper() else text


def _error(item: Item) -> SummaryCandidate | None:
    title = _ERROR_NO.sub("", item.text).strip()
    parts: dict[str, str] = {}
    loose: list[str] = []
    last = None
    for detail in item.details:
        m = _DETAIL_LABEL.match(detail)
        if m is not None:
            last = m.group("label").lower()
            parts[last] = m.group("body").strip()
        elif last is not None and not parts.get(last):
            parts[last] = detail  # "- Fix:" with its content on the next bullet
        else:
            loose.append(detail)
    cause = parts.get("root cause") or parts.get("cause") or parts.get("reason") or parts.get("原因") or parts.get("根因")
    fix = (parts.get("fix") or parts.get("solution") or parts.get("resolution") or parts.get("修复")
           or parts.get("解决"))
    zh = _zh(item.full())
    if not cause and not fix:
        m = _LABEL.match(title)
        if m is None:
            return None  # a bare item ("Local callback server listening on port 9337") is no postmortem
        title, rest = m.group("label"), m.group("body")
        if _TRIVIAL.match(rest):
            return None
        content = f"{title}：{rest}" if zh else f"{title}: {rest}"
        return SummaryCandidate(_sentence(content), _error_kind(title), 0.6)
    if not fix and not cause:
        return None
    if zh:
        pieces = [title] + ([f"原因：{cause.rstrip('。')}"] if cause else []) + ([f"修复：{fix.rstrip('。')}"] if fix else [])
        return SummaryCandidate(_sentence("；".join(pieces)), "postmortem", 0.65 if cause else 0.55)
    pieces = ([f"cause: {cause.rstrip('.')}"] if cause else []) + ([f"fix: {fix.rstrip('.')}"] if fix else [])
    return SummaryCandidate(_sentence(f"{title.rstrip('.')} — {'; '.join(pieces)}"), _error_kind(title),
                            0.65 if cause else 0.55)


def _error_kind(title: str) -> str:
    """A linter's finding and its fix follow the project's conventions (pattern); anything
    else that broke and was fixed is a postmortem."""
    return "pattern" if _LINT.search(title) else "postmortem"


def _solving(section: Section) -> list[SummaryCandidate]:
    out = []
    for item in section.items:
        m = _LABEL.match(item.text)
        body = m.group("body") if m is not None else item.text
        if _DONE.match(item.text) or (len(body.split()) < 4 and not _zh(body)):
            continue
        kind = "pattern" if _RULE_WORDS.search(body) else "fact"
        out.append(SummaryCandidate(_sentence(body), kind, 0.6 if kind == "pattern" else 0.5))
    for line in section.prose:
        if _RULE_WORDS.search(line) and len(line.split()) >= 6:
            out.append(SummaryCandidate(_sentence(line), "pattern", 0.5))
    return out


def _decisions(section: Section, zh: bool) -> list[SummaryCandidate]:
    out = []
    for item in section.items:
        if _DONE.match(item.text):
            continue
        text = item.text.rstrip(".。")
        if _GAP.search(text):  # an open problem the decision leaves: worth knowing next time
            content = f"未解决的问题：{text}" if zh else f"Open problem: {_lower_first(text)}"
            out.append(SummaryCandidate(_sentence(content), "event", 0.55))
            continue
        confidence = 0.65 if _REASON.search(text) else 0.55
        content = f"决定：{text}" if zh else f"Decision: {_lower_first(text)}"
        out.append(SummaryCandidate(_sentence(content), "decision", confidence))
    return out


def _concepts(section: Section, zh: bool) -> list[SummaryCandidate]:
    out = []
    for item in section.items:
        text = item.text
        if not _CONCEPT_ROLE.search(text) or _DONE.match(text):
            continue
        content = f"项目使用{text}" if zh else f"The project uses {text.rstrip('.')}"
        # "(prefer DB `id` over JSONL `uuid`)": a choice; "… required for LiveView tests",
        # "(table rewrite pattern …)": how to work here; anything else: how the project is
        kind = "decision" if _CONCEPT_CHOICE.search(text) else "pattern" if _CONCEPT_RULE.search(text) else "fact"
        out.append(SummaryCandidate(_sentence(content), kind, 0.45))
    return out


def _stack(section: Section, zh: bool) -> list[SummaryCandidate]:
    """One fact naming what the project is built with: the known technologies among the
    listed concepts ("Phoenix LiveView", "AshSqlite"), not the session's notions ("Rate
    Limiting", "OAuth2 Authentication Flow"), which say nothing specific on their own."""
    names: list[str] = []
    for item in section.items:
        for name in tech_names(item.text):
            # "LiveView" after "Phoenix LiveView", "SQLite" after "AshSqlite" add nothing
            if not any(name.lower() in n.lower() or n.lower() in name.lower() for n in names):
                names.append(name)
    names = names[:MAX_STACK_NAMES]
    if len(names) < 2:
        return []
    if zh:
        return [SummaryCandidate(_sentence(f"项目的技术栈：{'、'.join(names)}"), "fact", 0.5)]
    listed = ", ".join(names[:-1]) + f" and {names[-1]}"
    return [SummaryCandidate(_sentence(f"The project is built with {listed}"), "fact", 0.5)]


def _commands(lines: list[str]) -> list[SummaryCandidate]:
    out = []
    for line in lines:
        for m in _RUN_TO.finditer(line):
            what = m.group("what").strip().rstrip(".")
            out.append(SummaryCandidate(_sentence(f"Run `{m.group('cmd')}` to {what}"), "fact", 0.5))
    return out


def _request(section: Section, zh: bool) -> list[SummaryCandidate]:
    out = []
    for item in section.items:
        if _STANDING_REQ.search(item.text) and not _DONE.match(item.text):
            text = item.text.rstrip(".。")
            content = f"用户要求：{text}" if zh else f"User requirement: {text}"
            out.append(SummaryCandidate(_sentence(content), "preference", 0.55))
    for line in section.prose:
        for sentence in re.split(r"(?<=[.!。！])\s*", line):
            if _USER_WANTS.search(sentence) and len(sentence) > 12:
                out.append(SummaryCandidate(_sentence(sentence), "preference", 0.55))
    return out


def _constraints(section: Section, zh: bool) -> list[SummaryCandidate]:
    out = []
    for item in section.items:
        text = item.text.rstrip(".。")
        content = f"用户要求：{text}" if zh else f"User requirement: {text}"
        out.append(SummaryCandidate(_sentence(content), "preference", 0.55))
    return out


def _user_messages(section: Section, mine: UserTextMiner) -> list[SummaryCandidate]:
    out = []
    for item in section.items:
        m = _QUOTED.match(item.text)
        if m is not None:
            out += mine(m.group("text"))
    return out


def _fallback(body: str) -> list[SummaryCandidate]:
    """An unknown layout: a few sentences with an unmistakable cue, nothing else."""
    out: list[SummaryCandidate] = []
    for sentence in re.split(r"(?<=[.!。！])\s+|\n+", body):
        sentence = re.sub(r"^[\s\-*•#\d.)]+", "", sentence).strip()
        if not (6 <= len(sentence) <= MAX_ITEM_CHARS) or sentence.endswith((":", "：", "?", "？")):
            continue
        for kind, cue in _FALLBACK_CUES:
            if cue.search(sentence):
                out.append(SummaryCandidate(_sentence(sentence), kind, 0.45))
                break
        if len(out) >= MAX_FALLBACK:
            break
    return out


def summary_candidates(text: str, mine: UserTextMiner) -> list[SummaryCandidate]:
    """Candidates from one compaction summary (``mine`` extracts from the user's own words)."""
    body = summary_body(text)
    sections = parse_sections(body)
    if not sections:
        return _fallback(body)
    out: list[SummaryCandidate] = []
    # The "Analysis:" narration repeats the summary, except for decision lists it sometimes
    # keeps to itself ("**Key Technical Decisions:**").
    for section in parse_sections(summary_analysis(text)):
        if section.kind in ("decisions", "constraints"):
            sections.append(section)
    lines = [line for section in sections for line in [*section.prose, *(i.full() for i in section.items)]]
    out += _commands(lines)
    for section in sections:
        zh = _zh(" ".join(i.text for i in section.items[:5]) + " ".join(section.prose[:2]) + section.title)
        if section.kind == "errors":
            out += [c for c in (_error(i) for i in section.items) if c is not None]
        elif section.kind == "solving":
            out += _solving(section)
        elif section.kind == "decisions":
            out += _decisions(section, zh)
        elif section.kind == "concepts":
            out += _stack(section, zh) + _concepts(section, zh)
        elif section.kind == "request":
            out += _request(section, zh)
        elif section.kind == "constraints":
            out += _constraints(section, zh)
        elif section.kind == "user_messages":
            out += _user_messages(section, mine)
    seen: set[str] = set()
    unique = []
    for candidate in out:
        if candidate.content not in seen:
            seen.add(candidate.content)
            unique.append(candidate)
    return unique
