"""Text for the keyword index and keyword queries, for Chinese as well as English.

SQLite's ``unicode61`` tokenizer keeps a run of Chinese characters as one token, so
"我喜欢喝咖啡" would only match itself. The ``trigram`` tokenizer fixes that for terms of
three or more characters but cannot match the two-character words most Chinese words
are (SQLite 3.40.1). So Chinese runs are segmented into words with jieba
(``cut_for_search`` also emits the sub-words of long words) and joined with spaces before
indexing; ``unicode61`` + ``porter`` then sees one token per Chinese word and stems English
as usual. ``bench/recall_quality.py`` measures this against trigram on a Chinese check.

Every connection the store opens gets ``mh_fts_text`` (:func:`register_functions`), which
the keyword-index triggers call, so this module sits below the store's other modules.

Queries go through the same segmentation and become a plain OR of quoted terms, so FTS5
syntax in a query (``"``, ``AND``, ``*``, ``NEAR(``) is only ever searched for as text.
"""

from __future__ import annotations

import re
import sqlite3
from typing import Any

from madohub_memory.core.cjk import CJK_RANGES, CJK_RUN
from madohub_memory.core.lock_order import Level, OrderedLock

_CJK_RUN = CJK_RUN
_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)

MAX_QUERY_TERMS = 48
MAX_QUERY_CHARS = 4000

ENGLISH_STOP = frozenset(
    ["a", "about", "above", "after", "again", "against", "all", "am", "an", "and", "any", "are", "as", "at", "be", "because", "been", "before", "being", "below", "between", "both", "but", "by", "can", "could", "did", "do", "does", "doing", "down", "during", "each", "few", "for", "from", "further", "had", "has", "have", "having", "he", "her", "here", "hers", "herself", "him", "himself", "his", "how", "i", "if", "in", "into", "is", "it", "its", "itself", "just", "me", "more", "most", "my", "myself", "no", "nor", "not", "now", "of", "off", "on", "once", "only", "or", "other", "our", "ours", "ourselves", "out", "over", "own", "same", "she", "should", "so", "some", "such", "than", "that", "the", "their", "theirs", "them", "themselves", "then", "there", "these", "they", "this", "those", "through", "to", "too", "under", "until", "up", "very", "was", "we", "were", "what", "when", "where", "which", "while", "who", "whom", "why", "will", "with", "would", "you", "your", "yours", "yourself", "yourselves", "s", "t", "d", "ll", "m", "re", "ve", "don"]
)

CHINESE_STOP = frozenset(
    ["的", "了", "是", "我", "你", "他", "她", "它", "们", "我们", "你们", "他们", "在", "有", "和", "与", "及", "吗", "呢", "吧", "啊", "呀", "哦", "么", "什么", "哪些", "哪个", "哪", "谁", "怎么", "怎样", "如何", "为什么", "对", "不", "也", "就", "都", "这", "那", "这个", "那个", "个", "一", "一个", "过", "给", "被", "把", "让", "会", "能", "要", "想", "说", "还", "很", "又", "而", "并", "或", "从", "到", "之", "其", "于", "以", "上", "下", "中", "里", "告诉", "曾", "曾经", "最近"]
)


def register_functions(conn: sqlite3.Connection) -> None:
    """Define ``mh_fts_text`` (what the keyword index stores for a content) on ``conn``."""

    def fts_text(content: str | None) -> str:
        return index_text(content or "")

    conn.create_function("mh_fts_text", 1, fts_text, deterministic=True)


_jieba_lock = OrderedLock("loading jieba", Level.LEAF)
_jieba: Any = None


def _segmenter() -> Any:
    """jieba, imported and initialised once (its dictionary memory-mapped: :mod:`.jieba_cache`)."""
    global _jieba
    if _jieba is None:
        with _jieba_lock:
            if _jieba is None:
                import logging

                from madohub_memory.store import jieba_cache

                jieba = jieba_cache.import_jieba()
                jieba.setLogLevel(logging.WARNING)
                jieba_cache.initialize(jieba)
                _jieba = jieba
    return _jieba


def has_cjk(text: str) -> bool:
    return _CJK_RUN.search(text) is not None


def cjk_words(run: str) -> list[str]:
    """Words and sub-words of one run of Chinese characters."""
    return [w for w in _segmenter().cut_for_search(run) if w.strip()]


def warm(*texts: str | None) -> None:
    """Load the Chinese segmenter (about a second) before a write transaction whose
    keyword-index trigger will need it, so the write lock is not held while it loads."""
    if any(text and has_cjk(text) for text in texts):
        _segmenter()


def index_text(content: str) -> str:
    """What the keyword index stores for ``content``: Chinese runs split into words."""
    if not content or not has_cjk(content):
        return content or ""
    return _CJK_RUN.sub(lambda m: " " + " ".join(cjk_words(m.group(0))) + " ", content)


def query_terms(query: str) -> list[str]:
    """Distinct keyword terms of a query (lower case, stop words dropped, bounded)."""
    text = query[:MAX_QUERY_CHARS]
    terms: list[str] = []
    seen: set[str] = set()
    for match in _TOKEN.finditer(text):
        token = match.group(0)
        words = cjk_words(token) if has_cjk(token) else [token]
        for word in words:
            if has_cjk(word) and not _CJK_RUN.fullmatch(word):
                # Mixed token such as "python3中文": keep its parts apart.
                parts = [p for p in re.split(f"([{CJK_RANGES}]+)", word) if p]
            else:
                parts = [word]
            for part in parts:
                term = part.lower()
                if term in seen or term in ENGLISH_STOP or term in CHINESE_STOP:
                    continue
                seen.add(term)
                terms.append(term)
                if len(terms) >= MAX_QUERY_TERMS:
                    return terms
    return terms


def match_expression(terms: list[str]) -> str | None:
    """An FTS5 MATCH string: every term quoted (so it is never parsed as syntax), ORed."""
    quoted = ['"' + t.replace('"', '""') + '"' for t in terms if t]
    return " OR ".join(quoted) if quoted else None
