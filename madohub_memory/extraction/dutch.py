"""Dutch chat turns: what a person states about themselves, kept in Dutch.

A conversation keeps its language: "Ik werk als data engineer bij een bank." becomes "De
gebruiker werkt als data engineer bij een bank.", never an English rewrite. Only plain
first-person statements count ("ik ben / heb / werk / woon / gebruik …", "mijn … is …",
"ik hou van …", "ik wil graag …"); questions (with or without "?", "Hoe kan ik…", "Kan ik…"),
requests to the assistant and sentences about "je"/"u" give nothing.
"""

from __future__ import annotations

import re

_FUNCTION = frozenset(["de", "het", "een", "en", "ik", "je", "jij", "u", "niet", "van", "is", "op", "met", "voor", "dat", "die", "te", "zijn", "mijn", "wij", "we", "ons", "onze", "er", "maar", "ook", "naar", "om", "als", "bij", "wat", "hoe", "dit", "wordt", "kan", "heb", "ben"])
_SPLIT = re.compile(r"(?<=[.!?])\s+|\n+")
_QUESTION = re.compile(
    r"\?\s*$|^(?:hoe|wat|waarom|welke?|wie|waar|wanneer|hoeveel|kan|kun|kunt|moet|mag|zal|zou|zouden|is|zijn|heb"
    r"|heeft|wil|wilt|werkt|ben|bestaat|klopt)\b", re.I)
_ADDRESSED = re.compile(r"\b(?:je|jij|jou|jouw|u|uw)\b", re.I)
_I_VERB = re.compile(r"^ik\s+(?P<verb>[a-zë]+)\b(?P<rest>.*)$", re.I)
_MY = re.compile(r"^mijn\s+(?P<thing>\w+(?:\s+\w+)?)\s+(?P<verb>is|zijn|heet|heeft|hebben|\w+t)\b(?P<rest>.*)$", re.I)
_AND_I = re.compile(r"\ben ik (?P<verb>[a-zë]+)\b", re.I)
_IRREGULAR = {"ben": "is", "heb": "heeft", "kan": "kan", "wil": "wil", "zal": "zal", "mag": "mag", "moet": "moet",
              "ga": "gaat", "doe": "doet", "sta": "staat", "zie": "ziet", "kom": "komt", "hou": "houdt",
              "houd": "houdt", "word": "wordt"}
_SELF_VERBS = frozenset(["ben", "heb", "werk", "woon", "studeer", "gebruik", "ontwikkel", "bouw", "beheer", "programmeer", "hou", "houd", "spreek", "schrijf", "sport", "run", "draai", "host", "wil"])
_PREFERENCE = re.compile(r"^ik\s+(?:hou|houd)\s+van\b|^ik\s+wil\s+graag\b|\bvoorkeur\b", re.I)
_POSSESSIVE = re.compile(r"\bmijn\b", re.I)


def looks_dutch(text: str) -> bool:
    words = [w.strip(".,!?;:'\"()").lower() for w in text.split()]
    return len(words) >= 3 and sum(w in _FUNCTION for w in words) >= 0.25 * len(words) and bool({"ik", "mijn"} & set(words))


def _third(verb: str) -> str:
    low = verb.lower()
    if low in _IRREGULAR:
        return _IRREGULAR[low]
    return verb if low.endswith("t") else verb + "t"


def statements(text: str) -> list[tuple[str, str]]:
    """``(statement, kind)`` for each plain first-person sentence of a Dutch turn."""
    out: list[tuple[str, str]] = []
    for sentence in _SPLIT.split(text):
        sentence = sentence.strip().rstrip(".!")
        if len(sentence.split()) < 3 or _QUESTION.search(sentence) or _ADDRESSED.search(sentence):
            continue
        kind = "preference" if _PREFERENCE.search(sentence) else "fact"
        mine = _MY.match(sentence)
        if mine is not None:
            out.append((f"De {mine.group('thing')} van de gebruiker {mine.group('verb')}{mine.group('rest')}.", kind))
            continue
        m = _I_VERB.match(sentence)
        if m is None or m.group("verb").lower() not in _SELF_VERBS or _POSSESSIVE.search(m.group("rest")):
            continue
        rest = re.sub(r"\b(?:me|mij|mezelf|mijzelf)\b", "zichzelf", m.group("rest"), flags=re.I)
        rest = _AND_I.sub(lambda a: f"en {_third(a.group('verb'))}", rest)  # "… en ik heb …" -> "… en heeft …"
        out.append((f"De gebruiker {_third(m.group('verb'))}{rest}.", kind))
    return out
