"""Turn claims on PostgreSQL: the claiming ``UPDATE`` picks its rows with ``FOR UPDATE SKIP LOCKED``.

How this meets the global write lock (:data:`.store.WRITE_LOCK`): every claim still runs in a
write transaction, which takes that lock first, so on one database claims are already one at
a time and a claim never meets a turn row another claim holds; the claim is a short
transaction (a count, one update, one read) and extraction runs after it, outside any
transaction, so workers wait on each other for milliseconds, never for an extraction.
``SKIP LOCKED`` keeps the claim right on its own, without that lock: turn rows another
transaction has locked (a claim, a compaction mark, a finish) are passed over instead of
waited for and then found taken, so two claims that raced would still get disjoint turns.
The lock stays because the other check-then-write paths (dedup, undo) need it.
"""

from __future__ import annotations


def claim_update(claim_where: str) -> str:
    """The statement that marks the turns matching ``claim_where`` (over ``turns``, unaliased) as
    claimed; parameters: owner, time, then those of ``claim_where``."""
    return (
        "UPDATE turns SET extract_state = 'claimed', claimed_by = ?, claimed_at = ?"
        f" WHERE id IN (SELECT id FROM turns WHERE {claim_where} FOR UPDATE SKIP LOCKED)"
    )
