"""English turns: which sentences state something durable about the user, and how to say it.

Each sentence gets features (first person, cue words for the six kinds, questions, talk
about the other person, prompts and code); a logistic turn scorer, fitted on LoCoMo dev
chat, decides whether a turn carries a durable fact at all; sentences that state a
preference, decision, postmortem or rule outright are kept whatever the scorer says.
"""

from __future__ import annotations

import math
import re
from typing import Any

from madohub_memory.extraction.rewrite import STOP_WORDS as _STOP
from madohub_memory.extraction.rewrite import rewrite_first_person_en
from madohub_memory.extraction.sentences import Pick, kind_of, lower_pattern, split

MAX_SENTENCE_CHARS = 400

# Sentence ends, except after "e.g." / "i.e." / "etc." / "vs." and titles ("Dr. Smith").
_EN_SPLIT = re.compile(r"(?<=[.!?;])\s+|\n+|\s+-\s+(?=[A-Z])")
_NO_END = re.compile(r"(?:\b[Ee]\.g|\b[Ii]\.e|\betc|\bvs|\b[MD]rs?|\bMs|\bSt|\bapprox|\bcf)\.$")


# "my son is 5, what books would he like": a statement with a question after the comma.
_QUESTION_TAIL = re.compile(
    r"^(?P<head>.{6,}?),\s+(?P<tail>(?:what|how|why|which|who|where|when|any)\b[^,]*"
    r"|(?:can|could|would|should|will|is|are|do|does|did)\s+(?:it|i|we|you|they|this|that|there)\b[^,]*)$", re.I)


def _split_sentences(text: str) -> list[str]:
    """Sentences, except that "e.g." / "i.e." / "etc." / "vs." / titles ("Dr. Smith") end
    none; a question after a comma is its own sentence (and a question, "?" or not)."""
    out: list[str] = []
    for piece in split(_EN_SPLIT, text):
        if out and _NO_END.search(out[-1]):
            out[-1] = f"{out[-1]} {piece}"
            continue
        tail = _QUESTION_TAIL.match(piece)
        if tail is not None:
            out += [tail.group("head"), tail.group("tail").rstrip("?") + "?"]
        else:
            out.append(piece)
    return out
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
    r"|talk (?:soon|later)|see you|take care|good luck|catch up soon)\b"
    # a remark about the other speaker ("I'm impressed by your willingness…", "I'm proud of you")
    r"|\b(?:impressed|inspired|amazed|moved|touched|blown away|in awe)\s+(?:by|with|of)\s+(?:you|your|how you)\b"
    r"|\b(?:proud of|admire|respect|envy|love|adore|appreciate)\s+(?:you|your)\b"
    r"|\byour\s+(?:\w+\s+){0,3}(?:is|are|was|were|sounds?|looks?)\s+(?:so\s+|really\s+|very\s+)?"
    r"(?:amazing|awesome|great|impressive|inspiring|incredible|beautiful|wonderful|cool|admirable)\b",
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
        r"|\b(?:my|our) fav(?:ou?rite)?s?\b|\bprefer\b|\b(?:I|we) (?:don't|do not|never) want to\b|\bI'd rather\b"
        r"|\buse\s+\S+\s+(?:instead of|rather than|not|over)\s+\S+"
        r"|\b(?:don't|do not|never|please don't|stop)\s+(?:use|using|add|adding|put|write|commit)\b"
        r"|\b(?:instead of|rather than)\b", re.I), 0.65),
    ("pattern", re.compile(
        r"\b(?:I|we)(?:'ll|'d|'re|'ve|'m)?\s+(?:\w+\s+)?(?:always|usually|often|regularly|tend to|every (?:day|week|morning|night|"
        r"weekend|time))\b|\b(?:every (?:time|day|week|morning|weekend|sunday|monday)|whenever|each time|"
        r"my (?:routine|habit)|as a rule|(?:it|this) keeps happening|again and again)\b", re.I), 0.6),
    ("fact", re.compile(
        r"\b(?:I'm|I am)\s+(?:a|an)\s+\w+|\bI\s+(?:work|live|study|grew up|was born|teach)\b"
        r"|\b(?:I'm|I am)\s+(?:allergic to|from|based in|vegetarian|vegan|left-handed|colou?r-?blind)\b"
        r"|\b(?:my|our)\s+(?:project|repo|repository|app|service|team|company|stack|codebase|api|"
        r"database|server|job|name|wife|husband|partner|kids?|son|daughter|dog|cat|family|mom|dad|mother|"
        r"father|brother|sister|friend|boss|home|house|car|band)\b"
        r"|\b(?:we|I)\s+(?:use|run|deploy|host|build with|target)\b|\b(?:we|I)(?:'re| are|'m| am) (?:using|running|deploying|hosting|on)\b"
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
    # "No, …" corrects; "No explanation is required" or "No worries" does not
    r"^(?:(?:no|nope)\s*[,.!:;]|(?:wrong|actually|not quite|that's (?:wrong|not right|incorrect|not what I)|"
    r"that is (?:wrong|not right|incorrect))\b[,.!:;\s])", re.I,
)
_REASON_EN = re.compile(r"\b(?:because|since|so that|due to|as it|given that|otherwise)\b", re.I)
_DETAIL = re.compile(r"\d|\b[A-Z][a-z]{2,}|[\"“][^\"”]{2,}[\"”]|\b[\w.\-]+\.(?:py|js|ts|json|toml|md|yml|yaml)\b")

_QUESTION_LEAD = lower_pattern(_QUESTION_LEAD)
_FIRST_PERSON_CI = lower_pattern(_FIRST_PERSON_CI)
_YOU_SUBJECT = lower_pattern(_YOU_SUBJECT)
_EMPATHY = lower_pattern(_EMPATHY)
_DIRECTIVE = lower_pattern(_DIRECTIVE)
_CORRECTION_EN = lower_pattern(_CORRECTION_EN)
_REASON_EN = lower_pattern(_REASON_EN)
_IMPERATIVE_RULE = lower_pattern(_IMPERATIVE_RULE)
_IMPERATIVE_START = lower_pattern(_IMPERATIVE_START)
_CUE_EN = [(kind, lower_pattern(p), strength) for kind, p, strength in _CUE_EN]
_FIRST_SUBJECT = re.compile(r"(?:i|i'm|i've|i'd|i'll|my|we|we're|we've|our)\b")
# "For each step I want a high-level spec in 1-3 lines", "I want a placeholder TITLE that…",
# "I'd like the output as a table": what the user wants from this answer, not a standing
# preference (that one says always / never / in general / from now on).
_REQUEST = re.compile(
    r"^(?:for (?:each|every|all|the|this|that|these|those)\b[^,]*,?\s*|in (?:each|every|the|this)\b[^,]*,?\s*"
    r"|now,?\s+|then,?\s+|next,?\s+|also,?\s+)?"
    r"(?:i|we) (?:(?:also|just|now|then|really)\s+)?(?:want|need|would like|'d like|'d love|would love|expect)"
    r"\s+(?:a|an|the|you|it|them|this|that|these|those|each|every|some|one|two|three|\d|my|your|to (?:see|get|have|know|add|make|create|write|implement|build|generate|use))\b"
)
_STANDING = re.compile(r"\b(?:always|never|in general|generally|from now on|every time|whenever|by default|in all)\b")
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

_CODE_LIKE = re.compile(
    r"[{}<>`|\\]|\w\(|\)\s*$|\b[Ee]rror:|\b\w+\s*=\s*\S|^(?:from|import|def|class|select|return)\b|Error\b|Exception\b|\s{3,}|://"
)
_EN_FUNCTION = frozenset(
    ["the", "a", "an", "to", "is", "are", "was", "and", "of", "in", "it", "that", "for", "with", "on", "my",
     "i", "me", "we", "our", "you", "this", "be", "have", "has", "had", "so", "but", "not", "at", "as",
     "i'm", "i've", "it's", "just", "really", "will", "would", "can", "do", "did", "like", "love", "got",
     "we're", "we've", "we'll"]
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
# "How do I implement step 2, I'm making a POST" / "Can I make Docker more verbose, e.g. …":
# a question even without its "?".
_ASKING = re.compile(
    r"(?:e\.g\.|eg\.|i\.e\.|for example|for instance|say,)\s"  # an illustration inside a question
    r"|(?:i'm|i am|i was|we're) (?:still )?(?:not sure|unsure|wondering|curious|confused)\b"
    r"|i (?:don't|do not) (?:know|understand|get) (?:how|why|what|where|which|if|whether)\b"
    r"|(?:how|what|where|why|which|when) (?:do|does|can|could|should|would|is|are|did) (?:i|we|you|it)\b"
    r"|(?:can|could|should|shall|may|might|would|will|do|does|did|is|are|was|were) (?:i|we|it|you|there|this|that"
    r"|he|she|they|my|our)\b"  # an inverted question, with or without its "?"
    r"|(?:is|are) there (?:a|an|any)\b|is it (?:possible|ok|okay|fine|safe|better|normal)\b"
    # a supposition sets up a question ("If I have a translation for TITLE that is …"):
    r"|(?:[^,]{0,40},\s*)?(?:if|suppose|supposing|assume|assuming|imagine|what if)\s+(?:i|we|my|our|the|a|an)\b"
)
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


_WORD = re.compile(r"[A-Za-z][A-Za-z'\-]+")


def _content_words(sentence: str) -> int:
    return sum(1 for w in _WORD.findall(sentence) if len(w) > 2 and w.lower() not in _STOP)


def sentences_en(text: str) -> list[dict]:
    """Every declarative sentence of a turn with the features the scorer uses."""
    out: list[dict] = []
    for raw in _split_sentences(text):
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
        cue = kind_of(low, _CUE_EN)
        words = _content_words(sentence)
        feat: dict[str, Any] = {
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
            "request": bool(_REQUEST.match(low)) and not _STANDING.search(low),
        }
        if feat["imperative"] and feat["kind"] == "fact":
            feat["kind"], feat["strength"] = "pattern", 0.6
        feat["eligible"] = (
            not question and words >= 2
            and not (feat["directive"] and feat["kind"] not in _STRONG_KINDS)
            and (feat["first"] or feat["strength"] > 0 or feat["imperative"]
                 or (feat["correction"] and words >= 4))
            and not _TASK_SPEC.search(low) and not _CODE_LIKE.search(sentence) and not feat["request"]
            and _looks_english(low) and not _DEICTIC.match(low)
        )
        q = 0.25 * min(words, 8) + 0.6 * feat["first"] + 0.4 * feat["first_subject"] \
            + 0.3 * feat["detail"] + feat["strength"] - 0.6 * feat["you_subject"] \
            - 0.5 * feat["empathy"] - 0.2 * min(feat["you"], 3)
        feat["quality"] = q
        out.append(feat)
    return out

# An assistant's postmortem must state an established cause: not a heading of its own answer
# ("Lessons learned and best practices."), not a guess about the reader's error ("The error
# you are seeing is most likely caused by…").
_HEDGE = re.compile(
    r"\b(?:most likely|likely|probably|possibly|perhaps|maybe|might|may be|could be|can be|could|seems?|"
    r"appears?|suspect|typically|usually|often|common(?:ly)?|in general|generally)\b")
_VERB_HINT = re.compile(
    r"\b(?:is|was|were|are|be|been|had|has|have|did|does|do|caused|broke|failed|came|turned|went|"
    r"missed|used|ran|made|led|set|forgot|\w+ed)\b")


def _established_cause(f: dict) -> bool:
    low = f["sentence"].lower()
    if f["you"] or _HEDGE.search(low) or f["words"] < 4:
        return False
    postmortem_cue = _CUE_EN[0][1]
    return bool(_VERB_HINT.search(postmortem_cue.sub(" ", low)))


def pick_en(text: str, assistant: bool, threshold: float) -> list[Pick]:
    sents = sentences_en(text)
    eligible = [f for f in sents if f["eligible"]]
    if not eligible:
        return []
    if assistant:
        eligible = [f for f in eligible if f["kind"] == "postmortem" and _established_cause(f)]
        if not eligible:
            return []
    strong = [f for f in eligible if _is_strong_en(f) or (len(sents) == 1 and _is_plain_fact_en(f))]
    score = turn_score_en(sents)
    if not strong and score < threshold:
        return []
    pool = strong or [f for f in eligible if f["first"] or f["strength"] > 0] or eligible
    picks = []
    for f in pool:
        kind, strength = f["kind"], f["strength"]
        if f["correction"]:
            strength = max(strength, 0.6)
        if kind == "decision" and f["reason"]:
            strength += 0.1
        picks.append(Pick(f["sentence"], f["quality"] + (2.0 if f in strong else 0.0), kind, strength))
    return picks

def rewrite_en(sentence: str, subject: str, *, team: bool = False) -> str:
    if not _FIRST_PERSON_CI.search(sentence.lower()) and _IMPERATIVE_START.match(sentence.lower()):
        body = sentence.rstrip(" .!;,:；，。：")
        body = re.sub(r"(?i)^please\s+", "", body)
        body = re.sub(r"(?i)^(?:don't|do not)\s+", "to not ", body)
        if not body.startswith("to not "):
            body = "to " + body[0].lower() + body[1:]
        return f"{subject} wants the agent {body}."
    return rewrite_first_person_en(sentence, subject, team=team)
