"""Embedding a drain round's drafts on a worker thread while the extractor still runs.

Why: semantic dedup needs a vector per draft, and embedding them is a third of an import
(LoCoMo: ~2.5 s of ~7 s). Most of it is numpy matrix products, which release the GIL, so
on a second core it overlaps the extraction (pure Python) that produces the next drafts,
and the submits of the batches already embedded (measured: ``bench/ingest.py`` +10-20%).
The worker touches no database: the settings and the model's vector cache are resolved on
the draining thread (:func:`~madohub_memory.services.semantic_dedup.primer`), and the
worker only fills the vector cache, which has its own lock. Each submit waits for its
draft's batch, so it finds the vector cached, as after the one batched prefetch this
replaces: same vectors, same dedup outcomes. A model failure on the worker is raised on
the draining thread before the first submit of its batch; the round then fails as on any
failure while submitting (claims released, a redo adds nothing twice).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from concurrent.futures import Future, ThreadPoolExecutor

    from madohub_memory.core.types import CandidateDraft
    from madohub_memory.services import Services
    from madohub_memory.services.instruction_model import Encoders

CHUNK = 64  # drafts per batch handed to the worker: big enough to batch, small enough to overlap


class DraftEmbedding:
    """Feeds drafts to the worker as passes finish (:meth:`add`); :meth:`wait` blocks until
    a draft's batch is embedded and re-raises the worker's failure on the draining thread;
    :meth:`close` cancels what has not started. A round with fewer than two drafts is not
    prefetched (a single draft is embedded by the matcher itself)."""

    def __init__(self, svc: Services) -> None:
        self._svc = svc
        self._texts: list[str] = []
        self._total = 0
        self._embed: Callable[[list[str]], int] | None = None
        self._encoders: Encoders | None = None  # the instruction model's, through the same vector cache
        self._resolved = False
        self._pool: ThreadPoolExecutor | None = None
        self._jobs: list[tuple[int, Future[int]]] = []  # (index of the job's first draft, job)
        self._error: Exception | None = None

    def add(self, drafts: list[CandidateDraft]) -> None:
        """Called between passes: never raises, so a failure here is not taken for the
        extractor's; :meth:`wait` raises it."""
        self._texts.extend(draft.content for draft in drafts)
        self._total += len(drafts)
        if len(self._texts) >= CHUNK and self._error is None:
            try:
                self._send()
            except Exception as exc:
                self._error = exc

    def wait(self, drafts: int | None = None) -> None:
        """Until the first ``drafts`` drafts (all by default) are embedded."""
        if self._error is not None:
            raise self._error
        if self._texts and self._total >= 2:
            self._send()
        while self._jobs and (drafts is None or self._jobs[0][0] < drafts):
            self._jobs.pop(0)[1].result()

    def embedded(self) -> int:
        """How many drafts, from the first, are embedded now (never waits): those can be
        submitted while the passes go on. A failed batch counts as done; :meth:`wait`
        raises its failure."""
        for first, job in self._jobs:
            if not job.done():
                return first
        return self._total - len(self._texts)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)

    def _send(self) -> None:
        if not self._resolved:  # the model loads on first need, as before: not for an empty round
            from madohub_memory.services.semantic_dedup import primer  # numpy and the model: not at start-up

            self._embed, self._resolved = primer(self._svc), True
            if self._embed is not None:
                from madohub_memory.services.instruction_model import cached_encoders

                self._encoders = cached_encoders(self._svc)
        texts, self._texts = self._texts, []
        first = self._total - len(texts)
        if self._embed is None:
            return
        if self._pool is None:
            from concurrent.futures import ThreadPoolExecutor  # not at start-up

            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="draft-embedding")
        self._jobs.append((first, self._pool.submit(_embed_and_score, self._embed, self._encoders, texts)))


def _embed_and_score(embed: Callable[[list[str]], int], encoders: Encoders | None, texts: list[str]) -> int:
    """The drafts' vectors for dedup, then their sentences' scores for the instruction flag
    (:mod:`~madohub_memory.services.instruction_model`, cached per sentence), both off the
    draining thread; the submit then finds both ready. Both embed with USE through the same
    vector cache, so a one-sentence draft is embedded once."""
    from madohub_memory.services.instruction_model import warm

    embedded = embed(texts)
    warm(texts, given=encoders)
    return embedded
