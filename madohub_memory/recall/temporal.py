"""Dates a query talks about, and how well a memory's date fits them.

Why: "what did we decide on 3 March?", "Did Andrew have a dog during March 2023?",
"在5月4日我向你咨询了什么？", "what broke last week?" name a time, and the memory that
answers them was usually written then. Neither words nor vectors see it: "March 2023"
is not in "Andrew is considering getting a dog". Each memory knows the date of the
conversation turn it came from, so a query that names a date can prefer memories of that
date. Things said about a period are often said a little after it ("last weekend"), so
a window extends forward by a grace of its own length (at least a week).

Only explicit dates and a few common relative expressions are read (English and
Chinese); anything else yields no window and recall ranks as usual. A month without a
year ("in June", "6月") matches that month of any year.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import date, timedelta

MONTHS = {
    name: i + 1
    for i, names in enumerate([
        ("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",),
        ("june", "jun"), ("july", "jul"), ("august", "aug"), ("september", "sep", "sept"),
        ("october", "oct"), ("november", "nov"), ("december", "dec"),
    ])
    for name in names
}
_MONTH = r"(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\.?"
_DAY = r"(\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r"((?:19|20)\d\d)"
_CN_NUM = "〇零一二三四五六七八九十两"
_CN_INT = rf"(\d{{1,4}}|[{_CN_NUM}]{{1,4}})"

# Order matters: the most specific form wins over a shorter one inside it.
_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("iso", re.compile(r"\b" + _YEAR + r"[-/.](\d{1,2})[-/.](\d{1,2})\b")),
    ("dmy", re.compile(r"\b" + _DAY + r"\s+(?:of\s+)?" + _MONTH + r",?\s+" + _YEAR + r"\b", re.I)),
    ("mdy", re.compile(r"\b" + _MONTH + r"\s+" + _DAY + r",?\s+" + _YEAR + r"\b", re.I)),
    ("my", re.compile(r"\b" + _MONTH + r",?\s+(?:of\s+)?" + _YEAR + r"\b", re.I)),
    ("dm", re.compile(r"\b" + _DAY + r"\s+(?:of\s+)?" + _MONTH + r"\b", re.I)),
    ("md", re.compile(r"\b" + _MONTH + r"\s+" + _DAY + r"\b(?!\s*(?:%|am|pm|hours?|minutes?|days?))", re.I)),
    # A bare month needs a preposition in front of it: "may" is also a verb.
    ("m", re.compile(r"\b(?:in|during|of|since|before|after|by|until|early|mid|late|last|this)\s+" + _MONTH + r"\b", re.I)),
    ("y", re.compile(r"\b(?:in|during|of|since|before|after|by|until|year)\s+" + _YEAR + r"\b", re.I)),
    ("cn_ymd", re.compile(_CN_INT + r"\s*年\s*" + _CN_INT + r"\s*月\s*" + _CN_INT + r"\s*[日号號]")),
    ("cn_md", re.compile(_CN_INT + r"\s*月\s*" + _CN_INT + r"\s*[日号號]")),
    ("cn_ym", re.compile(_CN_INT + r"\s*年\s*" + _CN_INT + r"\s*月")),
    ("cn_m", re.compile(r"(?<![个個\d])" + _CN_INT + r"\s*月份?(?![前后後])")),
    ("cn_y", re.compile(r"(\d{4})\s*年(?![前后後])")),
]

_RELATIVE: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"\b(today|this morning|tonight)\b|今天|今早|今晚", re.I), "today"),
    (re.compile(r"\byesterday\b|昨天|昨晚", re.I), "yesterday"),
    (re.compile(r"前天"), "day_before_yesterday"),
    (re.compile(r"\blast\s+week(?:end)?\b|上周|上星期|上个星期|上個星期|上週", re.I), "last_week"),
    (re.compile(r"\bthis\s+week\b|这周|本周|这个星期", re.I), "this_week"),
    (re.compile(r"\blast\s+month\b|上个月|上個月", re.I), "last_month"),
    (re.compile(r"\bthis\s+month\b|这个月|本月", re.I), "this_month"),
    (re.compile(r"\blast\s+year\b|去年", re.I), "last_year"),
    (re.compile(r"\bthis\s+year\b|今年", re.I), "this_year"),
]
_AGO = re.compile(
    r"\b(\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|a few|a couple of)\s+"
    r"(day|week|month|year)s?\s+ago\b"
    r"|" + _CN_INT + r"\s*(天|周|星期|个月|個月|年)(?:之)?前",
    re.I,
)
_WORD_NUM = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
             "seven": 7, "eight": 8, "nine": 9, "ten": 10, "a few": 3, "a couple of": 2}
_UNIT_DAYS = {"day": 1, "week": 7, "month": 30, "year": 365, "天": 1, "周": 7, "星期": 7, "个月": 30,
              "個月": 30, "年": 365}


@dataclass(frozen=True)
class Window:
    """Inclusive date range a query names; ``any_year`` when it named no year."""

    start: date
    end: date
    any_year: bool = False

    def days(self) -> int:
        return (self.end - self.start).days + 1


def _cn_int(text: str) -> int | None:
    if text.isdigit():
        return int(text)
    digits = {"〇": 0, "零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7,
              "八": 8, "九": 9}
    if text == "十":
        return 10
    if "十" in text:
        tens, _, ones = text.partition("十")
        return (digits.get(tens, 1) if tens else 1) * 10 + (digits.get(ones, 0) if ones else 0)
    if all(ch in digits for ch in text):
        return int("".join(str(digits[ch]) for ch in text))
    return None


def _month_window(year: int, month: int) -> Window | None:
    if not 1 <= month <= 12:
        return None
    start = date(year, month, 1)
    end = date(year + (month == 12), month % 12 + 1, 1) - timedelta(days=1)
    return Window(start, end)


def _day(year: int, month: int, day: int) -> Window | None:
    try:
        moment = date(year, month, day)
    except ValueError:
        return None
    return Window(moment, moment)


def _explicit(kind: str, groups: tuple[str, ...], today: date) -> Window | None:
    num = [_cn_int(g) if g else None for g in groups]
    if kind == "iso":
        return _day(int(groups[0]), int(groups[1]), int(groups[2]))
    if kind == "dmy":
        return _day(int(groups[2]), MONTHS[groups[1].lower()], int(groups[0]))
    if kind == "mdy":
        return _day(int(groups[2]), MONTHS[groups[0].lower()], int(groups[1]))
    if kind == "my":
        return _month_window(int(groups[1]), MONTHS[groups[0].lower()])
    if kind in ("dm", "md"):
        d, m = (groups[0], groups[1]) if kind == "dm" else (groups[1], groups[0])
        found = _day(today.year, MONTHS[m.lower()], int(d))
        return Window(found.start, found.end, any_year=True) if found else None
    if kind == "m":
        found = _month_window(today.year, MONTHS[groups[0].lower()])
        return Window(found.start, found.end, any_year=True) if found else None
    if kind in ("y", "cn_y"):
        year = int(groups[0])
        return Window(date(year, 1, 1), date(year, 12, 31))
    if kind == "cn_ymd" and None not in num:
        return _day(num[0] or 0, num[1] or 0, num[2] or 0)
    if kind == "cn_md" and None not in num:
        found = _day(today.year, num[0] or 0, num[1] or 0)
        return Window(found.start, found.end, any_year=True) if found else None
    if kind == "cn_ym" and None not in num and (num[0] or 0) >= 1900:
        return _month_window(num[0] or 0, num[1] or 0)
    if kind == "cn_m" and None not in num:
        found = _month_window(today.year, num[0] or 0)
        return Window(found.start, found.end, any_year=True) if found else None
    return None


def _relative(text: str, today: date) -> Window | None:
    for pattern, name in _RELATIVE:
        if not pattern.search(text):
            continue
        if name == "today":
            return Window(today, today)
        if name == "yesterday":
            return Window(today - timedelta(days=1), today - timedelta(days=1))
        if name == "day_before_yesterday":
            return Window(today - timedelta(days=2), today - timedelta(days=2))
        if name == "last_week":
            monday = today - timedelta(days=today.weekday() + 7)
            return Window(monday, monday + timedelta(days=6))
        if name == "this_week":
            return Window(today - timedelta(days=today.weekday()), today)
        if name == "last_month":
            first = today.replace(day=1) - timedelta(days=1)
            return _month_window(first.year, first.month)
        if name == "this_month":
            return Window(today.replace(day=1), today)
        if name == "last_year":
            return Window(date(today.year - 1, 1, 1), date(today.year - 1, 12, 31))
        if name == "this_year":
            return Window(date(today.year, 1, 1), today)
    match = _AGO.search(text)
    if match:
        if match.group(1):
            count = _WORD_NUM.get(match.group(1).lower()) or int(match.group(1))
            unit = _UNIT_DAYS[match.group(2).lower()]
        else:
            count = _cn_int(match.group(3)) or 0
            unit = _UNIT_DAYS[match.group(4)]
        centre = today - timedelta(days=count * unit)
        half = max(1, unit // 2)
        return Window(centre - timedelta(days=half), centre + timedelta(days=half))
    return None


def query_window(text: str, today: date) -> Window | None:
    """The date range ``text`` names, or None: the most specific explicit date (a day
    before a month before a year), else a relative expression."""
    for kind, pattern in _PATTERNS:
        for match in pattern.finditer(text):
            window = _explicit(kind, match.groups(), today)
            if window is not None:
                return window
    return _relative(text, today)


def fit(when: date | None, window: Window) -> float:
    """How well a memory dated ``when`` fits ``window``: 1 inside it (or within the grace
    after it), falling off smoothly outside; 0 for an undated memory."""
    if when is None:
        return 0.0
    span = window.days()
    grace = max(7, span)
    if window.any_year:
        try:
            start = window.start.replace(year=when.year)
            end = window.end.replace(year=when.year)
        except ValueError:  # 29 February
            start, end = window.start.replace(day=28, year=when.year), window.end.replace(day=28, year=when.year)
        # The same month of the year before counts too (a December window seen in January).
        candidates = [Window(start, end)]
        try:
            candidates.append(Window(start.replace(year=when.year - 1), end.replace(year=when.year - 1)))
        except ValueError:
            pass
        return max(fit(when, w) for w in candidates)
    if window.start <= when <= window.end + timedelta(days=grace):
        return 1.0
    distance = (window.start - when).days if when < window.start else (when - window.end).days - grace
    return math.exp(-distance / max(3.0, span / 2))
