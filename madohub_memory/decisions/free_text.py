"""Mapping a free-text answer to the offered option it means, or to none.

Why: asked "Skip hook (--no-verify)" or "Fix pre-existing issues", a user often types
their own answer ("main was clean; fix the issues"). Stored verbatim it becomes a third
option that no recommendation can name, and the recommender then falls back to a default
the user just turned down. Here the answer is compared with each option's label and
description word by word (Chinese by character pairs), with negation taken into account
("don't skip the hook" speaks *against* the skip option); only when the words say nothing
clear does an embedding similarity, if the caller supplies one, get a say, and only for an
answer without negation (embeddings do not see "not"). When no option matches clearly the
answer stays the user's own: it counts against every offered option.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from madohub_memory.core.cjk import CJK_RANGES, is_cjk

Similarity = Callable[[str, Sequence[str]], Sequence[float]]

LABEL_WEIGHT = 2.0
DESCRIPTION_WEIGHT = 1.0
MIN_SCORE = 2.0  # one label word, or two description words
MIN_LEAD = 1.0
MIN_COSINE = 0.4
MIN_COSINE_LEAD = 0.15
NEGATION_REACH = 3  # words after a negator that it covers

_WORD = re.compile(rf"[a-z0-9]+(?:[-_'][a-z0-9]+)*|[{CJK_RANGES}]+")
_CLAUSE = re.compile(r"[,;.!?，；。！？、\n]+|\bbut\b|但是|不过")
_NEGATORS = {"not", "no", "never", "don't", "dont", "doesn't", "didn't", "without", "nor", "neither",
             "instead", "avoid", "stop"}
_NEGATOR_PHRASES = re.compile(r"\bdo not\b|\bdoes not\b|\bdid not\b|\bshould not\b|\bwon't\b|\brather than\b")
_CJK_NEGATORS = ("不要", "不用", "无需", "别", "不", "没", "勿", "甭")
_STOP = {
    "the", "a", "an", "it", "its", "is", "was", "are", "were", "be", "to", "of", "and", "or", "in", "on",
    "for", "with", "this", "that", "these", "those", "them", "they", "i", "we", "you", "me", "my", "our",
    "please", "just", "ok", "okay", "yes", "yeah", "sure", "let's", "lets", "let", "us", "so", "then",
    "go", "do", "one", "option", "all", "some", "any", "as", "at", "by", "from", "up", "now", "first",
    "would", "should", "could", "can", "will", "also", "there", "here", "what", "which", "if",
}
_CJK_STOP = {"我们", "你们", "可以", "一下", "这个", "那个", "就是", "好的"}


@dataclass(frozen=True)
class FreeTextMatch:
    option: str | None  # None: the user's own answer, not one of the options
    score: float
    method: str  # label | words | negation | embedding | none


def _stem(word: str) -> str:
    for suffix in ("ing", "ies", "es", "ed", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)] + ("y" if suffix == "ies" else "")
    return word


def _tokens(text: str) -> list[str]:
    out: list[str] = []
    for raw in _WORD.findall(text.lower()):
        if is_cjk(raw[0]):
            pairs = [raw[i:i + 2] for i in range(len(raw) - 1)] or [raw]
            out.extend(p for p in pairs if p not in _CJK_STOP)
        elif raw not in _STOP:
            out.append(_stem(raw))
    return out


def _bag(label: str, description: str | None) -> dict[str, float]:
    bag: dict[str, float] = {}
    for token in _tokens(description or ""):
        if token not in _NEGATORS:
            bag[token] = DESCRIPTION_WEIGHT
    for token in _tokens(label):
        if token not in _NEGATORS:
            bag[token] = LABEL_WEIGHT
    return bag


def _signed_tokens(answer: str) -> tuple[list[tuple[str, int]], bool]:
    """Answer tokens with +1, or -1 when a negator in the same clause covers them."""
    signed: list[tuple[str, int]] = []
    negated_any = False
    for clause in _CLAUSE.split(answer.lower()):
        clause = _NEGATOR_PHRASES.sub(" not ", clause)
        for chunk in _WORD.findall(clause):
            if not is_cjk(chunk[0]):
                continue
            negator = next((n for n in _CJK_NEGATORS if n in chunk), None)
            if negator is None:
                signed.extend((t, 1) for t in _tokens(chunk))
                continue
            negated_any = True
            before, _, after = chunk.partition(negator)
            signed.extend((t, 1) for t in _tokens(before))
            signed.extend((t, -1) for t in _tokens(after))
        reach = 0
        for raw in _WORD.findall(clause):
            if is_cjk(raw[0]):
                continue
            if raw in _NEGATORS:
                reach = NEGATION_REACH
                negated_any = True
                continue
            if raw in _STOP:
                continue
            signed.append((_stem(raw), -1 if reach else 1))
            reach = max(0, reach - 1)
    return signed, negated_any


def match_free_text(
    answer: str,
    options: Sequence[str],
    descriptions: Mapping[str, str] | None = None,
    similarity: Similarity | None = None,
) -> FreeTextMatch:
    """The offered option ``answer`` means, or ``FreeTextMatch(None, …)`` for the user's own answer."""
    text = answer.strip()
    if not text or len(options) < 2:
        return FreeTextMatch(None, 0.0, "none")
    signed, negated = _signed_tokens(text)
    folded = text.casefold()
    if not negated:  # the whole label typed inside a longer answer ("Fix pre-existing issues, please")
        inside = [o for o in options if len(o) >= 4 and o.casefold() in folded]
        if len(inside) == 1:
            return FreeTextMatch(inside[0], float(len(inside[0])), "label")
    descriptions = descriptions or {}
    bags = {o: _bag(o, descriptions.get(o)) for o in options}
    scores: dict[str, float] = {}
    for option, bag in bags.items():
        seen: set[str] = set()
        total = 0.0
        for token, sign in signed:
            if token in bag and token not in seen:
                seen.add(token)
                total += sign * bag[token]
        scores[option] = total
    ranked = sorted(options, key=lambda o: scores[o], reverse=True)
    best, second = ranked[0], ranked[1]
    if scores[best] >= MIN_SCORE and scores[best] - scores[second] >= MIN_LEAD:
        return FreeTextMatch(best, scores[best], "words")
    if not negated and scores[best] > 0 and scores[second] <= 0:  # a word only one option's description has
        return FreeTextMatch(best, scores[best], "words")
    rejected = [o for o in options if scores[o] <= -MIN_SCORE]
    if len(options) == 2 and len(rejected) == 1:  # "don't skip the hook" with two options: the other one
        other = next(o for o in options if o not in rejected)
        if scores[other] >= 0:
            return FreeTextMatch(other, -scores[rejected[0]], "negation")
    if similarity is not None and not negated and all(s <= 0 for s in scores.values()):
        texts = [f"{o}. {descriptions[o]}" if descriptions.get(o) else o for o in options]
        try:
            cosines = list(similarity(text, texts))
        except Exception:  # a missing model must not lose the answer: it stays the user's own
            cosines = []
        if len(cosines) == len(options):
            order = sorted(range(len(options)), key=lambda i: cosines[i], reverse=True)
            top, runner = cosines[order[0]], cosines[order[1]]
            if top >= MIN_COSINE and top - runner >= MIN_COSINE_LEAD:
                return FreeTextMatch(options[order[0]], float(top), "embedding")
    return FreeTextMatch(None, scores[best], "none")
