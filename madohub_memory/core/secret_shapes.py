"""What a value looks like: generated key material, a random token, a word, a hash.

Pure functions on one value (no context), shared by the scanner's detectors
(:mod:`madohub_memory.core.secrets`, :mod:`madohub_memory.core.secret_context`). They keep
the difference between a key and everything that resembles one: a git SHA or a digest is
hex, a UUID has its dashes, an identifier is made of words, base64 of ordinary text
decodes to text, a path is made of names.
"""

from __future__ import annotations

import base64
import binascii
import math
import re

from madohub_memory.core.lazy_re import lazy_compile

# An identifier made of words ("OAuth2Credentials", "new_access_token", "TokenInput").
IDENTIFIER = lazy_compile(
    r"[A-Z][a-z]+|[a-z]+(?:_[a-z0-9]+)+|[a-z]+(?:[A-Z][a-z0-9]+)+|[A-Z][a-z]+(?:[A-Z][a-z0-9]+)+|"
    r"[A-Z]+(?:_[A-Z0-9]+)+|[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)+|[A-Za-z_][\w.]*\(.*\)?|[a-z]+"
)
_UUID = lazy_compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.I)
_HEX = lazy_compile(r"[0-9a-fA-F]+")
_KEY_ALPHABET = lazy_compile(r"[A-Za-z0-9+/_\-]+={0,2}")
_PLACEHOLDERISH = lazy_compile(r"(?i)x{4,}|example|your|placeholder|redacted|dummy|sample|changeme|(.)\1{5,}")
PLACEHOLDER = lazy_compile(
    r"(?i)^(?:your|my|the|an?|some|example|sample|dummy|placeholder|fake|mock|test|insert|enter|put|"
    r"replace|changeme|change[_\-]?me|redacted|xxx+|\*+|todo|tbd|foo|bar|none|null|"
    r"optional|required)(?:[_\-.\s]|$)"
    r"|xxxx|\*\*\*|\.\.\.|…|<[^>]*>|\{\{|\}\}|\$\{|^[$%{<\[@#&*!|\\(]|^~/|^/|^\./|^\.\./|://"
    r"|[_\-](?:here|goes[_\-]here|placeholder|example|changeme)$"
    r"|^(?:os|env|process|settings|config|self|this|request|req|params|args|kwargs|options|opts|"
    r"secrets|vault|import|ENV|Deno|window|document|props|state|ctx|context)\."
    r"|\.\?|\.\*|\\[bdsw]|\[\^|\(\?"  # a regular expression, not a value
)
PLACEHOLDER_PART = lazy_compile(r"(?i)(?:^|[_\-.])(?:your|example|placeholder|dummy|fake|sample|changeme)(?:[_\-.]|$)")


def placeholder(value: str) -> bool:
    """``your_api_key_here``, ``${TOKEN}``, ``<password>``, ``os.environ.X``, a path: not a value."""
    return bool(PLACEHOLDER.search(value) or PLACEHOLDER_PART.search(value))


def entropy(value: str) -> float:
    """Shannon entropy per character (bits)."""
    counts: dict[str, int] = {}
    for c in value:
        counts[c] = counts.get(c, 0) + 1
    n = len(value)
    return -sum(k / n * math.log2(k / n) for k in counts.values()) if n else 0.0


def wordy(value: str) -> bool:
    """Mostly words of 4+ letters: an identifier (``OAuth2Credentials``), not a key."""
    letters = sum(len(run) for run in re.findall(r"[A-Z]?[a-z]{3,}", value))
    return letters * 2 > len(value)


def hex_token(value: str) -> bool:
    """A hex string of a key's length (32, 40 or 64 characters): a key after a secret word,
    a hash anywhere else."""
    return bool(re.fullmatch(r"[0-9a-f]{32}|[0-9a-f]{40}|[0-9a-f]{64}|[0-9A-F]{32}", value))


def decodes_to_text(value: str) -> str | None:
    """The text a base64 value encodes, when it encodes text (``aGVsbG8=`` is "hello"); a
    random key decodes to random bytes and gives None."""
    v = value.strip().rstrip("=")
    if len(v) < 8 or not re.fullmatch(r"[A-Za-z0-9+/_\-]+", v):
        return None
    padded = v + "=" * (-len(v) % 4)
    try:
        raw = base64.b64decode(padded.replace("-", "+").replace("_", "/"), validate=True)
        text = raw.decode("utf-8")
    except (binascii.Error, ValueError):
        return None
    printable = sum(c.isprintable() or c in "\n\t" for c in text)
    return text if text and printable >= 0.95 * len(text) else None


_USER_PASSWORD = lazy_compile(r"[\w.@+\-]{1,64}:[^\s:]{4,128}")


def basic_credentials(value: str) -> bool:
    """Base64 of ``user:password`` (an HTTP basic-auth string, a docker ``auth``)."""
    text = decodes_to_text(value)
    return text is not None and bool(_USER_PASSWORD.fullmatch(text)) and any(c.isdigit() or not c.isalnum()
                                                                              for c in text.split(":", 1)[1])


def key_material(value: str, min_length: int = 20) -> bool:
    """Generated key bytes in base64 or base62: an AWS secret access key, a private key's
    body without its PEM lines, an HMAC key, a generated password of letters and digits.

    Not key material: hex (hashes, ids), UUIDs, words or identifiers, base64 of text,
    placeholders, anything with too little variety for its length.
    """
    v = value.strip().replace("\\n", "").replace("\n", "")
    if len(v) < min_length or not _KEY_ALPHABET.fullmatch(v) or _HEX.fullmatch(v) or _UUID.fullmatch(v):
        return False
    if not (any(c.isupper() for c in v) and any(c.islower() for c in v) and any(c.isdigit() for c in v)):
        return False
    if wordy(v) or _PLACEHOLDERISH.search(v) or IDENTIFIER.fullmatch(v):
        return False
    if re.search(r"[a-z]{3,}[_\-][a-z]{3,}", v):
        return False  # kebab or snake words: a name
    if len(v) <= 200 and decodes_to_text(v) is not None:
        return False
    sample = v[:256]
    return entropy(sample) >= (3.6 if len(sample) < 28 else 4.1 if len(sample) < 48 else 4.5)


def looks_random(value: str, min_length: int = 12) -> bool:
    """A string that reads like generated key material, not a word, path, number or hash."""
    v = value.strip(".,;:!?")
    if len(v) < min_length or "://" in v or v.startswith(("/", "./", "~", "-", "$", "%")):
        return key_material(v, max(min_length, 20)) if v.startswith("/") else False
    if "REDACTED" in v.upper() or placeholder(v):
        return False
    classes = sum((any(c.islower() for c in v), any(c.isupper() for c in v), any(c.isdigit() for c in v),
                   any(not c.isalnum() for c in v)))
    # right after "password" a word-based one counts ("Summer2024!"); elsewhere words are names
    if not any(c.isdigit() for c in v) or classes < 3 or (wordy(v) and min_length >= 12):
        return False
    if re.fullmatch(r"[\d.\-:]+|v?\d+(?:\.\d+)+[\w.\-]*", v) or IDENTIFIER.fullmatch(v) or _UUID.fullmatch(v):
        return False
    if re.search(r"[a-z]{3,}[_\-][a-z]{3,}[_\-][a-z]{3,}", v):
        return False  # kebab or snake words: a name, not a key
    return entropy(v) >= (2.5 if len(v) < 12 else 3.3 if len(v) < 20 else 3.6)
