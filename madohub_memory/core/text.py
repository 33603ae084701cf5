"""Text cleaning, content validation and the dedup fingerprint."""

from __future__ import annotations

import re

from madohub_memory.core.cjk import count_cjk
from madohub_memory.core.errors import ValidationError, shown
from madohub_memory.core.lazy_re import lazy_compile
from madohub_memory.core.vocab import MAX_CONTENT_CHARS

# The patterns compile on first use (core/lazy_re.py): every command imports this module
# for first_line, and a read command such as ``pending`` never cleans a text.

# Zero-width characters, bidi embeddings/overrides/isolates, BOM and soft hyphen:
# invisible in the dashboard but able to hide or reorder text an agent later reads.
_INVISIBLE_RE = lazy_compile("[\u00ad\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")
# ZWNJ and ZWJ are letters' glue in Persian and Indic scripts and join emoji sequences
# (👨‍👩‍👧): kept between two non-ASCII characters, removed elsewhere (where they only
# split a word or a key in two).
_JOINER_RE = lazy_compile("[\u200c\u200d]")
# Lone surrogates (a JSON string cut mid-emoji, bytes smuggled in through argv) cannot be
# stored as UTF-8: each becomes U+FFFD.
_SURROGATE_RE = lazy_compile("[\ud800-\udfff]")
_CONTROL_RE = lazy_compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_FINGERPRINT_DROP_RE = lazy_compile(r"[\W_]+", re.UNICODE)


def _joiner(match: re.Match[str]) -> str:
    text, at = match.string, match.start()
    before = text[at - 1] if at else " "
    after = text[at + 1] if at + 1 < len(text) else " "
    glued = ord(before) > 127 and ord(after) > 127 and not before.isspace() and not after.isspace()
    return match.group() if glued else ""


def replace_surrogates(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD (so it can be written as UTF-8)."""
    return _SURROGATE_RE.sub("\ufffd", text) if _SURROGATE_RE.search(text) else text


def clean_text(text: str) -> str:
    """Remove invisible and control characters, normalise newlines, strip the ends."""
    text = replace_surrogates(text)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = _INVISIBLE_RE.sub("", text)
    text = _JOINER_RE.sub(_joiner, text)
    text = _CONTROL_RE.sub("", text)
    return text.strip()


def validate_content(text: str | None) -> str:
    """Return cleaned content, or raise when it is empty or longer than the limit."""
    if text is None:
        raise ValidationError("Content is empty: write the memory as one standalone statement.")
    cleaned = clean_text(str(text))
    if not cleaned:
        raise ValidationError("Content is empty: write the memory as one standalone statement.")
    if len(cleaned) > MAX_CONTENT_CHARS:
        raise ValidationError(
            "Content has {length:,} characters, more than the limit of {limit:,}.",
            length=len(cleaned), limit=MAX_CONTENT_CHARS,
        )
    return cleaned


def normalise_for_fingerprint(text: str) -> str:
    """NFKC, case-folded, with punctuation and whitespace removed (works for CJK too)."""
    import unicodedata

    text = unicodedata.normalize("NFKC", clean_text(text)).casefold()
    return _FINGERPRINT_DROP_RE.sub("", text)


def fingerprint(text: str) -> str:
    """Stable short hash of the normalised text: the fast path of dedup. (``hashlib`` is
    imported here: it loads OpenSSL, which read commands such as ``pending`` never need.)"""
    import hashlib

    return hashlib.sha1(normalise_for_fingerprint(text).encode("utf-8")).hexdigest()[:20]


def first_line(text: str, limit: int = 160) -> str:
    line = text.strip().split("\n", 1)[0]
    return line if len(line) <= limit else line[: limit - 1] + "…"


__all__ = ["clean_text", "fingerprint", "first_line", "normalise_for_fingerprint", "replace_surrogates",
           "shown", "validate_content"]


def estimate_tokens(text: str) -> int:
    """A model-agnostic estimate: one token per Chinese character, four other characters per token."""
    cjk = count_cjk(text)
    return cjk + (len(text) - cjk + 3) // 4
