"""The review queue and the approved list as the dashboard sees them: filtered id lists,
row pages, detail views.

Everything here runs on the dashboard's database worker thread, never on the GUI thread,
and every call is a cheap indexed read (a candidate's detail is one row and its sightings).
The nearest approved memory is not here: it needs the embedding model, so the dashboard
asks :mod:`madohub_memory.services.nearest` on a separate thread.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from madohub_memory.core.cjk import CJK_RANGES
from madohub_memory.core.errors import NotFoundError, ValidationError
from madohub_memory.core.lazy_re import lazy_compile
from madohub_memory.core.vocab import KINDS, SOURCES, validate_namespace
from madohub_memory.store import candidates as candidate_rows
from madohub_memory.store import memory_list
from madohub_memory.store import queue as queue_rows

if TYPE_CHECKING:
    from madohub_memory.services import Services

# A word of any script but Chinese, one Chinese character, a run of white space, or one
# other character: "café" stays one word, "中文" is two tokens (no spaces to split on).
_DIFF_TOKEN_RE = lazy_compile(rf"\s+|(?:(?![{CJK_RANGES}])\w)+|.", re.S)


@dataclass(frozen=True)
class MemoryFilter:
    """What the Approved tab's filter bar selects."""

    text: str = ""
    namespace: str | None = None
    sort: str = "namespace"
    descending: bool = False
    status: str = "active"  # or "archived": what the decay (or a person) took out of recall

    def validated(self) -> MemoryFilter:
        if self.namespace:
            validate_namespace(self.namespace)
        if self.status not in memory_list.STATUSES:
            raise ValidationError("Cannot list memories that are {status!r}.", status=self.status)
        if self.sort not in memory_list.MEMORY_SORTS:
            raise ValidationError("Cannot sort by {sort!r}.", sort=self.sort)
        return self


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
            raise ValidationError(
                "Unknown kind {kind!r}: use one of {choices}.", kind=self.kind, choices=', '.join(KINDS),
            )
        if self.source and self.source not in SOURCES:
            raise ValidationError(
                "Unknown source {source!r}: use one of {choices}.",
                source=self.source, choices=', '.join(SOURCES),
            )
        if self.namespace:
            validate_namespace(self.namespace)
        if not 0.0 <= self.min_confidence <= 1.0:
            raise ValidationError("Minimum confidence must be between 0 and 1.")
        if self.sort not in queue_rows.SORT_EXPRESSIONS:
            raise ValidationError("Cannot sort by {sort!r}.", sort=self.sort)
        return self


def word_diff(old: str, new: str) -> list[tuple[str, str]]:
    """Segments ``(op, text)`` with op ``=`` (same), ``-`` (only in old), ``+`` (only in new)."""
    a = _DIFF_TOKEN_RE.findall(old)
    b = _DIFF_TOKEN_RE.findall(new)
    segments: list[tuple[str, str]] = []
    # White space never anchors a match on its own: "alpha beta" -> "delta zeta" is one
    # replaced run, not words interleaved around the shared space.
    matcher = difflib.SequenceMatcher(str.isspace, a, b, autojunk=False)
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
    """Read side of the dashboard (``svc.queue``)."""

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

    def detail(self, candidate_id: int) -> dict[str, Any]:
        """Everything the detail pane shows for one candidate."""
        row = candidate_rows.get_row(self.svc.store, candidate_id)
        if row is None:
            raise NotFoundError("No candidate with id {candidate_id}.", candidate_id=candidate_id)
        sightings = queue_rows.sightings_with_turns(self.svc.store, candidate_id)
        turn_ids: list[str] = []
        for s in sightings:
            if s["turn_id"] and s["turn_id"] not in turn_ids:
                turn_ids.append(s["turn_id"])
        return {
            "candidate": row,
            "sightings": sightings,
            "turn_ids": turn_ids,
        }

    def memories(self, text: str = "") -> list[dict[str, Any]]:
        return queue_rows.active_memories(self.svc.store, text.strip() or None)

    # -- the Approved list ---------------------------------------------------------------

    def memory_ids(self, flt: MemoryFilter | None = None) -> list[int]:
        f = (flt or MemoryFilter()).validated()
        return memory_list.memory_ids(
            self.svc.store, text=f.text.strip() or None, namespace=f.namespace, sort=f.sort,
            descending=f.descending, status=f.status,
        )

    def memory_rows(self, ids: list[int]) -> dict[int, dict[str, Any]]:
        return memory_list.memory_rows(self.svc.store, list(ids))

    def memory_count(self, status: str = "active") -> int:
        return memory_list.count(self.svc.store, status)

    def memory_namespaces(self, status: str = "active") -> list[tuple[str, int]]:
        """Namespaces with memories of ``status`` (active by default), and how many each holds."""
        return memory_list.namespace_counts(self.svc.store, status)
