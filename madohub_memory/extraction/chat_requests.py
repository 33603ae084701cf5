"""What a request to a chat assistant says about the person who makes it.

People rarely tell ChatGPT about themselves; they tell it what they need, and the facts come
along inside the request: "I want you to act as a requirements engineer for a webshop that
is developed in Python/Django. The webshop rents out payment terminals…", "Can you give me
an architecture of a small webshop in Google Cloud? The webshop has around 10 customers a
day…", "I'm developing a django app, and I get the following error, can you explain…?".
The general pass drops such turns whole (a prompt is material for the model, a question
states nothing), so this module reads them for two things only:

- **context**: sentences that describe the person's own situation: "I have / I'm building /
  I'm migrating …", "my shop uses …", and present-tense descriptions of a durable thing the
  request introduced ("a webshop … The webshop rents out …"); the task around them ("act
  as…", "you will write…", "I will describe…", "for each step…") is left out;
- **answer style**: a small closed set of standing wishes about answers (complete code
  without skipped parts, only the code without explanations), which people repeat across
  conversations; any other format request ("for each step a spec in 1-3 lines") is a
  one-off instruction and stays out.

Pasted material after the request (code, a CV, a document) is never read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from madohub_memory.extraction.rewrite import rewrite_first_person_en

MAX_HEAD_CHARS = 1500
MAX_CONTEXT_CHARS = 330  # a few sentences; the draft is cut at 360

# -- is this a request to the assistant? ---------------------------------------------------

_REQUEST = re.compile(
    r"\b(?:can|could|would|will) you\b|\bi (?:want|need|would like|'d like) you to\b|\bact as\b|\bplease\b"
    r"|^(?:how|what|which|why|where|when) (?:do|does|can|could|should|would|is|are) (?:i|we|you)\b"
    r"|\b(?:give|show|tell|help) me\b|\bi will (?:give|describe|provide|send|paste) you\b"
    r"|\b(?:how|what|which|why|where|when) (?:do|does|can|could|should|would|is|are) (?:i|we)\b|\bshould (?:i|we)\b"
    r"|\bwhat(?:'s| is) the (?:best|right|easiest|simplest|correct)\b|\b(?:review|explain|write|summari[sz]e|"
    r"translate|generate|create|fix|debug|suggest|recommend) (?:this|the|a|an|me|my|our|some)\b",
    re.I | re.M,
)

# -- the part of the turn the person wrote before any pasted material ----------------------

# A line that starts pasted material: code, markup, a table, a quote, a list of data.
_MATERIAL_LINE = re.compile(
    r"^\s*(?:```|<|\{|\$|>|#|//|/\*|\*|•|·|\d+[.)]\s|[-+]\s|(?:class|def|function|public|private|import|from"
    r"|create|insert|select|update|delete|alter)\b|[A-Za-z_][\w.]*\s*[=(])|^\s{4,}|\t",
    re.I,
)
# A line that announces material: "The first text I want you to process is:", "as follows:".
_ANNOUNCES = re.compile(r"[:：]\s*$|\b(?:as follows|the following)\b[^.?!]*$", re.I)


def request_head(text: str) -> str:
    """The person's own lines at the top of a turn, up to the first pasted material."""
    lines: list[str] = []
    size = 0
    for line in text[: MAX_HEAD_CHARS + 200].splitlines():  # a 5 MB pasted log is never split whole
        if _MATERIAL_LINE.match(line):
            break
        lines.append(line)
        size += len(line) + 1
        if size > MAX_HEAD_CHARS or _ANNOUNCES.search(line):
            break
    head = "\n".join(lines)
    # "… is developed in Python/Django. The feature I want to develop is as follows:" : the
    # announcing sentence itself only points at what follows.
    return head[:MAX_HEAD_CHARS]


_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'(])|\n+")
_NO_END = re.compile(r"(?:\b[Ee]\.g|\b[Ii]\.e|\betc|\bvs|\b[MD]rs?|\bMs|\bSt|\bcf)\.$")


def _sentences(text: str) -> list[str]:
    out: list[str] = []
    for piece in (p.strip() for p in _SPLIT.split(text)):
        if not piece:
            continue
        if out and _NO_END.search(out[-1]):
            out[-1] = f"{out[-1]} {piece}"
        else:
            out.append(piece)
    return out


# -- context statements ---------------------------------------------------------------------

# Durable things a person has and comes back to: their shop, app, company, course, team…
_THING = (
    r"(?:web ?shop|e-?commerce (?:site|shop|platform)|online (?:shop|store)|shop|store|website|web ?site|site"
    r"|web ?app(?:lication)?|app|application|company|business|start-?up|team|project|product|platform|service"
    r"|saas|api|back-?end|front-?end|database|system|game|blog|course|thesis|club|organi[sz]ation|firm|agency"
    r"|restaurant|practice|code ?base|repo(?:sitory)?|server|cluster|plugin|library|package|bot|newsletter"
    r"|podcast|channel|household|family|home|garden|farm|band|studio|clinic|school|classroom|(?:data )?warehouse"
    r"|(?:data )?pipeline|infrastructure|infra|stack|monorepo|cluster|homelab|network|website|store|shop)"
)
# "a small webshop in Google Cloud", "a webshop that is developed in Python/Django", "my django app"
_INTRO = re.compile(
    rf"\b(?:a|an|my|our)\s+(?P<mods>(?:[\w/+.#-]+\s+){{0,3}}?)(?P<noun>{_THING})"
    r"(?=\s*(?:[,.?!;:]|$)|\s+(?:in|on|for|that|which|with|built|developed|written|hosted|running|where|to|and|or|of)\b)"
    r"(?P<post>(?:\s+(?:in|on)\s+(?!the\s+(?:form|order|way|case)\b)(?:[A-Z][\w/+.#-]*|the\s+cloud)(?:\s+[A-Z][\w/+.#-]*){0,3})?"
    r"(?:,?\s+(?:that|which)\s+(?:is|are)\s+(?:built|developed|written|hosted|deployed|running|made)\s+"
    r"(?:in|on|with)\s+[\w/+.#-]+(?:\s+(?:and|or|/)\s+[\w/+.#-]+)?)?)",
    re.I,
)
_PRESENT = (
    r"(?:has|have|is|are|uses|use|runs|run|rents|rent|sells|sell|offers|offer|needs|need|serves|serve|contains"
    r"|stores|targets|supports|lets|allows|provides|gets|receives|handles|depends|consists|lives|works|sends"
    r"|shows|keeps|tracks|processes|accepts|connects|talks|integrates|operates|covers|includes|focuses)"
)
_DESCRIPTION = re.compile(
    rf"^(?:the|this|my|our)\s+(?:[\w-]+\s+)?(?P<noun>{_THING})\s+(?:also\s+|only\s+|currently\s+|mainly\s+"
    rf"|already\s+|still\s+)?{_PRESENT}\b",
    re.I,
)
_CONTINUATION = re.compile(rf"^it\s+(?:also\s+|only\s+|currently\s+|mainly\s+|already\s+)?{_PRESENT}\b", re.I)
# "I have pieces of PHP code…", "I'm migrating our app from…", "we run a small bakery"
_SITUATION = re.compile(
    r"^(?:so\s+|now\s+|currently\s+|indeed\s+)?(?:(?:i'm|i am|we're|we are)\s+(?:currently\s+|now\s+|still\s+)?"
    r"(?:developing|building|working on|migrating|porting|moving|rewriting|converting|transpiling|running"
    r"|maintaining|creating|writing|studying|learning|preparing for|starting|designing|hosting|deploying)\s+"
    r"(?:a|an|my|our|the|some|pieces)\b"
    r"|(?:i|we)\s+(?:have|own|run|maintain|develop|build|manage|host)\s+(?:a|an|my|our|some|pieces of|several)\b"
    # what the person's work runs on: "we use Postgres 14 on RDS", "I deploy on Fly.io"
    r"|(?:i|we)\s+(?:use|deploy (?:on|to)|host (?:on|at)|run (?:on|in))\s+(?-i:[A-Z0-9])"
    # who the person is: "I am a 35-year-old nurse", "I work as a data engineer", "I live in Utrecht"
    r"|(?:i'm|i am)\s+(?:a|an)\s+(?!bit\b|little\b|lot\b|big fan\b|fan\b|huge\b|total\b|complete\b)[\w-]+"
    r"|i\s+(?:work|live|study|teach)\s+(?:as|at|for|in)\b|(?:i'm|i am)\s+(?:based|located)\s+in\b)",
    re.I,
)
# The task around the context: addressed to the model, steps, formats, examples.
_TASK = re.compile(
    r"\byour?\b(?!\s+can\s+(?:order|rent|buy|book))|\bplease\b|\bact as\b|\bi will\b|\bi'll\b|\bfor each\b|\bexample\b"
    r"|\bshould\b|\bmust\b|\bprompt\b|\bchatgpt\b|\bstep\b|\bformat\b|\bthe following\b|\bbelow\b|\bfollows\b",
    re.I,
)
_CODE_LIKE = re.compile(r"[{}<>`|\\]|\w\(|\b\w+\s*=\s*\S|://")
# "…, that I want you to transpile into Django" -> "… to transpile into Django"
_WANT_YOU = re.compile(r",?\s+(?:that|which)\s+i\s+(?:want|need|would like|'d like)\s+you\s+to\s+", re.I)
_CLAUSE_CUT = re.compile(r",\s*(?:and|but|so)\s+|;\s+|,\s*(?=(?:can|could|would|will)\s+you\b)", re.I)


def _situation(clause: str) -> bool:
    """A first-person statement of the person's situation (``_SITUATION``)."""
    return bool(_SITUATION.match(clause))


@dataclass(frozen=True)
class Found:
    """A statement for the queue: its content (third person), kind and strength."""

    content: str
    kind: str
    strength: float


def _subject(intro: re.Match[str], subject: str) -> str:
    """"a small webshop in Google Cloud" -> "User's small webshop in Google Cloud";
    "a webshop that is developed in Python/Django" -> "User's webshop, developed in Python/Django,"."""
    mods = intro.group("mods").strip()
    mods = re.sub(r"(?i)^(?:new|simple|basic)\s*", "", mods)
    noun = intro.group("noun")
    post = intro.group("post") or ""
    post = post.rstrip(".,;:")
    relative = re.search(r"(?i),?\s+(?:that|which)\s+(?:is|are)\s+(.+)$", post)
    place = post[: relative.start()].strip() if relative else post.strip()
    out = f"{subject}'s {mods + ' ' if mods else ''}{noun}{' ' + place if place else ''}"
    if relative:
        out += f", {relative.group(1).strip()},"
    return out


def _third_person(sentence: str, subject: str) -> str:
    text = rewrite_first_person_en(sentence, subject)
    return text[0].upper() + text[1:] if text else text


def context_statement(text: str, subject: str = "User", *, zh: bool = False) -> Found | None:
    """The person's own situation stated inside a request (see the module doc), as one
    statement, or ``None`` (``zh``: the turn is Chinese and ``subject`` is "用户")."""
    if zh:
        return _zh_context(text, subject)
    head = request_head(text)
    if not head.strip() or not _REQUEST.search(head):
        return None
    sentences = _sentences(head)
    intros: dict[str, re.Match[str]] = {}
    kept: list[str] = []
    described = False  # the previous kept sentence described a thing ("It also has…" may follow)
    for sentence in sentences:
        for m in _INTRO.finditer(sentence):
            intros.setdefault(_norm(m.group("noun")), m)
        plain = sentence.rstrip()
        if plain.endswith(("?", ":")) and not _situation(plain):
            described = False
            continue
        desc = _DESCRIPTION.match(plain)
        if desc and not _TASK.search(plain) and not _CODE_LIKE.search(plain):
            noun = _norm(desc.group("noun"))
            owned = re.match(r"(?i)(?:my|our)\b", plain)
            intro = intros.get(noun)
            if intro is not None or owned:
                if owned:
                    kept.append(_third_person(plain, subject))
                elif kept:  # the thing is already named: "The webshop has…" reads on
                    kept.append(plain)
                else:
                    assert intro is not None  # not owned, so introduced
                    kept.append(re.sub(r"(?i)^(?:the|this)\s+(?:[\w-]+\s+)?" + re.escape(desc.group("noun")),
                                       _subject(intro, subject), plain, count=1))
                described = True
                continue
        if described and _CONTINUATION.match(plain) and not _TASK.search(plain) and not _CODE_LIKE.search(plain):
            kept.append(plain)
            continue
        described = False
        clause = _CLAUSE_CUT.split(plain, maxsplit=1)[0].rstrip(" ,.?")
        clause = _WANT_YOU.sub(" to ", clause)
        if _situation(clause) and not _TASK.search(clause) and not _CODE_LIKE.search(clause):
            kept.append(_third_person(re.sub(r"(?i)^(?:so|now|indeed)\s+", "", clause).rstrip(".") + ".", subject))
    if not kept:
        return None
    content = _end(kept[0])
    for sentence in kept[1:]:
        if len(content) + len(sentence) + 2 > MAX_CONTEXT_CHARS:
            break
        content += " " + _end(sentence)
    return Found(content, "fact", 0.6)


def _norm(noun: str) -> str:
    return re.sub(r"[\s-]", "", noun.lower())


def _end(sentence: str) -> str:
    sentence = sentence.strip()
    return sentence if sentence.endswith((".", "!")) else sentence + "."


# -- standing wishes about answers ---------------------------------------------------------

_CODE_ONLY = re.compile(
    r"\b(?:only|just)\s+(?:need|want|give(?: me)?|provide|show(?: me)?|return|reply with|respond with)\s+(?:me\s+)?"
    r"(?:the\s+)?code\b|\b(?:only|just)\s+(?:the\s+)?code(?:\s+block)?\b(?!\s+(?:for|of|in|that|which))"
    r"|\bno\s+(?:explanations?|reasoning|comments)\s+(?:is\s+|are\s+)?(?:necessary|needed|required)"
    r"|\bwithout\s+(?:any\s+)?(?:explanations?|comments)\b|\bno explanation or example\b",
    re.I,
)
_COMPLETE = re.compile(
    r"\b(?:not|without|don't|do not|no)\s+(?:skipping|omitting|leaving out|skip|omit)\b"
    r"|\bno\s+placeholders?\b|\bwithout\s+placeholders?\b",
    re.I,
)
_COMPLETE_WHAT = re.compile(r"\b(?:complete|full|entire|whole)\b", re.I)


def answer_style(text: str, subject: str = "User", *, zh: bool = False) -> Found | None:
    """A standing wish about how answers look (complete code, only the code), or ``None``."""
    if zh:
        return _zh_answer_style(text, subject)
    head = request_head(text)
    # a wish is often added after the material: "…fields: id, type. I want only the code."
    last = text[-400:].rstrip().rsplit("\n", 1)[-1]
    if len(last) < 200 and not _MATERIAL_LINE.match(last) and last not in head:
        head = f"{head}\n{last}"
    low = head.lower()
    complete = bool(_COMPLETE.search(low)) and bool(_COMPLETE_WHAT.search(low))
    code_only = bool(_CODE_ONLY.search(low))
    if complete and code_only:
        return Found(f"{subject} wants complete code in answers, without skipped parts, and only the code.",
                     "preference", 0.7)
    if complete:
        return Found(f"{subject} wants complete code in answers, without skipped parts or placeholders.",
                     "preference", 0.7)
    if code_only:
        return Found(f"{subject} wants only the code in answers, without explanations.", "preference", 0.7)
    return None


# -- Chinese ----------------------------------------------------------------------------------

_ZH_REQUEST = re.compile(r"请|帮我|帮忙|你(?:现在)?是|扮演|能不能|可以吗|能否|如何|怎么|怎样|为什么|吗[？?]?\s*$|[？?]")
_ZH_SPLIT = re.compile(r"(?<=[。！？!?；;])|\n+")
# "我是一名高中老师", "我正在开发一个小程序", "我们公司的电商平台是用Spring Boot开发的", "我的网站部署在阿里云上"
_ZH_SITUATION = re.compile(
    r"^(?:目前|现在|最近)?[，,]?(?:我|我们|我们公司|我们团队|我司)(?:目前|现在|最近|正在|在)?"
    r"(?:是(?:一名|一个|一位|个)|正在|在(?:做|开发|维护|写|学|迁移|搭建)|负责|开发|维护|运营|经营|开了|有一(?:个|家|台)"
    r"|打算把|准备把|要把|把)"
    r"|^(?:我|我们|我们公司|我们团队)的\S{1,12}(?:是|用|基于|使用|采用|部署|运行|跑在|有)")
_ZH_TASK = re.compile(r"你|您|请|扮演|按照|格式|输出|下面|以下|如下|每个|每一|例如|比如|示例|回答|回复|生成|写一|帮我|帮忙")


def _zh_context(text: str, subject: str) -> Found | None:
    from madohub_memory.extraction.rewrite import rewrite_i_zh, rewrite_we_zh

    head = request_head(text)
    if not _ZH_REQUEST.search(head):
        return None
    kept: list[str] = []
    for raw in _ZH_SPLIT.split(head):
        sentence = (raw or "").strip()
        # "我是一名后端工程师，请帮我…": the statement before the request
        clause = re.split(r"[，,](?=[^，,]*(?:请|帮我|你|您|能不能|可以吗|如何|怎么))", sentence, maxsplit=1)[0]
        clause = clause.strip("。！!；; ，,")
        if not (4 <= len(clause) <= 120) or _ZH_TASK.search(clause) or not _ZH_SITUATION.match(clause):
            continue
        if re.search(r"[？?]|吗$|呢$", clause):
            continue
        kept.append(rewrite_i_zh(rewrite_we_zh(clause, subject), subject) + "。")
    if not kept:
        return None
    return Found("".join(kept)[:MAX_CONTEXT_CHARS], "fact", 0.6)


_ZH_CODE_ONLY = re.compile(r"只(?:要|给|需要|输出|返回)(?:我)?代码|不(?:要|用|需要)(?:任何)?(?:解释|说明)|无需(?:解释|说明)")
_ZH_COMPLETE = re.compile(r"完整的?(?:代码|实现|文件|迁移|脚本)|不要省略|别省略|不要跳过")


def _zh_answer_style(text: str, subject: str) -> Found | None:
    head = request_head(text)
    complete, code_only = bool(_ZH_COMPLETE.search(head)), bool(_ZH_CODE_ONLY.search(head))
    if complete and code_only:
        return Found(f"{subject}希望回答给出完整代码、不省略，并且只给代码。", "preference", 0.7)
    if complete and re.search(r"不要省略|别省略|不要跳过", head):
        return Found(f"{subject}希望回答给出完整代码，不要省略。", "preference", 0.7)
    if code_only:
        return Found(f"{subject}希望回答只给代码，不要解释。", "preference", 0.7)
    return None


__all__ = ["Found", "answer_style", "context_statement", "request_head"]
