"""What a person types to a coding agent that should outlive the session.

The most valuable turns of a coding session are short: "don't commit with --no-verify, fix
the hook findings", "keep going through all subtasks without asking", "use pnpm, not
npm", "we should store the counter in the session directory", "不要直接推到 main". A chat
scorer drops them for being short and imperative. Here a sentence counts when it is a
standing rule (a negated imperative, always/never, a contrast such as "X, not Y" or
"instead of", an address to the agent with should/must), or a design decision ("we should
store…", "let's just have one script…"). One-off task steps ("commit and push", "let's
add the script to the root package.json", "check again") are not rules and are left out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from madohub_memory.extraction.rewrite import _third_person, rewrite_first_person_en


@dataclass(frozen=True)
class Rule:
    content: str
    kind: str
    strength: float  # how clearly the sentence states something lasting, 0..1
    sentence: str  # as typed (flags are judged on it)


_SPLIT = re.compile(r"(?<![Ee]\.g\.)(?<![Ii]\.e\.)(?<=[.!?;])\s+|\n+|\s+-\s+(?=[a-z])|,?\s+(?=\([2-9]\)\s)|(?<=[a-z0-9)`'\"]),\s+(?=(?:and |but |so )?(?:don't|do not|never|please|stop|avoid)\s+"
                    r"(?!(?:with|in|on|at|for|the|a|an|to|from|by|over|than|as|of)\b))")
_LEAD = re.compile(r"^(?:(?:ok(?:ay)?|so|well|also|and|but|hey|alright|right|yes|yeah|no|nope|hmm|actually|btw|oh)\b[,.!:\s-]*"
                   r"|\(\d\)\s*)+", re.I)
# What the person asks for right now at the end of a rule: "…, and tell me what they should be",
# "…, then run the tests". The rule outlives the session; the tail does not.
_NOW_TAIL = re.compile(r"(?:,\s*|\s+)(?:and\s+)?(?:then\s+)?(?:tell|show|let|ask|give|send|remind)\s+(?:me|us)\b.*$"
                       r"|,\s*(?:and\s+)?then\s+.*$", re.I)

_PLEASE = re.compile(r"^(?:please|pls|plz)\s+|\s*,?\s*please$", re.I)
# Makes an instruction a standing one rather than a step of the current task.
_GENERAL = re.compile(
    r"\b(?:always|never|ever|every ?time|whenever|each time|from now on|going forward|in (?:the )?future|by default"
    r"|any(?:more| time)|in this (?:repo|project|codebase)|(?:for |in )?(?:all|every|each|any) (?:\w+ ){0,2}"
    r"(?:subtasks?|tasks?|tests?|files?|commits?|steps?|code|changes?|prs?|pull requests?|modules?|components?"
    r"|functions?|endpoints?|migrations?|branch(?:es)?|releases?)"
    r"|without (?:asking|prompting|checking with me|waiting)|instead of|rather than|not\s+\S+\s*$|, not\b|over\s+\S+$"
    r"|unless|until)\b", re.I)
_NEGATED = re.compile(r"^(?:don't|do not|never|stop|quit|avoid|no need to|no more)\s+(?P<rest>\S.*)$", re.I)
_POSITIVE = re.compile(
    r"^(?:always|make sure (?:to|you)|remember to|keep|use|prefer|only|from now on,?|going forward,?)\s+(?P<rest>\S.*)$",
    re.I)
_TO_AGENT = re.compile(
    r"^(?:you|claude|the agents?|agents|each agent|every agent|subagents|the subagents|they)\s+(?P<modal>should(?:n't| not)?|must(?:n't| not)?|need to|have to|shall|always|never)\s+"
    r"(?P<rest>\S.*)$", re.I)
_DESIGN = re.compile(
    r"^(?:we(?:'ll| will| should| need to| want to| must)|let's|let us|i want us to|i'd like us to)\s+"
    r"(?:(?:just|also|only|instead|rather|probably|definitely|then|now|first)\s+|\(\d\)\s*)*"
    r"(?P<verb>use|store|keep|name|put|place|have|go with|switch to|stick with|move (?:\w+ )?to|rely on|avoid|not"
    r"|split|separate|make|treat|call|save|write (?:\w+ )?(?:to|into)|track|log|run (?:\w+ )?(?:in|on|from)|default to"
    r"|target|support|drop|replace)\b(?P<rest>.*)$",
    re.I)
# "let's also add a todo for hive-mind to consider PII removal", "remind me to rotate the key":
# an open item worth knowing next session.
_TODO = re.compile(
    r"\b(?:add|create|file|open|make|write down|note down|log)\s+(?:a|an|another)?\s*(?:todo|to-do|ticket|issue|bead"
    r"|follow-up|follow up|task)\b\s*(?:session|item|entry|note)?\s*(?:for|to|about|on|that)?\s+(?P<what>\S.*)$"
    r"|^(?:todo|to-do|fixme|note to self)\s*[:-]\s*(?P<what2>\S.*)$|\bremind me (?:to|that)\s+(?P<what3>\S.*)$",
    re.I)
# "I'd like to start committing the session files": a change of practice, not a step.
_START = re.compile(r"^(?:i(?:'d| would) like to|i want to|let's|we(?:'ll| will| should| need to)|from now on,? we)\s+"
                    r"(?:also\s+)?start\s+(?P<what>\w+ing\b.*)$", re.I)
# "mix phx.server doesnt seem to start": a problem the user reports, open until solved.
_BROKEN = re.compile(
    r"^(?P<what>.{3,80}?)\s+(?:doesn'?t|does not|won't|wont|isn'?t|is not|can'?t|cannot|no longer)\s+(?:seem to\s+)?"
    r"(?:start|work|run|build|compile|load|connect|open|respond|install|deploy|boot)\b|^(?P<what2>.{3,80}?)\s+"
    r"(?:(?:is|are|keeps?)\s+(?:broken|failing|crashing|hanging|down|stuck)|crash(?:es)?|hangs|freezes|times out)\b",
    re.I)
# "I've removed the "*" from the relevant gitignore": the user changed the project themselves.
_USER_CHANGED = re.compile(
    r"^i(?:'ve| have)?\s+(?:just\s+|already\s+)?(?:removed|added|changed|updated|deleted|renamed|moved|installed"
    r"|upgraded|downgraded|configured|enabled|disabled|reverted|set up|created)\s+\S", re.I)
# "for now put these under our project's .claude/hooks/ folder": where things live.
_PLACE = re.compile(r"^(?:for now,?\s*)?(?:put|place|store|keep|save|move)\s+(?P<what>.+?)\s+(?:in|under|into|inside)\s+"
                    r"(?P<where>[^/\\]{0,40}[/\\].*|the \S+ (?:folder|directory|dir)\b.*)$", re.I)
# "The endpoint should return 404, not 500": how the project's code must behave.
_SHOULD = re.compile(
    r"^(?P<subject>(?:the|this|that|our|all|every|each|any|new)\b[^,;]{1,60}?)\s+(?P<modal>should(?:n't| not)?"
    r"|must(?:n't| not)?|needs? to|has to|have to|always|never)\s+(?P<rest>\S.*)$", re.I)
_EXPECTATION = re.compile(r"\b(?:now|again|soon|yet|by now|at this point)\b|^(?:pass|work|be (?:fine|ok|okay|good|done|ready)"
                          r"|compile|run|build)\b", re.I)
# "Remember that the CI runs on Python 3.9, so no match statements": a fact handed over.
_REMEMBER = re.compile(r"^(?:remember|note|keep in mind|be aware|fyi|just so you know|for (?:the )?record)"
                       r"(?: that)?[,:]?\s+(?P<fact>\S.*)$", re.I)
# "I don't want to rely on this being a monorepo forever", "I'd rather keep the CLI thin".
_FIRST_PERSON_RULE = re.compile(
    r"^i\s+(?:really\s+)?(?:don't|do not|never)\s+want\s+(?:to|you to|it to|this to)\b|^i(?:'d| would) rather\b"
    r"|^i\s+(?:always|never)\s+(?:want|use|run|prefer|need)\b|^i\s+prefer\b|^i\s+(?:hate|dislike)\s+(?:it )?when\b",
    re.I)
_ONE_OFF = re.compile(
    r"\b(?:this (?:file|one|function|test|bug|error|pr|branch|time)|these (?:files|changes)|that (?:file|one)"
    r"|for now|right now|today|again|here|the above|the following|above|below)\b", re.I)
_QUESTION = re.compile(r"\?\s*$|^(?:what|how|why|when|where|who|which|can|could|would|should i|do|does|did|is|are)\b", re.I)
_CODE = re.compile(r"^\s*[$#>]|[;{]\s*$|^\s*(?:def|class|import|from|function|const|let|var|return)\s")
# "For API keys, don't put placeholders in the code": the clause before the rule is its scope.
_SCOPE = re.compile(r"^(?:for|when|in|on|with|if|before|after|during|while)\b", re.I)
_REASON = re.compile(r"\b(?:because|since|so that|so we|as it|otherwise|to avoid|for (?:\w+ )?(?:capability|compatibility|speed|safety|consistency|portability))\b",
                     re.I)
# "You should see some instructions in your memory": an observation, not a rule.
_PERCEIVE = re.compile(r"(?:see|know|be|have|find|notice|understand|get|remember that)\b", re.I)
# "let's not do that", "we should keep it": nothing a later session could act on.
_VAGUE = re.compile(r"^\s*(?:(?:do|go|be|get|it|that|this|them|these|those|one|so|anything|something|everything|simple|"
                    r"same|there|here|going|on|up|with it|for now|as is)\b[\s,.!]*)*$", re.I)
MAX_RULE_CHARS = 300


def _clean(sentence: str) -> str:
    sentence = _LEAD.sub("", sentence.strip()).strip()
    return _PLEASE.sub("", sentence).strip(" ,;:-")


def _body(rest: str) -> str:
    rest = rest.strip().rstrip(" .!;,")
    cut = _NOW_TAIL.search(rest)
    if cut is not None and cut.start() > 12:
        rest = rest[: cut.start()]
    return rest.strip().rstrip(" .!;,")


def _third(text: str, subject: str) -> str:
    """The rest of a rule in the third person ("my tests" -> "the user's tests")."""
    out = rewrite_first_person_en(text, subject, team=True).rstrip(".")
    return out[0].lower() + out[1:] if out[:2] != "I " and out[:1].isupper() and not out[1:2].isupper() else out


def _agent_as_it(text: str) -> str:
    """"when you write tests" -> "when it writes tests" (the agent is the one addressed)."""
    text = re.sub(r"\byou (\w+)", lambda m: "it " + _third_person(m.group(1)), text)
    return re.sub(r"\byour\b", "its", text)


def rules_en(text: str, subject: str = "User") -> list[Rule]:
    """Standing rules and design decisions in an English user turn of a coding session."""
    out: list[Rule] = []
    scope = ""
    agents = bool(re.search(r"\b(?:sub)?agents?\b", text, re.I))
    position = 0
    for raw in _SPLIT.split(text):
        raw = raw or ""
        start = text.find(raw, position) if raw else -1
        position = start + len(raw) if start >= 0 else position
        before_comma = text[position:position + 1] == ","
        sentence = _clean(raw)
        previous, scope = scope, ""
        if before_comma and _SCOPE.match(sentence) and len(sentence.split()) <= 8:
            scope = sentence  # "For API keys, don't …": kept for the rule after the comma
            continue
        if not (3 <= len(sentence.split()) <= 60) or len(sentence) > MAX_RULE_CHARS:
            continue
        if _QUESTION.search(sentence) or _CODE.search(sentence):
            continue
        rule = _rule(sentence, subject, agents)
        if rule is not None and previous and rule.kind == "preference":
            head = f"{subject} wants the agent "
            if rule.content.startswith(head):
                scope_text = _agent_as_it(_third(previous, subject))
                rule = Rule(f"{head.rstrip()}, {scope_text[0].lower()}{scope_text[1:]}, {rule.content[len(head):]}",
                            rule.kind, rule.strength, f"{previous}, {rule.sentence}")
        if rule is not None:
            out.append(rule)
    return out


def _rule(sentence: str, subject: str, agents: bool = False) -> Rule | None:
    general = bool(_GENERAL.search(sentence))
    one_off = bool(_ONE_OFF.search(sentence))
    m = _TODO.search(sentence)
    if m is not None:
        what = _third(_body(m.group("what") or m.group("what2") or m.group("what3")), subject)
        return Rule(f"Open todo from the {subject.lower()}: {what}.", "event", 0.65, sentence)
    m = _PLACE.match(sentence)
    if m is not None:
        body = re.sub(r"(?i)^for now,?\s*", "", _body(sentence))
        later = " for now" if body != _body(sentence) else ""
        return Rule(f"{subject} decided to {_third(body, subject)}{later}.", "decision", 0.55, sentence)
    if _USER_CHANGED.match(sentence):
        return Rule(rewrite_first_person_en(sentence, subject, team=True), "fact", 0.5, sentence)
    m = _BROKEN.match(sentence)
    if m is not None and not _QUESTION.search(sentence):
        return Rule(f"{subject} reported a problem: {_third(_body(sentence), subject)}.", "event", 0.5, sentence)
    m = _START.match(sentence)
    if m is not None:
        return Rule(f"{subject} decided to start {_third(_body(m.group('what')), subject)}.", "decision", 0.6, sentence)
    m = _NEGATED.match(sentence)
    if m is not None and _VAGUE.match(m.group("rest")):
        m = None  # "don't do that": nothing to carry over
    if m is not None:
        word = sentence.split()[0].lower()
        lead = {"never": "to never", "stop": "to stop", "quit": "to stop", "avoid": "to avoid",
                "no": "to not", "don't": "to not", "do": "to not"}.get(word, "to not")
        strength = 0.75 if general or not one_off else 0.45
        body = _third(_body(m.group("rest")), subject)
        if word in ("stop", "quit", "avoid"):
            body = _third(_body(sentence.split(None, 1)[1]), subject)
        return Rule(f"{subject} wants the agent {lead} {body}.", "preference", strength, sentence)
    m = _TO_AGENT.match(sentence)
    if m is not None and sentence.lower().startswith("they") and not agents:
        m = None  # "they should…" is about the agents only when the turn talks about agents
    if m is not None and (general or not one_off) and not _PERCEIVE.match(m.group("rest")):
        modal = m.group("modal").lower().replace("n't", " not")
        rest = _third(_body(m.group("rest")), subject)
        neg = "not " in modal or modal == "never"
        lead = "to never" if modal == "never" else ("to not" if neg else "to")
        if modal == "always":
            lead = "to always"
        return Rule(f"{subject} wants the agent {lead} {rest}.", "preference", 0.7 if general else 0.55, sentence)
    m = _POSITIVE.match(sentence)
    if m is not None and general:
        word = sentence.split()[0].lower()
        body = _third(_body(sentence if word in ("always", "keep", "use", "prefer", "only") else m.group("rest")),
                      subject)
        body = body[0].lower() + body[1:]
        return Rule(f"{subject} wants the agent to {body}.", "preference", 0.75, sentence)
    m = _REMEMBER.match(sentence)
    if m is not None and len(m.group("fact").split()) >= 3:
        fact = rewrite_first_person_en(m.group("fact"), subject, team=True)
        kind = "pattern" if re.search(r"\b(?:should|must|never|always|no|don't|do not)\b", fact, re.I) else "fact"
        return Rule(fact[0].upper() + fact[1:], kind, 0.65, sentence)
    m = _SHOULD.match(sentence)
    if m is not None and (re.match(r"(?i)(?:this|that) (?:one|is|was|would)\b", m.group("subject"))
                          or _EXPECTATION.search(m.group("rest"))):
        m = None  # "the tests should pass now": an expectation, not a rule
    if m is not None:
        modal = m.group("modal").lower().replace("n't", " not")
        lead = "to not" if "not" in modal else ("to never" if modal == "never" else
                                                 ("to always" if modal == "always" else "to"))
        thing = _third(m.group("subject"), subject)
        rest = _third(_body(m.group("rest")), subject)
        return Rule(f"{subject} wants {thing[0].lower()}{thing[1:]} {lead} {rest}.", "preference",
                    0.65 if general else 0.55, sentence)
    m = _FIRST_PERSON_RULE.match(sentence)
    if m is not None:
        return Rule(rewrite_first_person_en(sentence, subject, team=True), "preference", 0.7, sentence)
    m = _DESIGN.match(sentence)
    if m is not None and not re.match(r"(?i)^(?:have|make) (?:a look|sure|it work)", m.group("verb") + m.group("rest")) \
            and not _VAGUE.match(m.group("rest")):
        verb_rest = _third(_body(m.group("verb") + m.group("rest")), subject)
        strength = 0.7 if _REASON.search(sentence) else 0.6
        return Rule(f"{subject} decided to {verb_rest}.", "decision", strength, sentence)
    return None


# -- Chinese ------------------------------------------------------------------------------

_ZH_SPLIT = re.compile(r"(?<=[。！？!?；;])|\n+")
_ZH_RULE = re.compile(
    r"^(?:请|请你|你)?(?:以后|今后|从现在开始|从今以后|每次|总是|一律|始终|务必|一定要|千万|永远)?(?:都)?"
    r"(?P<neg>不要|别|不许|禁止|不准|不用|永远不要|千万别|绝对不要)(?P<rest>\S.*)$"
    r"|^(?:请|请你|你)?(?P<gen>以后|今后|从现在开始|从今以后|每次|总是|一律|始终|务必|一定要|统一)(?P<rest2>\S.*)$"
    r"|^(?:请)?(?:用|改用|使用)\s*(?P<use>\S{1,30}?)\s*(?:[，,]\s*)?(?:而不是|不要用|别用|不用|代替)\s*(?P<other>\S.*)$")
_ZH_DESIGN = re.compile(r"^(?:我们|咱们)(?:就|还是|以后|统一)?(?:用|采用|使用|放在|存在|改成|改为|保持|按照)\s*(?P<rest>\S.*)$")
_ZH_TODO = re.compile(r"(?:加|添加|记|建|开)(?:一)?(?:个|条)?(?:待办|todo|TODO|任务|issue|工单)(?:[，,：:]\s*)?(?P<what>\S.*)$"
                      r"|^(?:TODO|todo|待办)\s*[:：]\s*(?P<what2>\S.*)$|提醒我(?P<what3>\S.*)$")
_ZH_BROKEN = re.compile(r"(?:启动不了|起不来|跑不起来|运行不了|编译不过|编译失败|构建失败|打不开|连不上|装不上|一直报错|报错了|挂了|崩了|卡住了?)")
_ZH_CHANGED = re.compile(r"^我(?:已经|刚刚?|刚才)?(?:把|将)?.{0,40}?(?:删掉|删除|删|改成|改为|换成|修改|改|添加|加上|加|安装|装|升级|降级"
                         r"|配置|移到|移)[^。！？]*了$")
_ZH_QUESTION = re.compile(r"[?？]\s*$|吗[。！!]?$|呢[。！!]?$")
_ZH_CORRECTION = re.compile(r"^(?:不对|不是这样|错了|搞错了|不，|不,|应该是)")
_ZH_SHOULD = re.compile(r"要|应该|得|必须|不能|不要|别")
_ZH_ONE_OFF = re.compile(r"这个文件|这次|现在先|先|一下|再试|重新|马上")


def rules_zh(text: str, subject: str = "用户") -> list[Rule]:
    """Standing rules and design decisions in a Chinese user turn of a coding session."""
    out: list[Rule] = []
    for raw in _ZH_SPLIT.split(text):
        raw = (raw or "").strip()
        sentence = re.sub(r"^(?:好的|好|嗯|那|对|不对|不是|其实)[，,\s]*", "", raw).strip("。！!；; ")
        if not (4 <= len(sentence) <= 150) or _ZH_QUESTION.search(sentence):
            continue
        if _ZH_CORRECTION.match(raw) and _ZH_SHOULD.search(sentence):
            # "不对，导出文件名要带日期": the user correcting the agent
            out.append(Rule(f"{subject}纠正：{sentence}。", "preference", 0.65, raw))
            continue
        m = _ZH_TODO.search(sentence)
        if m is not None:
            what = m.group("what") or m.group("what2") or m.group("what3")
            out.append(Rule(f"{subject}留下的待办：{what.rstrip('。')}。", "event", 0.65, sentence))
            continue
        if _ZH_BROKEN.search(sentence) and not _ZH_RULE.match(sentence):
            out.append(Rule(f"{subject}报告的问题：{sentence}。", "event", 0.5, sentence))
            continue
        if _ZH_CHANGED.match(sentence):
            out.append(Rule(f"{subject}{sentence[1:]}。", "fact", 0.5, sentence))
            continue
        m = _ZH_RULE.match(sentence)
        if m is not None:
            one_off = bool(_ZH_ONE_OFF.search(sentence)) and not m.group("gen")
            out.append(Rule(f"{subject}要求：{sentence}。", "preference", 0.45 if one_off else 0.75, sentence))
            continue
        m = _ZH_DESIGN.match(sentence)
        if m is not None:
            body = re.sub(r"^(?:我们|咱们)", "", sentence)
            out.append(Rule(f"{subject}决定{body}。", "decision", 0.6, sentence))
    return out
