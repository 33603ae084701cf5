"""Option labels and stable decision-point keys.

Agents mark the option they would pick with a suffix such as "(Recommended)" or
"(推荐)". That suffix is the agent's opinion, not part of the option: "All four
(Recommended)" and "All four" are the same choice, and counting them apart would split
the user's history. The suffix is kept only as the *static default* of the question.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Iterable, Sequence

from madohub_memory.core.errors import ValidationError
from madohub_memory.core.text import clean_text

_SUFFIX = re.compile(
    r"\s*[\(（\[【]\s*(recommended|recommend|suggested|default|推荐|推薦|建议|建議|默认|默認)\s*[\)）\]】]\s*$",
    re.IGNORECASE,
)
MAX_LABEL = 200
MAX_QUESTION = 2000
MAX_OPTIONS = 50


def _squash(text: str) -> str:
    return " ".join(clean_text(text).split())


def fold(text: str) -> str:
    """Comparison form: full-width/half-width and case differences do not matter."""
    return unicodedata.normalize("NFKC", text).casefold()


def split_label(label: str) -> tuple[str, bool]:
    """``(clean label, had a recommended suffix)``; suffixes are stripped repeatedly."""
    text = _squash(str(label))
    marked = False
    while True:
        stripped = _SUFFIX.sub("", text)
        if stripped == text:
            break
        marked, text = True, stripped.strip()
    return text, marked


def normalise_label(label: str) -> str:
    return split_label(label)[0]


def normalise_options(options: Iterable[str]) -> tuple[list[str], str | None]:
    """Clean, de-duplicated option labels in their given order and the marked default.

    Raises ValidationError for fewer than two distinct options or an empty/over-long label.
    """
    labels: list[str] = []
    default: str | None = None
    seen: set[str] = set()
    for raw in options:
        label, marked = split_label(raw)
        if not label:
            raise ValidationError("An option label is empty: give every option a name.")
        if len(label) > MAX_LABEL:
            raise ValidationError(
                "Option {label!r}... is longer than {limit} characters.",
                label=label[:40], limit=MAX_LABEL,
            )
        if marked and default is None:
            default = label
        if fold(label) not in seen:
            seen.add(fold(label))
            labels.append(label)
    if len(labels) < 2:
        raise ValidationError("A decision needs at least two different options.")
    if len(labels) > MAX_OPTIONS:
        raise ValidationError("A decision may offer at most {limit} options.", limit=MAX_OPTIONS)
    return labels, default


def normalise_question(question: str) -> str:
    text = _squash(str(question))
    if not text:
        raise ValidationError("The question is empty: say what was asked.")
    if len(text) > MAX_QUESTION:
        raise ValidationError(
            "The question is longer than {limit} characters.", limit=MAX_QUESTION,
        )
    return text


def match_option(choice: str, options: Sequence[str]) -> str | None:
    """The offered option a chosen label names (case-insensitive), or None for free text."""
    label = fold(normalise_label(choice))
    for option in options:
        if fold(option) == label:
            return option
    return None


def point_key(question: str, options: Sequence[str], key: str | None = None) -> str:
    """A stable key for "the same question asked again".

    An explicit ``key`` wins (callers that know their decision points name them). Otherwise
    the key hashes the case-folded question (trailing punctuation dropped) and the
    *set* of options, so re-ordering the options or adding a "(Recommended)" marker does
    not make a new decision point.
    """
    if key is not None and str(key).strip():
        explicit = _squash(str(key))
        if len(explicit) > 200:
            raise ValidationError("A decision-point key is longer than 200 characters.")
        return f"k:{explicit}"
    q = fold(normalise_question(question)).rstrip(" ?。.!:")
    opts = sorted({fold(normalise_label(o)) for o in options})
    digest = hashlib.sha256(json.dumps([q, opts], ensure_ascii=False).encode()).hexdigest()
    return f"q:{digest[:20]}"
