"""A chosen unit written as a memory a reviewer can read on its own.

What the person typed is turned into the third person ("don't push to main" -> "User wants
the agent to not push to main", "我们用 pnpm" -> "用户团队用 pnpm。"); what the agent or a
summary wrote is kept in its words, without markdown, labels or a dangling colon. The
language of the unit is kept, Traditional Chinese included. Nothing here decides what is
kept: that is the selector's job.
"""

from __future__ import annotations

import re

from madohub_memory.extraction.chinese import rewrite_zh
from madohub_memory.extraction.english import rewrite_en
from madohub_memory.extraction.units import Unit

# Words that open a sentence without saying anything; "yes"/"no"/"ok" only with their comma
# ("No secrets in code" keeps its "No").
_LEAD_EN = re.compile(
    r"^(?:(?:so|well|also|and|but|hey|alright|hmm|actually|btw|oh|now|then|finally)\b[,.!:\s-]*"
    r"|(?:ok(?:ay)?|yes|yeah|no|nope|right|great|perfect|good|note|important)\s*[,.!:;-]+\s*)+", re.I)
_LEAD_ZH = re.compile(r"^(?:(?:好的|好|嗯|那|对|對|其实|其實|然后|然後|另外|还有|還有|所以|注意|重要)[，,：:\s]*)+")
_LABEL = re.compile(r"^(?:(?:error|issue|bug|problem|step|task|phase|item|错误|錯誤|问题|問題)\s*\d+\s*[:：.]\s*)", re.I)
_LET_US = re.compile(r"^(?:let's|let us)\s+(?:just\s+|also\s+|now\s+)*", re.I)
# Characters written only in Traditional Chinese: a Traditional sentence keeps "用戶".
_TRADITIONAL = re.compile(r"[這們說時為會個來對裡後還開關與請應該點實現經過發動問題變學體處理應從當嗎麼]")
_SIMPLIFIED = re.compile(r"[这们说时为会个来对里后还开关与请应该点实现经过发动问题变学体处理应从当吗么]")
_ORDER_ZH = re.compile(r"^(?:请|請|不要|别|別|务必|務必|一定要|必须|必須|记得|記得|以后|以後|每次|总是|總是|统一|統一|禁止)"
                       r"|不要|不准|不许|不許|必须|必須|务必|務必")


def strip_lead(text: str) -> str:
    """The sentence without the words that open it without saying anything ("No, …", "好的，…")."""
    return _LEAD_ZH.sub("", _LEAD_EN.sub("", text.strip())).strip() or text


def _end(text: str, zh: bool) -> str:
    text = text.rstrip(" ,;:：，；、-—")
    if text and text[-1] not in ".!?…。！？":
        text += "。" if zh else "."
    return text


def subject_zh(text: str) -> str:
    """"用户", or "用戶" for a sentence written in Traditional Chinese."""
    return "用戶" if len(_TRADITIONAL.findall(text)) > len(_SIMPLIFIED.findall(text)) else "用户"


def content(unit: Unit, *, team: bool) -> str:
    """The candidate text for ``unit`` (``team``: a workspace, where "we" is the user's team)."""
    if unit.preset:
        return unit.preset
    text = unit.text.strip()
    if unit.source != "user":
        text = _LABEL.sub("", text)
        text = (_LEAD_ZH if unit.zh else _LEAD_EN).sub("", text).strip()
        if text[:1].islower() and not unit.zh:
            text = text[0].upper() + text[1:]
        return _end(text, unit.zh)
    if unit.zh:
        text = _LEAD_ZH.sub("", text).strip()
        if _ORDER_ZH.search(text):  # an order to the agent is quoted as given: "用户要求：不要问我…"
            return _end(f"{subject_zh(text)}要求：{text.rstrip('。！!')}", True)
        return rewrite_zh(text, subject_zh(text), team=team)
    text = _LEAD_EN.sub("", text).strip()
    if not text:
        return ""
    let_us = _LET_US.match(text)
    if let_us is not None and len(text) > let_us.end():
        rest = text[let_us.end():]
        rest = re.sub(r"\b(?:we|us)\b", "they", rest)
        return _end(f"User decided to {rest[0].lower()}{rest[1:]}", False)
    text = text[0].upper() + text[1:]
    return rewrite_en(text, "User", team=team)


def personal(unit: Unit) -> bool:
    """The person's own words without first-person talk about a project: a rule for how
    they want agents to work, kept across projects (the caller also checks that it names
    nothing of this project)."""
    return unit.source == "user" and not unit.preset
