"""Reading a compaction summary into its named sections and items.

Claude Code compacts a long session into a model-written summary with named sections
(primary request and intent, key technical concepts, files and code, errors and fixes,
problem solving, all user messages, pending tasks, current work, next step). Layouts vary
between CLI versions and models: "Summary:\\n1. Primary Request and Intent:", "## 4. Errors
and Fixes", "**Key Architectural Decisions:**", Chinese headings ("4. 错误和修复"). This module
only finds the structure: which heading a line is, which section kind it names, and the
items (bullets with their sub-bullets, or sub-headings with their bullets) under it. What
each item is worth is decided by the selector (:mod:`.units` gives each item its section).

A heading is recognised by what it names, not by its markup, so an unknown layout yields
no sections (the caller then falls back to plain sentences) rather than wrong ones.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

MAX_SUMMARY_CHARS = 200_000  # a summary is ~15k characters; anything far longer is cut

_PREAMBLE = re.compile(
    r"^\s*(?:This session is being continued from a previous conversation|本次会话(?:是)?(?:从|延续)|此会话(?:是)?(?:从|延续))",
)
_SUMMARY_START = re.compile(r"^\s*(?:<summary>|(?:\*\*)?Summary(?:\*\*)?\s*:?\s*(?:\*\*)?\s*$|(?:\*\*)?(?:总结|摘要)(?:\*\*)?\s*[:：]?\s*$)",
                            re.M)
_ANALYSIS_END = re.compile(r"</analysis>")
# The client's framing around a summary, and any line addressed to the model that reads it:
# the summary talking about itself ("The summary below covers…", "This session is being
# continued…") or telling its reader what to do with the conversation ("Continue the
# conversation from where it left off…", "If you need details from before compaction, read
# the full transcript…"). Neither says anything about the project or the person.
_SELF = re.compile(r"\b(?:summary (?:below|above)|session is being continued|continued from a previous|ran out of context)\b"
                   r"|以下(?:是)?摘要|上述摘要|会话(?:是)?从|會話(?:是)?從", re.I)
_TO_READER = re.compile(r"^(?:please\s+)?(?:continue|resume|proceed|pick up|read|carry on)\b|\bif you need\b"
                        r"|^(?:请|請)?(?:继续|繼續)|如果你|如需", re.I)
_CONVERSATION = re.compile(r"\b(?:conversation|session|transcript|compaction|left (?:it )?off|further questions)\b"
                           r"|对话|對話|会话|會話|记录|記錄|上下文|压缩|壓縮", re.I)
_HEADING = re.compile(
    r"^\s{0,3}(?:#{1,5}\s*)?(?:\*\*|__)?\s*(?:(?:\d{1,2}|[一二三四五六七八九十]{1,2})\s*[.)、．]\s*)?(?:\*\*|__)?\s*"
    r"(?P<title>[^\n:：*#`\[\]]{2,60}?)\s*(?:\*\*|__)?\s*[:：]?\s*(?:\*\*|__)?\s*$"
)

# section kind -> words its heading contains (English and Chinese)
_KINDS: list[tuple[str, re.Pattern[str]]] = [
    ("user_messages", re.compile(r"user(?:'s)? messages|user messages|用户(?:的)?消息|用户(?:的)?发言|用户说")),
    ("errors", re.compile(r"errors?\b|\bfix(?:es)?\b|\bbugs?\b|issues? (?:and|&) (?:fix|resolution)|错误|报错|修复|问题与修复|问题和修复")),
    ("decisions", re.compile(r"decisions?|决策|决定")),
    ("solved", re.compile(r"solved problems|completed|accomplish|已解决|已完成")),
    ("solving", re.compile(r"problem solving|problems? solved|troubleshooting|lessons?|learn|问题解决|解决(?:的)?问题|经验|教训")),
    ("concepts", re.compile(r"concepts?|technolog|tech stack|stack|architecture|技术|概念|架构")),
    ("request", re.compile(r"request|intent|goal|objective|请求|意图|目标|需求")),
    ("pending", re.compile(r"pending|todo|to-do|remaining|open (?:tasks|items|issues)|待办|待处理|未完成|剩余")),
    ("current", re.compile(r"current (?:work|state|status)|当前(?:工作|状态)|正在")),
    ("next", re.compile(r"next steps?|下一步")),
    ("files", re.compile(r"files?|code (?:sections|changes)|文件|代码")),
    ("constraints", re.compile(r"constraints?|rules?|conventions?|requirements?|preferences?|约束|规则|约定|规范|偏好|要求")),
]
_BULLET = re.compile(r"^(?P<indent>\s*)(?:[-*•·+]|\d{1,2}[.)、]|[a-z][.)])\s+(?P<text>.*)$")
_FENCE = re.compile(r"^\s*```")


@dataclass
class Item:
    """One bullet (or sub-heading) of a section, with the lines under it."""

    text: str
    details: list[str] = field(default_factory=list)

    def full(self) -> str:
        return " ".join([self.text, *self.details]).strip()


@dataclass
class Section:
    kind: str
    title: str
    items: list[Item] = field(default_factory=list)
    prose: list[str] = field(default_factory=list)  # lines that are not bullets


def looks_like_summary(text: str) -> bool:
    """A compaction summary: Claude Code's preamble, or at least three named sections."""
    if _PREAMBLE.match(text[:300]):
        return True
    return len({s.kind for s in parse_sections(text[:MAX_SUMMARY_CHARS])}) >= 3


def is_framing(sentence: str) -> bool:
    """A sentence of the summary's framing, or addressed to the model about the conversation
    itself (see :data:`_SELF`): never a memory."""
    return bool(_SELF.search(sentence) or (_TO_READER.search(sentence) and _CONVERSATION.search(sentence)))


def heading_kind(line: str) -> tuple[str, str] | None:
    """(section kind, title) when the line is a heading naming a known section.

    A heading is marked as one ("## …", a line in bold, or a short line ending with a
    colon) and names a known section; a numbered item such as "1. Fix errors in tests"
    is neither."""
    stripped = line.strip()
    if len(stripped) > 90 or len(line) - len(line.lstrip()) > 3:
        return None
    marked = stripped.startswith("#") or (stripped.endswith((":", "：", ":**", "：**", "**")) and (
        stripped.endswith((":", "：", ":**", "：**")) or stripped.lstrip("#0123456789.、) ").startswith("**")))
    if not marked:
        return None
    m = _HEADING.match(line)
    if m is None:
        return None
    title = m.group("title").strip()
    if len(title.split()) > 7 or title.endswith((".", "。", ",")) or title[:1] in "\"'“(":
        return None
    low = title.lower()
    for kind, pattern in _KINDS:
        if pattern.search(low):
            return kind, title
    return None


def summary_body(text: str) -> str:
    """The summary proper: after "Summary:" / "<summary>" when present (the "Analysis:"
    before it narrates the same session chronologically), otherwise the whole text."""
    text = text[:MAX_SUMMARY_CHARS]
    end = _ANALYSIS_END.search(text)
    start = _SUMMARY_START.search(text, end.end() if end else 0)
    if start is not None:
        return text[start.end():]
    return text


def parse_sections(text: str) -> list[Section]:
    """The named sections of a summary, in order, with their items."""
    sections: list[Section] = []
    current: Section | None = None
    item: Item | None = None
    item_indent = 0
    in_code = False
    for line in text.splitlines():
        if _FENCE.match(line):
            in_code = not in_code
            continue
        if in_code or not line.strip():
            continue
        named = heading_kind(line)
        if named is not None:
            current = Section(named[0], named[1])
            sections.append(current)
            item = None
            continue
        if current is None:
            continue
        bullet = _BULLET.match(line)
        sub_heading = re.match(r"^\s{0,3}#{2,5}\s+(.*)$", line)
        if sub_heading is not None:  # "### **Error 1: OAuth2Tokens type mismatch**"
            item = Item(_strip_marks(sub_heading.group(1)))
            item_indent = -1
            current.items.append(item)
        elif bullet is not None:
            indent = len(bullet.group("indent").expandtabs(4))
            body = _strip_marks(bullet.group("text"))
            if item is not None and (indent > item_indent):
                item.details.append(body)
            else:
                item = Item(body)
                item_indent = indent
                current.items.append(item)
        elif item is not None and line.startswith((" ", "\t")):
            item.details.append(_strip_marks(line.strip()))
        else:
            current.prose.append(_strip_marks(line.strip()))
            item = None
    return sections


def _strip_marks(text: str) -> str:
    """Markdown emphasis off; code spans kept (they carry names)."""
    text = re.sub(r"\*\*|__", "", text)
    return re.sub(r"\s+", " ", text).strip()
