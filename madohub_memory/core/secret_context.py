"""Secrets that carry no telltale prefix, found by the structure around them. Pure functions.

Used by :func:`madohub_memory.core.secrets.find_secrets` beside the shape and name rules:

- a key file's structure: a service-account JSON key (``private_key``, ``private_key_id``),
  a JSON Web Key's private members (``d``, ``p``, ``q``, ``k``, …);
- a credentials layout that names the secret away from its value: ``<add key="StorageKey"
  value="…"/>``, ``<password>…</password>``, ``define('DB_PASSWORD', '…')``,
  ``os.environ["API_KEY"] = "…"``, ``auth=("admin", "…")``, ``gh secret set X --body …``,
  a ``.netrc`` entry over several lines;
- generated key material standing alone: exactly 40 base64 characters (an AWS or GCS HMAC
  secret key, whatever it is called), base64 of ``user:password``, a URL's user part, a
  path segment or a webhook URL's segment;
- a message that is only a key, and the turn *after* one that asks for or announces a secret
  (:func:`follow_up_spans`: "What is the Redis password?" then "it's Falcon20*duUq").

Every rule asks the value itself to look generated (:func:`key_material`) or plausible, so
hashes, UUIDs, ids, base64 of text and placeholders stay as they are.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from madohub_memory.core.lazy_re import lazy_compile
from madohub_memory.core.secret_shapes import basic_credentials, key_material, looks_random, placeholder

Span = tuple[int, int]
Plausible = Callable[[str], bool]

# -- key files ------------------------------------------------------------------------------

_JSON_STRING = r'"(?P<v>(?:[^"\\\n]|\\.){1,20000})"'
_SA_MEMBER = lazy_compile(r'\\?"(?P<name>private_key_id|private_key|client_secret|refresh_token)\\?"\s*:\s*\\?'
                          + _JSON_STRING.replace('"(?P', '"?(?P'))
_JWK_MEMBER = lazy_compile(r'"(?P<name>d|p|q|dp|dq|qi|k|oth)"\s*:\s*' + _JSON_STRING)


def _key_file_spans(text: str) -> Iterable[Span]:
    if "private_key" in text or "client_secret" in text:
        key_file = "service_account" in text or "client_email" in text or "PRIVATE KEY" in text
        for m in _SA_MEMBER.finditer(text):
            value = m.group("v").rstrip("\\")
            if m.group("name") == "private_key_id" and not key_file:
                continue
            keyed = m.group("name") == "private_key" or key_material(value, 16) or \
                (key_file and re.fullmatch(r"[0-9a-f]{32,64}", value))
            if keyed and not placeholder(value) and "REDACTED" not in value:
                yield m.start("v"), m.start("v") + len(value)
    if '"kty"' in text:
        for m in _JWK_MEMBER.finditer(text):
            if key_material(m.group("v"), 16):
                yield m.span("v")


# -- credentials layouts --------------------------------------------------------------------

_XML_ADD = lazy_compile(r"""<add\s+key\s*=\s*["'](?P<name>[^"'<>]{1,80})["']\s+value\s*=\s*["'](?P<v>[^"'<>]{4,2000})["']""")
_XML_TAG = lazy_compile(r"<(?P<name>[A-Za-z][\w.\-]{1,60})>(?P<v>[^<>\s]{4,400})</(?P=name)>")
_QUOTED_NAME = lazy_compile(
    r"""(?P<q>["'])(?P<name>[A-Za-z_][\w.\-]{1,60})(?P=q)\s*(?:,|\]\s*=|\)\s*=|=>)\s*(?P<r>["'])(?P<v>[^"'\n]{4,400})(?P=r)"""
)
_AUTH_PAIR = lazy_compile(
    r"""\b(?:auth|basic_auth|http_auth|BasicAuth|HTTPBasicAuth|HTTPDigestAuth|DigestAuth)\s*[=(]\s*\(?\s*"""
    r"""(?P<q>["'])[^"'\n]{1,64}(?P=q)\s*,\s*(?P<r>["'])(?P<v>[^"'\n]{4,200})(?P=r)"""
)
_SECRET_SET = lazy_compile(r"""\bsecrets?\s+set\s+\S+\s+(?:--body|-b)(?:=|\s+)(?P<q>["']?)(?P<v>[^\s"']{4,400})(?P=q)""")
_NETRC = lazy_compile(r"\b(?:machine\s+\S+|default)(?:\s+(?:login|account|port|protocol)\s+\S+)*\s+password\s+(?P<v>\S+)")


def _named(m: re.Match[str], secret_name: Callable[[str], bool], plausible: Plausible) -> bool:
    """A value under a name that says secret, or generated key material under any "…Key"."""
    name, value = m.group("name"), m.group("v")
    if secret_name(name):
        return plausible(value)
    return bool(re.search(r"(?i)key$", name)) and not re.search(r"(?i)public|pub_?key", name) and key_material(value)


def _layout_spans(text: str, secret_name: Callable[[str], bool], plausible: Plausible) -> Iterable[Span]:
    if "<" in text:
        for m in _XML_ADD.finditer(text):
            if _named(m, secret_name, plausible):
                yield m.span("v")
        for m in _XML_TAG.finditer(text):
            if _named(m, secret_name, plausible):
                yield m.span("v")
    for m in _QUOTED_NAME.finditer(text):
        if _named(m, secret_name, plausible):
            yield m.span("v")
    lowered = text.lower()
    if "auth" in lowered:
        for m in _AUTH_PAIR.finditer(text):
            if plausible(m.group("v")):
                yield m.span("v")
    if "set" in lowered and "secret" in lowered:
        for m in _SECRET_SET.finditer(text):
            if plausible(m.group("v")):
                yield m.span("v")
    if "password" in lowered and ("machine" in lowered or "default" in lowered):
        for m in _NETRC.finditer(text):
            if plausible(m.group("v")):
                yield m.span("v")


# -- key material standing alone ------------------------------------------------------------

# Exactly 40 base64 characters: the shape of an AWS (and GCS HMAC) secret access key.
# (Runs are found with plain patterns and their edges checked in code: a look-behind at every
# position of every text cost more than the rest of the scan.)
_FORTY_RUN = lazy_compile(r"[A-Za-z0-9+/]{40,}")
_BASE64_RUN = lazy_compile(r"[A-Za-z0-9+/]{12,}={0,2}")
_TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=_-")
_URL_USER = lazy_compile(r"\b[a-z][a-z0-9+.\-]*://(?P<v>[^\s:/@\"'<>]{16,})@(?=[\w\[.\-])", re.I)
# A path segment (or URL path segment) of 24+ generated characters.
_SEGMENT = lazy_compile(r"[/\\](?P<v>[A-Za-z0-9+_\-]{24,})(?=[/\\?#\s\"'`)]|\.\w{1,5}\b|$)")
_URL = lazy_compile(r"\b[a-z][a-z0-9+.\-]*://[^\s\"'<>`]+", re.I)
# A URL path segment is a secret only under a name that says so (a capability URL); elsewhere
# (document, video and object ids) it is an address.
_SECRET_PATH = lazy_compile(r"(?i)(?:^|[/.])(?:hooks?|webhooks?|tokens?|keys?|secrets?|auth|triggers|services|"
                            r"invite|reset|magic|signin|login)(?:[/.]|$)")


_BLOB = lazy_compile(r"[A-Za-z0-9+/]{40,}={0,2}")


def _run_around(text: str, at: int) -> str:
    """The whitespace-delimited run of ``text`` that holds position ``at``."""
    start = max(text.rfind(c, 0, at) for c in " \n\t") + 1
    ends = [e for e in (text.find(c, at) for c in " \n\t") if e >= 0]
    return text[start:min(ends, default=len(text))].strip("\"'`,;")


def _standalone_spans(text: str) -> Iterable[Span]:
    if len(text) >= 40:
        for m in _FORTY_RUN.finditer(text):
            start, end = m.span()
            if end - start != 40 or (start and text[start - 1] in _TOKEN_CHARS | {"."}):
                continue
            if end < len(text) and (text[end] in _TOKEN_CHARS or (text[end] == "." and text[end + 1:end + 2].isalnum())):
                continue
            if key_material(m.group(0), 40):
                yield start, end
    if "://" in text:
        for m in _URL_USER.finditer(text):
            value = m.group("v")
            if key_material(value, 16) or looks_random(value, 16):
                yield m.span("v")
    if "/" in text or "\\" in text:
        urls = [m.span() for m in _URL.finditer(text)] if "://" in text else []
        for m in _SEGMENT.finditer(text):
            value = m.group("v")
            if _BLOB.fullmatch(_run_around(text, m.start())):
                continue  # a "/" inside one long base64 run (a public key, a key body): not a path
            url = next((u for u in urls if u[0] <= m.start() < u[1]), None)
            if url is not None:
                if not _SECRET_PATH.search(text, url[0], m.start()) or not key_material(value, 20):
                    continue
            elif not key_material(value, 32):
                continue
            yield m.span("v")
    if len(text) >= 12:
        for m in _BASE64_RUN.finditer(text):
            start, end = m.span()
            if (start and text[start - 1] in _TOKEN_CHARS) or (end < len(text) and text[end] in _TOKEN_CHARS):
                continue
            value = m.group(0)
            if (end - start) % 4 or end - start > 202:
                continue  # base64 of "user:password" is padded to a multiple of 4 (an identifier is not)
            if basic_credentials(value):
                yield start, end


def lone_token_spans(text: str) -> list[Span]:
    """A message that is nothing but one generated token (a key pasted on its own)."""
    stripped = text.strip().strip("`\"'")
    if not 16 <= len(stripped) <= 400 or not stripped.isascii() or any(c.isspace() for c in stripped):
        return []
    mixed = any(c.islower() for c in stripped) and any(c.isupper() for c in stripped) and "=" not in stripped.rstrip("=")
    if not (key_material(stripped, 16) or (mixed and looks_random(stripped, 16))):
        return []
    start = text.index(stripped)
    return [(start, start + len(stripped))]


def context_spans(text: str, secret_name: Callable[[str], bool], plausible: Plausible) -> list[Span]:
    """Spans of secrets known by the structure around them (see the module doc)."""
    spans = list(_key_file_spans(text))
    spans += _layout_spans(text, secret_name, plausible)
    spans += _standalone_spans(text)
    spans += lone_token_spans(text)
    spans += inline_follow_up_spans(text, lambda v: plausible(v) and _strict(v))
    return spans


def _strict(value: str) -> bool:
    """A digit, a symbol or mixed case: "Quartz39&DGxY", not "Tuesday"."""
    return any(not c.isalpha() for c in value) or (any(c.isupper() for c in value[1:]) and any(c.islower() for c in value))


# -- the turn after the question ------------------------------------------------------------

# The previous turn asks for or announces a secret: "Please paste the staging password",
# "my AWS secret access key is", "What is the Redis password?", "请提供数据库的密码。".
_ASKED_WORD = (r"(?i)(?:\b(?:password|passphrase|passcode|pin|secret|token|api[\s_\-]?key|access[\s_\-]?key|"
               r"secret[\s_\-]?key|private[\s_\-]?key|credentials?|creds|key)s?\b|密码|口令|密钥|秘钥|私钥|令牌|验证码)")
_ASKED = lazy_compile(_ASKED_WORD + r"[^\n]{0,80}$")
_ASKS_ANYWHERE = lazy_compile(_ASKED_WORD)
# ... and asks or announces it: a question, a colon, "is" at the end, a request verb.
_ASKING = lazy_compile(
    r"(?i)(?:[?？:：]|\b(?:is|are|was)|是|为)\s*$|\b(?:paste|send|give|provide|enter|type|share|tell|need|what(?:'s|\s+is)|"
    r"here(?:'s|\s+is))\b|请|发我|给我|告诉|输入|提供|多少|是什么"
)
# Words a reply puts before the value: "it's", "here you go:", "sure,", "是", "：".
_LEAD = lazy_compile(r"(?i)^(?:\s|it'?s|it\s+is|here(?:\s+(?:it\s+is|you\s+go|is\s+it))?|sure|ok(?:ay)?|the\s+\w+\s+is|"
                     r"[:：,，\-–—>`\"'「]|是|就是|密码是|好的)*")
_REPLY_TOKEN = lazy_compile(r"[^\s`\"'」，。,;]+")


def follow_up_spans(previous: str, text: str, plausible: Plausible) -> list[Span]:
    """The value in ``text`` that answers a request for a secret in ``previous``.

    Only a short reply counts (up to 12 words), and only its first token after the usual
    lead words; the token must be plausible as a secret (a digit, a symbol or mixed case;
    not a word, a path, an identifier or a placeholder)."""
    tail = previous.rstrip()[-200:]
    if not tail or not _ASKED.search(tail) or len(text.split()) > 12:
        return []
    sentence = re.split(r"(?<=[.!?。！？])\s+|\n", tail)[-1] or tail
    if not _ASKING.search(sentence):
        return []
    lead = _LEAD.match(text)
    at = lead.end() if lead else 0
    token = _REPLY_TOKEN.match(text, at)
    if token is None:
        return []
    value = token.group(0).rstrip(".!?)")
    if len(value) < 6 or _NOT_A_SECRET.fullmatch(value) or _CODE_LIKE.search(value) or not plausible(value):
        return []
    return [(token.start(), token.start() + len(value))]


# Replies that name something rather than give a secret: a version, a slug, a number, an
# address, a path, an identifier.
_NOT_A_SECRET = lazy_compile(r"v?\d+(?:\.\d+)+[\w.\-]*|[a-z]+(?:[\-_.][a-z0-9]+)+|\d{1,7}|[\w.+\-]+@[\w.\-]+|"
                             r"[~./\\].*|\w+://.*|[A-Z]+(?:_[A-Z0-9]+)+|#\d+|[A-Z]+-\d+|.+\.[a-z]{2,5}|"
                             r"(?i:.*[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-.*)")
# Code and tool output, not a value someone typed: calls, markup, line numbers, "name:".
_CODE_LIKE = lazy_compile(r"[(){}\[\]<>→]|[:=,;]$|^\d+[.)]")
# Lines, and sentences within a line: "What is the Redis password? it's Falcon20*duUq".
_SEGMENT_END = lazy_compile(r"\n+|(?<=[？。])\s*|(?<=[.!?])\s+")
_PROSE = lazy_compile(r"^[^(){};=<>→`]*$")


def inline_follow_up_spans(text: str, plausible: Plausible) -> list[Span]:
    """:func:`follow_up_spans` between the lines (and sentences) of one text: a chat pasted
    whole, a title made of a question and its answer."""
    if len(text) > 2000 or text.count("\n") > 20 or "```" in text or not _ASKS_ANYWHERE.search(text):
        return []  # a chat pasted whole or a title, not a file or a tool's output
    spans: list[Span] = []
    start = 0
    previous = ""
    for end in [m.start() for m in _SEGMENT_END.finditer(text)] + [len(text)]:
        segment = text[start:end]
        if previous and segment.strip() and _PROSE.match(previous) and _PROSE.match(segment.strip()):
            before = text[max(0, start - 200):start]  # what was said up to here, not only the last sentence
            spans += [(start + a, start + b) for a, b in follow_up_spans(before, segment, plausible)]
        if segment.strip():
            previous = segment
        stop = _SEGMENT_END.match(text, end)
        start = stop.end() if stop and stop.end() > end else end
    return spans
