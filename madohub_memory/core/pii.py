"""Personal data in free text: where it is, and a copy without it. Pure functions, no I/O.

Policy (README "Personal data"): personal data is *flagged*, not masked, where it is
stored — a memory such as "the user's work e-mail is li.lei@example.org" can be exactly
what the user wants kept, and the user decides in review (a flagged candidate is never
auto-approved). Stored turns keep it too (they are the user's own conversations, on the
user's machine). It is marked in the turn viewer, and ``export --redact-pii`` writes a
copy without it for sharing. Payment card numbers are the exception: a full card number
is a credential, so it is also masked as a secret everywhere
(:mod:`madohub_memory.core.secret_tokens`).

Kinds: ``email``, ``phone``, ``id`` (Chinese resident ID, US SSN), ``card`` (Luhn-valid,
of a card network's shape), ``iban`` (ISO 13616 check digits valid).
"""

from __future__ import annotations

from madohub_memory.core.lazy_re import lazy_compile
from madohub_memory.core.secret_tokens import card_spans

PII_MASK = "[PII:{kind}]"
Finding = tuple[str, int, int]  # kind, start, end

_EMAIL = lazy_compile(r"(?<![\w.%+\-])[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,}\b")
_PHONES = [
    # Chinese mobile numbers (+86 optional) and landlines like 010-12345678
    lazy_compile(r"(?<![\d\-])(?:\+?86[\s\-]?)?1[3-9]\d[\s\-]?\d{4}[\s\-]?\d{4}(?![\d\-])"),
    lazy_compile(r"(?<![\d\-])0\d{2,3}-\d{7,8}(?![\d\-])"),
    # North American numbers with separators: (555) 123-4567, 555-123-4567, +1 555 123 4567
    lazy_compile(r"(?<![\w\-.])(?:\+1[\s.\-]?)?\(?[2-9]\d{2}\)?[\s.\-]\d{3}[\s.\-]\d{4}(?![\d\-.])"),
    # International numbers written with a + and a country code: +31 6-41047445, +44 20 7946 0958
    lazy_compile(r"(?<![\w+])\+[1-9]\d{0,2}[\s\-]?(?:\(?\d{1,4}\)?[\s\-]?){2,4}\d{2,4}(?![\d\-])"),
]
_PHONE_CONTEXT = lazy_compile(r"(?i)(?:phone|tel|mobile|cell|whatsapp|手机|电话|联系方式)[\s:：号码是为]*([+\d(][\d\s()\-]{6,}\d)")
_CN_ID = lazy_compile(r"(?<!\d)[1-9]\d{5}(?:19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{3}[\dXx](?![\dA-Za-z])")
_ID_CONTEXT = lazy_compile(r"(?i)(?:身份证|ID\s*card|SSN|social\s+security)[\s:：号码是为]*([\dXx\-]{9,18})")
_SSN = lazy_compile(r"(?<![\d\-])(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\d\-])")
_IBAN = lazy_compile(r"\b([A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?)\b")
# Lengths by country (ISO 13616 registry, the common ones); others need 15-34 characters.
_IBAN_LENGTHS = {
    "AD": 24, "AT": 20, "BE": 16, "BG": 22, "CH": 21, "CY": 28, "CZ": 24, "DE": 22, "DK": 18, "EE": 20,
    "ES": 24, "FI": 18, "FR": 27, "GB": 22, "GR": 27, "HR": 21, "HU": 28, "IE": 22, "IS": 26, "IT": 27,
    "LI": 21, "LT": 20, "LU": 20, "LV": 21, "MC": 27, "MT": 31, "NL": 18, "NO": 15, "PL": 28, "PT": 25,
    "RO": 24, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "TR": 26, "AE": 23, "SA": 24, "IL": 23, "BR": 29,
}


def iban_valid(candidate: str) -> bool:
    """ISO 13616: the country's length and check digits that make the number 1 mod 97."""
    value = candidate.replace(" ", "")
    expected = _IBAN_LENGTHS.get(value[:2])
    if (expected and len(value) != expected) or not 15 <= len(value) <= 34:
        return False
    rearranged = value[4:] + value[:4]
    digits = "".join(str(int(c, 36)) for c in rearranged)
    return int(digits) % 97 == 1


def _cn_id_valid(number: str) -> bool:
    """GB 11643 check character of an 18-digit resident ID."""
    weights = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
    total = sum(int(d) * w for d, w in zip(number[:17], weights, strict=True))
    return "10X98765432"[total % 11] == number[17].upper()


# What every detector needs: an "@", a digit, or a word that names an ID. Most prose has none.
_MAYBE = lazy_compile(r"[@\d]|身份证|(?i:id\s*card|ssn|social\s+security)")


def find_pii(text: str) -> list[Finding]:
    """Every piece of personal data in ``text`` as (kind, start, end), sorted, not overlapping."""
    if not text or len(text) < 6 or not _MAYBE.search(text):
        return []
    found: list[Finding] = [("email", *m.span()) for m in _EMAIL.finditer(text)]
    for pattern in _PHONES:
        found += [("phone", *m.span()) for m in pattern.finditer(text)]
    found += [("phone", *m.span(1)) for m in _PHONE_CONTEXT.finditer(text)]
    found += [("id", *m.span()) for m in _CN_ID.finditer(text) if _cn_id_valid(m.group(0))]
    found += [("id", *m.span(1)) for m in _ID_CONTEXT.finditer(text)]
    found += [("id", *m.span()) for m in _SSN.finditer(text)]
    found += [("card", start, end) for start, end in card_spans(text)]
    found += [("iban", *m.span(1)) for m in _IBAN.finditer(text) if iban_valid(m.group(1))]
    found.sort(key=lambda f: (f[1], -f[2]))
    merged: list[Finding] = []
    for kind, start, end in found:
        if merged and start < merged[-1][2]:
            if end > merged[-1][2]:
                merged[-1] = (merged[-1][0], merged[-1][1], end)
            continue
        merged.append((kind, start, end))
    return merged


def has_pii(text: str) -> bool:
    return bool(find_pii(text))


def redact_pii_value(value: object) -> object:
    """:func:`redact_pii` applied to every string inside a JSON-like value."""
    if isinstance(value, str):
        return redact_pii(value)
    if isinstance(value, dict):
        return {k: redact_pii_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [redact_pii_value(v) for v in value]
    return value


def redact_pii(text: str | None) -> str | None:
    """``text`` with each piece of personal data replaced by ``[PII:kind]``."""
    if not text or not isinstance(text, str):
        return text
    findings = find_pii(text)
    if not findings:
        return text
    out: list[str] = []
    at = 0
    for kind, start, end in findings:
        out.append(text[at:start])
        out.append(PII_MASK.format(kind=kind))
        at = end
    out.append(text[at:])
    return "".join(out)
