"""Safety flags on candidate text: ``secret`` (masked), ``pii`` and ``instruction``.

A flagged candidate is shown with a warning in the dashboard and is never auto-approved.
Secrets are masked before anything is stored, so no candidate, memory, export or recall
can contain them.
"""

from __future__ import annotations

import re

_SECRET_PATTERNS = [
    re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)", re.S),
    re.compile(r"\bsk-(?:proj-|ant-)?[A-Za-z0-9_\-]{16,}"),
    re.compile(r"\bgh[pousr]_[A-Za-z0-9]{30,}"),
    re.compile(r"\bgithub_pat_[A-Za-z0-9_]{30,}"),
    re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"),
    re.compile(r"\bxox[baprs]-[A-Za-z0-9\-]{10,}"),
    re.compile(r"\bAIza[0-9A-Za-z_\-]{35}\b"),
    re.compile(r"\beyJ[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}"),
]
# key = value assignments whose key says secret; the value is masked, the key kept.
_ASSIGNMENT = re.compile(
    r"(?i)\b((?:[a-z_]*_)?(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key)"
    r"|密码|口令)(\s*[:=：]\s*)([\"']?)([^\s\"',;]{4,})\3"
)
_URL_PASSWORD = re.compile(r"(\b[a-z][a-z0-9+.\-]*://[^\s:/@]+:)([^\s@/]+)(@)", re.I)

_PII_PATTERNS = [
    re.compile(r"\b[A-Za-z0-9._%+\-]+@[A-Za-z0-9.\-]+\.[A-Za-z]{2,}\b"),
    re.compile(r"(?<!\d)(?:\+?86[\s\-]?)?1[3-9]\d[\s\-]?\d{4}[\s\-]?\d{4}(?!\d)"),
    re.compile(r"(?<!\d)[1-9]\d{5}(?:19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{3}[\dXx](?!\d)"),
    re.compile(r"(?<![\w\d])\+?1?[\s.\-]?\(?\d{3}\)?[\s.\-]\d{3}[\s.\-]\d{4}(?!\d)"),
    re.compile(r"\b\d{3}-\d{2}-\d{4}\b"),
]
_INSTRUCTION_PATTERNS = [
    re.compile(r"(?i)\b(?:ignore|disregard|forget)\s+(?:all\s+|any\s+)?(?:the\s+)?(?:previous|prior|above|earlier)\s+(?:instructions|prompts?|rules)"),
    re.compile(r"(?i)\byou\s+are\s+now\b|\bact\s+as\s+(?:an?\s+)?(?:unrestricted|jailbroken)"),
    re.compile(r"(?i)^\s*(?:always|never)\s+(?:run|execute|call|use|delete|push|send)\b"),
    re.compile(r"(?i)\bsystem\s+prompt\b|<\s*/?\s*system\s*>|\[\s*INST\s*\]"),
    re.compile(r"忽略(?:之前|以上|前面|先前)的?(?:所有)?(?:指令|指示|提示)"),
    re.compile(r"^\s*(?:你必须|你要始终|永远不要|务必总是)"),
]

MASK = "[REDACTED]"


def mask_secrets(text: str) -> tuple[str, bool]:
    found = False

    def sub(pattern: re.Pattern[str], repl: str, value: str) -> str:
        nonlocal found
        new, n = pattern.subn(repl, value)
        found = found or n > 0
        return new

    for pattern in _SECRET_PATTERNS:
        text = sub(pattern, MASK, text)
    text = sub(_ASSIGNMENT, rf"\1\2\3{MASK}\3", text)
    text = sub(_URL_PASSWORD, rf"\1{MASK}\3", text)
    return text, found


def scan(text: str) -> tuple[str, tuple[str, ...]]:
    """Return the text with secrets masked, and the flags that apply to it."""
    masked, has_secret = mask_secrets(text)
    flags: list[str] = []
    if has_secret:
        flags.append("secret")
    if any(p.search(masked) for p in _PII_PATTERNS):
        flags.append("pii")
    lines = masked.splitlines()
    if any(p.search(line) for line in lines for p in _INSTRUCTION_PATTERNS):
        flags.append("instruction")
    return masked, tuple(flags)
