"""The one definition of a Chinese (CJK ideograph) character, for every module that asks.

Keyword segmentation, token estimates, sentence splitting, the instruction and secret
scanners and decision answers all need to tell Chinese text apart; they used five
different ranges. These are the Unicode blocks of CJK ideographs: Extension A, the
Unified Ideographs and the Compatibility Ideographs (the rarer extensions beyond the
Basic Multilingual Plane are left out, as before).
"""

from __future__ import annotations

from madohub_memory.core.lazy_re import lazy_compile

CJK_RANGES = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # for a regex character class: f"[{CJK_RANGES}]"
# compiled on first use: a character class over 30,000 code points costs ~6 ms at every start
CJK_CHAR = lazy_compile(f"[{CJK_RANGES}]")
CJK_RUN = lazy_compile(f"[{CJK_RANGES}]+")


def is_cjk(char: str) -> bool:
    """True for one CJK ideograph."""
    return CJK_CHAR.match(char) is not None


def has_cjk(text: str) -> bool:
    return CJK_CHAR.search(text) is not None


def count_cjk(text: str) -> int:
    return len(CJK_CHAR.findall(text))
