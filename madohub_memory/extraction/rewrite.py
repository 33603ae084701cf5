"""First person to third person, so a candidate reads as a standalone statement.

"I prefer tabs" -> "User prefers tabs", "我觉得我的薪资…" -> "用户觉得自己的薪资…". Kept
apart from the extractor's scoring: these are plain string rewrites with no notion of
which sentence is worth keeping.
"""

from __future__ import annotations

import re

STOP_WORDS = frozenset(
    ["the", "a", "an", "and", "or", "but", "so", "to", "of", "in", "on", "at", "for", "with", "from", "by", "as", "is", "are", "was", "were", "be", "been", "being", "it", "its", "this", "that", "these", "those", "there", "here", "i", "i'm", "i've", "i'd", "i'll", "me", "my", "mine", "we", "our", "us", "you", "your", "he", "she", "they", "them", "his", "her", "their", "just", "really", "very", "so", "too", "also", "much", "many", "lot", "lots", "some", "any", "all", "more", "most", "such", "what", "how", "when", "where", "which", "who", "why", "not", "no", "yes", "yeah", "oh", "wow", "hey", "hi", "thanks", "thank", "totally", "definitely", "like", "get", "got", "gonna", "wanna", "been", "have", "has", "had", "do", "does", "did", "can", "could", "would", "should", "will", "shall", "may", "might", "must", "am", "about", "up", "out", "into", "over", "than", "then", "now", "still", "even", "ever", "always", "never", "again", "well", "pretty", "kinda", "sort", "thing", "things", "stuff", "something", "anything", "everything", "one", "ones", "it's", "that's", "there's", "what's"]
)


def rewrite_i_zh(sentence: str, s: str) -> str:
    """"我" -> "用户"; once the user is the subject of a clause, a later "我" in that clause
    is "自己" ("我觉得我的薪资…" -> "用户觉得自己的薪资…", not "用户觉得用户的薪资…").
    A possessive first mention ("我的朋友对我…") keeps "用户", since "自己" would then
    point at the friend."""
    # "我想我需要…" is "I think I need…": 想 is 觉得 here, not "wants" (用户想自己需要 misreads).
    sentence = re.sub(r"我(?:想|猜|估计)(?=[，,]?\s*我)", "我觉得", sentence)
    out: list[str] = []
    for clause in re.split(r"([，,；;：:])", sentence):
        subject = False
        parts = re.split(r"(?<!自)我", clause)
        rebuilt = parts[0]
        for part in parts[1:]:
            rebuilt += "自己" if subject else s
            rebuilt += part
            subject = subject or not part.startswith("的")
        out.append(rebuilt)
    return "".join(out)


def rewrite_we_zh(sentence: str, s: str, *, team: bool = False) -> str:
    """"我们" the way a note about the user would say it: "我们全家" -> "用户全家",
    "我们公司" -> "用户所在的公司", "我们的项目" -> "用户的项目", otherwise "用户等人" ("用户团队" in a workspace)."""
    we = r"(?:我们|咱们)"
    text = re.sub(we + r"(?=全家|一家|家)", s, sentence)
    text = re.sub(we + r"(?:的)?(?=公司|团队|组|部门|学校|班|小组|实验室)", f"{s}所在的", text)
    text = re.sub(we + r"的", f"{s}的", text)
    text = re.sub(we + r"(?=项目|仓库|代码|产品|系统|服务)", f"{s}的", text)
    return re.sub(we, f"{s}团队" if team else f"{s}等人", text)


# -- first person -> third person (English) ----------------------------------------------

_MODALS = frozenset(["can", "can't", "cannot", "could", "couldn't", "will", "won't", "would", "wouldn't", "should", "shouldn't", "must", "might", "may", "shall"])
_ADVERBS = frozenset(["really", "also", "usually", "always", "just", "still", "never", "often", "sometimes", "actually", "totally", "definitely", "generally", "mostly", "rarely", "truly", "absolutely", "honestly", "even", "already", "finally", "recently", "kinda", "kind", "sort", "basically", "personally"])
_IRREGULAR_PAST = frozenset(
    ["went", "got", "made", "took", "gave", "saw", "found", "had", "did", "was", "were", "came", "became", "began", "brought", "bought", "built", "caught", "chose", "drew", "drove", "ate", "fell", "felt", "fought", "flew", "forgot", "froze", "grew", "heard", "held", "hid", "hit", "hurt", "kept", "knew", "laid", "led", "left", "lent", "let", "lost", "meant", "met", "paid", "put", "quit", "ran", "rode", "rang", "rose", "said", "sold", "sent", "set", "shook", "shot", "showed", "shut", "sang", "sat", "slept", "spoke", "spent", "stood", "stole", "swam", "taught", "told", "thought", "threw", "understood", "woke", "wore", "won", "wrote", "read", "learned", "learnt", "spent", "sent", "finished", "started"]
)
_PAST_MARK = re.compile(r"(?<!e)ed$")  # "worked", not "need" or "proceed"
# "I don't": the verb keeps its "n't" ("User doesn't", never "User dons't").
_SELF_SUBJ = re.compile(r"\b(I)\b(\s+)(\w+n't|\w+)(?:(\s+)(\w+n't|\w+))?")


_IRREGULAR_3RD = {"am": "is", "'m": "is", "have": "has", "do": "does", "don't": "doesn't",
                  "haven't": "hasn't", "go": "goes"}


def _third_person(verb: str) -> str:
    low = verb.lower()
    if low in _IRREGULAR_3RD:
        return _IRREGULAR_3RD[low]
    if low.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if low.endswith("y") and len(low) > 2 and low[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def _needs_s(word: str) -> bool:
    low = word.lower()
    if low in _MODALS or low in _IRREGULAR_PAST or low in ("was", "wasn't", "didn't", "had", "hadn't"):
        return False
    if low in ("am", "have", "do", "don't", "haven't"):
        return True
    if not low.isalpha() or (low in STOP_WORDS and low not in ("like", "get", "do", "have")):
        return low in ("like", "get")
    return not _PAST_MARK.search(low)


def _later_possessives_as_their(text: str, subject: str, mid: str) -> str:
    """Once the user is the subject, a later "the user's" reads "their" ("User is lucky to
    have their family", not "…the user's family"). A possessive first mention ("User's
    sister and the user…") leaves the sentence as it is."""
    names = "|".join(re.escape(n) for n in dict.fromkeys((subject, mid)))
    first = re.search(rf"\b(?:{names})\b(?!'s)", text)
    if first is None:
        return text
    head, tail = text[: first.end()], text[first.end():]
    return head + re.sub(rf"\b(?:{names})'s\b", "their", tail)


_WE_ANY = re.compile(r"\b(?:[Ww]e|[Oo]urs?|[Oo]urselves|us)\b")
_WE_CONTRACTED = re.compile(r"\b([Ww]e)'(ll|re|ve|d)\b")
_WE_FULL = {"ll": " will", "re": " are", "ve": " have", "d": " would"}
_WE_AS_I = [(re.compile(pattern), repl) for pattern, repl in (
    (r"\b[Ww]e are\b", "I am"), (r"\b[Ww]e were\b", "I was"), (r"\bWe\b", "I"), (r"\bwe\b", "I"),
    (r"\bOur\b", "My"), (r"\bour\b", "my"), (r"\bours\b", "mine"), (r"\b[Oo]urselves\b", "themselves"),
    (r"\bus\b", "me"),
)]


def _expand_we(text: str) -> str:
    """"we'll" -> "we will" (and 're, 've, 'd), so that no "…their team'll" is left."""
    return _WE_CONTRACTED.sub(lambda m: m.group(1) + _WE_FULL[m.group(2)], text)


def _we_as_i(text: str) -> str:
    """Outside a workspace "we" is the user taking part: rewrite it as "I" so that the
    first-person rewrite below makes it singular with agreeing verbs."""
    if not _WE_ANY.search(text):
        return text
    text = _expand_we(text)
    for pattern, repl in _WE_AS_I:
        text = pattern.sub(repl, text)
    return text


_CONTRACTIONS = [(re.compile(r"\bI'm\b|\bIm\b|\bI am\b"), "I am"), (re.compile(r"\bI've\b|\bIve\b"), "I have"),
                 (re.compile(r"\bI'll\b"), "I will"), (re.compile(r"\bI'd\b"), "I would")]
_I_START, _I_ANY = re.compile(r"^I\b"), re.compile(r"\bI\b")
_MY_START, _MY_MINE = re.compile(r"^My\b"), re.compile(r"\b(?:my|mine)\b", re.I)
_MYSELF, _OURSELVES = re.compile(r"\bmyself\b", re.I), re.compile(r"\bourselves\b", re.I)
_ME = re.compile(r"\bme\b")
_WE_START, _OUR_START = re.compile(r"^We\b"), re.compile(r"^Our\b")
_WE, _OUR, _US = re.compile(r"\bwe\b"), re.compile(r"\bour\b"), re.compile(r"\bus\b")


def rewrite_first_person_en(sentence: str, subject: str = "User", *, team: bool = False) -> str:
    """"I prefer tabs" -> "User prefers tabs"; "my dog" -> "User's dog" (a rough but safe rewrite).

    ``team``: the statement comes from a workspace, where "we" is the user's team ("We chose
    Postgres" -> "User and their team chose Postgres", plural). Elsewhere a memory is about
    the user, so "we" reads as the user taking part ("We love long hikes" -> "User loves long
    hikes"; "User and others'll" helped nobody)."""
    mid = "the user" if subject == "User" else subject
    others = "their team" if team else "others"
    poss_start = f"{subject}'s"
    poss_mid = f"{mid}'s"

    def subject_verb(m: re.Match[str]) -> str:
        word, second = m.group(3), m.group(5)
        head = subject if m.start() == 0 else mid
        if word.lower() in _ADVERBS and second is not None:
            verb = _third_person(second) if _needs_s(second) else second
            return f"{head}{m.group(2)}{word}{m.group(4)}{verb}"
        verb = _third_person(word) if _needs_s(word) else word
        rest = f"{m.group(4)}{second}" if second is not None else ""
        return f"{head}{m.group(2)}{verb}{rest}"

    text = _expand_we(sentence) if team else _we_as_i(sentence)
    for pattern, full in _CONTRACTIONS:
        text = pattern.sub(full, text)
    text = _SELF_SUBJ.sub(subject_verb, text)
    text = _I_START.sub(subject, text)
    text = _I_ANY.sub(mid, text)
    text = _MY_START.sub(poss_start, text)
    text = _MY_MINE.sub(poss_mid, text)
    text = _MYSELF.sub("themself" if subject == "User" else subject, text)
    text = _OURSELVES.sub("themselves", text)
    text = _ME.sub(mid, text)
    if _WE_ANY.search(text):
        text = _WE_START.sub(f"{subject} and {others}", text)
        text = _OUR_START.sub(poss_start, text)
        text = _WE.sub(f"{mid} and {others}", text)
        text = _OUR.sub(poss_mid, text)
        text = _US.sub("them", text)
    text = text.replace("'re", " are").replace("'ve", " have")
    text = _later_possessives_as_their(text, subject, mid)
    text = text.rstrip(" ,;:-")
    if text and text[-1] not in ".!…":
        text += "."
    return text.replace("!", ".")
