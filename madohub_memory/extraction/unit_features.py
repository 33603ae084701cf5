"""What the selector knows about a unit: its place in the session and the form of the sentence.

Two families, both about structure rather than any project's words:

- **place**: who said it (user, agent, summary section, recap, answer, routine), whether
  it is the agent's final report, narration that goes with a tool call, a statement after
  a failing run or before a passing one, how many prompts and tool runs the exchange has;
- **form**: the grammar of the sentence in English and Chinese through small closed word
  classes (an imperative or negated order, a modal, always/never, a reason, a contrast, a
  hedge, a first step of narration, a question, a status line, a heading), and what it
  names (code, paths, commands, numbers).

The names and order of the features are part of the shipped model (:mod:`.selector`):
adding one means training again.
"""

from __future__ import annotations

import math
import re

from madohub_memory.extraction.render import strip_lead
from madohub_memory.extraction.units import Unit

SOURCES = ("user", "assistant", "summary", "recap", "answer", "routine")
SECTIONS = ("errors", "solving", "decisions", "concepts", "request", "constraints", "pending", "current", "next",
            "files", "solved", "summary_user", "unknown")


def _c(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.I)


# English and Chinese word classes; each is one feature.
_FORM: dict[str, re.Pattern[str]] = {
    "imperative": _c(r"^(?:please\s+)?(?:always|never|don'?t|do not|use|avoid|stop|keep|make sure|remember|prefer|"
                     r"only|run|add|put|write|call|name|store|read|check|commit|push|test|fix|let'?s)\b"
                     r"|^(?:请|請|不要|别|別|务必|務必|一定|必须|必須|记得|記得|统一|統一|以后|以後|每次|总是|總是|禁止|先|直接|用|改用|改成)"),
    "negated": _c(r"\b(?:don'?t|do not|never|no longer|not|no|without|stop|avoid)\b|不要|别|別|不能|不用|禁止|不准|不許|不许|没有|沒有|不"),
    "modal": _c(r"\b(?:should|must|need to|needs to|have to|has to|required?|shall)\b|应该|應該|必须|必須|需要|得|要"),
    "general": _c(r"\b(?:always|never|every|each|all|any|whenever|by default|from now on|going forward|in (?:the )?future"
                  r"|for now|unless)\b|总是|總是|每次|所有|一律|始终|始終|以后|以後|永远|永遠|凡是|任何"),
    "first_person": _c(r"\b(?:i|i'm|i've|i'd|i'll|me|my|we|we're|our|us)\b|我"),
    "second_person": _c(r"\b(?:you|your|you're)\b|你|您"),
    "the_user": _c(r"\b(?:the user|user's|user)\b|用户|用戶|使用者"),
    "reason": _c(r"\b(?:because|since|so that|due to|caused by|in order to|to avoid|otherwise|which is why)\b"
                 r"|因为|因為|由于|由於|所以|为了|為了|以免|否则|否則|导致|導致"),
    "contrast": _c(r"\b(?:instead of|rather than|instead|not\s+\S+\s*$|over)\b|而不是|代替|取代|改用|而非"),
    "hedge": _c(r"\b(?:maybe|might|may|perhaps|probably|possibly|likely|seems?|appears?|i think|i guess|not sure|could be)\b"
                r"|可能|也许|也許|大概|似乎|好像"),
    "narration": _c(r"^(?:let me|let's|i'll|i will|i'm going to|now|next|first|then|okay|ok|great|perfect|good|done|"
                    r"looking|checking|running|reading|searching)\b|^(?:让我|讓我|我来|我來|我先|现在|現在|接下来|接下來|好的|完成)"),
    "question": _c(r"[?？]\s*$|^(?:what|how|why|when|where|which|who|can|could|would|should i|do|does|did|is|are)\b"
                   r"|[吗嗎呢]\s*[?？。]?$|什么|什麼|怎么|怎麼|为什么|為什麼|如何|是否|能否"),
    "cause": _c(r"\b(?:root cause|the (?:issue|problem|bug|error|cause) (?:is|was)|caused by|because|turned out|the reason)\b"
                r"|原因|根因|问题出在|問題出在|导致|導致"),
    "prefers": _c(r"\b(?:prefer|prefers|preferred|i'd rather|i would rather|favou?rite|i (?:really )?(?:like|love|hate|dislike)"
                  r"|can't stand|i (?:don't|do not) (?:like|want))\b|喜欢|喜歡|偏好|更倾向|更傾向|倾向于|傾向於|讨厌|討厭|不喜欢|不喜歡|宁愿|寧願"),
    "decided": _c(r"\b(?:decided|decision|chose|chosen|went with|settled on|agreed|opted|we'll use|switched to)\b"
                  r"|决定|決定|选择|選擇|采用|採用|定了"),
    "fact_verb": _c(r"\b(?:uses|is built|runs on|requires|depends on|lives in|is stored|is configured|listens on|is located)\b"
                    r"|使用|基于|基於|位于|位於|依赖|依賴|部署在"),
    "done": _c(r"\b(?:fixed|added|created|implemented|updated|completed|finished|resolved|verified|confirmed|works|"
               r"passed|passing|closed|merged|pushed|shipped|deployed)\b|修复了|修復了|完成|已|通过|通過|验证|驗證"),
    "status": _c(r"^\s*(?:current|status|step|phase|task|todo|next|progress|pending)\w*\s*[:：-]|\b\d+\s*/\s*\d+\b|✅|✓|✔|❌|✗|⚠"
                 r"|\(\d+ (?:lines?|tests?|files?|passed|failed)\)|\b\d+ (?:\w+ )?(?:tests? )?(?:pass|passed|passing)\b"
                 r"|^(?:当前|目前|状态|狀態|进度|進度)[:：]"),
    "fix": _c(r"\b(?:fix(?:ed)? (?:it )?by|fix:|solution:|resolved by|workaround:?)|修复：|修復：|修复方法|修復方法|解决办法|解決辦法|解决方案|解決方案"),
    "error_text": _c(r"\b\w*(?:Error|Exception)\b|\berror:|exit code|traceback|failed|failure|失败|失敗|报错|報錯"),
}
_CODE = re.compile(r"`[^`]+`")
_PATH = re.compile(r"(?:^|[\s(`'\"])(?:~|\.{1,2})?/[\w.-]+|[A-Za-z]:\\|\b[\w-]+/[\w./-]+\.\w{1,5}\b|\b[\w-]+\.(?:py|js|ts|tsx|"
                   r"json|toml|ya?ml|md|ex|exs|rb|go|rs|java|kt|sh|sql|env|lock|txt|cfg|ini)\b")
_FLAG = re.compile(r"(?:^|\s)--?[a-z][\w-]+")
_DIGIT = re.compile(r"\d")
_LATIN = re.compile(r"[A-Za-z0-9_]+")
_CJK = re.compile(r"[\u3400-\u9fff]")
# "Root cause: …", "Fix: …", "根因：…": a statement under a short label of its own
_LABEL = re.compile(r"^([^:：。.!?]{2,24})[:：]\s*\S")
_CAUSE_LABEL = _c(r"\b(?:cause|reason|why|fix|solution|resolution|lesson)\b|原因|根因|修复|修復|解决|解決|教训|教訓")
_WHY_LABEL = _c(r"\b(?:cause|reason|why)\b|原因|根因")  # a cause, not a fix or a status ("Fixed: …")
_UPPER_LABEL = re.compile(r"^[A-Z][A-Z _-]{2,}[:：]")
_HEADING_WORDS: dict[str, re.Pattern[str]] = {
    "h_cause": _c(r"cause|why|problem|issue|bug|error|fix|原因|问题|問題|修复|修復"),
    "h_summary": _c(r"summary|result|finding|conclusion|done|complete|report|总结|總結|结果|結果|结论|結論|完成"),
    "h_next": _c(r"next|todo|plan|step|remaining|pending|下一步|计划|計劃|待办|待辦"),
    "h_rule": _c(r"rule|convention|guideline|constraint|requirement|note|important|规则|規則|约定|約定|要求|注意"),
}


def feature_names() -> list[str]:
    names = ["bias"]
    names += [f"src_{s}" for s in SOURCES]
    names += [f"sec_{s}" for s in SECTIONS]
    names += ["final", "with_tool", "after_failure", "before_pass", "few_prompts", "autonomous", "first_exchange",
              "turn_chars", "replies", "code_share", "starts_code", "check_mark",
              "bullet", "first_in_turn", "last_in_turn", "rel_position", "log_count", "zh",
              "log_size", "short", "long", "code", "path", "flag", "digits", "upper_label", "labelled", "cause_label"]
    names += list(_FORM)
    names += list(_HEADING_WORDS)
    names += [f"user_{n}" for n in ("imperative", "negated", "general", "modal", "question", "first_person", "prefers")]
    names += [f"asst_{n}" for n in ("cause", "decided", "done", "narration", "hedge", "fact_verb")]
    names += ["established_cause", "standing_rule", "user_task"]
    return names


NAMES = feature_names()


def features(unit: Unit) -> list[float]:
    """The feature vector of a unit, in the order of :data:`NAMES`."""
    text = strip_lead(unit.text)  # "No, don't use npm here" is the order "don't use npm here"
    low = text.lower()
    form = {name: bool(pattern.search(low if name != "question" else text.strip())) for name, pattern in _FORM.items()}
    chars = len(text)
    # Size in words, the same for both languages: a Chinese character carries about two
    # thirds of an English word, so a sentence is not judged longer for being English.
    words = len(_LATIN.findall(text)) + len(_CJK.findall(text)) / 1.5
    label = _LABEL.match(text)
    values: dict[str, float] = {"bias": 1.0}
    for s in SOURCES:
        values[f"src_{s}"] = float(unit.source == s)
    for s in SECTIONS:
        values[f"sec_{s}"] = float(unit.section == s)
    values.update({
        "final": float(unit.final), "with_tool": float(unit.with_tool), "after_failure": float(unit.after_failure),
        "before_pass": float(unit.before_pass), "few_prompts": float(unit.pass_users <= 2),
        "turn_chars": min(math.log1p(unit.turn_chars) / 8.0, 1.5),
        "replies": float(unit.replies_to_question),
        "code_share": sum(len(c) for c in _CODE.findall(text)) / max(chars, 1),
        "starts_code": float(text[:1] in "`/~" or bool(_PATH.match(text))),
        "check_mark": float(text[:1] in "✅✓✔☑❌✗⚠"),
        "autonomous": min(math.log1p(unit.exchange_tools) / 4.0, 1.5), "first_exchange": float(unit.first_exchange),
        "bullet": float(unit.bullet), "first_in_turn": float(unit.index == 0),
        "last_in_turn": float(unit.index == unit.count - 1),
        "rel_position": unit.index / max(1, unit.count - 1) if unit.count > 1 else 0.0,
        "log_count": min(math.log1p(unit.count) / 3.0, 1.5), "zh": float(unit.zh),
        "log_size": math.log1p(words) / 4.0, "short": float(words < 5), "long": float(words > 40),
        "code": min(len(_CODE.findall(text)), 3) / 3.0, "path": float(bool(_PATH.search(text))),
        "flag": float(bool(_FLAG.search(text))), "digits": min(len(_DIGIT.findall(text)) / max(chars, 1) * 10, 1.0),
        "upper_label": float(bool(_UPPER_LABEL.match(text))),
        "labelled": float(label is not None),
        "cause_label": float(label is not None and bool(_CAUSE_LABEL.search(label.group(1)))),
    })
    values.update({name: float(hit) for name, hit in form.items()})
    heading = unit.heading.lower()
    values.update({name: float(bool(heading and p.search(heading))) for name, p in _HEADING_WORDS.items()})
    user = unit.source == "user"
    for n in ("imperative", "negated", "general", "modal", "question", "first_person", "prefers"):
        values[f"user_{n}"] = float(user and form[n])
    agent = unit.source in ("assistant", "recap")
    for n in ("cause", "decided", "done", "narration", "hedge", "fact_verb"):
        values[f"asst_{n}"] = float(agent and form[n])
    # a short rule the person types: an order, or a "should" said for always; an order said
    # neither for always nor as a "don't" may be a task for now ("Please fix the failing
    # test"): the kind is then left to the kind model (selector.Selector.kind)
    standing = form["general"] or form["negated"]
    values["standing_rule"] = float(user and not form["question"] and words <= 30
                                    and (form["imperative"] or (form["modal"] and form["general"])))
    values["user_task"] = float(user and form["imperative"] and not standing and not form["prefers"])
    # a cause the agent states once a failing run has passed (or just before it passes)
    why = form["cause"] or bool(label and _WHY_LABEL.search(label.group(1)))
    values["established_cause"] = float(agent and why and not form["hedge"]
                                        and (unit.resolved or (unit.after_failure and unit.before_pass)))
    return [values[name] for name in NAMES]
