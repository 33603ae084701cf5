"""The person's answers to an agent's questions (``AskUserQuestion``): each is a decision.

Claude Code returns the answers as a tool result ("User has answered your questions:
"Q"="A""); each becomes a statement of the choice with its question, in the session's
language.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from madohub_memory.extraction.base import TurnView

_ANSWERS = re.compile(r"\"(?P<q>[^\"]{3,300})\"=\"(?P<a>[^\"]{1,300})\"")


@dataclass(frozen=True)
class Finding:
    content: str
    kind: str
    confidence: float
    turn_id: str


def question_answers(turns: Sequence[TurnView], subject: str = "User", zh: bool = False) -> list[Finding]:
    """Each AskUserQuestion answer as a decision ("User chose "No rig" when asked: Which rig…")."""
    findings = []
    for turn in turns:
        if turn.role != "tool" or "User has answered your questions" not in turn.content:
            continue
        for m in _ANSWERS.finditer(turn.content):
            question = m.group("q").strip().rstrip("?").strip()
            answer = m.group("a").strip()
            mark = "" if question.endswith((")", "）", ".", "!", "?", "？")) else "?"  # "…(should I?)" ends there
            content = (f"被问到“{question}”时，{subject}选择了“{answer}”。" if zh
                       else f'{subject} chose "{answer}" when asked: {question}{mark}')
            findings.append(Finding(content, "decision", 0.6, turn.id))
    return findings
