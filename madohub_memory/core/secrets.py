"""Finding and masking secrets in free text: pure functions, no I/O.

Why here (in ``core``): every sink that keeps text (turns, candidates, memories, history,
working memory, decisions, conversation titles, the recall log, job errors, logs, exports)
applies the same :func:`redact` at its one write path in ``store`` (see
``store/redaction.py``), so no front end or extractor can forget it.

Three detectors, each giving spans of the text to replace by :data:`MASK`:

- tokens whose *shape* says what they are (``ghp_…``, ``AKIA…``, ``whsec_…``, PEM private
  keys, Luhn-valid card numbers, ...): see :mod:`madohub_memory.core.secret_tokens`;
- a *value* given to a name that says secret (``PGPASSWORD=…``, ``"SecretAccessKey": "…"``,
  ``--token …``, ``my password is …``, ``密码是…``, ``AccountKey=…;``, ``?sig=…``), and
  credentials in command lines (``curl -u user:pw``, ``mysql -pPW``, ``sshpass -p PW``) and
  URLs (``redis://:pw@host``);
- a random-looking string right after a secret word in prose ("AWS secret key wJalr…");
- structure: a key file, a credentials layout, key material standing alone, a reply to a
  question that asks for a secret (:mod:`madohub_memory.core.secret_context`; across turns:
  :mod:`madohub_memory.core.secret_turns`). What a value looks like (generated or a word, a
  hash, base64 of text): :mod:`madohub_memory.core.secret_shapes`.

Text is scanned as it would read unescaped (``"…\\nghp_…"`` in a log line's repr), with the
same positions, so a token after an escaped newline is found too.

The value checks keep code and prose readable: variables, environment look-ups, types,
placeholders (``your_api_key_here``, ``${TOKEN}``, ``<password>``) and words ("the token is
expired") are not secrets. Masking is idempotent: masked text never matches again.
"""

from __future__ import annotations

import bisect
import functools
import re
import string
from collections.abc import Iterable
from typing import Any

from madohub_memory.core.cjk import CJK_RANGES
from madohub_memory.core.lazy_re import LazyPattern, lazy_compile
from madohub_memory.core.secret_context import context_spans
from madohub_memory.core.secret_shapes import (
    IDENTIFIER,
    PLACEHOLDER,
    PLACEHOLDER_PART,
    hex_token,
    key_material,
    looks_random,
)
from madohub_memory.core.secret_tokens import card_spans, token_spans

MASK = "[REDACTED]"
Span = tuple[int, int]

# -- names that say "secret" ------------------------------------------------------------

# One part of a name (split at _ - . and camelCase) that makes the whole name secret.
_SECRET_PARTS = {
    "password", "passwd", "passphrase", "passcode", "pwd", "pw", "secret", "secrets", "token",
    "apikey", "credential", "credentials", "sig", "signature", "privatekey", "secretkey",
    "accesskey", "accountkey", "sharedaccesskey", "authtoken", "accesstoken", "refreshtoken",
    "clientsecret", "sessiontoken", "securitytoken", "pat", "pass",
}
# Glued upper-case names: PGPASSWORD, MYSQLPWD, APIKEY.
_SECRET_SUFFIXES = ("password", "passwd", "passphrase", "secret", "token", "apikey", "accesskey",
                    "secretkey", "privatekey", "accountkey", "pwd", "pass")
# "key" is secret only after one of these: api_key, ACCESS_KEY, AccountKey, signing-key.
_KEY_OWNERS = {
    "api", "access", "secret", "private", "account", "signing", "encryption", "master", "shared",
    "app", "client", "auth", "admin", "service", "subscription", "webhook", "storage", "license",
    "sas", "primary", "secondary", "hmac", "session", "consumer", "deploy", "ssh",
}
# A part that makes the name about a secret, not the secret itself: PASSWORD_MIN_LENGTH,
# token_count, secretName, password_file, AccessKeyId, token_url.
_NOT_SECRET_PARTS = {
    "length", "len", "min", "max", "count", "counts", "file", "files", "path", "paths", "dir", "url",
    "uri", "urls", "endpoint", "env", "name", "names", "type", "types", "id", "ids", "hint", "policy",
    "reset", "field", "fields", "expires", "expiry", "expiration", "expire", "ttl", "limit", "limits",
    "header", "prefix", "regex", "pattern", "hash", "hashed", "digest", "format", "label", "placeholder",
    "input", "validator", "validation", "strength", "required", "enabled", "disabled", "mode", "provider",
    "manager", "store", "helper", "command", "cmd", "prompt", "rotation", "version", "size", "bytes",
    "timeout", "lifetime", "created", "updated", "usage", "used", "tokens", "kind", "method",
    "algorithm", "alg", "encoding", "location", "source", "ref", "var", "variable", "scope", "scopes",
    "audience", "issuer", "changed", "index", "idx", "position", "pos", "start", "end", "offset",
    "budget", "estimate", "list", "map", "dict", "class", "schema", "form",
    "error", "errors", "message", "msg", "text", "title", "description", "desc", "doc", "docs", "help",
    "button", "box", "dialog", "icon", "view", "page", "screen", "modal", "component", "rule", "rules",
    "check", "checker", "mock", "fake", "dummy", "example", "sample",
    "stream", "parser", "lexer", "tokenizer", "filter", "generator", "gen", "factory",
    "handler", "middleware", "util", "utils", "lib", "module", "exists",
    "present", "set", "is", "has", "get", "fetch", "load", "read", "write", "save", "verify",
    "validate", "compare", "match", "matches", "visible", "visibility", "toggle", "show", "hide",
    "salt", "rounds", "iterations", "cost", "age", "at", "on", "by", "for", "stdin", "stdout",
    "valid", "invalid", "expired", "storage", "cache", "cached", "callback", "request",
    "to", "of", "in", "out", "from", "with", "arn", "refs", "slot",
}
_NAME_PART = lazy_compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


def secret_name(name: str, *, url_query: bool = False) -> bool:
    """Does this key/variable/header/flag name hold a secret (``DB_PASSWORD``, ``X-Api-Key``)?"""
    if re.search(r"[密口]码|密钥|秘钥|私钥|令牌|口令", name):
        return not re.search(r"(?:学|错误|长度|规则|策略|强度|提示|重置|找回|忘记|过期|文件|路径|管理)$", name)
    parts = [p.lower() for p in _NAME_PART.findall(name)]
    if not parts or len(parts) > 8:
        return False
    if any(p in _NOT_SECRET_PARTS for p in parts):
        return False
    glued = "".join(parts)
    for i, part in enumerate(parts):
        if part in ("pass", "pw", "pat") and len(parts) == 1 and not name.isupper():
            continue  # "pass: 3 tests", "pw", "pat" alone in prose are not names of secrets
        if part in _SECRET_PARTS:
            return True
        if part == "key" and i > 0 and parts[i - 1] in _KEY_OWNERS:
            return True
    if parts == ["auth"] and name.lstrip("_") in ("auth", "AUTH"):
        return True  # .npmrc "_auth = …", docker config.json "auth": "…"
    return (name.isupper() and glued.endswith(_SECRET_SUFFIXES)) or glued in {"apikey", "authkey"}


# -- values that are secrets --------------------------------------------------------------

_PLACEHOLDER_WORDS = {
    "none", "null", "nil", "true", "false", "undefined", "str", "string", "int", "integer", "bytes",
    "bool", "boolean", "number", "object", "any", "optional", "required", "password", "passwd",
    "secret", "token", "apikey", "api_key", "key", "value", "changeme", "change_me", "placeholder",
    "example", "sample", "dummy", "fake", "test", "testing", "redacted", "hidden", "masked", "xxx",
    "todo", "tbd", "n/a", "na", "empty", "default", "bearer", "basic", "yes", "no", "on", "off",
    "env", "environ", "getenv", "secrets", "secret_key", "your", "mine", "here", "there", "set",
    "unset", "missing", "invalid", "valid", "wrong", "incorrect", "correct", "expired", "revoked",
    "rotated", "leaked", "exposed", "stored", "saved", "encrypted", "hashed", "needed",
    "pass", "fail", "failed", "ok", "okay", "foo", "bar", "baz", "qux", "abc", "abcd", "1234",
    "12345", "123456", "0000", "1111", "pwd", "user", "username", "admin",
    "root", "guest", "demo", "secure", "same", "different", "weak", "strong", "short", "long",
    "simple", "complex", "unknown", "private", "public", "dev", "prod", "production", "staging",
    "local", "localhost", "auto", "manual", "random", "generated", "new", "old", "current",
    "string?", "str?", "text", "varchar", "char", "blob", "function", "callable", "type",
}
_PLACEHOLDER = PLACEHOLDER
_PLACEHOLDER_PART = PLACEHOLDER_PART
_IDENTIFIER = IDENTIFIER
# Words glued with - or _ and no digit: 'new-access-token', 'super_secret_key', NO_TOKEN.
_WORDS = lazy_compile(r"[a-z]+(?:[_\-][a-z]+)+|[A-Z]+(?:_[A-Z]+)+|[A-Z][a-z]+(?:-[A-Z][a-z]+)+")
_CODE_VALUE = lazy_compile(r"^[A-Za-z_][\w.]*(?:\(|\[)|^(?:await|new|lambda|function|async|typeof|"
                         r"getpass|input|prompt|read|get|fetch|load)\b")


def plausible_secret(value: str, *, strict: bool, quoted: bool = False, name: str = "") -> bool:
    """A value that is likely a real secret, not a placeholder, variable, type or word.

    ``strict`` (prose separators such as ``:``, "is", 是) asks for a digit or a symbol, as
    "Password: required" or "the token is expired" must stay readable.
    """
    v = value.strip()
    if MASK in v or "REDACTED" in v:
        return False
    if len(v) >= 20 and key_material(v) and (name.lower() not in v.lower() if name else True):
        return True  # generated key bytes, also "/…" or "+…" first, also a 2,000-character body
    if len(v) < 4 or len(v) > 400:
        return False
    if v.lower() in _PLACEHOLDER_WORDS or _PLACEHOLDER.search(v) or _WORDS.fullmatch(v) \
            or _PLACEHOLDER_PART.search(v):
        return False
    if name and len(name) >= 4 and name.lower().strip("\"'$") in v.lower():
        return False  # TOKEN_EXPIRED = 'TOKEN_EXPIRED', "password": "env://POSTGRES_PASSWORD"
    if not quoted and (_CODE_VALUE.search(v) or _IDENTIFIER.fullmatch(v)):
        return False
    if quoted and " " in v and (strict or len(v.split()) > 4):
        return False  # a sentence in quotes: a label or help text, not a secret
    has_digit = any(c.isdigit() for c in v)
    has_symbol = any(not c.isalnum() for c in v.strip(".,;:!?"))
    mixed = bool(re.search(r"[a-z][A-Z]|[A-Z]{2}[a-z]", v))
    if strict and not (has_digit or has_symbol or mixed):
        return False
    if v.isdigit() and len(set(v)) <= 2:
        return False  # 0000, 1111, 1212
    return not (re.fullmatch(r"[A-Za-z]+", v) and len(v) < 6)


# -- key = value --------------------------------------------------------------------------

_ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)
_STEM = lazy_compile(
    r"""pass|pwd|pw\b(?<!\wpw)|secret|token|key|sig|credential|pat\b(?<!\wpat)|auth(?=["']?[ \t]*[:=])"""
    r"|[密口]码|口令|密钥|秘钥|私钥|令牌"
)
_NAME_CHARS = lazy_compile(r"[\w.\-]*$")
# Names whose last word is "key" but that hold no secret: a public key, a database key, a map key.
_KEY_NAME = lazy_compile(r"(?<![Pp]ublic)(?<![Pp]ub)(?<![Pp]rimary)(?<![Ff]oreign)(?<![Ss]ort)(?<![Pp]artition)"
                         r"(?<![Cc]ache)(?<![Hh]ash)(?<![Ii]dempotency)(?<![Ll]ookup)(?:[_\-]?[Kk]ey|KEY)$")
_NAME_REST = lazy_compile(r"[\w.\-]*")
_CJK_NAME_BEFORE = lazy_compile(f"[{CJK_RANGES}]{{0,6}}$")
_FILE_NAME = lazy_compile(r"(?i)\.(?:exs?|py|pyc|ts|tsx|js|jsx|mjs|json|ya?ml|txt|md|rb|go|rs|java|kt|cs|php|"
                        r"env|toml|ini|cfg|conf|pem|key|crt|csr|p12|sh|html|lock|sql|log|swift|c|h|cpp)$")
# What comes between a name and its value.
_SEPARATOR = lazy_compile(
    r"""(?P<close>\\?["'`\]]{0,2})(?:[ \t]*(?P<sep>:=|=>|==|=|->)|(?P<colon>:(?!//|:)|[ \t]*：)"""
    r"""|(?P<verb>[ \t]+(?:is\s+now|was\s+changed\s+to|has\s+been\s+changed\s+to|changed\s+to|set\s+to|"""
    r"""should\s+be|is|was)[ \t]+|[ \t]*(?:是|为|為|改成了?|改为|设为|设置为|设置成|换成了?|变成了?)))[ \t]*"""
    r"""(?:(?:is|是)[ \t]*)?(?:[:：][ \t]*)?"""
)
_QUOTED = lazy_compile(r"""\\?(?P<q>["'`“「『])(?P<v>[^"'`\n\\”」』]{1,400})\\?(?P<e>["'`”」』])""")
# A JSON string with its escapes ("…\\n…"), up to a private key's length.
_JSON_QUOTED = lazy_compile(r'(?<!\\)"(?P<v>(?:[^"\\\n]|\\[^\n]){20,20000})"')
_UNQUOTED = lazy_compile(r"""[^\s"'`<>,;\\]+""")
_CJK_VALUE = lazy_compile(r"[\x21-\x7e]+")
_TRAILING = ".,;:!?)]}>。，；：！？）】"
_PREVIOUS_WORD = lazy_compile(r"\b([A-Za-z]{2,12})[ \t]+$")
_CJK_SPACE = lazy_compile(r"(?P<close>)(?P<sep>(?!))?(?P<colon>(?!))?(?P<verb>[ \t]+)"
                          r"(?=[\x21-\x7e]{6,}(?:\s|$|[^\x00-\x7f]))")
_LINE_END = lazy_compile(r"[ \t]*(?:#.*)?(?:\n|$)")


def _assignment_spans(text: str, lowered: str) -> Iterable[Span]:
    for stem in _STEM.finditer(lowered):
        start, end = stem.start(), stem.end()
        cjk = not stem.group(0).isascii()
        if cjk:
            found = _CJK_NAME_BEFORE.search(text, max(0, start - 6), start)
            name_start, name_end = start - len(found.group(0) if found else ""), end
        else:
            found = _NAME_CHARS.search(text, max(0, start - 60), start)
            name_start = start - len(found.group(0) if found else "")
            if name_start > 0 and text[name_start - 1] == "\\" and text[name_start] in "ntr":
                name_start += 1  # an escaped newline before the name: "\npassword = …" in a repr or JSON
            rest = _NAME_REST.match(text, end)
            name_end = rest.end() if rest else end
        sep = _SEPARATOR.match(text, name_end)
        if not sep and cjk:
            sep = _CJK_SPACE.match(text, name_end)
        if not sep:
            continue
        name = text[name_start:name_end].strip(".-")
        before = text[name_start - 1] if name_start else " "
        if not name or name.startswith("-") or _FILE_NAME.search(name):
            continue  # flags (see _command_spans) and file names
        url_query = before in "?&"
        keyed = _KEY_NAME.search(name) is not None
        line_start = text.rfind("\n", 0, name_start) + 1
        # "pass = …" alone on its line is a config key (rclone, smtp sections), not "pass: 3 tests"
        keyed = keyed or (name.lower() in ("pass", "pw") and not text[line_start:name_start].strip(" \t")
                          and bool(sep.group("sep") or sep.group("colon")))
        if not secret_name(name, url_query=url_query) and not keyed:
            # "API key: …", "client secret = …", "access token is …": a name in two words
            previous = _PREVIOUS_WORD.search(text, max(0, name_start - 24), name_start)
            if cjk or not previous or not secret_name(f"{previous.group(1)}_{name}"):
                continue
        value_at = sep.end()
        quoted = _QUOTED.match(text, value_at) or _JSON_QUOTED.match(text, value_at)
        if quoted:
            v_start = v_end = m_end = 0
            v_start, v_end = quoted.start("v"), quoted.end("v")
            m_end = v_end
        else:
            m = (_CJK_VALUE if cjk else _UNQUOTED).match(text, value_at)
            if not m:
                continue
            v_start, v_end = m.start(), m.end()
            m_end = v_end
            if url_query:
                cut = [x for x in (text.find("&", v_start, v_end), text.find("#", v_start, v_end)) if x >= 0]
                v_end = min(cut, default=v_end)
            # prose ends a value at punctuation; after "=" only a comma, semicolon or bracket
            trailing = _TRAILING if not sep.group("sep") else ",;)]}>"
            while v_end > v_start and text[v_end - 1] in trailing and not _balanced(text[v_start:v_end]):
                v_end -= 1
        value = text[v_start:v_end]
        if value != text[v_start:m_end] and _PLACEHOLDER.search(text[v_start:m_end]):
            continue
        # A "name: value" line of its own reads as a config line (YAML, INI), not prose.
        config_line = not text[line_start:name_start].strip(" \t-#\"'") and _LINE_END.match(text, m_end)
        strict = not quoted and not url_query and (
            bool(sep.group("verb")) or (bool(sep.group("colon")) and not sep.group("close") and not config_line))
        literal = quoted or (name.isupper() and sep.group("sep") == "=")  # .env: DB_PASSWORD=postgres
        if keyed and not secret_name(name, url_query=url_query):
            if key_material(value, 20) or (name.lower() in ("pass", "pw") and plausible_secret(value, strict=True)):
                yield v_start, v_end
        elif plausible_secret(value, strict=strict, quoted=bool(literal), name=name):
            yield v_start, v_end


def _balanced(value: str) -> bool:
    """Keep a closing bracket that closes one opened inside the value (``pa(ss)``)."""
    last = value[-1]
    pairs = {")": "(", "]": "[", "}": "{", ">": "<", "）": "（", "】": "【"}
    return last in pairs and value.count(pairs[last]) >= value.count(last)


# -- command lines, headers, URLs ---------------------------------------------------------

_ARG = r"""(?:"(?P<dq>[^"\n]+)"|'(?P<sq>[^'\n]+)'|(?P<bare>[^\s"'`|;&<>\\]+))"""
_FLAG = lazy_compile(
    r"""(?i)-(?<![\w\-]-)-?(?P<flag>[a-z][\w\-]*(?:pass|pwd|secret|token|key|sig|credential|auth)[\w\-]*)"""
    r"""(?:=|[ \t]+)""" + _ARG
)
_COMMAND_PASSWORD = lazy_compile(
    r"""(?i)\b(?:sshpass|docker\s+login|podman\s+login|helm\s+registry\s+login|redis-cli|"""
    r"""ldap(?:search|add|modify|delete|passwd)|sqlcmd|mongo(?:sh|dump|restore)?|"""
    r"""zip|unzip|7z|htpasswd\s+-b\S*(?:\s+\S+){2})\b[^\n|;&]*?"""
    r"""\s(?:-p|-a|-w|-P)(?:[ \t]+|(?=["']))""" + _ARG
)
_MYSQL_PASSWORD = lazy_compile(r"""(?i)\b(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump|mysqlimport|"""
                             r"""mysqlsh)\b[^\n|;&]*?\s-p(?:"(?P<dq>[^"\n]+)"|'(?P<sq>[^'\n]+)'|(?P<bare>[^\s"'`|;&<>]+))""")
_CURL_USER = lazy_compile(
    r"""(?:\s|^)(?:-u|--user|--proxy-user)(?:=|[ \t]*)(?P<q>["']?)(?P<user>[^\s:"'@$]*):"""
    r"""(?P<pw>[^\s"']+)(?P=q)"""
)
_SMB_USER = lazy_compile(r"""(?:\s|^)-U[ \t]*(?P<q>["']?)[^\s%"']+%(?P<pw>[^\s"']+)(?P=q)""")
_OPENSSL_PASS = lazy_compile(r"""\bpass:(?P<pw>[^\s"']+)""")
_AUTH_HEADER = lazy_compile(
    r"""(?i)\b(?:proxy-)?authori[sz]ation\\?["']?\s*[:=]\s*\\?["']?(?:basic|bearer|token|digest|bot|apikey|"""
    r"""sso-key|negotiate|hmac|aws4-hmac-sha256)\s+(?P<v>[^\s"'\\]{6,}(?:,\s*\w+=[^\s"'\\]+)*)"""
)
_BEARER = lazy_compile(r"(?i)\bbearer\s+(?P<v>(?=[A-Za-z0-9._~+/\-]*\d)[A-Za-z0-9._~+/\-]{20,}=*)")
_URL_CREDENTIALS = lazy_compile(
    r"""(?i)\b[a-z][a-z0-9+.\-]*://(?P<user>[^\s:/@"'<>]*):(?P<pw>[^\s@/"'<>]+)@(?=[\w\[.\-])"""
)
_SQL_PASSWORD = lazy_compile(
    r"""(?i)\b(?:identified\s+(?:with\s+\w+\s+)?by|password)\s+(?:=\s*)?(?P<q>['"])(?P<v>[^'"\n]{4,})(?P=q)"""
)
_NETRC = lazy_compile(r"""(?i)\bmachine\s+\S+\s+login\s+\S+\s+password\s+(?P<v>\S+)""")
_PGPASS = lazy_compile(r"""(?<![\w.\-*:])(?:[\w.\-*]+):(?:\d+|\*):(?:[\w\-*]+):(?:[\w.\-@*]+):(?P<v>[^\s:'"]{4,})"""
                     r"""(?![^\s'"])""")
# (pattern, lower-case words of which one must be in the text for the pattern to run)
_COMMANDS: list[tuple[LazyPattern, tuple[str, ...]]] = [
    (_COMMAND_PASSWORD, ("sshpass", "login", "redis-cli", "ldap", "sqlcmd", "mongo", "zip", "7z", "htpasswd")),
    (_MYSQL_PASSWORD, ("mysql", "mariadb")),
    (_SQL_PASSWORD, ("identified", "password")),
    (_NETRC, ("machine",)),
    (_PGPASS, (":",)),
]


def _arg(m: re.Match[str]) -> tuple[int, int] | None:
    for group in ("dq", "sq", "bare", "v", "pw"):
        if group in m.re.groupindex and m.group(group) is not None:
            return m.span(group)
    return None


def _command_spans(text: str, lowered: str) -> Iterable[Span]:
    if "-" in text:
        for m in _FLAG.finditer(text):
            span = _arg(m)
            if span and secret_name(m.group("flag")) and plausible_secret(
                    text[span[0]:span[1]], strict=False, quoted=m.group("bare") is None):
                yield span
    for pattern, words in _COMMANDS:
        if any(w in lowered for w in words):
            for m in pattern.finditer(text):
                span = _arg(m)
                if span and plausible_secret(text[span[0]:span[1]], strict=False, quoted=True):
                    yield span
    if "-u" in text or "--user" in text or "-U" in text or "pass:" in text:
        for pattern in (_CURL_USER, _SMB_USER, _OPENSSL_PASS):
            for m in pattern.finditer(text):
                if plausible_secret(m.group("pw"), strict=False, quoted=True):
                    yield m.span("pw")
    if "uthori" in lowered or "bearer" in lowered:
        for pattern in (_AUTH_HEADER, _BEARER):
            for m in pattern.finditer(text):
                if plausible_secret(m.group("v"), strict=False, quoted=True):
                    yield m.span("v")
    if "://" in text:
        for m in _URL_CREDENTIALS.finditer(text):
            pw = m.group("pw")
            if pw.lower() not in ("password", "pass", "pwd", "pw", "secret", "passwd") and len(pw) >= 3 \
                    and not _PLACEHOLDER.search(pw) and MASK not in pw:
                yield m.span("pw")


# -- a random-looking string right after a secret word ------------------------------------

# Matched on the lower-cased text; the word boundary before it is checked in code.
_PROSE_KEYWORD = lazy_compile(
    r"(?:password|passphrase|passcode|secret(?:\s+access)?(?:\s+key)?|api[\s_\-]?key|access\s+key|creds|"
    r"(?:master|encryption|license|app|application)[\s_.\-]?key|"
    r"auth(?:entication)?\s+token|access\s+token|refresh\s+token|token|credentials?|private\s+key|"
    r"signing\s+key|client\s+secret|webhook\s+secret)\b|[密口]码|密钥|秘钥|私钥|令牌"
)
_RANDOM_TOKEN = lazy_compile(r"[A-Za-z0-9+/][A-Za-z0-9+/=_\-.~!@#$%^&*]{5,}")
# Between a secret word and its value: only a colon, "is", quotes or spaces ("token: 3f2a…").
_TIGHT_GAP = lazy_compile(r"[\s:=：\"'`]*(?:(?:is|was|是|为)[\s:：\"'`]*)?")
_SHORT_SECRET_WORD = lazy_compile(r"(?:password|passwd|passphrase|passcode|pwd|[密口]码)$")
# "the password for the admin account is X", "use X as the new password"
_PASSWORD_FOR = lazy_compile(
    r"(?i)\b(?:password|passphrase|passcode|pin|api\s+key|token|secret)\s+(?:for|of|to|on)\s+[^.\n:]{1,40}?"
    r"\s+(?:is|was|=|:)\s+(?P<q>[\"'`]?)(?P<v>[^\s\"'`]{4,})(?P=q)"
)
_USE_AS_PASSWORD = lazy_compile(
    r"(?i)\b(?:use|used|using|with|set|chose|picked)\s+(?P<q>[\"'`]?)(?P<v>[^\s\"'`]{4,})(?P=q)\s+as\s+"
    r"(?:the\s+|my\s+|our\s+|your\s+|a\s+)?(?:new\s+|admin\s+|root\s+)?(?:password|passphrase|passcode|api\s+key|token|secret)\b"
    r"(?!\s+(?:id|ids|name|type|field|format|length|prefix|count|limit)\b)"
)
_APP_PASSWORD = lazy_compile(r"(?i)(?:app(?:lication)?[\s\-]+password|应用专用密码)\W{0,6}(?P<v>[a-z]{4}(?:\s?[a-z]{4}){3})\b")
_HASH_WORDS = lazy_compile(r"(?i)\b(?:commit|sha\d*|hash|digest|checksum|md5|revision|rev|uuid|build|version)\b")


_SENTENCE_END = lazy_compile(r"\n|[.!?。！？](?:\s|$)")


def _prose_spans(text: str, lowered: str) -> Iterable[Span]:
    for kw in _PROSE_KEYWORD.finditer(lowered):
        if kw.start() and lowered[kw.start() - 1].isalnum() and kw.group(0).isascii():
            continue
        window_end = min(len(text), kw.end() + 80)
        stop = _SENTENCE_END.search(text, kw.end(), window_end)
        limit = stop.start() if stop else window_end
        for m in _RANDOM_TOKEN.finditer(text, kw.end(), limit):
            if m.start() and text[m.start() - 1] in ":/.@":
                break  # part of a URL, a path or an address
            value = m.group(0).rstrip(".,;:!?")
            if "=" in value.rstrip("="):
                continue  # NAME=value: the assignment rule masks the value and keeps the name
            if value.isalpha():
                continue  # a word ("for the infrastructure account is …"): read on
            tight = bool(_TIGHT_GAP.fullmatch(text, kw.end(), m.start()))
            near = text[max(0, kw.start() - 40):m.start()]
            hex_key = tight and hex_token(value) and not _HASH_WORDS.search(near)
            # right after "password": a short one with a digit counts ("password Tr0ub4dor&3")
            short = 6 if tight and _SHORT_SECRET_WORD.search(kw.group(0)) else 12
            if len(value) < short:
                continue
            if (looks_random(value, short) or hex_key) and MASK not in text[max(0, m.start() - 1):m.end() + 1]:
                yield m.start(), m.start() + len(value)
            break
    for pattern in (_PASSWORD_FOR, _USE_AS_PASSWORD, _APP_PASSWORD):
        for m in pattern.finditer(text):
            value = m.group("v")
            if pattern is _APP_PASSWORD or plausible_secret(value, strict=True, quoted=bool(m.groupdict().get("q"))):
                yield m.span("v")


# -- putting it together --------------------------------------------------------------------


def _protected(text: str) -> list[Span]:
    """Regions never masked: data URIs and lockfile integrity hashes (long base64 runs)."""
    spans = [m.span() for m in re.finditer(r"data:[\w/+.\-]+;base64,[A-Za-z0-9+/=]+", text)]
    spans += [m.span() for m in re.finditer(r"(?i)\b(?:sha(?:1|256|384|512))[-:][A-Za-z0-9+/=]{20,}", text)]
    return spans


# Something every detector needs: a long token-like run, a name or word that says secret, a
# URL with credentials, a short command-line option, a card-length number or a private key.
# Text without any (most prose, ids, timestamps) is answered without running the detectors.
_MAYBE = lazy_compile(
    r"[A-Za-z0-9+/=_\-~%]{16,}|(?i:pass|pwd|\bpw\b|secret|token|key|sig|credential|auth|bearer|\bpat\b|"
    r"private|identified|machine|cred)|://[^\s/@]*:|\s-[a-zA-Z]|pass:|:(?:\d{2,5}|\*):|(?:\d[ \-]?){12,}\d|[密口]码|口令|密钥|秘钥|私钥|令牌"
)


# An escaped newline or tab before a token ("…\\nghp_…" in a log line's repr or in JSON): seen
# as spaces of the same length, so the token starts at a word boundary.
_ESCAPE = lazy_compile(r"\\+[ntr](?=[A-Za-z0-9+/\-])")


def _unescaped(text: str) -> str:
    return _ESCAPE.sub(lambda m: " " * len(m.group(0)), text) if "\\" in text else text


def _plausible_value(value: str) -> bool:
    return plausible_secret(value, strict=False, quoted=True)


def find_secrets(text: str) -> list[Span]:
    """Spans of ``text`` (sorted, merged) that are secrets."""
    if not text or len(text) < 6 or not _MAYBE.search(text):
        return []
    text = _unescaped(text)  # same length and positions
    lowered = text.translate(_ASCII_LOWER)  # same length and positions as text
    spans: list[Span] = list(token_spans(text))
    spans += context_spans(text, secret_name, _plausible_value)
    spans += card_spans(text)
    spans += _assignment_spans(text, lowered)
    spans += _command_spans(text, lowered)
    spans += _prose_spans(text, lowered)
    if not spans:
        return []
    protected = _merge(_protected(text))
    if protected:
        starts = [p[0] for p in protected]

        def inside(span: Span) -> bool:
            i = bisect.bisect_right(starts, span[0]) - 1
            return i >= 0 and span[1] <= protected[i][1]

        spans = [s for s in spans if not inside(s)]
    return _merge(spans)


def _merge(spans: list[Span]) -> list[Span]:
    merged: list[Span] = []
    for start, end in sorted(spans):
        if end <= start:
            continue
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


# Every write masks its free text again (turns, candidates, history rows that repeat a
# candidate's text, settings …), so one short text is scanned many times on its way into the
# file: recent answers are kept. Masking is a pure function of the text, so a cached answer
# is the answer; long texts (pasted logs) are rare and not kept.
_CACHED_CHARS = 2048
_CACHE_SIZE = 8192


def mask_secrets(text: str) -> tuple[str, bool]:
    """Replace every secret in ``text`` by ``[REDACTED]``; say whether there was one."""
    if len(text) <= _CACHED_CHARS:
        return _mask_cached(text)
    return _mask(text)


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _mask_cached(text: str) -> tuple[str, bool]:
    return _mask(text)


def secret_spans(text: str) -> list[Span]:
    """:func:`find_secrets`, remembered for short texts (every write scans its text again)."""
    return list(_spans_cached(text)) if len(text) <= _CACHED_CHARS else find_secrets(text)


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _spans_cached(text: str) -> tuple[Span, ...]:
    return tuple(find_secrets(text))


def _mask(text: str) -> tuple[str, bool]:
    spans = secret_spans(text)
    return apply_mask(text, spans), bool(spans)


def apply_mask(text: str, spans: list[Span]) -> str:
    """``text`` with each of ``spans`` (sorted, not overlapping) replaced by :data:`MASK`."""
    if not spans:
        return text
    out: list[str] = []
    at = 0
    for start, end in spans:
        out.append(text[at:start])
        out.append(MASK)
        at = end
    out.append(text[at:])
    return "".join(out)


def redact(text: str | None) -> str | None:
    """``text`` with secrets masked (``None`` stays ``None``): what every sink stores."""
    if not text or not isinstance(text, str):
        return text
    return mask_secrets(text)[0]


def redact_value(value: Any) -> Any:
    """Mask secrets in every string inside a JSON-like value (dicts, lists, keys too)."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {redact(k) if isinstance(k, str) else k: redact_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [redact_value(v) for v in value]
    return value
