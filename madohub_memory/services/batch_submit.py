"""Submitting a drain round's drafts in a few write transactions instead of one each.

Why: a submit on its own is a transaction (BEGIN, COMMIT, a WAL write) around about twenty
statements, five of them settings reads and four of them lookups repeated to confirm what
was found before the lock was taken; for an import that was a third of the time outside
extraction. Here the drafts of a round go in groups (:data:`CHUNK`, as the embedding
worker batches them):

* outside the lock: each draft is validated, the conversations of the turns the group
  names are read in one query, and the model, the group's vectors and the (namespace,
  kind) groups it will search are loaded (:func:`~.dedup.preload_semantic`), so no model
  ever runs under the lock;
* inside one write transaction, with the settings read once: each draft is matched
  (fingerprint, listing, vectors) and written in turn, exactly as a single submit would,
  so a draft still finds the one written just before it. What a lookup found is not read
  again, since no other process can write in between. Every draft keeps its own history
  batch (one undoable step each, as before).

A transaction is closed after :data:`MAX_HOLD_S`, or at once when a writer of another
process is waiting for the lock (``Store.writers_waiting``), and the rest of the group goes
in the next one: a person's approve waits for one draft's write (milliseconds), not for a
tenth of a second of them. An invalid draft is counted
and skipped; anything else that a single submit reports as a user error rolls the group
back and submits its drafts one by one (the single path's outcome, one transaction each).
While auto-approve is on (an approval warms the keyword index, which must not happen under
the lock) or a semantic matcher other than the default is plugged in (it may run a model),
every draft takes the single path: one transaction each, the match made before it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from madohub_memory.core.errors import StorageError, UserError
from madohub_memory.core.types import CandidateDraft
from madohub_memory.services.dedup import preload_semantic, semantic_preloadable
from madohub_memory.services.instruction_model import warm as warm_instruction_model
from madohub_memory.store import candidates as candidate_rows

if TYPE_CHECKING:
    from madohub_memory.services import Services

log = logging.getLogger(__name__)

CHUNK = 64  # drafts per group: the embedding worker's batch (services/draft_embedding.py)
MAX_HOLD_S = 0.1  # a write transaction is closed after this, the rest of the group goes in the next
INVALID = "invalid"


def submit_drafts(svc: Services, drafts: Sequence[CandidateDraft],
                  ready: Callable[[int], None] | None = None) -> list[str]:
    """Submit ``drafts`` in order; returns each one's outcome (``new``, ``seen_again``,
    ``suppressed``, ``reinforced`` or ``invalid``). ``ready(n)`` is called before the
    drafts up to the n-th are matched (waits until the worker has embedded them)."""
    outcomes: list[str] = []
    for start in range(0, len(drafts), CHUNK):
        group = drafts[start:start + CHUNK]
        if ready is not None:
            ready(start + len(group))
        if svc.settings.get("auto_approve.enabled") or not semantic_preloadable():
            outcomes.extend(_one_by_one(svc, group))
        else:
            outcomes.extend(_submit_group(svc, group))
    return outcomes


def _one_by_one(svc: Services, drafts: Sequence[CandidateDraft]) -> list[str]:
    outcomes = []
    for draft in drafts:
        try:
            outcomes.append(svc.review.submit(draft).outcome)
        except StorageError:
            raise
        except UserError as exc:
            log.info("dropped an invalid draft: %s", exc)
            outcomes.append(INVALID)
    return outcomes


def _submit_group(svc: Services, drafts: Sequence[CandidateDraft]) -> list[str]:
    review = svc.review
    valid: list[CandidateDraft | None] = []
    warm_instruction_model([d.content for d in drafts], svc)  # the group's sentences in one batch
    with svc.settings.held():
        for draft in drafts:
            try:
                valid.append(review.validate(draft))
            except StorageError:
                raise
            except UserError as exc:
                log.info("dropped an invalid draft: %s", exc)
                valid.append(None)
    checked = [d for d in valid if d is not None]
    turns = candidate_rows.turn_conversations(svc.store, list(dict.fromkeys(t for d in checked for t in d.turn_ids)))
    preload_semantic(svc, [d.content for d in checked], {(str(d.namespace), d.kind) for d in checked})
    outcomes: list[str] = []
    while len(outcomes) < len(valid):
        done = len(outcomes)
        try:
            outcomes.extend(_write(svc, valid[done:], turns))
        except StorageError:
            raise
        except UserError:  # rolled back: the single path reports it for its draft alone
            outcomes.extend(_one_by_one(svc, drafts[done:]))
    return outcomes


def _write(svc: Services, valid: Sequence[CandidateDraft | None], turns: dict[str, str]) -> list[str]:
    """Match and write drafts in one transaction until :data:`MAX_HOLD_S` has passed."""
    review = svc.review
    outcomes: list[str] = []
    store = svc.store
    with store.transaction(), svc.settings.held():
        started = time.monotonic()
        for draft in valid:
            if outcomes and (time.monotonic() - started > MAX_HOLD_S or store.writers_waiting()):
                break
            if draft is None:
                outcomes.append(INVALID)
                continue
            prepared = review.prepare(draft, validated=True, turns=turns)
            outcomes.append(review.commit(prepared, current=True).outcome)
    return outcomes
