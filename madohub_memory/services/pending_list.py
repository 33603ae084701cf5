"""The pending queue as plain rows: what ``madohub-memory pending`` lists.

Listing the queue is the command people and agents run most often, so its path is kept
light (issue 11: a cold ``pending`` in < 150 ms). This module reads the queue without
:mod:`.review` and its submit machinery (dedup, history, the secret scanner) and builds no
dataclass (``dataclasses`` pulls in ``inspect``, about 15 ms of every start);
``tests/test_pending_startup.py`` fails when one of them comes back on the path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from madohub_memory.core.vocab import validate_kind, validate_namespace
from madohub_memory.store import candidates as candidate_rows

if TYPE_CHECKING:
    from madohub_memory.services import Services


def pending_fields(svc: Services, kind: str | None = None, namespace: str | None = None) -> list[dict[str, Any]]:
    """The pending candidates (optionally of one kind and namespace), oldest first, as the
    fields of :class:`~madohub_memory.core.types.Candidate`."""
    kind = validate_kind(kind) if kind else None
    namespace = validate_namespace(namespace) if namespace else None
    return candidate_rows.fields_by_status(svc.store, "pending", kind=kind, namespace=namespace)


def pending_rows(svc: Services, kind: str | None = None, namespace: str | None = None) -> list[dict[str, Any]]:
    """The same as ``[c.to_dict() for c in svc.review.pending(kind, namespace)]`` (``flags``
    a list, ready for JSON), without building the objects."""
    rows = pending_fields(svc, kind, namespace)
    for row in rows:
        row["flags"] = list(row["flags"])
    return rows
