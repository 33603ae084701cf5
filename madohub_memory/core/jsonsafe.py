"""Parsed JSON made safe to store: what JSON allows but SQLite, UTF-8 or Python cannot take.

* a lone surrogate escape (``"\\ud83d"``, a string cut mid-emoji) becomes U+FFFD;
* an integer beyond 64 bits becomes its decimal text, ``Infinity``/``NaN`` become null;
* nesting deeper than :data:`MAX_DEPTH` is refused (Python's parser and encoder recurse).

Pure functions, shared by the importers, the decision capture and the MCP transport.
"""

from __future__ import annotations

import math
import re
from typing import Any

from madohub_memory.core.text import replace_surrogates

MAX_DEPTH = 100
_INT64 = 2**63 - 1
_SUSPECT = re.compile(rb"\\[uU][dD][89a-fA-F]|\d{19}|Infinity|NaN")


def needs_walk(raw: bytes | str) -> bool:
    """Whether a parsed line may hold anything :func:`clean_value` changes (cheap byte counts)."""
    data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
    return data.count(b"[") + data.count(b"{") > MAX_DEPTH or _SUSPECT.search(data) is not None


def clean_value(value: Any, max_depth: int = MAX_DEPTH) -> Any:
    """A copy of a parsed JSON value that can be stored; ``ValueError`` when nested too deep."""
    return _clean(value, 0, max_depth)


def _clean(value: Any, depth: int, max_depth: int) -> Any:
    if isinstance(value, str):
        return replace_surrogates(value)
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return value if -_INT64 - 1 <= value <= _INT64 else str(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if depth >= max_depth:
        raise ValueError(f"nested more than {max_depth} levels deep")
    if isinstance(value, dict):
        return {replace_surrogates(str(k)): _clean(v, depth + 1, max_depth) for k, v in value.items()}
    if isinstance(value, list):
        return [_clean(v, depth + 1, max_depth) for v in value]
    return value
