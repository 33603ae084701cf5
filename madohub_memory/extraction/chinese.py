"""Chinese turns: which sentences state something durable about the user, and how to say it.

Sentence by sentence: drop greetings, questions, talk addressed to the assistant and
promises to follow advice; keep first-person statements and statements with a durable cue
(preference, decision, postmortem, project fact); score them by length, detail and cue.
"""

from __future__ import annotations

import re

from madohub_memory.extraction.rewrite import rewrite_i_zh, rewrite_we_zh
from madohub_memory.extraction.sentences import CJK as _CJK
from madohub_memory.extraction.sentences import Pick, kind_of, split

MAX_SENTENCE_CHARS = 400

_ZH_SPLIT = re.compile(r"(?<=[。！？!?；;…])|\n+")
_ZH_LEAD = re.compile(r"^(?:(?:嗯+|恩+|呃+|哦+|噢|啊|哈+|呵+|好的|好吧|对|是的|没错|其实|不过|另外|还有|然后|所以|那个|额|诶|唉)[，,。！!、\s]*)+")
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
_ZH_GREETING_CLAUSE = re.compile(
    r"^(?:你好|您好|嗨|哈喽)\S{0,8}$|^(?:亲爱的)?(?:AI|ai)?(?:伴侣|朋友|助手)$"
    r"|^(?:我)?(?:也)?(?:很|非常|真)?(?:高兴|开心|荣幸)(?:能)?(?:认识|见到|结识)(?:你|您|大家)\S{0,4}$"
    r"|^(?:初次见面|请多(?:多)?(?:指教|关照)|见到你很高兴)\S{0,4}$")


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


def pick_zh(text: str, assistant: bool) -> list[Pick]:
    picks: list[Pick] = []
    for raw in split(_ZH_SPLIT, text):
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
        cue = kind_of(sentence, _CUE_ZH)
        # the user as subject ("我…", "最近我…"), not only as an object ("这让我…")
        first = found is not None and (found.start() <= 4 or cue is not None)
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
        picks.append(Pick(sentence, score, kind, strength))
    return picks

def rewrite_zh(sentence: str, subject: str, *, team: bool = False) -> str:
    s = subject
    if not _ZH_FIRST.search(sentence) and _ZH_IMPERATIVE.match(sentence):
        return f"{s}要求：{sentence.rstrip('。！!')}。"
    text = rewrite_we_zh(sentence, s, team=team)
    text = rewrite_i_zh(text, s)
    if not re.search(r"[。！？!?.…]$", text):
        text += "。"
    return text.replace("！", "。")
