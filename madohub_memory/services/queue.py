"""The review queue as the dashboard sees it: filtered id lists, row pages, detail views.

Everything here runs on the dashboard's database worker thread, never on the GUI thread.
The nearest approved memory is found by word overlap (CJK text is compared by character
bigrams), which is cheap enough to compute for every candidate a person looks at and
needs no embedding model.
"""

from __future__ import annotations

import difflib
import itertools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from madohub_memory.core.errors import NotFoundError, ValidationError
from madohub_memory.core.text import fingerprint
from madohub_memory.core.vocab import KINDS, SOURCES, validate_namespace
from madohub_memory.store import candidates as candidate_rows
from madohub_memory.store import queue as queue_rows

if TYPE_CHECKING:
    from madohub_memory.services import Services

_WORD_RE = re.compile(r"[A-Za-z0-9_]+|[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]")
_CJK_RE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]")
_DIFF_TOKEN_RE = re.compile(r"\s+|[A-Za-z0-9_]+|.", re.S)


@dataclass(frozen=True)
class QueueFilter:
    """What the Pending tab's filter bar selects; every field is optional."""

    kind: str | None = None
    namespace: str | None = None
    source: str | None = None
    min_confidence: float = 0.0
    text: str = ""
    sort: str = "created_at"
    descending: bool = False

    def validated(self) -> QueueFilter:
        if self.kind and self.kind not in KINDS:
            raise ValidationError(f"Unknown kind {self.kind!r}: use one of {', '.join(KINDS)}.")
        if self.source and self.source not in SOURCES:
            raise ValidationError(f"Unknown source {self.source!r}: use one of {', '.join(SOURCES)}.")
        if self.namespace:
            validate_namespace(self.namespace)
        if not 0.0 <= self.min_confidence <= 1.0:
            raise ValidationError("Minimum confidence must be between 0 and 1.")
        if self.sort not in queue_rows.SORT_EXPRESSIONS:
            raise ValidationError(f"Cannot sort by {self.sort!r}.")
        return self


def tokens(text: str) -> set[str]:
    """Lower-cased words, plus character bigrams for CJK runs."""
    words = [w.lower() for w in _WORD_RE.findall(text)]
    result = {w for w in words if not _CJK_RE.fullmatch(w)}
    cjk = [w for w in words if _CJK_RE.fullmatch(w)]
    result.update(a + b for a, b in itertools.pairwise(cjk))
    result.update(cjk)
    return result


def overlap(a: set[str], b: set[str]) -> float:
    if not a or not b:
        return 0.0
    return len(a & b) / len(a | b)


def word_diff(old: str, new: str) -> list[tuple[str, str]]:
    """Segments ``(op, text)`` with op ``=`` (same), ``-`` (only in old), ``+`` (only in new)."""
    a = _DIFF_TOKEN_RE.findall(old)
    b = _DIFF_TOKEN_RE.findall(new)
    segments: list[tuple[str, str]] = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            segments.append(("=", "".join(a[i1:i2])))
            continue
        if i2 > i1:
            segments.append(("-", "".join(a[i1:i2])))
        if j2 > j1:
            segments.append(("+", "".join(b[j1:j2])))
    return segments


class QueueService:
    """Read side of the dashboard: ``QueueService(svc)``."""

    def __init__(self, svc: Services) -> None:
        self.svc = svc

    def ids(self, flt: QueueFilter | None = None) -> list[int]:
        f = (flt or QueueFilter()).validated()
        return queue_rows.pending_ids(
            self.svc.store, kind=f.kind, namespace=f.namespace, source=f.source,
            min_confidence=f.min_confidence, text=f.text.strip() or None,
            sort=f.sort, descending=f.descending,
        )

    def rows(self, ids: list[int]) -> dict[int, dict[str, Any]]:
        return queue_rows.rows_by_ids(self.svc.store, list(ids))

    def count(self) -> int:
        return queue_rows.pending_count(self.svc.store)

    def totals(self) -> dict[str, int]:
        return queue_rows.totals(self.svc.store)

    def namespaces(self) -> list[str]:
        return queue_rows.pending_namespaces(self.svc.store)

    def nearest_memory(self, content: str, namespace: str, kind: str) -> dict[str, Any] | None:
        """The active memory most like ``content`` (same namespace and kind weigh more)."""
        fp = fingerprint(content)
        mine = tokens(content)
        best: dict[str, Any] | None = None
        best_score = 0.0
        for row in queue_rows.memory_candidates_for(self.svc.store, namespace):
            if fingerprint(row["content"]) == fp:
                score = 1.0
            else:
                score = overlap(mine, tokens(row["content"]))
                score *= 1.0 if row["namespace"] == namespace else 0.8
                score *= 1.0 if row["kind"] == kind else 0.9
            if score > best_score:
                best, best_score = row, score
        if best is None or best_score < 0.12:
            return None
        return {**best, "score": round(best_score, 3), "diff": word_diff(best["content"], content)}

    def detail(self, candidate_id: int) -> dict[str, Any]:
        """Everything the detail pane shows for one candidate."""
        row = candidate_rows.get_row(self.svc.store, candidate_id)
        if row is None:
            raise NotFoundError(f"No candidate with id {candidate_id}.")
        sightings = queue_rows.sightings_with_turns(self.svc.store, candidate_id)
        turn_ids: list[str] = []
        for s in sightings:
            if s["turn_id"] and s["turn_id"] not in turn_ids:
                turn_ids.append(s["turn_id"])
        return {
            "candidate": row,
            "sightings": sightings,
            "turn_ids": turn_ids,
            "nearest": self.nearest_memory(row["content"], row["namespace"], row["kind"]),
        }

    def memories(self, text: str = "") -> list[dict[str, Any]]:
        return queue_rows.active_memories(self.svc.store, text.strip() or None)
