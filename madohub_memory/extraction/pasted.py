"""Material handed to the model, not said by the user about themselves.

A task prompt ("I want you to act as…", "summarise the following…"), a pasted document
(mostly bullet lines, or long with hardly a first-person word), a quoted block, a log: the
extractor must never turn any of it into a fact about the user.
"""

from __future__ import annotations

import re

from madohub_memory.extraction.sentences import CJK as _CJK

_FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|me|my|mine|myself|we|we're|we've|we'll|our|ours|us)\b")
_PROMPT_TURN = re.compile(
    r"\b(?:i want you to|i'd like you to|i would like you to|act as an?|pretend (?:to be|you are)"
    r"|i will (?:give|provide|send|paste) you|your (?:task|role|job) is|respond with|reply with|answer with"
    r"|(?:based on|using|given|study|summari[sz]e|rewrite|translate|analy[sz]e) the following|the following \w+"
    r"|please (?:study|summari[sz]e|rewrite|generate|translate|provide))\b"
    r"|你现在是|请?扮演|假装你是|以下(?:内容|文本|代码|是|为)|根据以下|请(?:总结|翻译|改写|生成|润色)"
)
_BULLET_LINE = re.compile(r"^\s*(?:[•·\-*+]|\d{1,2}[.)、]|[a-z][.)])\s")


def is_prompt_or_document(text: str) -> bool:
    """A task prompt for the model, or a pasted document (mostly bullet lines, or long with
    hardly a first-person word)."""
    if _PROMPT_TURN.search(text[:600].lower()):
        return True
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) >= 5 and sum(bool(_BULLET_LINE.match(line)) for line in lines) >= 0.4 * len(lines):
        return True
    if len(text) > 1500 and not _CJK.search(text):
        words = len(text.split())
        return len(_FIRST_PERSON.findall(text.lower())) < 0.01 * words
    return False

