"""The "Memory candidates" section a compaction summary is asked to end with, and reading it back.

Why: when Claude Code compacts a session, its own model reads everything about to be
summarised away, in every language. The ``PreCompact`` hook prints
:func:`compaction_instruction` (Claude Code adds a hook's output to the compaction request
as "Additional Instructions"), asking the summary to end with one line per durable item::

    ## Memory candidates
    - preference | persona | User wants pnpm, not npm.
    - decision | workspace | The API keeps snake_case keys because the mobile app parses them.

:func:`find_section` reads that section back deterministically, from ``PostCompact``'s
``compact_summary`` or from the ``isCompactSummary`` record of a transcript imported later
(which drops the ``<analysis>`` part and appends Claude Code's own closing lines; neither
changes the section). Each well-formed line is one candidate; a malformed line (an unknown
kind or scope, no sentence, a sentence too short or too long) is skipped with its reason,
never guessed at. No section at all means the summary goes to the ordinary extractor.

Pure text in, drafts out: no store, no model. Where a summary turn comes from and whether it
was read before is decided in :mod:`madohub_memory.agents.claude_code.compaction_readback`.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

from madohub_memory.core.types import CandidateDraft
from madohub_memory.core.vocab import KINDS
from madohub_memory.extraction.sentences import CJK

INSTRUCTION_VERSION = 1
HEADING = "Memory candidates"
SCOPES = ("workspace", "persona")
MAX_LINES = 100  # read per summary; a model writing hundreds is flooding the queue
MAX_SENTENCE_CHARS = 500
MIN_SENTENCE_CHARS = 8
MIN_SENTENCE_CJK = 4
CONFIDENCE = 0.75  # written by the session's own model, from the whole session
MAX_SCAN_CHARS = 200_000  # a summary is ~15k characters; anything far longer is cut

_INSTRUCTION = f"""\
Memory candidates (madohub-memory v{INSTRUCTION_VERSION}): end the summary, inside <summary>, with a \
section headed exactly "## {HEADING}", one line per item worth keeping for later sessions:
- KIND | SCOPE | SENTENCE
KIND: preference, fact, decision, pattern, postmortem or event. SCOPE: workspace (this project) or \
persona (the user, in every project). SENTENCE: one standalone sentence in the third person, in the \
user's language.
List the user's standing rules and corrections, project facts needed next time (commands, paths, \
conventions), decisions with their reason, confirmed root causes with their fix, and the state of \
unfinished work (event).
Leave out tool output, file contents, one-off steps, guesses and secrets. If nothing qualifies, write "- none"."""

_HEADING_LINE = re.compile(
    r"^\s{0,3}(?:#{1,6}\s*)?(?:\*\*|__)?\s*(?:\d{1,2}\s*[.)、]\s*)?(?:\*\*|__)?\s*"
    r"(?:memory\s+candidates|记忆候选)\s*(?:\*\*|__)?\s*[:：]?\s*(?:\*\*|__)?\s*$",
    re.IGNORECASE,
)
_ANALYSIS_END = re.compile(r"</analysis>", re.IGNORECASE)
_OTHER_HEADING = re.compile(r"^\s{0,3}(?:#{1,6}\s|</?summary>|\*\*[^*]+\*\*\s*[:：]?\s*$)", re.IGNORECASE)
_BULLET = re.compile(r"^\s*(?:[-*•·+–—]|\d{1,3}\s*[.)、])\s*")
_MARKS = re.compile(r"\*\*|__|`")
_NONE = re.compile(r"^(?:none|nothing|n/?a|无|没有)\.?$", re.IGNORECASE)
_SCOPE = re.compile(r"^(workspace|persona)(?::\S.*)?$")


def compaction_instruction() -> str:
    """What the ``PreCompact`` hook prints: the request for the section, versioned."""
    return _INSTRUCTION


@dataclass(frozen=True)
class CandidateLine:
    """One well-formed line: its kind, scope (workspace or persona) and sentence as written."""

    kind: str
    scope: str
    sentence: str
    line: int  # 1-based, within the text read


@dataclass
class Section:
    """The section as read: its well-formed lines, and the lines skipped with why."""

    lines: list[CandidateLine] = field(default_factory=list)
    skipped: list[tuple[int, str]] = field(default_factory=list)  # (line, reason)
    said_none: bool = False

    def key(self) -> str:
        """The same items give the same key, however the summary around them was formatted."""
        canonical = "\n".join(f"{c.kind}|{c.scope}|{' '.join(c.sentence.split())}" for c in self.lines)
        return hashlib.sha1(canonical.encode("utf-8")).hexdigest()[:16]


def _summary_part(text: str) -> str:
    """Everything after ``</analysis>`` (the analysis may draft the section; the summary holds it)."""
    text = text[:MAX_SCAN_CHARS]
    ends = [m.end() for m in _ANALYSIS_END.finditer(text)]
    return text[ends[-1]:] if ends else text


def find_section(text: str) -> Section | None:
    """The last "Memory candidates" section of a summary, read line by line; None without one.

    The section runs from its heading to the next heading, ``</summary>``, or a line after a
    blank line that is not shaped like an item (Claude Code's own closing lines). A line
    among the items that is not shaped like one is skipped as malformed."""
    lines = _summary_part(text).splitlines()
    start = None
    for number, line in enumerate(lines):
        if len(line) < 80 and _HEADING_LINE.match(line):
            start = number
    if start is None:
        return None
    section = Section()
    seen: set[tuple[str, str, str]] = set()
    after_blank = False
    for number in range(start + 1, len(lines)):
        raw = lines[number]
        if not raw.strip():
            after_blank = True
            continue
        if _OTHER_HEADING.match(raw) or (after_blank and not _item_shaped(raw)):
            break
        after_blank = False
        parsed = _parse_line(raw, number + 1)
        if isinstance(parsed, str):
            if parsed == "none":
                section.said_none = True
            else:
                section.skipped.append((number + 1, parsed))
            continue
        identity = (parsed.kind, parsed.scope, " ".join(parsed.sentence.split()))
        if identity in seen:
            section.skipped.append((number + 1, "repeats an earlier line"))
            continue
        seen.add(identity)
        if len(section.lines) >= MAX_LINES:
            section.skipped.append((number + 1, f"beyond the first {MAX_LINES} lines"))
            continue
        section.lines.append(parsed)
    return section


def _item_shaped(line: str) -> bool:
    stripped = line.strip()
    return bool(_BULLET.match(stripped)) or "|" in stripped or "｜" in stripped


def _parse_line(raw: str, number: int) -> CandidateLine | str:
    """A line, or why it is skipped ("none" for an explicit "- none")."""
    body = _BULLET.sub("", raw.strip(), count=1).strip()
    if "|" not in body:  # full-width bars, as a model writing Chinese may put them
        body = body.replace("｜", "|", 2)
    if body.startswith("|"):  # a markdown table row
        body = body.strip("|").strip()
    if _NONE.match(_MARKS.sub("", body).strip()):
        return "none"
    cells = body.split("|", 2)
    if len(cells) != 3:
        return "not KIND | SCOPE | SENTENCE"
    kind = _MARKS.sub("", cells[0]).strip(" []()").lower()
    scope = _MARKS.sub("", cells[1]).strip(" []()").lower()
    sentence = " ".join(cells[2].replace("**", "").split())
    if kind not in KINDS:
        return f"unknown kind {cells[0].strip()[:40]!r}"
    scope_match = _SCOPE.match(scope)
    if scope_match is None:
        return f"unknown scope {cells[1].strip()[:40]!r}"
    cjk = len(CJK.findall(sentence))
    if len(sentence) < MIN_SENTENCE_CHARS and cjk < MIN_SENTENCE_CJK:
        return "no sentence"
    if len(sentence) > MAX_SENTENCE_CHARS:
        return f"sentence longer than {MAX_SENTENCE_CHARS} characters"
    return CandidateLine(kind, scope_match.group(1), sentence, number)


def section_drafts(
    section: Section, turn_id: str, *, workspace: str | None, persona: str,
) -> list[CandidateDraft]:
    """One draft per well-formed line, source ``compaction``, linked to the summary turn.

    ``workspace`` is the session's ``workspace:<project>`` (from its repository; None when
    the session has none: those lines go to the persona, like any draft without a namespace).
    Secrets are masked and flags (secret, pii, instruction) set as for every candidate."""
    from madohub_memory.extraction.flags import scan  # the safety scanners load only when lines are read

    drafts = []
    for line in section.lines:
        content, flags = scan(line.sentence)
        namespace = f"persona:{persona}" if line.scope == "persona" else workspace
        drafts.append(CandidateDraft(
            content=content, kind=line.kind, namespace=namespace, source="compaction",
            confidence=CONFIDENCE, turn_ids=(turn_id,), flags=flags,
        ))
    return drafts
