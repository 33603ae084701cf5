"""Two things an agent says that are worth remembering, and only these two.

- A milestone reached: "The **spotter-gqc** epic is fully implemented and pushed.", "All 7
  tasks are closed." (an epic, a feature, a migration, a release; not a single step such as
  "the file is updated"). Stored as an event with its date.
- A mistake the user caught: the user questions the work ("Is that consistent with the
  documentation you found?", "are you sure…", "that's wrong") and the agent's next statement
  concedes and corrects it ("The structure needs `hookSpecificOutput` wrapper"). Stored as a
  postmortem, because next time the agent should get it right first.
Everything else an agent says (narration of its next step, explanations, plans) is not a
memory.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from madohub_memory.extraction.base import TurnView
from madohub_memory.extraction.sentences import CJK as _CJK

_SENTENCE = re.compile(r"(?<=[.!])\s+|(?<=[。！；])|\n+")
_MARKS = re.compile(r"\*\*|__|(?<!\w)\*(?!\s)|(?<!\s)\*(?!\w)")
_SCOPE = (r"(?:the\s+)?(?:[\w./-]+\s+)?(?:epic|milestone|release|feature|migration|project|refactor(?:ing)?|rewrite"
          r"|implementation|integration|upgrade|port)\b")
_MILESTONE = re.compile(
    rf"^(?:all done[.!]?\s*)?(?:{_SCOPE}[^.]{{0,60}}?\s(?:is|are|has been|have been)\s+(?:now\s+)?(?:fully\s+|all\s+)?"
    r"(?:implemented|complete|completed|done|finished|closed|merged|shipped|released|deployed)"
    r"(?:\s+and\s+(?:pushed|merged|deployed|released|closed))?"
    r"|all\s+\d+\s+(?:tasks|subtasks|issues|beads|tickets|steps)\s+(?:are\s+|have been\s+)?(?:now\s+)?"
    r"(?:closed|complete|completed|done|finished|implemented))\b",
    re.I)
_MILESTONE_ZH = re.compile(r"^(?:\S{0,20}?(?:史诗|epic|功能|特性|迁移|版本|重构|项目|集成|升级)\S{0,20}?)(?:已经|已)?(?:全部|都)?"
                           r"(?:完成|实现|上线|发布|合并|部署)(?:了|并(?:已)?(?:推送|合并|部署))?")
_NOT_YET = re.compile(r"\b(?:not|almost|nearly|partially|once|when|if|after|until|will be|should be)\b", re.I)
_CHALLENGE = re.compile(
    r"\b(?:is (?:that|this|it) (?:consistent|correct|right|what)|are you sure|shouldn't (?:it|that|this|you)"
    r"|isn't (?:it|that|this) supposed|that(?:'s| is) (?:wrong|not right|incorrect|not what)|doesn't (?:match|look right)"
    r"|did you (?:check|verify|read)|according to the (?:docs|documentation)|the (?:docs|documentation) says?)\b"
    r"|对吗|确定吗|不对|是不是应该|文档(?:里|上)?说", re.I)
_CONCEDE = re.compile(
    r"\b(?:you're right|you are right|good catch|i was wrong|my mistake|i made a mistake|that was wrong|needs? (?:a |an |the )?`"
    r"|should (?:be|use|return|have)|must (?:be|use|return|have)|is wrong|was wrong|was incorrect|not consistent|"
    r"isn't consistent|doesn't match|requires?)\b|你说得对|我错了|应该是|需要", re.I)
_HEDGE = re.compile(r"\b(?:might|maybe|perhaps|probably|let me|let's|i'll|i will|i think|not sure)\b|可能|也许", re.I)
_MAX = 260


@dataclass(frozen=True)
class Statement:
    content: str
    kind: str
    confidence: float
    turn_id: str


def _sentences(turn: TurnView) -> list[str]:
    out = []
    for line in turn.content.splitlines():
        if line.startswith("[tool ") or line.lstrip().startswith(("```", "|", ">")):
            continue
        out += [s.strip(" -#") for s in _SENTENCE.split(_MARKS.sub("", line)) if s.strip()]
    return out


def milestones(turns: Sequence[TurnView]) -> list[Statement]:
    """A milestone an assistant turn reports as reached (at most one per exchange)."""
    for turn in reversed(turns):
        if turn.role != "assistant":
            continue
        for sentence in _sentences(turn):
            sentence = re.sub(r"^all done[.!]?\s*", "", sentence, flags=re.I)
            zh_done = bool(_MILESTONE_ZH.match(sentence)) and not re.search(r"还没|尚未|未|快要|即将|之后|如果", sentence)
            if zh_done or (len(sentence) <= _MAX and _MILESTONE.match(sentence)
                           and not _NOT_YET.search(sentence.split(" is ")[-1])):
                text = sentence.rstrip(":.!。！") + ("。" if zh_done else ".")
                return [Statement(text[0].upper() + text[1:], "event", 0.5, turn.id)]
    return []


def caught_mistakes(turns: Sequence[TurnView]) -> list[Statement]:
    """The agent's correction right after the user questioned its work."""
    if not turns or turns[0].role != "user" or not _CHALLENGE.search(turns[0].content[:600]):
        return []
    question = " ".join(turns[0].content.split())[:160]
    for turn in turns[1:6]:
        if turn.role != "assistant":
            continue
        for sentence in _sentences(turn):
            if len(sentence) <= _MAX and _CONCEDE.search(sentence) and not _HEDGE.search(sentence) \
                    and not sentence.lower().startswith(("let me", "i'll", "now ")):
                fix = sentence.rstrip(":.： 。")
                if len(_CJK.findall(question)) > len(question) // 4:
                    return [Statement(f"{fix}（用户指出：“{question}”）。", "postmortem", 0.5, turn.id)]
                return [Statement(f"{fix} (the user caught it: \"{question}\").", "postmortem", 0.5, turn.id)]
    return []
