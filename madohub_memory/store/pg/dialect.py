"""SQLite's SQL, as the store modules write it, rewritten for PostgreSQL in one place.

The store modules keep one SQL text per query (``?`` placeholders, SQLite idioms); each text
is rewritten once per process (cached) into what PostgreSQL means by the same thing:

- ``?`` -> ``%s`` (and a literal ``%`` -> ``%%``), outside string literals;
- ``INSERT OR IGNORE`` -> ``INSERT ... ON CONFLICT DO NOTHING``;
- ``LIKE`` -> ``ILIKE`` (SQLite's LIKE ignores ASCII case), ``x COLLATE NOCASE`` -> ``lower(x)``;
- ``a IS NOT b`` / ``a IS b`` (null-safe, b not NULL) -> ``IS DISTINCT FROM`` / ``IS NOT DISTINCT FROM``;
- ``ORDER BY`` terms on a column that may be NULL get SQLite's NULL order (NULLs sort first
  ascending, last descending); the PostgreSQL indexes are built in that order (:mod:`.schema`);
- an INSERT into a table with a generated id gets ``RETURNING id`` (the cursor's ``lastrowid``).

Anything this cannot express (PRAGMA, ``sqlite_master``, FTS5 MATCH) has a backend-specific
function instead; :func:`translate` refuses those loudly rather than sending them.
"""

from __future__ import annotations

import functools
import re

# Tables whose id is generated (SQLite: INTEGER PRIMARY KEY AUTOINCREMENT).
ID_TABLES = frozenset(
    {"candidates", "candidate_sightings", "memories", "history", "recall_log", "working_items"}
)

# Columns that are NOT NULL in every table that has them: ORDER BY on them needs no NULL
# placement (and keeps using the plain indexes). Every other column is treated as nullable.
NOT_NULL_COLUMNS = frozenset({
    "id", "seq", "content", "kind", "namespace", "source", "confidence", "seen_count", "status",
    "flags", "fingerprint", "pinned", "weight", "hit_count", "reinforced_count", "entity",
    "entity_id", "action", "actor", "at", "batch", "undone", "origin", "key", "value",
    "conversation_id", "role", "meta", "extract_state", "extract_mode", "segment", "memory_id",
    "model", "decision_id", "timestamp", "point_key", "question", "user_choice", "transient",
    "item", "token_estimate", "query", "memory_ids", "name", "format",
    "proposed_at", "choice", "rowid", "processed", "total_processed", "runs",
})

_UNSUPPORTED = re.compile(r"\b(PRAGMA|sqlite_master|MATCH|bm25|fts5)\b", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_.$+]*")
_UNARY_AFTER = {"AND", "OR", "WHERE", "ON", "NOT", "(", ",", "=", "BY", "SELECT"}
_ORDER_END = {"LIMIT", "OFFSET", "UNION", "FOR", "RETURNING", "ON", "WINDOW"}


class UnsupportedSql(RuntimeError):
    """A SQLite-only statement reached the PostgreSQL backend (a store function lacks its PG branch)."""


def _tokens(sql: str) -> list[str]:
    """SQL split into string literals, quoted identifiers, words, and single other characters."""
    out: list[str] = []
    i, n = 0, len(sql)
    while i < n:
        ch = sql[i]
        if ch in "'\"":
            j = i + 1
            while j < n:
                if sql[j] == ch:
                    if j + 1 < n and sql[j + 1] == ch:
                        j += 2
                        continue
                    break
                j += 1
            out.append(sql[i : j + 1])
            i = j + 1
        elif ch.isalpha() or ch == "_":
            m = _WORD.match(sql, i)
            assert m is not None
            out.append(m.group(0))
            i = m.end()
        else:
            out.append(ch)
            i += 1
    return out


def _upper(token: str) -> str:
    return token.upper() if token[:1].isalpha() or token[:1] == "_" else token


def _is_nullable_term(term: list[str]) -> bool:
    words = [t for t in term if not t.isspace()]
    if words and _upper(words[-1]) in ("ASC", "DESC"):
        words = words[:-1]
    if len(words) == 1 and _WORD.fullmatch(words[0]):
        name = words[0].split(".")[-1].lstrip("+").lower()
        return name not in NOT_NULL_COLUMNS
    return True


def _order_by(tokens: list[str], start: int) -> int:
    """Give each term of the ORDER BY list starting at ``tokens[start]`` SQLite's NULL order;
    returns the index just after the list."""
    depth = 0
    term_start = start
    i = start
    while i <= len(tokens):
        tok = tokens[i] if i < len(tokens) else None
        end_of_list = tok is None or (depth == 0 and (tok == ")" or tok == ";" or _upper(tok) in _ORDER_END))
        if end_of_list or (depth == 0 and tok == ","):
            term = tokens[term_start:i]
            words = [t for t in term if not t.isspace()]
            if words and "NULLS" not in {_upper(w) for w in words} and _is_nullable_term(term):
                last = max(k for k, t in enumerate(term) if not t.isspace())
                placement = " NULLS LAST" if _upper(term[last]) == "DESC" else " NULLS FIRST"
                tokens[term_start + last] = term[last] + placement
            if end_of_list:
                return i
            term_start = i + 1
        elif tok == "(":
            depth += 1
        elif tok == ")":
            depth -= 1
        i += 1
    return i


@functools.lru_cache(maxsize=4096)
def translate(sql: str) -> tuple[str, bool]:
    """``sql`` for PostgreSQL, and whether ``RETURNING id`` was added (for ``lastrowid``)."""
    if _UNSUPPORTED.search(sql) and any(_UNSUPPORTED.fullmatch(t) for t in _tokens(sql)):
        raise UnsupportedSql(f"SQLite-only statement sent to PostgreSQL: {sql[:200]}")
    tokens = _tokens(sql)
    words = [(k, _upper(t)) for k, t in enumerate(tokens) if not t.isspace() and t[:1] not in "'\""]
    ignore = False
    returning = False
    # INSERT OR IGNORE / INSERT OR REPLACE
    for pos, (_, word) in enumerate(words[:-2]):
        if word == "INSERT" and words[pos + 1][1] == "OR" and words[pos + 2][1] == "IGNORE":
            tokens[words[pos + 1][0]] = ""
            tokens[words[pos + 2][0]] = ""
            ignore = True
    for pos, (k, word) in enumerate(words):
        nxt = words[pos + 1][1] if pos + 1 < len(words) else ""
        prev = words[pos - 1][1] if pos else ""
        if word == "+" and prev in _UNARY_AFTER and nxt[:1].isalpha():
            tokens[k] = ""  # SQLite's "+column" (keep the planner off an index) means nothing here
        elif word == "ROWID" or word.endswith(".ROWID"):
            tokens[k] = tokens[k][: -len("rowid")] + "mh_rowid"
        elif word == "LIKE":
            tokens[k] = "ILIKE"
        elif word == "COLLATE" and nxt == "NOCASE":
            target = words[pos - 1][0]
            tokens[target] = f"lower({tokens[target]})"
            tokens[k] = ""
            tokens[words[pos + 1][0]] = ""
        elif word == "IS" and nxt not in ("NULL", "NOT", "DISTINCT", "TRUE", "FALSE"):
            tokens[k] = "IS NOT DISTINCT FROM"
        elif word == "IS" and nxt == "NOT":
            after = words[pos + 2][1] if pos + 2 < len(words) else ""
            if after not in ("NULL", "DISTINCT", "TRUE", "FALSE"):
                tokens[k] = "IS DISTINCT FROM"
                tokens[words[pos + 1][0]] = ""
        elif word == "ORDER" and nxt == "BY":
            _order_by(tokens, words[pos + 1][0] + 1)
    for k in range(len(tokens) - 1):  # SQLite's named parameters, ":name" -> "%(name)s" (not "::type")
        if tokens[k] == ":" and (k == 0 or tokens[k - 1] != ":") and _WORD.fullmatch(tokens[k + 1]) \
                and tokens[k + 1][:1] != ":":
            tokens[k], tokens[k + 1] = "", f"\0({tokens[k + 1]})s"
    text = "".join("%s" if t == "?" else t.replace("%", "%%") for t in tokens).replace("\0(", "%(")
    head = [w for _, w in words[:4]]
    if head[:1] == ["INSERT"]:
        into = [tokens[k] for k, w in words[1:5] if w not in ("OR", "IGNORE", "INTO")]
        table = into[0].lower() if into else ""
        tail = text.rstrip().rstrip(";")
        if ignore:
            tail += " ON CONFLICT DO NOTHING"
        if table in ID_TABLES and "RETURNING" not in {w for _, w in words}:
            tail += " RETURNING id"
            returning = True
        text = tail
    return text, returning
