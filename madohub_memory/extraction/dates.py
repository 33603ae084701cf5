"""Relative dates written as dates: "yesterday" in a memory read next month means nothing.

The turn's timestamp is known, so "I went to a pottery class yesterday" becomes "… on 7 May
2023" and "今天用户学了一道新的菜" becomes "2023年5月8日用户学了一道新的菜". The timestamp is
read in the machine's local time zone (the user's day, not UTC's). Only unambiguous
expressions are rewritten; "recently", "最近" and "a while ago" stay as they are.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from functools import lru_cache

_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
           "October", "November", "December")
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
            "eight": 8, "nine": 9, "ten": 10}


@lru_cache(maxsize=4096)
def turn_day(created_at: str | None) -> date | None:
    """The local calendar day of an ISO-8601 timestamp (``None`` when absent or unreadable)."""
    if not created_at:
        return None
    try:
        moment = datetime.fromisoformat(created_at.replace("Z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is not None:
        moment = moment.astimezone()
    return moment.date()


def _en(day: date) -> str:
    return f"{day.day} {_MONTHS[day.month - 1]} {day.year}"


def _monday(day: date) -> date:
    return day - timedelta(days=day.weekday())


# A preposition already in front ("since yesterday") replaces the "on"/"in" we would add.
_PREP = r"(?:(?P<prep>\b(?:since|until|till|from|by|before|after|as of)\s+))?"
_EN_RELATIVE = re.compile(
    _PREP + r"\b(?P<what>the day before yesterday|yesterday|today|tonight|tomorrow|last night"
    r"|this (?:morning|afternoon|evening)|(?:last|this|next) (?:week(?:end)?|month|year)"
    r"|(?P<n>\d{1,2}|an?|one|two|three|four|five|six|seven|eight|nine|ten) (?P<unit>days?|weeks?) ago"
    r"|last (?P<weekday>monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b(?!'s|’s|-)",
    re.I,
)
# "Today is my birthday" -> "8 May 2023 is my birthday": the date is the subject, no "on".
_AS_SUBJECT = re.compile(r"\s+(?:is|was|has|had|will be)\b", re.I)


def _en_phrase(what: str, n: str | None, unit: str | None, weekday: str | None, day: date) -> tuple[str, str]:
    """(preposition, date phrase) for one relative expression."""
    what = what.lower()
    if n is not None and unit is not None:
        count = int(n) if n.isdigit() else _NUMBERS[n.lower()]
        if unit.lower().startswith("day"):
            return "on", _en(day - timedelta(days=count))
        return "in", f"the week of {_en(_monday(day - timedelta(weeks=count)))}"
    if weekday is not None:
        back = (day.weekday() - _WEEKDAYS.index(weekday.lower())) % 7 or 7
        return "on", _en(day - timedelta(days=back))
    simple = {
        "the day before yesterday": ("on", _en(day - timedelta(days=2))),
        "yesterday": ("on", _en(day - timedelta(days=1))),
        "today": ("on", _en(day)),
        "tonight": ("on", f"the evening of {_en(day)}"),
        "tomorrow": ("on", _en(day + timedelta(days=1))),
        "last night": ("on", f"the night of {_en(day - timedelta(days=1))}"),
        "this morning": ("on", f"the morning of {_en(day)}"),
        "this afternoon": ("on", f"the afternoon of {_en(day)}"),
        "this evening": ("on", f"the evening of {_en(day)}"),
        "last week": ("in", f"the week of {_en(_monday(day) - timedelta(weeks=1))}"),
        "this week": ("in", f"the week of {_en(_monday(day))}"),
        "next week": ("in", f"the week of {_en(_monday(day) + timedelta(weeks=1))}"),
        "last weekend": ("on", f"the weekend of {_en(_monday(day) - timedelta(days=2))}"),
        "this weekend": ("on", f"the weekend of {_en(_monday(day) + timedelta(days=5))}"),
        "next weekend": ("on", f"the weekend of {_en(_monday(day) + timedelta(days=12))}"),
        "last month": ("in", _month_en(day, -1)),
        "this month": ("in", _month_en(day, 0)),
        "next month": ("in", _month_en(day, 1)),
        "last year": ("in", str(day.year - 1)),
        "this year": ("in", str(day.year)),
        "next year": ("in", str(day.year + 1)),
    }
    return simple[what]


def _month_en(day: date, delta: int) -> str:
    index = day.year * 12 + day.month - 1 + delta
    return f"{_MONTHS[index % 12]} {index // 12}"


def absolute_dates_en(text: str, day: date) -> str:
    """"I went there yesterday" -> "I went there on 7 May 2023" (for a turn of 8 May 2023)."""

    def replace(m: re.Match[str]) -> str:
        prep, phrase = _en_phrase(m.group("what"), m.group("n"), m.group("unit"), m.group("weekday"), day)
        lead = m.group("prep") or f"{prep} "
        if m.group("prep") is None and _AS_SUBJECT.match(text, m.end()):
            lead = ""
        out = lead + phrase
        return out[0].upper() + out[1:] if m.start() == 0 else out

    return _EN_RELATIVE.sub(replace, text)


def _zh(day: date) -> str:
    return f"{day.year}年{day.month}月{day.day}日"


def _month_zh(day: date, delta: int) -> str:
    index = day.year * 12 + day.month - 1 + delta
    return f"{index // 12}年{index % 12 + 1}月"


_ZH_RELATIVE = re.compile(r"大前天|前天|昨天|昨日|昨晚|今天|今日|今晚|今早|明天|后天|上(?:个)?周末|上(?:个)?(?:周|星期|礼拜)"
                          r"|(?:这|本)(?:个)?(?:周|星期|礼拜)(?!末)|下(?:个)?(?:周|星期|礼拜)|上个月|(?:这|本)个?月|下个月"
                          r"|去年|今年|明年|前年")


def absolute_dates_zh(text: str, day: date) -> str:
    """"今天用户学了一道新菜" -> "2023年5月8日用户学了一道新菜" (for a turn of 8 May 2023)."""
    monday = _monday(day)

    def replace(m: re.Match[str]) -> str:
        word = m.group(0)
        table = {
            "大前天": _zh(day - timedelta(days=3)), "前天": _zh(day - timedelta(days=2)),
            "昨天": _zh(day - timedelta(days=1)), "昨日": _zh(day - timedelta(days=1)),
            "昨晚": _zh(day - timedelta(days=1)) + "晚上", "今天": _zh(day), "今日": _zh(day),
            "今晚": _zh(day) + "晚上", "今早": _zh(day) + "早上", "明天": _zh(day + timedelta(days=1)),
            "后天": _zh(day + timedelta(days=2)), "上个月": _month_zh(day, -1), "下个月": _month_zh(day, 1),
            "去年": f"{day.year - 1}年", "今年": f"{day.year}年", "明年": f"{day.year + 1}年",
            "前年": f"{day.year - 2}年",
        }
        if word in table:
            return table[word]
        if word.endswith("周末"):
            return f"{_zh(monday - timedelta(days=2))}那个周末"
        if word.startswith("上") and word.endswith(("周", "星期", "礼拜")):
            return f"{_zh(monday - timedelta(weeks=1))}那一周"
        if word.startswith("下") and word.endswith(("周", "星期", "礼拜")):
            return f"{_zh(monday + timedelta(weeks=1))}那一周"
        if word.endswith("月"):
            return _month_zh(day, 0)
        return f"{_zh(monday)}那一周"

    return _ZH_RELATIVE.sub(replace, text)
