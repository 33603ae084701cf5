"""Which embedding model recall serves, and re-embedding the memories when it changes.

``embedding.model`` is the model a person chose; ``embedding.serving`` is the one recall
ranks with now. They differ while a switch is under way: changing ``embedding.model``
first pins ``embedding.serving`` to the model recall was serving, so recall keeps answering
from the old vectors; the ``reembed`` job (worker, dashboard, or ``madohub-memory
embeddings reembed``) embeds every active memory with the new model, in short groups of
writes, and only when none is missing does it set ``embedding.serving`` to the new model.
One ranking therefore always uses one model's vectors (each model has its own index), and
an interrupted re-embed (``kill -9`` included) loses at most the group being written: the
next run starts from what is stored.

A store from before this setting existed has no ``embedding.serving``: the first look decides
it once, from the vectors of the newest memory that has any (two point queries), and stores
it, so a changed default never makes a recall embed a whole store on the spot; a new store
serves the chosen model.

Semantic dedup and the nearest-memory view use :data:`SIMILARITY_MODEL` whatever recall
serves (their thresholds were measured on its cosines), so a switch never touches them.

A model whose package is missing or broken: recall falls back to another model with one
warning sentence (:meth:`EmbeddingService.loadable`), never a traceback.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from madohub_memory.core.errors import DatabaseBusyError, UserError, ValidationError
from madohub_memory.recall.embeddings import DEFAULT_MODEL, MODEL_NAMES, get_embedder, to_blob
from madohub_memory.services.stopping import stop_requested
from madohub_memory.store import embeddings as vector_rows

if TYPE_CHECKING:
    from madohub_memory.services import Services

log = logging.getLogger("madohub_memory.recall")

GROUP = 64  # memories embedded, then written in one short transaction
SIDE_WRITE_WAIT_S = 1.0  # as a recall's hit count: a side write of a read gives up rather than wait
_broken: dict[str, str] = {}  # model -> the sentence saying why it cannot load (once per process)


class EmbeddingService:
    def __init__(self, svc: Services) -> None:
        self.svc = svc

    # -- which model ------------------------------------------------------------------

    def wanted(self) -> str:
        name = str(self.svc.settings.get("embedding.model") or DEFAULT_MODEL)
        if name not in MODEL_NAMES:
            raise ValidationError(
                "Unknown embedding model {name!r}: use one of {choices}.", name=name, choices=', '.join(MODEL_NAMES),
            )
        return name

    def served(self) -> str:
        """The model recall ranks with now (see the module's docstring)."""
        serving = str(self.svc.settings.get("embedding.serving") or "")
        if serving in MODEL_NAMES:
            return serving
        decided = self._legacy(self.wanted())
        if not self.svc.store.readonly:  # decided once: later vectors (dedup's) must not change it
            try:  # a recall asks this: it never waits long for another program's lock
                with self.svc.store.waits_at_most(SIDE_WRITE_WAIT_S):
                    self.svc.settings.set("embedding.serving", decided, actor="auto")
            except DatabaseBusyError:
                log.info("embedding.serving not stored yet (the database is busy): decided again next time")
        return decided

    def _legacy(self, wanted: str) -> str:
        """A store never switched: the model of the vectors its newest embedded memory has
        (the chosen one when it has that too, or when no memory has a vector yet)."""
        models = vector_rows.models_of_newest_memory(self.svc.store)
        if not models or wanted in models:
            return wanted
        return next((m for m in MODEL_NAMES if m in models), wanted)

    def pin_before_switch(self, new_model: str) -> None:
        """Called before ``embedding.model`` changes: recall keeps serving what it serves now."""
        if new_model not in MODEL_NAMES or self.svc.store.readonly:
            return
        # nothing to re-embed in an empty store: the new model serves at once
        current = self.served() if vector_rows.count_active_memories(self.svc.store) else new_model
        if current != str(self.svc.settings.get("embedding.serving") or ""):
            self.svc.settings.set("embedding.serving", current, actor="auto")

    def loadable(self, model: str) -> tuple[str, str | None]:
        """``model`` if it loads here, else the first other model that does, with one sentence
        saying why (logged once per process). Raises when no model loads."""
        for name in [model, *[m for m in MODEL_NAMES if m != model]]:
            if name in _broken:
                continue
            try:
                get_embedder(name)
            except Exception as exc:  # a missing or broken package: its sentence, never a traceback
                reason = str(exc) if isinstance(exc, UserError) else f"{type(exc).__name__}: {exc}"
                _broken[name] = reason
                log.warning("embedding model %s unavailable: %s", name, reason)
                continue
            if name == model:
                return name, None
            return name, (f"The embedding model {model} cannot be used here ({_broken.get(model, 'not loadable')}); "
                          f"recall uses {name} instead.")
        raise ValidationError("No embedding model can be loaded here: reinstall madohub-memory.")

    # -- progress ---------------------------------------------------------------------

    def status(self) -> dict[str, Any]:
        """What a person sees: the chosen and the served model, and how far the vectors of the
        chosen one are (active memories with a vector of it, out of all active memories)."""
        wanted, served = self.wanted(), self.served()
        total = vector_rows.count_active_memories(self.svc.store)
        done = vector_rows.count_active_memory_vectors(self.svc.store, wanted)
        missing = max(0, total - done)
        if wanted == served:
            state = "ready" if missing == 0 else "embedding new memories"
        else:
            state = "re-embedding"
        return {"model": wanted, "serving": served, "memories": total, "embedded": done, "missing": missing,
                "state": state, "broken": dict(_broken)}

    # -- the work ---------------------------------------------------------------------

    def reembed(self, progress: Callable[[int, int], None] | None = None,
                should_stop: Callable[[], bool] | None = None) -> int:
        """Embed every active memory lacking a vector of the chosen model, group by group, then
        switch recall to it; returns how many memories were embedded.

        Stops early (leaving recall on the old model) when ``should_stop`` says so or the
        chosen model changes meanwhile. ``progress(done, total)`` after each group."""
        store = self.svc.store
        if store.readonly:
            return 0
        wanted = self.wanted()
        embedder = get_embedder(wanted)  # a broken package: its sentence, recorded by the job
        total = vector_rows.count_active_memories(store)
        done = vector_rows.count_active_memory_vectors(store, wanted)
        embedded = 0
        after = 0
        while True:
            # each group is its own short transaction, so a writer waiting in another process
            # (a review, an import) goes first (store/write_turns.py); a quitting process stops here
            if stop_requested() or (should_stop is not None and should_stop()):
                return embedded
            rows = vector_rows.missing_memory_vectors(store, wanted, GROUP, after=after)
            if not rows:
                break
            after = int(rows[-1]["id"])
            vectors = embedder.encode([r["content"] for r in rows])  # outside any transaction
            vector_rows.put(store, "memory", wanted,
                            ((int(r["id"]), r["fingerprint"], to_blob(v)) for r, v in zip(rows, vectors, strict=True)))
            embedded += len(rows)
            done += len(rows)
            if progress is not None:
                progress(min(done, total), total)
            if self.wanted() != wanted:
                return embedded  # the person chose again: the next run works for that one
        if vector_rows.missing_memory_vectors(store, wanted, 1):
            return embedded  # edited or added meanwhile: the next run finishes them
        if self.served() != wanted:
            self.svc.settings.set("embedding.serving", wanted, actor="auto")
            log.info("recall now serves the embedding model %s", wanted)
        return embedded
