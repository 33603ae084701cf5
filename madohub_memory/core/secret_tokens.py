"""Secrets recognised by their shape alone: provider tokens, private keys, card numbers.

Each pattern is a documented token format (a fixed prefix and a length or alphabet), so a
match needs no surrounding words. Pure functions, no I/O; used by
:mod:`madohub_memory.core.secrets`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from madohub_memory.core.lazy_re import lazy_compile

Span = tuple[int, int]

_B = r"(?<![A-Za-z0-9_\-])"  # a token starts at a word boundary that '-' and '_' do not cross
_E = r"(?![A-Za-z0-9_\-])"

# (name, literal anchors (one must be in the text for the pattern to run), pattern)
_TOKEN_PATTERNS: list[tuple[str, tuple[str, ...], str]] = [
    ("private-key", ('PRIVATE KEY',), r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?"
                    r"(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\Z)"),
    ("putty-key", ('PuTTY-User-Key',), r"PuTTY-User-Key-File-\d[\s\S]*?Private-Lines:\s*\d+\s*\n(?:[A-Za-z0-9+/=]+\n?)+"),
    ("openai", ('sk-',), r"sk-(?<![A-Za-z0-9_\-]sk-)" + r"(?:proj|svcacct|admin|None)-[A-Za-z0-9_\-]{20,}"),
    ("anthropic", ('sk-ant-',), r"sk-ant-(?<![A-Za-z0-9_\-]sk-ant-)" + r"(?:api|admin|sid|oat)\d\d-[A-Za-z0-9_\-]{20,}"),
    ("sk", ('sk-',), r"sk-(?<![A-Za-z0-9_\-]sk-)" + r"(?:or-v1-|lf-)?[A-Za-z0-9_\-]{20,}"),  # OpenAI legacy, DeepSeek, OpenRouter, ...
    ("stripe", ('_live_', '_test_'), _B + r"(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}"),
    ("stripe-webhook", ('whsec_',), r"whsec_(?<![A-Za-z0-9_\-]whsec_)" + r"[A-Za-z0-9+/=]{20,}"),
    ("github", ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"), r"gh(?<![A-Za-z0-9_\-]gh)" + r"[pousr]_[A-Za-z0-9]{30,}"),
    ("github-pat", ('github_pat_',), r"github_pat_(?<![A-Za-z0-9_\-]github_pat_)" + r"[A-Za-z0-9_]{30,}"),
    ("gitlab", ("glpat-", "gldt-", "glptt-", "glrt-", "glsoat-", "glcbt-", "glimt-", "glft-", "gloas-"), r"gl(?<![A-Za-z0-9_\-]gl)" + r"(?:pat|dt|ptt|rt|soat|cbt|imt|ft|oas)-[A-Za-z0-9_\-]{20,}"),
    ("aws-key-id", ('AKIA', 'ASIA', 'AGPA', 'AIDA', 'AROA', 'ANPA', 'ANVA', 'AIPA', 'ABIA', 'ACCA'), r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA|ABIA|ACCA)[0-9A-Z]{16}\b"),
    ("slack", ('xox',), r"xox(?<![A-Za-z0-9_\-]xox)" + r"[abposer]-[A-Za-z0-9\-]{10,}"),
    ("slack-app", ('xapp-',), r"xapp-(?<![A-Za-z0-9_\-]xapp-)" + r"\d-[A-Za-z0-9\-]{10,}"),
    ("slack-webhook", ('hooks.slack.com',), r"hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_\-]{20,}"),
    ("discord-webhook", ('/api/webhooks/',), r"discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_\-]{30,}"),
    ("google-api", ('AIza',), r"AIza(?<![A-Za-z0-9_\-]AIza)" + r"[0-9A-Za-z_\-]{35}" + _E),
    ("google-oauth-secret", ('GOCSPX-',), r"GOCSPX-(?<![A-Za-z0-9_\-]GOCSPX-)" + r"[A-Za-z0-9_\-]{20,}"),
    ("google-oauth-token", ('ya29.',), r"ya29\.(?<![A-Za-z0-9_\-]ya29\.)" + r"[0-9A-Za-z_\-]{20,}"),
    ("google-refresh-token", ('1//0',), r"(?<![\w/])1//0[0-9A-Za-z_\-]{30,}"),
    ("huggingface", ('hf_',), r"hf_(?<![A-Za-z0-9_\-]hf_)" + r"[A-Za-z0-9]{30,}" + _E),
    ("npm", ('npm_',), r"npm_(?<![A-Za-z0-9_\-]npm_)" + r"[A-Za-z0-9]{36}" + _E),
    ("pypi", ('pypi-AgE',), r"pypi-AgE(?<![A-Za-z0-9_\-]pypi-AgE)" + r"[A-Za-z0-9_\-]{40,}"),
    ("sendgrid", ('SG.',), r"SG\.(?<![A-Za-z0-9_\-]SG\.)" + r"[A-Za-z0-9_\-]{16,32}\.[A-Za-z0-9_\-]{16,64}"),
    ("jwt", ('eyJ',), r"eyJ(?<![A-Za-z0-9_\-]eyJ)" + r"[A-Za-z0-9_\-]{10,}\.eyJ[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}"),
    ("telegram-bot", (':AA',), r"(?:(?<=bot)|(?<![\w:/.]))\d{8,10}:AA[A-Za-z0-9_\-]{32,34}" + _E),
    ("twilio", ('AC', 'SK'), r"\b(?:AC|SK)[0-9a-f]{32}\b"),
    ("digitalocean", ('_v1_',), r"\bdo[por]_v1_[a-f0-9]{64}\b"),
    ("shopify", ("shpat_", "shpss_", "shpca_", "shppa_", "shptka_"), r"\bshp(?:at|ss|ca|pa|tka)_[a-fA-F0-9]{32}\b"),
    ("discord-bot", ('.',), r"\b[MNO][A-Za-z\d_\-]{23,27}\.[A-Za-z\d_\-]{6}\.[A-Za-z\d_\-]{27,40}\b"),
    ("mailgun", ('key-',), r"\bkey-[0-9a-f]{32}\b"),
    ("mailchimp", ('-us',), r"\b[0-9a-f]{32}-us\d{1,2}\b"),
    ("square", ('sq0', 'EAAA'), _B + r"(?:sq0atp|sq0csp|EAAA)[0-9A-Za-z_\-]{22,}"),
    ("facebook", ('EAA',), r"\bEAA[BCDG][A-Za-z0-9]{60,}"),
    ("atlassian", ('ATATT3',), r"ATATT3(?<![A-Za-z0-9_\-]ATATT3)" + r"[A-Za-z0-9_\-=]{50,}"),
    ("bitbucket", ('ATBB',), r"ATBB(?<![A-Za-z0-9_\-]ATBB)" + r"[A-Za-z0-9]{28,}"),
    ("linear", ('lin_',), r"lin_(?<![A-Za-z0-9_\-]lin_)" + r"(?:api|oauth)_[A-Za-z0-9]{30,}"),
    ("notion", ('secret_', 'ntn_'), _B + r"(?:secret_[A-Za-z0-9]{43}|ntn_[A-Za-z0-9]{40,})" + _E),
    ("docker", ('dckr_pat_',), r"dckr_pat_(?<![A-Za-z0-9_\-]dckr_pat_)" + r"[A-Za-z0-9_\-]{20,}"),
    ("groq", ('gsk_',), r"gsk_(?<![A-Za-z0-9_\-]gsk_)" + r"[A-Za-z0-9]{40,}"),
    ("xai", ('xai-',), r"xai-(?<![A-Za-z0-9_\-]xai-)" + r"[A-Za-z0-9]{40,}"),
    ("replicate", ('r8_',), r"r8_(?<![A-Za-z0-9_\-]r8_)" + r"[A-Za-z0-9]{30,}"),
    ("perplexity", ('pplx-',), r"pplx-(?<![A-Za-z0-9_\-]pplx-)" + r"[A-Za-z0-9]{40,}"),
    ("databricks", ('dapi',), r"\bdapi[a-f0-9]{32}(?:-\d)?\b"),
    ("grafana", ('glsa_', 'glc_'), r"gl(?<![A-Za-z0-9_\-]gl)" + r"(?:sa|c)_[A-Za-z0-9_=+/\-]{30,}"),
    ("sentry", ('sntr',), r"sntr(?<![A-Za-z0-9_\-]sntr)" + r"[ysu]_[A-Za-z0-9_=+/\-]{30,}"),
    ("newrelic", ('NRAK-', 'NRII-', 'NRJS-', 'NRRA-'), r"NR(?<![A-Za-z0-9_\-]NR)" + r"(?:AK|II|JS|RA)-[A-Za-z0-9]{20,}"),
    ("doppler", ("dp.st.", "dp.ct.", "dp.sa.", "dp.scim.", "dp.audit.", "dp.pt."), r"dp\.(?<![A-Za-z0-9_\-]dp\.)" + r"(?:st|ct|sa|scim|audit|pt)\.[A-Za-z0-9_\-]{20,}"),
    ("pulumi", ('pul-',), r"\bpul-[a-f0-9]{40}\b"),
    ("terraform", ('.atlasv1.',), r"\b[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_\-=]{60,}"),
    ("tailscale", ('tskey-',), r"tskey-(?<![A-Za-z0-9_\-]tskey-)" + r"[A-Za-z0-9_\-]{20,}"),
    ("1password", ('ops_',), r"ops_(?<![A-Za-z0-9_\-]ops_)" + r"[A-Za-z0-9_\-]{40,}"),
    ("supabase", ('sbp_',), r"\bsbp_[a-f0-9]{40}\b"),
    ("figma", ('figd_',), r"figd_(?<![A-Za-z0-9_\-]figd_)" + r"[A-Za-z0-9_\-]{30,}"),
    ("postman", ('PMAK-',), r"\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b"),
    ("vault", ('hvs.', 'hvb.', 'hvr.'), r"hv(?<![A-Za-z0-9_\-]hv)" + r"[sbr]\.[A-Za-z0-9_\-]{24,}"),
    ("age", ('AGE-SECRET-KEY-',), r"\bAGE-SECRET-KEY-1[0-9A-Z]{58}\b"),
    ("mapbox", ('sk.eyJ',), r"sk\.eyJ(?<![A-Za-z0-9_\-]sk\.eyJ)" + r"[A-Za-z0-9_\-]{20,}\.[A-Za-z0-9_\-]{20,}"),
    ("azure-client-secret", ('Q~',), _B + r"[A-Za-z0-9_~.\-]{3}\dQ~[A-Za-z0-9_~.\-]{31,34}" + _E),
    ("heroku", ('HRKU-',), r"HRKU-(?<![A-Za-z0-9_\-]HRKU-)" + r"[A-Za-z0-9_\-]{20,}"),
    ("cloudinary", ('cloudinary://',), r"\bcloudinary://\d+:[A-Za-z0-9_\-]{20,}@"),
    ("shippo", ('shippo_',), r"shippo_(?<![A-Za-z0-9_\-]shippo_)" + r"(?:live|test)_[a-f0-9]{40}"),
    ("flyio", ('fo1_',), r"fo1_(?<![A-Za-z0-9_\-]fo1_)" + r"[A-Za-z0-9_\-]{30,}"),
    ("planetscale", ('pscale_',), r"pscale_(?<![A-Za-z0-9_\-]pscale_)" + r"(?:tkn|pw|oauth)_[A-Za-z0-9_\-.]{30,}"),
    ("rubygems", ('rubygems_',), r"rubygems_(?<![A-Za-z0-9_\-]rubygems_)" + r"[a-f0-9]{48}"),
    ("clojars", ('CLOJARS_',), r"CLOJARS_(?<![A-Za-z0-9_\-]CLOJARS_)" + r"[a-z0-9]{60}"),
    ("nuget", ('oy2',), r"oy2(?<![A-Za-z0-9_\-]oy2)" + r"[a-z0-9]{43}"),
]

# A token cut short (an error sentence or a log line that cut its input, a query cut at its
# limit): a known prefix and 6+ token characters right before the cut ("…", "...", the end).
_CUT = lazy_compile(
    r"(?<![A-Za-z0-9_\-])(?:gh[pousr]_|github_pat_|glpat-|sk-(?:proj-|ant-)?|sk_live_|rk_live_|whsec_|xox[abposer]-|"
    r"AKIA|ASIA|AIza|GOCSPX-|hf_|npm_|pypi-AgE|dop_v1_|shp(?:at|ss)_|hvs\.|eyJ)[A-Za-z0-9_\-]{6,}\Z"
)


def _cut_points(text: str) -> list[int]:
    """Where a text may have been cut: its end, and each "…" or "..." (up to 20)."""
    points = [len(text)]
    for mark in ("…", "..."):
        at = text.find(mark)
        while at >= 0 and len(points) < 21:
            points.append(at)
            at = text.find(mark, at + 1)
    return points


_RUN = lazy_compile(r"[A-Za-z0-9_\-.+/=:~%]{16,}")
_MULTILINE = {"private-key", "putty-key"}
_COMPILED = [(name, anchors, lazy_compile(pattern)) for name, anchors, pattern in _TOKEN_PATTERNS]


def _random_enough(token: str) -> bool:
    """``sk-circle-bounce-delay`` (a CSS class) is not a key: a key has a long random run."""
    rest = token[3:]
    if any(len(run) >= 16 and any(c.isdigit() for c in run) for run in re.split(r"[-_]", rest)):
        return True
    return any(c.isupper() for c in rest) and any(c.isdigit() for c in rest) and len(rest) >= 20 \
        and not re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", rest)


def _okta_like(token: str) -> bool:
    """``00`` followed by 40 characters is an Okta token only when mixed and random."""
    body = token[2:]
    return any(c.isupper() for c in body) and any(c.islower() for c in body) and any(c.isdigit() for c in body)


def _discord_like(token: str) -> bool:
    head = token.split(".")[0]
    return any(c.isdigit() for c in head) and any(c.islower() for c in head) and any(c.isupper() for c in head)


def _telegram_like(token: str) -> bool:
    body = token.split(":", 1)[1]
    return any(c.isupper() for c in body[2:]) and any(c.islower() for c in body)


_CHECKS: dict[str, Callable[[str], bool]] = {
    "sk": _random_enough, "discord-bot": _discord_like,
    "telegram-bot": _telegram_like,
}


def token_spans(text: str) -> Iterable[Span]:
    """Spans of provider tokens and private keys in ``text``."""
    # Every token is one run of 20+ token characters: look for anchors in those runs only
    # (prose has few), then run the patterns that can match on the whole text.
    for at in _cut_points(text):
        for m in _CUT.finditer(text, max(0, at - 120), at):
            if not _example(m.group(0)):
                yield m.span()
    runs = " ".join(_RUN.findall(text))
    multiline = "PRIVATE KEY" in text or "PuTTY" in text
    if not runs and not multiline:
        return
    for name, anchors, pattern in _COMPILED:
        if name in _MULTILINE and not multiline:
            continue
        haystack = text if name in _MULTILINE else runs
        if not any(a in haystack for a in anchors):
            continue
        check = _CHECKS.get(name)
        for m in pattern.finditer(text):
            token = m.group(0)
            if (check is None or check(token)) and not _example(token):
                yield m.span()


def _example(token: str) -> bool:
    """``ghp_xxxxxxxx…``, ``GOCSPX-your-client-secret``: a placeholder, not a token. A token of
    a provider's shape that only says it is an example (AWS's ``AKIAIOSFODNN7EXAMPLE``, a
    "fake" key in a test) is masked all the same: it reads as a credential wherever it lands,
    and masking a sample costs nothing."""
    return bool(re.search(r"(?i)x{6,}|0{8,}|your|placeholder|_here|-here|redacted"
                          r"|(.)\1{7,}", token))


# -- payment card numbers ---------------------------------------------------------------------

_CARD = lazy_compile(r"\d(?<![\d\-.]\d)(?:[ \-]?\d){12,18}(?![\d\-]|\.\d)")
# Grouped as printed on a card: 4-4-4-4(-3) or 4-6-5, spaces or dashes (also when more digits
# follow: "4024 0165 6990 8486 12/28").
_GROUPED_CARD = lazy_compile(r"(?<![\d\-.])\d{4}(?P<s>[ \-])\d{4}(?P=s)\d{4}(?P=s)\d{4}(?:(?P=s)\d{3}(?!\d))?(?![\-]?\d{2,})"
                             r"|(?<![\d\-.])\d{4}(?P<t>[ \-])\d{6}(?P=t)\d{5}(?!\d)")
# Every card number has 10 digits with at most two separators among its first 12 characters.
_CARD_MAYBE = lazy_compile(r"\d{4}[ \-]?\d{4}[ \-]?\d{2}")
_CARD_CONTEXT = lazy_compile(r"(?i)\b(?:cards?|visa|master\s*card|amex|american express|discover|unionpay|"
                           r"credit|debit|payment|cc|pan|cvv|jcb)\b|card[_\-\s]?(?:number|no|num|holder)|cc[_\-]?num"
                           r"|卡号|信用卡|银行卡|储蓄卡|借记卡|卡")
# A published test number is left alone only where the text says it is one ("Stripe test
# card", "测试卡号", "in the sandbox", "example card for the docs"); elsewhere it is masked.
_TEST_CONTEXT = lazy_compile(r"(?i)\b(?:test|tests|testing|sandbox|test\s*mode|dummy|fake|sample|example|docs?|"
                           r"documentation)\b|测试|沙箱|示例|演示|样例")
_TEST_CARDS = {
    "4242424242424242", "4000056655665556", "5555555555554444", "2223003122003222",
    "5200828282828210", "5105105105105100", "378282246310005", "371449635398431",
    "6011111111111117", "6011000990139424", "3056930009020004", "36227206271667",
    "3566002020360505", "6200000000000005", "4111111111111111", "4012888888881881",
    "4222222222222", "5454545454545454", "4000000000000002", "4000000000009995",
    "4000002500003155", "4000000000000077", "4000000000000341", "4000000000003220",
    "5431111111111111", "4444333322221111", "4917610000000000", "4988438843884305",
}


def luhn_valid(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def card_brand(digits: str) -> str | None:
    """The card network a number's prefix and length belong to, or None."""
    n = len(digits)
    if digits[0] == "4" and n in (13, 16, 19):
        return "visa"
    two, four = int(digits[:2]), int(digits[:4])
    if (51 <= two <= 55 or 2221 <= four <= 2720) and n == 16:
        return "mastercard"
    if two in (34, 37) and n == 15:
        return "amex"
    if (digits.startswith("6011") or digits.startswith("65") or 644 <= int(digits[:3]) <= 649) and n in (16, 19):
        return "discover"
    if digits.startswith("62") and 16 <= n <= 19:
        return "unionpay"
    if 3528 <= four <= 3589 and 16 <= n <= 19:
        return "jcb"
    if two in (36, 38) or 300 <= int(digits[:3]) <= 305:
        return "diners" if n == 14 else None
    return None


def card_spans(text: str) -> list[Span]:
    """Luhn-valid numbers of a card network's shape: grouped ("4539 1488 0343 6467") or
    with a card word nearby. A published test number is left alone in a test context."""
    if len(text) < 13 or not _CARD_MAYBE.search(text):
        return []
    found: list[Span] = []
    grouped = [(m.span(), True) for m in _GROUPED_CARD.finditer(text)]
    loose = [(m.span(), False) for m in _CARD.finditer(text)
             if not any(g[0] <= m.start() < g[1] for g, _ in grouped)]
    for (start, end), is_grouped in grouped + loose:
        digits = re.sub(r"[ \-]", "", text[start:end])
        if not 13 <= len(digits) <= 19 or len(set(digits)) < 2:
            continue
        if not luhn_valid(digits) or card_brand(digits) is None:
            continue
        if not is_grouped and not _CARD_CONTEXT.search(text, max(0, start - 40), start):
            continue
        if digits in _TEST_CARDS and _TEST_CONTEXT.search(text, max(0, start - 60), min(len(text), end + 60)):
            continue
        found.append((start, end))
    return sorted(found)
