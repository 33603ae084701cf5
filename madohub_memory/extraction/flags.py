"""Safety flags on candidate text: ``secret`` (masked), ``pii`` and ``instruction``.

A flagged candidate is shown with a warning in the dashboard and is never auto-approved.
Secrets are masked before anything is stored, so no candidate, memory, export or recall
can contain them.

False positives are measured on the dev Claude Code transcripts and ChatGPT export
(``bench/extraction_quality.py`` section ``flags``): placeholders (``your_api_key_here``),
environment look-ups (``os.environ[...]``) and code (``password: str``, ``token = make()``)
are not flagged as secrets.
"""

from __future__ import annotations

import re

from madohub_memory.core.text import clean_text

# -- secrets ------------------------------------------------------------------------------

_SECRET_PATTERNS = [
    re.compile(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----.*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\Z)", re.S),
    re.compile(r"\bsk-(?:proj-|ant-(?:api\d\d-)?|live-|svcacct-)?[A-Za-z0-9_\-]{20,}"),  # OpenAI, Anthropic
    re.compile(r"\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}"),  # Stripe
    re.compile(r"\bgh[pousr]_[A-Za-z0-9]{30,}"),  # GitHub
    re.compile(r"\bgithub_pat_[A-Za-z0-9_]{30,}"),
    re.compile(r"\bglpat-[A-Za-z0-9_\-]{20,}"),  # GitLab
    re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"),  # AWS access key id
    re.compile(r"\bxox[baprs]-[A-Za-z0-9\-]{10,}"),  # Slack
    re.compile(r"\bhooks\.slack\.com/services/[A-Za-z0-9/]{20,}"),
    re.compile(r"\bAIza[0-9A-Za-z_\-]{35}\b"),  # Google
    re.compile(r"\bhf_[A-Za-z0-9]{30,}\b"),  # Hugging Face
    re.compile(r"\bnpm_[A-Za-z0-9]{36}\b"),
    re.compile(r"\bSG\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9_\-]{43}\b"),  # SendGrid
    re.compile(r"\beyJ[A-Za-z0-9_\-]{10,}\.eyJ[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}"),  # JWT
    re.compile(r"(?i)\b(?:authorization:\s*)?bearer\s+(?=[A-Za-z0-9._\-]*\d)[A-Za-z0-9._\-]{24,}"),
]
_KEY_WORD = (
    r"(?:[A-Za-z_]*[_\-.])?(?:password|passwd|passphrase|pwd|secret|secret[_\-]?key|token|auth[_\-]?token|"
    r"access[_\-]?token|refresh[_\-]?token|api[_\-]?key|apikey|access[_\-]?key|private[_\-]?key|"
    r"client[_\-]?secret)|密码|口令|密钥|令牌"
)
# key = value / key: value whose key says secret; the value is masked, the key kept.
_ASSIGNMENT = re.compile(
    rf"(?i)(?<![A-Za-z0-9_$])((?:{_KEY_WORD}))([\"']?\s*(?:是|为)?\s*(?:[:=：]|=>)\s*|\s*(?:是|为)\s*)([\"'`]?)([^\s\"'`,;()\[\]{{}}<>]{{4,}})\3(?![(\[.\w])"
)
_URL_PASSWORD = re.compile(r"(\b[a-z][a-z0-9+.\-]*://[^\s:/@]+:)([^\s@/]+)(@)", re.I)
_PLACEHOLDER = re.compile(
    r"(?i)^(?:your|my|the|an?|some|example|sample|dummy|placeholder|fake|test|changeme|redacted|xxx+|\*+|"
    r"none|null|nil|true|false|str|string|int|bytes|optional|any|required|env|os|process|secrets?|"
    r"settings|config|self|request|form|args|kwargs|params|data|input|getenv|environ|password|passwd|"
    r"pwd|token|api_?key|secret_?key|value|foo|bar|abc|123|1234|12345|123456)(?:$|[_\-.\d])"
    r"|secret|password|passwd|changeme|example|placeholder"
    r"|here$|xxxx|\.\.\.|…|^\$|^%|^\{|^<|^\[|^os\.|^env\.|^process\.|^settings\.|^config\."
)


def _secretish(sep: str, value: str) -> bool:
    """A value that plausibly is a real secret, not a placeholder, variable or type."""
    if _PLACEHOLDER.search(value):
        return False
    if "=" not in sep and not re.search(r"[0-9]", value) and not re.search(r"[^A-Za-z]", value):
        return False  # "Secret: Choose", "password: hunter" in prose is too ambiguous
    return not re.fullmatch(r"[A-Z][a-z]+|[a-z]+_[a-z_]+|[a-z]+[A-Z][A-Za-z]+", value)


def mask_secrets(text: str) -> tuple[str, bool]:
    """Replace every secret in ``text`` by ``[REDACTED]``; say whether there was one."""
    found = False

    def sub(pattern: re.Pattern[str], repl, value: str) -> str:
        nonlocal found
        new, n = pattern.subn(repl, value)
        found = found or n > 0
        return new

    for pattern in _SECRET_PATTERNS:
        text = sub(pattern, MASK, text)

    def assignment(m: re.Match[str]) -> str:
        nonlocal found
        if not _secretish(m.group(2), m.group(4)) or m.group(4) == MASK:
            return m.group(0)
        found = True
        return f"{m.group(1)}{m.group(2)}{m.group(3)}{MASK}{m.group(3)}"

    text = _ASSIGNMENT.sub(assignment, text)

    def url(m: re.Match[str]) -> str:
        nonlocal found
        if _PLACEHOLDER.search(m.group(2)) or m.group(2) == MASK:
            return m.group(0)
        found = True
        return f"{m.group(1)}{MASK}{m.group(3)}"

    text = _URL_PASSWORD.sub(url, text)
    return text, found


# -- personal data ------------------------------------------------------------------------

# Every e-mail address counts, documentation ones (@example.com) too: cheap to review, and
# a flag only keeps a candidate out of auto-approve.
_EMAIL = re.compile(r"\b[A-Za-z0-9._%+\-]+@([A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,})\b")
_PII_PATTERNS = [
    # Chinese mobile numbers (+86 optional) and landlines like 010-12345678
    re.compile(r"(?<![\d\-])(?:\+?86[\s\-]?)?1[3-9]\d[\s\-]?\d{4}[\s\-]?\d{4}(?![\d\-])"),
    re.compile(r"(?<![\d\-])0\d{2,3}-\d{7,8}(?![\d\-])"),
    # Chinese resident ID card (18 digits, birth date inside, last may be X)
    re.compile(r"(?<!\d)[1-9]\d{5}(?:19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{3}[\dXx](?![\dA-Za-z])"),
    # North American numbers with separators: (555) 123-4567, 555-123-4567, +1 555 123 4567
    re.compile(r"(?<![\w\-.])(?:\+1[\s.\-]?)?\(?[2-9]\d{2}\)?[\s.\-]\d{3}[\s.\-]\d{4}(?![\d\-.])"),
    # International numbers written with a + and a country code: +31 6-41047445, +44 20 7946 0958
    re.compile(r"(?<![\w+])\+[1-9]\d{0,2}[\s\-]?(?:\(?\d{1,4}\)?[\s\-]?){2,4}\d{2,4}(?![\d\-])"),
    # US social security number
    re.compile(r"(?<![\d\-])\d{3}-\d{2}-\d{4}(?![\d\-])"),
]
_PII_CONTEXT = re.compile(r"(?i)(?:phone|tel|mobile|cell|手机|电话|身份证|ID card|SSN)[\s:：号码]*[+\d(][\d\s()\-]{6,}\d")

# -- instructions to the agent / prompt injection ----------------------------------------

_INSTRUCTION_PATTERNS = [
    re.compile(r"(?i)\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|every\s+)?(?:of\s+)?(?:the\s+|your\s+|my\s+)?"
               r"(?:previous|prior|above|earlier|preceding|original|system)\s+(?:instructions|prompts?|rules|directions|messages)"),
    re.compile(r"(?i)\byou\s+are\s+now\s+(?:a|an|in|DAN|free|no longer)\b|\bact\s+as\s+(?:an?\s+)?(?:unrestricted|jailbroken|uncensored)"
               r"|\bdeveloper\s+mode\s+(?:enabled|on)\b|\bDAN\s+mode\b"),
    re.compile(r"(?i)^\s*(?:[-*]\s*)?(?:always|never)\s+(?:run|execute|call|use|delete|remove|push|send|commit|"
               r"approve|reply|respond|answer|include|add|skip|disable|print|output|reveal|upload)\b"),
    re.compile(r"(?i)^\s*(?:you\s+(?:must|should always|shall|will always|are required to)|from\s+now\s+on,?\s+(?:you|always|never))\b"),
    re.compile(r"(?i)\b(?:reveal|print|show|repeat|output)\s+(?:your|the)\s+(?:system\s+prompt|hidden\s+instructions|initial\s+instructions)"
               r"|\bsystem\s+prompt\s*:|<\s*/?\s*system\s*>|\[\s*/?INST\s*\]|<\|im_start\|>|<<\s*SYS\s*>>"),
    re.compile(r"(?i)^\s*you\s+are\s+(?:ChatGPT|Claude|an?\s+(?:helpful|AI|large language)\b)"),
    re.compile(r"(?i)\bdo\s+not\s+(?:tell|inform|let)\s+the\s+user\b|\bwithout\s+telling\s+the\s+user\b"
               r"|\bnew\s+instructions\s*:"),
    re.compile(r"忽略(?:之前|以上|前面|先前|上面|所有)的?(?:所有|全部)?(?:指令|指示|提示|规则|设定)|无视(?:之前|以上|前面)的?(?:指令|规则)"),
    re.compile(r"^\s*(?:你必须|你要始终|你应当始终|你应该始终|你永远|永远不要|务必总是|始终要|总是要|从现在开始，?你)"),
    re.compile(r"(?:系统提示词|系统提示)\s*[:：]|不要告诉用户|(?:泄露|输出|显示)(?:你的)?系统提示"),
]

MASK = "[REDACTED]"


def scan(text: str) -> tuple[str, tuple[str, ...]]:
    """Return the text with secrets masked (and invisible characters removed), and its flags."""
    masked, has_secret = mask_secrets(clean_text(text) if text else text)
    flags: list[str] = []
    if has_secret:
        flags.append("secret")
    if _has_pii(masked):
        flags.append("pii")
    lines = masked.splitlines() or [masked]
    if any(p.search(line) for line in lines for p in _INSTRUCTION_PATTERNS):
        flags.append("instruction")
    return masked, tuple(flags)


def _has_pii(text: str) -> bool:
    if _EMAIL.search(text):
        return True
    return any(p.search(text) for p in _PII_PATTERNS) or bool(_PII_CONTEXT.search(text))
