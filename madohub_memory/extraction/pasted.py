"""Material handed to the model, not said by the user about themselves.

A task prompt ("I want you to act as…", "summarise the following…"), a pasted document
(mostly bullet lines, or long with hardly a first-person word), a quoted block, a slogan in
quotation marks, a log: the extractor must never turn any of it into a fact about the user.
:func:`own_words` keeps what the person wrote themselves, judged on the WHOLE turn (a
13,890-character pasted quote must not pass because only its first 4,000 were looked at),
and stays cheap on a 5 MB log pasted into one turn.
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
    r"|你现在是|你是一(?:个|名|位)|请?扮演|假装你是|以下(?:内容|文本|代码|是|为)|根据以下|请(?:总结|翻译|改写|生成|润色)"
    r"|(?:把|将)(?:下面|以下|下列)的?(?:文字|内容|文本|代码|段落|句子|文章)"
)
_BULLET_LINE = re.compile(r"^\s*(?:[•·\-*+]|\d{1,2}[.)、]|[a-z][.)])\s")

# Longer than this, a turn is someone's own words followed by pasted material (a log, a
# document, a diff): only a short first paragraph can be the person's own.
LONG_TURN_CHARS = 2500
_HEAD_CHARS = 800
_PARAGRAPH_END = re.compile(r"\n\s*\n|:\s*\n|：\s*\n|\n(?=\s*(?:```|>|\$ |[\[{<]|\w+Error|Traceback|at \S+\())")
_QUOTED_LINE = re.compile(r"^\s*>.*$", re.M)
_PASTE_START = re.compile(
    r"\s*(?:```|>|\$ |[\[{<]|\w*(?:Error|Exception)\b|Traceback|at \S+\(|\d{4}-\d{2}-\d{2}|[A-Z]?\s{2,}\S"
    r"|(?:diff|commit|index) |[-+]{3} |@@ )")
_SINGULAR_FIRST = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|me|my|mine|myself)\b|我")
_SPACES = re.compile(r"[ \t]{2,}")
# A full sentence inside quotation marks ("We love code."): someone else's words.
_QUOTED_SENTENCE = re.compile(r"[\"“„«]([^\"”“«»\n]{3,300}?[.!?。！？])[\"”»]")


def own_words(text: str) -> str | None:
    """What the person wrote themselves in a user turn, or ``None`` when the turn is a
    prompt for the model or pasted material throughout."""
    if len(text) > LONG_TURN_CHARS:
        end = _PARAGRAPH_END.search(text, 0, _HEAD_CHARS + 200)
        if end is None:
            return None
        head = text[: end.start()].strip()
        if not head or len(head) > _HEAD_CHARS or is_prompt_or_document(head):
            return None
        # A first paragraph of prose followed by more prose is most likely the start of a
        # pasted document; it counts as the person's own only when it speaks as "I", or
        # when what follows is visibly pasted (a log, a trace, code, a quote).
        pasted_after = end.group(0).lstrip(" \t").startswith((":", "：")) or bool(
            _PASTE_START.match(text, end.end(), end.end() + 200))
        if not (pasted_after or _SINGULAR_FIRST.search(head.lower())):
            return None
        text = head
    elif is_prompt_or_document(text):
        return None
    text = _QUOTED_LINE.sub(" ", text)
    return _SPACES.sub(" ", _QUOTED_SENTENCE.sub(" … ", text))


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

