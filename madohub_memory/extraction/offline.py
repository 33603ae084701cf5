"""The default extractor: rules over English and Chinese text, no model service.

Why rules: it runs after every turn on a laptop, offline, and must stay far above the
ingest target (150 turns/s); a rule pass handles thousands of turns per second.

How it works, per turn: drop tool noise and code blocks, split the text into sentences,
drop questions, greetings, acknowledgements and remarks about the other person, and score
what is left (first-person statement, durable cue words, specific details). A turn whose
best sentence scores high enough yields ONE candidate made of its best sentence(s),
rewritten in the third person ("I prefer X" -> "User prefers X", "我喜欢…" -> "用户喜欢…")
so that it reads as a standalone statement, with the kind of the strongest cue. Mostly
user turns carry durable facts; assistant turns only yield explicit postmortems.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from madohub_memory.core.text import clean_text
from madohub_memory.core.types import CandidateDraft
from madohub_memory.extraction.base import Mode, TurnView
from madohub_memory.extraction.flags import scan
from madohub_memory.extraction.rewrite import STOP_WORDS as _STOP
from madohub_memory.extraction.rewrite import rewrite_first_person_en, rewrite_i_zh, rewrite_we_zh

MAX_TURN_CHARS = 4000
MAX_SENTENCE_CHARS = 400
MAX_CONTENT_CHARS = 360

# -- noise --------------------------------------------------------------------------------

_NOISE_TURN = re.compile(
    r"^\s*(?:<(?:command-|local-command|system-reminder|bash-|task-notification|user-prompt-submit)"
    r"|\[Request interrupted|Caveat: |This session is being continued|Base directory for this skill"
    r"|\{\s*\"|Tool (?:use|result)|API Error)",
)
_CODE_BLOCK = re.compile(r"```.*?(?:```|\Z)", re.S)
_TAGS = re.compile(r"<[a-zA-Z\-]+>.*?</[a-zA-Z\-]+>", re.S)
_URL = re.compile(r"https?://\S+")
_CJK = re.compile(r"[\u3400-\u9fff]")

# -- English ------------------------------------------------------------------------------

_EN_SPLIT = re.compile(r"(?<=[.!?;])\s+|\n+|\s+-\s+(?=[A-Z])")
_LEAD_INTERJECTION = re.compile(
    r"^(?:(?:hey|hi|hello|oh|ah|aw+|wow|whoa|yeah|yes|yep|yup|nope|no|ok|okay|sure|so|well|haha|lol"
    r"|hmm|um|omg|cool|great|nice|awesome|thanks|thank you|totally|definitely|absolutely|right"
    r"|true|gotcha|indeed|honestly|anyway|also|and|but|plus|btw|by the way|actually)"
    r"(?:\s+[A-Z][a-z]+)?\s*[,!.:;\-–—]+\s*)+",
    re.I,
)
_FIRST_PERSON_CI = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|me|my|mine|myself|we|we're|we've|we'll|our|ours|us)\b", re.I)
_YOU_SUBJECT = re.compile(
    r"^(?:you|you're|you've|you'll|you'd|your|that's|that|"
    r"this(?! (?:\w+ )?(?:project|repo|app|service|codebase|api|backend|frontend|database|site|server)\b)|"
    r"it's|it|sounds?|looks?|must|what|how|"
    r"congrat\w*|good luck|take care|glad|so glad|happy for|sorry|can't wait|let me know|let's|keep|"
    r"hope|bet|same|me too|love (?:that|it|this|the)|enjoy|have fun|see you|talk soon|catch you|"
    r"here's to|cheers|welcome|thanks?|thank you|appreciate)\b",
    re.I,
)
_EMPATHY = re.compile(
    r"\b(?:I'm|I am|I was|I'd be|I'll be)\s+(?:so\s+|really\s+|very\s+|super\s+|truly\s+)*"
    r"(?:glad|happy|sorry|proud|thrilled|excited|stoked|pumped)\s+(?:for you|to hear|you|that you|about your)"
    r"|\bI\s+(?:really\s+)?(?:hope|bet|agree|understand|appreciate|know what you mean|know how you feel|"
    r"can't wait to (?:see|hear)|can imagine|totally get|get what you|feel you|wish you|admire|"
    r"can tell|think so|guess so|see what you mean|love (?:that|how|your|the way you|it when you)|"
    r"like (?:that|your|how you))\b"
    r"|\b(?:let me know|keep me (?:posted|updated)|keep you (?:posted|updated)|I'm (?:always )?here for you"
    r"|talk (?:soon|later)|see you|take care|good luck|catch up soon)\b",
    re.I,
)
_QUESTION_LEAD = re.compile(
    r"^(?:what|how|why|when|where|who|which|do|does|did|are|is|can|could|would|will|have|has|any|anything)\b.*",
    re.I,
)
_DIRECTIVE = re.compile(
    r"^(?:please\s+|pls\s+|can you|could you|would you|will you|let's|let us|go ahead|now\s+|then\s+|"
    r"fix|add|implement|create|write|run|make|update|refactor|remove|delete|rename|change|check|look at|"
    r"show me|tell me|explain|help|try|debug|continue|commit|push|open|read|find|search|test|build|"
    r"install|move|set up|setup|configure)\b|\bI (?:want|need|would like) you to\b|\bfor me\b",
    re.I,
)

_CUE_EN: list[tuple[str, re.Pattern[str], float]] = [
    ("postmortem", re.compile(
        r"\b(?:root cause|post-?mortem|lesson(?:s)? learned|went wrong|caused by|broke because|failed because|"
        r"the (?:bug|issue|problem|outage|crash|failure|regression) (?:was|came from|turned out)|"
        r"next time,? (?:we|I|let's|remember|make sure|always|don't|do not|check|run)|"
        r"(?:from now on|in the future),? (?:we|I) (?:should|must|will|need))\b", re.I), 0.75),
    ("decision", re.compile(
        r"\b(?:we|I)(?:'ve| have)?\s+(?:finally\s+|just\s+)?(?:decided|chose|chosen|picked|settled on|agreed|"
        r"went with|are going with|will go with|opted|made the (?:decision|call)|committed to)\b"
        r"|\b(?:the )?decision (?:is|was) to\b|\bdecision:", re.I), 0.7),
    ("preference", re.compile(
        r"\b(?:I|we)\s+(?:really\s+|much\s+|strongly\s+|always\s+|usually\s+|generally\s+|totally\s+|"
        r"absolutely\s+|just\s+|also\s+|still\s+|do\s+|don't\s+|do not\s+|never\s+)*"
        r"(?:prefer|like|love|enjoy|adore|hate|dislike|can't stand|favou?r|avoid|care about|value|"
        r"am into|'m into|am a (?:big )?fan of|'m a (?:big )?fan of)\b"
        r"|\b(?:my|our) fav(?:ou?rite)?s?\b|\bprefer\b"
        r"|\buse\s+\S+\s+(?:instead of|rather than|not|over)\s+\S+"
        r"|\b(?:don't|do not|never|please don't|stop)\s+(?:use|using|add|adding|put|write|commit)\b"
        r"|\b(?:instead of|rather than)\b", re.I), 0.65),
    ("pattern", re.compile(
        r"\b(?:I|we)\s+(?:\w+\s+)?(?:always|usually|often|regularly|tend to|every (?:day|week|morning|night|"
        r"weekend|time))\b|\b(?:every (?:time|day|week|morning|weekend|sunday|monday)|whenever|each time|"
        r"my (?:routine|habit)|as a rule|(?:it|this) keeps happening|again and again)\b", re.I), 0.6),
    ("fact", re.compile(
        r"\b(?:I'm|I am)\s+(?:a|an)\s+\w+|\bI\s+(?:work|live|study|grew up|was born|teach)\b"
        r"|\b(?:I'm|I am)\s+(?:allergic to|from|based in|vegetarian|vegan|left-handed|colou?r-?blind)\b"
        r"|\b(?:my|our)\s+(?:project|repo|repository|app|service|team|company|stack|codebase|api|"
        r"database|server|job|name|wife|husband|partner|kids?|son|daughter|dog|cat|family|mom|dad|mother|"
        r"father|brother|sister|friend|boss|home|house|car|band)\b"
        r"|\b(?:we|I)\s+(?:use|run|deploy|host|build with|target)\b"
        r"|\b(?:this|the|our) (?:\w+ )?(?:project|repo|app|service|codebase|api|backend|frontend|database|db|"
        r"site|server|cluster|pipeline) (?:uses|is|runs|needs|has|targets|requires|depends on|supports|lives)\b"
        r"|\b(?:is|are) (?:written|built|deployed|hosted) (?:in|on|with)\b", re.I), 0.6),
    ("event", re.compile(
        r"\b(?:yesterday|today|tonight|last (?:week|weekend|month|year|night|friday|saturday|sunday)|"
        r"this (?:morning|week|weekend|month|year)|recently|lately|ago|just (?:got|finished|started|"
        r"bought|moved|signed|joined|launched|released|won|adopted|visited|came back|returned)|finally)\b"
        r"|\b(?:I|we)\s+(?:\w+\s+)?(?:went|got|bought|moved|started|finished|visited|joined|won|lost|met|"
        r"adopted|launched|released|signed|took|made|gave|received|attended|ran|built|painted|wrote|"
        r"learned|tried|found|had|saw|did|created|opened|passed|graduated|married|broke|fixed|shipped)\b",
        re.I), 0.55),
]
_IMPERATIVE_START = re.compile(
    r"(?i)^(?:please\s+)?(?:always|never|don't|do not|use|prefer|avoid|stop|keep|make sure|remember to)\b")
# "Always run the tests before committing." / "Never push to main." : a standing rule.
_IMPERATIVE_RULE = re.compile(
    r"(?i)^(?:please\s+)?(?:always|never|don't ever|do not ever|make sure to always)\s+[a-z]+"
    r"|^(?:please\s+)?(?:use|prefer|avoid|don't use|do not use)\s+\S+.*\b(?:instead of|rather than|not|over)\b",
)
_CORRECTION_EN = re.compile(
    r"^(?:no|nope|wrong|actually|not quite|that's (?:wrong|not right|incorrect|not what I)|"
    r"that is (?:wrong|not right|incorrect))\b[,.!:;\s]", re.I,
)
_REASON_EN = re.compile(r"\b(?:because|since|so that|due to|as it|given that|otherwise)\b", re.I)
_DETAIL = re.compile(r"\d|\b[A-Z][a-z]{2,}|[\"“][^\"”]{2,}[\"”]|\b[\w.\-]+\.(?:py|js|ts|json|toml|md|yml|yaml)\b")

# -- Chinese ------------------------------------------------------------------------------

_ZH_SPLIT = re.compile(r"(?<=[。！？!?；;…])|\n+")
_ZH_LEAD = re.compile(r"^(?:(?:嗯+|恩+|哦+|噢|啊|哈+|呵+|好的|好吧|对|是的|没错|其实|不过|另外|还有|然后|所以|那个|额|诶|唉)[，,。！!、\s]*)+")
_ZH_FIRST = re.compile(r"我|咱们|本人")
_ZH_NOISE = re.compile(
    r"^(?:你好|您好|嗨|哈喽|谢谢|感谢|多谢|太感谢|不客气|好的|收到|明白|了解|知道了|再见|拜拜|晚安|早安|"
    r"没问题|可以|行|嗯|哈哈|加油|太好了|太棒了|真棒|厉害|辛苦了|很高兴认识你)"
)
_ZH_YOU = re.compile(r"^(?:这(?!个?(?:项目|仓库|代码库|服务|系统|应用))|那|听起来|听上去|看起来|真|太|希望)|你|您|聊天|谈谈|谈论|聊聊")
# Talking to the assistant about the conversation ("今天想跟你聊聊…", "我想请教你…") or asking
# for something ("我想找一些电影看"): a request, not a fact about the user.
_ZH_ADDRESS = re.compile(r"(?:跟|和|给|问|请|向|告诉)(?:你|您)|(?:想|要)(?:跟|和)?\S{0,3}(?:聊聊|谈谈|聊一聊|请教)|^我想(?:找|要|问|了解|知道|请教)")
_ZH_EMPATHY = re.compile(r"我(?:也|很|真)?(?:理解|明白|同意|相信你|希望你|支持你|为你)|你的建议|你推荐|谢谢你|感谢你|帮我|给我推荐|告诉我|你能|你可以|你觉得|你知道")
_ZH_QUESTION = re.compile(r"[?？]\s*$|(?:吗|呢|么)[。！!]?\s*$|有没有|是不是|怎么(?:办|样)|什么(?!都)|哪些|哪个|如何")
# "我会试试/我一定注意…": a promise to follow advice, not a fact about the user.
_ZH_INTENT_ONLY = re.compile(
    r"^我(?:也)?(?:会|就|一定|马上|再|要)(?:去|试着|尽量|会)?(?:试|尝试|看看|看一下|考虑|注意|照做|记住|参考|认真|好好|"
    r"尽力|多|按照|遵守|照着|选|去做|联系|继续|珍惜|加油|努力)"
)
# "…，你呢？" / "…，有什么推荐吗？": keep the statement before the trailing question.
_ZH_TRAILING_Q = re.compile(r"[，,][^，,]*(?:你|您|吗|呢|什么|怎么|哪|如何|有没有|能不能|可不可以)[^，,]*[？?]?$")
_ZH_SHARE = re.compile(r"我?(?:想|要)?来?(?:跟|和|与)(?:你|您)分享(?:一下)?")
_ZH_GREETING_CLAUSE = re.compile(r"^(?:你好|您好|嗨|哈喽)\S{0,8}$|^(?:亲爱的)?(?:AI|ai)?(?:伴侣|朋友|助手)$")


def _drop_address_clauses(sentence: str) -> str:
    """Keep what the user says about themselves, drop the talk about the conversation:
    "今天我想请教你一个问题，我最近总是觉得疲劳" -> "我最近总是觉得疲劳";
    "我想跟你分享我刚刚通过了面试" -> "我刚刚通过了面试"."""
    sentence = _ZH_SHARE.sub("", sentence).replace("我我", "我")
    sentence = re.sub(r"[，,]\s*(?=[。！？!?]|$)", "", sentence)
    clauses = re.split(r"(?<=[，,])", sentence)
    kept = [c for c in clauses
            if not _ZH_ADDRESS.search(c) and not _ZH_GREETING_CLAUSE.match(c.strip("，, "))]
    return "".join(kept).strip("，, ") if kept != clauses else sentence


_CUE_ZH: list[tuple[str, re.Pattern[str], float]] = [
    ("postmortem", re.compile(r"根因|根本原因|原因是|问题出在|教训|复盘|事故|下次(?:要|得|记得|一定|别|不要)|以后(?:要|得|记得|一定|别|不要)|导致了?(?:\S{0,12})(?:失败|崩溃|出错|宕机|挂)"), 0.75),
    ("decision", re.compile(r"决定|选择了|选定|定了|拍板|最终(?:用|选|采用)|我们(?:就)?(?:用|采用)\S{1,20}(?:吧|了)"), 0.7),
    ("preference", re.compile(r"喜欢|爱(?:好|看|听|吃|玩)|热爱|偏好|偏爱|更倾向|倾向于|讨厌|受不了|最爱|兴趣|宁愿|而不是|不要用|别用|不用\S{1,12}用|用\S{1,15}(?:而不是|不用|代替)"), 0.65),
    ("pattern", re.compile(r"每天|每周|每次|每个(?:周末|月|星期)|总是|经常|通常|一般(?:都|会)|习惯|平时|常常"), 0.6),
    ("fact", re.compile(r"我(?:是|叫)\S|我在\S{1,12}(?:工作|上班|上学|读书|实习)|我住在|我(?:的|们的)\S{1,8}(?:是|叫|在|有)|我(?:有|养了)\S|(?:项目|仓库|代码库|数据库|后端|前端|服务器|接口)\S{0,4}(?:是|用|使用|基于|采用|跑在|部署在)|我们(?:用|使用|采用)\s*\S|(?:用|基于)\S{1,12}(?:写的|开发|实现)|我的(?:工作|职业|专业|性格)"), 0.6),
    ("event", re.compile(r"昨天|今天|前天|上周|上个(?:月|星期|周末)|这周|这个(?:月|周末)|最近|刚刚|刚才|刚(?:去|买|搬|完成|开始|参加)|前几天|去年|今年|我(?:去|参加|看|买|搬|开始|完成|学|拍|遇到|参观)了"), 0.55),
]
_ZH_IMPERATIVE = re.compile(r"^(?:请|请你|务必|一定要|总是|每次都|记得|以后|别|不要|用|改用|统一用)")
_REASON_ZH = re.compile(r"因为|由于|所以|为了|以免|否则")
_CORRECTION_ZH = re.compile(r"^(?:不对|不是的|错了|搞错了|不，|不,|应该是|其实是)")
_ZH_DETAIL = re.compile(r"\d|《[^》]+》|[A-Za-z]{2,}|“[^”]+”")


def _lower_pattern(pattern: re.Pattern[str]) -> re.Pattern[str]:
    """The same pattern for lower-cased text without IGNORECASE (about 3x faster in ``re``)."""
    source = re.sub(r"(?<!\\)[A-Z]", lambda m: m.group(0).lower(), pattern.pattern.replace("(?i)", ""))
    return re.compile(source, pattern.flags & ~re.I)


_QUESTION_LEAD = _lower_pattern(_QUESTION_LEAD)
_FIRST_PERSON_CI = _lower_pattern(_FIRST_PERSON_CI)
_YOU_SUBJECT = _lower_pattern(_YOU_SUBJECT)
_EMPATHY = _lower_pattern(_EMPATHY)
_DIRECTIVE = _lower_pattern(_DIRECTIVE)
_CORRECTION_EN = _lower_pattern(_CORRECTION_EN)
_REASON_EN = _lower_pattern(_REASON_EN)
_IMPERATIVE_RULE = _lower_pattern(_IMPERATIVE_RULE)
_IMPERATIVE_START = _lower_pattern(_IMPERATIVE_START)
_CUE_EN = [(kind, _lower_pattern(p), strength) for kind, p, strength in _CUE_EN]
_FIRST_SUBJECT = re.compile(r"(?:i|i'm|i've|i'd|i'll|my|we|we're|we've|our)\b")
# Prompt/task specifications ("you will write…", "act as…") and pasted code or errors.
_TASK_SPEC = re.compile(
    r"\byou (?:will|should|must|shall|need to|are going to|have to|can now)\b|\byour (?:task|job|role|goal)\b"
    r"|\bi want you\b|\bi need you\b|\bact as\b|\bask you\b|\bfor me\b|\bthe following\b|\bbelow\b"
    r"|\b(?:give|send|ask|tell|show|provide|offer) you\b|\bif you\b|\byou would\b|\bwould you\b|^[a-e][:)]\s"
    r"|\bprompt\b|\bchatgpt\b|\bplease\b|\bwrite (?:a|an|me|the)\b"
)
# A turn that sets up a task for the model ("I want you to act as…", "based on the following
# text…") or pastes a document: what follows is material to work on, not something the user
# says about themselves, so the whole turn yields nothing.
_PROMPT_TURN = re.compile(
    r"\b(?:i want you to|i'd like you to|i would like you to|act as an?|pretend (?:to be|you are)"
    r"|i will (?:give|provide|send|paste) you|your (?:task|role|job) is|respond with|reply with|answer with"
    r"|(?:based on|using|given|study|summari[sz]e|rewrite|translate|analy[sz]e) the following|the following \w+"
    r"|please (?:study|summari[sz]e|rewrite|generate|translate|provide))\b"
    r"|你现在是|请?扮演|假装你是|以下(?:内容|文本|代码|是|为)|根据以下|请(?:总结|翻译|改写|生成|润色)"
)
_BULLET_LINE = re.compile(r"^\s*(?:[•·\-*+]|\d{1,2}[.)、]|[a-z][.)])\s")


def _is_prompt_or_document(text: str) -> bool:
    """A task prompt for the model, or a pasted document (mostly bullet lines, or long with
    hardly a first-person word)."""
    if _PROMPT_TURN.search(text[:600].lower()):
        return True
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) >= 5 and sum(bool(_BULLET_LINE.match(line)) for line in lines) >= 0.4 * len(lines):
        return True
    if len(text) > 1500 and not _CJK.search(text):
        words = len(text.split())
        return len(_FIRST_PERSON_CI.findall(text.lower())) < 0.01 * words
    return False


_CODE_LIKE = re.compile(
    r"[{}<>`|\\]|\w\(|\)\s*$|\b[Ee]rror:|\b\w+\s*=\s*\S|^(?:from|import|def|class|select|return)\b|Error\b|Exception\b|\s{3,}|://"
)
_EN_FUNCTION = frozenset(
    ["the", "a", "an", "to", "is", "are", "was", "and", "of", "in", "it", "that", "for", "with", "on", "my",
     "i", "me", "we", "our", "you", "this", "be", "have", "has", "had", "so", "but", "not", "at", "as",
     "i'm", "i've", "it's", "just", "really", "will", "would", "can", "do", "did", "like", "love", "got"]
)


def _looks_english(low: str) -> bool:
    """Enough English function words (Dutch or German prompts are left alone)."""
    words = low.split()
    if len(words) < 6:
        return True
    return sum(w.strip(".,!;:'\"") in _EN_FUNCTION for w in words) >= 0.18 * len(words)


# "Here's a pic of…", "Check out this…": points at an attachment the memory will not have.
_DEICTIC = re.compile(r"(?:here's|here is|here are|heres|check (?:out|this)|look at (?:this|these|that)|take a look)\b")
# "How do I implement step 2, I'm making a POST": a question even without its "?".
_ASKING = re.compile(r"(?:how|what|where|why|which|when) (?:do|does|can|could|should|would|is|are|did) (?:i|we|you|it)\b")
_YOU_WORD = re.compile(r"\byou(?:r|'re|'ve|'ll)?\b")

_STRONG_KINDS = ("preference", "decision", "postmortem", "pattern")

# Turn scorer weights: a logistic model over turn features, fitted on the LoCoMo dev
# conversations (leave-one-conversation-out; see the issue note). Intercept first.
_W = {
    "bias": -7.9456, "log_chars": 1.5306, "n_eligible": -0.1436, "eligible_share": 0.2622,
    "question_share": -1.4774, "best_quality": 0.2378, "n_first": -0.1104, "n_first_subject": 0.0718,
    "any_cue": 0.5921, "event_cue": 0.2542, "detail": 0.6, "you": -0.2149, "you_subject": -0.1326,
    "empathy": -0.3813, "words": 0.0708,
}


def _is_strong_en(f: dict) -> bool:
    """A sentence that states a durable preference/decision/postmortem outright."""
    if f["question"] or f["you_subject"] or f["empathy"]:
        return False
    if f["words"] < 2:
        return False
    if f["kind"] in ("preference", "decision", "postmortem") and f["strength"] > 0:
        return True
    if f["kind"] == "pattern" and (f["first"] or f["imperative"]):
        return True
    return f["correction"] and f["words"] >= 4


def _is_plain_fact_en(f: dict) -> bool:
    """A turn that is one plain statement of fact ("I am allergic to peanuts.", "This project
    targets Python 3.11."). The turn scorer, fitted on chatty LoCoMo turns where short
    turns are mostly reactions, would drop it for being short."""
    return (f["kind"] in ("fact", "event") and f["strength"] > 0 and f["words"] >= 2
            and not (f["question"] or f["you_subject"] or f["empathy"] or f["you"]))


_MAX_LOG_CHARS = math.log1p(400)


def turn_features_en(sents: list[dict]) -> dict[str, float]:
    decl = [f for f in sents if "sentence" in f and not f["question"]]
    elig = [f for f in sents if f.get("eligible")]
    total = sum(f["chars"] for f in sents) or 1
    # Clipped to the range seen when the weights were fitted (short chat turns), so a
    # long pasted prompt does not score high just for being long.
    return {
        "log_chars": min(math.log1p(total), _MAX_LOG_CHARS),
        "n_eligible": float(min(len(elig), 4)),
        "eligible_share": sum(f["chars"] for f in elig) / total,
        "question_share": sum(f["chars"] for f in sents if f["question"]) / total,
        "best_quality": max((f["quality"] for f in elig), default=0.0),
        "n_first": float(sum(f["first"] for f in elig)),
        "n_first_subject": float(sum(f["first_subject"] for f in elig)),
        "any_cue": max((f["strength"] for f in elig), default=0.0),
        "event_cue": float(any(f["kind"] == "event" for f in elig)),
        "detail": float(any(f["detail"] for f in elig)),
        "you": float(sum(f.get("you", 0) for f in decl)),
        "you_subject": float(sum(f.get("you_subject", False) for f in decl)),
        "empathy": float(sum(f.get("empathy", False) for f in decl)),
        "words": float(min(sum(f["words"] for f in elig), 30)),
    }


def turn_score_en(sents: list[dict]) -> float:
    """The turn scorer's logit: > threshold means the turn carries a durable fact."""
    feats = turn_features_en(sents)
    return _W["bias"] + sum(_W.get(k, 0.0) * v for k, v in feats.items())



@dataclass(frozen=True)
class _Pick:
    sentence: str
    score: float
    kind: str
    strength: float


def _split(pattern: re.Pattern[str], text: str) -> list[str]:
    return [s.strip() for s in pattern.split(text) if s and s.strip()]


def _content_words(sentence: str) -> int:
    return sum(1 for w in re.findall(r"[A-Za-z][A-Za-z'\-]+", sentence) if w.lower() not in _STOP and len(w) > 2)


def _kind_of(sentence: str, cues: list[tuple[str, re.Pattern[str], float]]) -> tuple[str, float] | None:
    """The first (strongest) cue that matches: postmortem > decision > preference > pattern > …"""
    return next(((kind, strength) for kind, pattern, strength in cues if pattern.search(sentence)), None)


class OfflineExtractor:
    """Rule-based extractor for English and Chinese turns (see module docstring).

    ``subject``/``subject_zh`` name the speaker in rewritten statements ("User", "用户");
    a benchmark over named speakers may pass their name instead.
    """

    name = "offline"

    def __init__(
        self, subject: str = "User", subject_zh: str = "用户", threshold: float = -0.45,
        zh_threshold: float = 1.0,
    ) -> None:
        self.subject = subject
        self.subject_zh = subject_zh
        self.threshold = threshold  # on the English turn scorer's logit
        self.zh_threshold = zh_threshold  # on the Chinese sentence score

    # -- the protocol ----------------------------------------------------------------------

    def extract(
        self, turns: Sequence[TurnView], *, mode: Mode = "turn", namespace: str | None = None
    ) -> list[CandidateDraft]:
        drafts: list[CandidateDraft] = []
        seen: set[str] = set()
        for turn in turns:
            draft = self.extract_turn(turn, mode=mode, namespace=namespace)
            if draft is not None and draft.content not in seen:
                seen.add(draft.content)
                drafts.append(draft)
        return drafts

    def extract_turn(
        self, turn: TurnView, *, mode: Mode = "turn", namespace: str | None = None
    ) -> CandidateDraft | None:
        """At most one candidate for one turn (``None`` for a quiet or noisy turn)."""
        if turn.role not in ("user", "assistant"):
            return None
        text = turn.content or ""
        if not text.strip() or _NOISE_TURN.match(text):
            return None
        text = clean_text(_TAGS.sub(" ", _CODE_BLOCK.sub(" ", text[:MAX_TURN_CHARS])))
        text = _URL.sub("", text)
        assistant = turn.role == "assistant"
        if not assistant and _is_prompt_or_document(text):
            return None
        zh = len(_CJK.findall(text)) >= max(2, len(text) // 8)
        if zh:
            picks = self._pick_zh(text, assistant)
            picks = [p for p in picks if p.score >= self.zh_threshold]
        else:
            picks = self._pick_en(text, assistant)
        if not picks:
            return None
        best = max(picks, key=lambda p: p.score)
        seconds = sorted(
            (p for p in picks if p is not best and p.strength >= 0.6 and p.score >= best.score - 1.0),
            key=lambda p: -p.score,
        )
        chosen = [best, *seconds[:1]]
        chosen.sort(key=lambda p: picks.index(p))
        # Flags are judged on what was said (the rewrite can hide "always run…" or a key);
        # secrets are masked before the sentence is rewritten.
        flags: set[str] = set()
        sentences = []
        for p in chosen:
            masked, found = scan(p.sentence)
            flags.update(found)
            sentences.append(masked)
        # in a workspace "we" is the user's team, elsewhere the user and others
        team = bool(namespace and namespace.startswith("workspace:"))
        if zh:
            content = "".join(self._rewrite_zh(x, team=team) for x in sentences)
        else:
            content = " ".join(self._rewrite_en(x, team=team) for x in sentences)
        content = content.strip()
        if len(content) > MAX_CONTENT_CHARS:
            content = content[: MAX_CONTENT_CHARS - 1].rstrip() + "…"
        if len(content) < 6:
            return None
        confidence = min(0.95, max(0.05, 0.3 + 0.05 * best.score + 0.4 * best.strength))
        if assistant:
            confidence *= 0.7
        return CandidateDraft(
            content=content, kind=best.kind, namespace=namespace, source=mode,
            confidence=round(confidence, 3), turn_ids=(turn.id,), flags=tuple(sorted(flags)),
        )

    # -- English ---------------------------------------------------------------------------

    def _sentences_en(self, text: str) -> list[dict]:
        """Every declarative sentence of a turn with the features the scorer uses."""
        out: list[dict] = []
        for raw in _split(_EN_SPLIT, text):
            if len(raw) > MAX_SENTENCE_CHARS:
                continue
            sentence = _LEAD_INTERJECTION.sub("", raw).strip()
            # "I have more text:" / "when I call:" introduce pasted material; they state nothing.
            question = not sentence or raw.rstrip().endswith(("?", ":", "：")) or (
                bool(_QUESTION_LEAD.match(sentence.lower())) and "?" in raw) or bool(
                _ASKING.match(sentence.lower()))
            if not sentence or not sentence[0].isalnum():
                out.append({"question": question, "eligible": False, "chars": len(raw)})
                continue
            sentence = sentence[0].upper() + sentence[1:]
            low = sentence.lower()
            cue = _kind_of(low, _CUE_EN)
            words = _content_words(sentence)
            feat = {
                "sentence": sentence,
                "question": question,
                "chars": len(raw),
                "first": bool(_FIRST_PERSON_CI.search(low)),
                "first_subject": bool(_FIRST_SUBJECT.match(low)),
                "you_subject": bool(_YOU_SUBJECT.match(low)),
                "you": len(_YOU_WORD.findall(low)),
                "empathy": bool(_EMPATHY.search(low)),
                "directive": bool(_DIRECTIVE.search(low)),
                "correction": bool(_CORRECTION_EN.match(raw.lower())),
                "words": words,
                "detail": bool(_DETAIL.search(sentence[1:])),
                "kind": cue[0] if cue else "fact",
                "strength": cue[1] if cue else 0.0,
                "reason": bool(_REASON_EN.search(low)),
                "imperative": bool(_IMPERATIVE_RULE.match(low)),
            }
            if feat["imperative"] and feat["kind"] == "fact":
                feat["kind"], feat["strength"] = "pattern", 0.6
            feat["eligible"] = (
                not question and words >= 2
                and not (feat["directive"] and feat["kind"] not in _STRONG_KINDS)
                and (feat["first"] or feat["strength"] > 0 or feat["imperative"]
                     or (feat["correction"] and words >= 4))
                and not _TASK_SPEC.search(low) and not _CODE_LIKE.search(sentence)
                and _looks_english(low) and not _DEICTIC.match(low)
            )
            q = 0.25 * min(words, 8) + 0.6 * feat["first"] + 0.4 * feat["first_subject"] \
                + 0.3 * feat["detail"] + feat["strength"] - 0.6 * feat["you_subject"] \
                - 0.5 * feat["empathy"] - 0.2 * min(feat["you"], 3)
            feat["quality"] = q
            out.append(feat)
        return out

    def _pick_en(self, text: str, assistant: bool) -> list[_Pick]:
        sents = self._sentences_en(text)
        eligible = [f for f in sents if f["eligible"]]
        if not eligible:
            return []
        if assistant:
            eligible = [f for f in eligible if f["kind"] == "postmortem"]
            if not eligible:
                return []
        strong = [f for f in eligible if _is_strong_en(f) or (len(sents) == 1 and _is_plain_fact_en(f))]
        score = turn_score_en(sents)
        if not strong and score < self.threshold:
            return []
        pool = strong or [f for f in eligible if f["first"] or f["strength"] > 0] or eligible
        picks = []
        for f in pool:
            kind, strength = f["kind"], f["strength"]
            if f["correction"]:
                strength = max(strength, 0.6)
            if kind == "decision" and f["reason"]:
                strength += 0.1
            picks.append(_Pick(f["sentence"], f["quality"] + (2.0 if f in strong else 0.0), kind, strength))
        return picks

    def _rewrite_en(self, sentence: str, *, team: bool = False) -> str:
        if not _FIRST_PERSON_CI.search(sentence.lower()) and _IMPERATIVE_START.match(sentence.lower()):
            body = sentence.rstrip(" .!")
            body = re.sub(r"(?i)^please\s+", "", body)
            body = re.sub(r"(?i)^(?:don't|do not)\s+", "not to ", body)
            if not body.startswith("not to "):
                body = "to " + body[0].lower() + body[1:]
            return f"{self.subject} wants the agent {body}."
        return rewrite_first_person_en(sentence, self.subject, team=team)

    # -- Chinese ---------------------------------------------------------------------------

    def _pick_zh(self, text: str, assistant: bool) -> list[_Pick]:
        picks: list[_Pick] = []
        for raw in _split(_ZH_SPLIT, text):
            if len(raw) > MAX_SENTENCE_CHARS:
                continue
            correction = bool(_CORRECTION_ZH.match(raw))
            sentence = _ZH_LEAD.sub("", _drop_address_clauses(raw)).strip(" ，,")
            while _ZH_QUESTION.search(sentence) and _ZH_TRAILING_Q.search(sentence):
                sentence = _ZH_TRAILING_Q.sub("", sentence)
            if len(sentence) < 4 or _ZH_QUESTION.search(sentence) or _ZH_NOISE.match(sentence):
                continue
            if _ZH_YOU.match(sentence) or _ZH_EMPATHY.search(sentence) or _ZH_INTENT_ONLY.match(sentence):
                continue
            found = _ZH_FIRST.search(sentence)
            cue = _kind_of(sentence, _CUE_ZH)
            # the user as subject ("我…", "最近我…"), not only as an object ("这让我…")
            first = bool(found) and (found.start() <= 4 or cue is not None)
            if assistant:
                if cue is None or cue[0] != "postmortem":
                    continue
            elif not first and not correction and not (
                    cue and (cue[0] in ("preference", "postmortem", "decision")
                             or (cue[0] == "fact" and _ZH_DETAIL.search(sentence)))):
                continue
            cjk = len(_CJK.findall(sentence))
            # short is fine when it is a plain statement: "我叫王伟。", "我们用 pnpm。"
            if cjk < 5 and not (cue and cjk >= 2 and (cue[1] >= 0.65 or first or _ZH_DETAIL.search(sentence))):
                continue
            score = 0.1 * min(cjk, 20)
            if first:
                score += 0.4
            if _ZH_DETAIL.search(sentence):
                score += 0.3
            kind, strength = cue if cue else ("fact", 0.3)
            score += strength
            if correction:
                score += 0.4
                strength = max(strength, 0.6)
            if kind == "decision" and _REASON_ZH.search(sentence):
                score += 0.3
                strength += 0.1
            picks.append(_Pick(sentence, score, kind, strength))
        return picks

    def _rewrite_zh(self, sentence: str, *, team: bool = False) -> str:
        s = self.subject_zh
        if not _ZH_FIRST.search(sentence) and _ZH_IMPERATIVE.match(sentence):
            return f"{s}要求：{sentence.rstrip('。！!')}。"
        text = rewrite_we_zh(sentence, s, team=team)
        text = rewrite_i_zh(text, s)
        if not re.search(r"[。！？!?.…]$", text):
            text += "。"
        return text.replace("！", "。")
