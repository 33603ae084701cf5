"""Deciding whether a new candidate is equivalent to something already known.

The fingerprint (normalised text) is the fast path. A semantic matcher (embedding cosine
within the same namespace and kind) can be plugged in with :func:`set_semantic_matcher`;
it is consulted only when the fingerprint finds nothing. A listing ("Checks run in this
project: …") matches the pending listing of its namespace and widens it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from madohub_memory.core.types import Equivalent
from madohub_memory.store import candidates as candidate_rows
from madohub_memory.store import memories as memory_rows

if TYPE_CHECKING:
    from madohub_memory.services import Services


SemanticMatcher = Callable[["Services", str, str, str], Equivalent | None]


def _default_semantic_matcher(svc: Services, content: str, kind: str, namespace: str) -> Equivalent | None:
    """Embedding cosine within namespace and kind (``services/semantic_dedup.py``; setting ``dedup.semantic``)."""
    from madohub_memory.services.semantic_dedup import match_semantic

    return match_semantic(svc, content, kind, namespace)


_semantic_matcher: SemanticMatcher | None = _default_semantic_matcher


def set_semantic_matcher(matcher: SemanticMatcher | None) -> None:
    global _semantic_matcher
    _semantic_matcher = matcher


def find_equivalent(
    svc: Services, content: str, kind: str, namespace: str, fp: str
) -> Equivalent | None:
    exact = find_exact(svc, kind, namespace, fp)
    if exact is not None:
        return exact
    return find_semantic(svc, content, kind, namespace)


def find_semantic(svc: Services, content: str, kind: str, namespace: str) -> Equivalent | None:
    """The semantic matcher's answer (loads the model, embeds): call it outside a write
    transaction, then :func:`confirm` the answer inside one."""
    if _semantic_matcher is not None:
        return _semantic_matcher(svc, content, kind, namespace)
    return None


def semantic_preloadable() -> bool:
    """Whether every semantic match can be made a lookup before the write lock is taken
    (:func:`preload_semantic`): true for the default matcher and for none, not for a plugged
    one, which may run anything."""
    return _semantic_matcher is None or _semantic_matcher is _default_semantic_matcher


def preload_semantic(svc: Services, contents: list[str], groups: set[tuple[str, str]]) -> None:
    """Load what the default semantic matcher will need for a batch of validated drafts
    (model, their vectors, their groups) before the write lock is taken; nothing for
    another matcher."""
    if _semantic_matcher is _default_semantic_matcher:
        from madohub_memory.services.semantic_dedup import preload

        preload(svc, contents, groups)


def confirm(svc: Services, match: Equivalent | None) -> Equivalent | None:
    """Re-read a match found before the write lock was taken: it may have been rejected,
    approved, archived or deleted meanwhile (cheap point queries, no model)."""
    if match is None:
        return None
    store = svc.store
    if match.memory is not None:
        memory = memory_rows.get_row(store, match.memory["id"])
        return Equivalent(memory=memory) if memory is not None and memory["status"] == "active" else None
    assert match.candidate is not None
    candidate = candidate_rows.get_row(store, match.candidate["id"])
    if candidate is None or candidate["status"] == "archived":
        return None
    if candidate["status"] == "approved" and candidate["memory_id"] is not None:
        approved = memory_rows.get_row(store, candidate["memory_id"])
        if approved is not None and approved["status"] == "active":
            return Equivalent(memory=approved)
    return Equivalent(candidate=candidate)


def find_listing(svc: Services, content: str, kind: str, namespace: str) -> Equivalent | None:
    """The pending listing this draft belongs to ("Checks run in this project: …" from an
    earlier pass of the session), which the draft then widens (see ``routines.widen_listing``)."""
    from madohub_memory.extraction.routines import listing_prefix  # its patterns: not on every start

    prefix = listing_prefix(content)
    if prefix is None:
        return None
    row = candidate_rows.pending_starting_with(svc.store, prefix, namespace, kind)
    return Equivalent(candidate=dict(row)) if row is not None else None


def find_exact(svc: Services, kind: str, namespace: str, fp: str) -> Equivalent | None:
    """An active memory or a candidate with the same fingerprint (indexed point queries)."""
    store = svc.store
    memory = memory_rows.find_active_by_fingerprint(store, fp, namespace, kind)
    if memory is not None:
        return Equivalent(memory=dict(memory))
    candidate = candidate_rows.find_by_fingerprint(store, fp, namespace, kind)
    if candidate is not None:
        if candidate["status"] == "approved" and candidate["memory_id"] is not None:
            # Approved with an edit: the memory text differs, but it is the same memory.
            approved = memory_rows.get_row(store, candidate["memory_id"])
            if approved is not None and approved["status"] == "active":
                return Equivalent(memory=approved)
        return Equivalent(candidate=dict(candidate))
    return None
