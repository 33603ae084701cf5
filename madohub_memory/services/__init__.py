"""Use cases shared by every front end (GUI, CLI, MCP server, workers).

``Services`` bundles an open :class:`~madohub_memory.store.Store` and the
:class:`~madohub_memory.core.clock.Clock`; each family of use cases is a small object
reached as an attribute (``svc.review``, ``svc.memories``...), created on first use so
that a CLI command pays only for what it touches.

``origin`` names the actor instance behind every change written through this object
(``gui:<window>``, ``cli``, ``mcp:<session>``, ``worker``): undo takes back only that
origin's own changes.
"""

from __future__ import annotations

import os
from functools import cached_property
from typing import TYPE_CHECKING

from madohub_memory.core import log_redaction
from madohub_memory.core.clock import Clock
from madohub_memory.core.paths import default_database
from madohub_memory.store import Store, open_store

DEFAULT_ORIGIN = "local"

if TYPE_CHECKING:
    from madohub_memory.services.backup import BackupService
    from madohub_memory.services.changes import ChangeLog
    from madohub_memory.services.decay import DecayService
    from madohub_memory.services.decisions import DecisionService
    from madohub_memory.services.embedding import EmbeddingService
    from madohub_memory.services.ingest import IngestService
    from madohub_memory.services.jobs import JobsService
    from madohub_memory.services.memories import MemoryService
    from madohub_memory.services.nearest import NearestService
    from madohub_memory.services.queue import QueueService
    from madohub_memory.services.recall import RecallService
    from madohub_memory.services.review import ReviewService
    from madohub_memory.services.session_context import SessionContextService
    from madohub_memory.services.settings import SettingsService
    from madohub_memory.services.stores import StoreRouter
    from madohub_memory.services.sweep import SweepService
    from madohub_memory.services.transfer import TransferService
    from madohub_memory.services.turns import TurnService
    from madohub_memory.services.working import WorkingMemoryService


class Services:
    """One open database, its clock and origin, and every family of use cases over them.

    This class is the one place where a family is created; each is typed, so a front end
    calling a misspelt method is caught by mypy, not by a user."""

    mapped = False
    """True for a store opened because ``stores.map`` names it: it is written and read as it
    is, its own map (if any) is not followed (no store reaches a third, no loops)."""
    home: frozenset[str] = frozenset()
    """For a mapped store: the namespaces the map keeps there (an edit may not leave them)."""

    def __init__(
        self, store: Store, clock: Clock | None = None, origin: str = DEFAULT_ORIGIN, person: str | None = None,
    ) -> None:
        log_redaction.install()  # no log line of this process carries a secret
        self.store = store
        self.clock = clock or Clock()
        self.origin = origin
        self.person_override = person

    @classmethod
    def open(
        cls, path: str | os.PathLike[str] | None = None, clock: Clock | None = None,
        origin: str = DEFAULT_ORIGIN, *, create: bool = True, check: bool = True, person: str | None = None,
    ) -> Services:
        """Open (and with ``create``, create if missing) the database; read commands pass
        ``create=False`` so that a mistyped path is an error, not a new empty database.
        ``check=False`` (doctor, backup) opens a file marked damaged."""
        return cls(open_store(path or default_database(), create=create, check=check), clock, origin, person)

    @property
    def person(self) -> str | None:
        """The person recorded on this object's changes (read afresh: a setting may change)."""
        from madohub_memory.services.person import resolve_person

        return resolve_person(self)

    def close(self) -> None:
        router = self.__dict__.get("stores")
        if router is not None:  # mapped stores opened through this object
            router.close()
        self.store.close()

    def __enter__(self) -> Services:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @cached_property
    def changelog(self) -> ChangeLog:
        """The one history writer every family records through (one batch can span them)."""
        from madohub_memory.services.changes import ChangeLog

        return ChangeLog(self)

    def has_store_map(self) -> bool:
        """Whether setting ``stores.map`` names any store: one point read, without loading
        the settings registry (``pending`` runs on every agent turn)."""
        from madohub_memory.store.settings import get_raw

        return not self.mapped and bool(get_raw(self.store, "stores.map"))

    @cached_property
    def stores(self) -> StoreRouter:
        """Namespaces kept in other stores (setting ``stores.map``) and those stores, opened
        on first use and closed with this object."""
        from madohub_memory.services.stores import StoreRouter

        return StoreRouter(self)

    @cached_property
    def settings(self) -> SettingsService:
        from madohub_memory.services.settings import SettingsService

        return SettingsService(self)

    @cached_property
    def review(self) -> ReviewService:
        from madohub_memory.services.review import ReviewService

        return ReviewService(self)

    @cached_property
    def memories(self) -> MemoryService:
        from madohub_memory.services.memories import MemoryService

        return MemoryService(self)

    @cached_property
    def sweep(self) -> SweepService:
        from madohub_memory.services.sweep import SweepService

        return SweepService(self)

    @cached_property
    def transfer(self) -> TransferService:
        from madohub_memory.services.transfer import TransferService

        return TransferService(self)

    @cached_property
    def turns(self) -> TurnService:
        from madohub_memory.services.turns import TurnService

        return TurnService(self)

    @cached_property
    def ingest(self) -> IngestService:
        from madohub_memory.services.ingest import IngestService

        return IngestService(self)

    @cached_property
    def jobs(self) -> JobsService:
        from madohub_memory.services.jobs import JobsService

        return JobsService(self)

    @cached_property
    def recall(self) -> RecallService:
        from madohub_memory.services.recall import RecallService

        return RecallService(self)

    @cached_property
    def working(self) -> WorkingMemoryService:
        from madohub_memory.services.working import WorkingMemoryService

        return WorkingMemoryService(self)

    @cached_property
    def backup(self) -> BackupService:
        from madohub_memory.services.backup import BackupService

        return BackupService(self)

    @cached_property
    def session_context(self) -> SessionContextService:
        from madohub_memory.services.session_context import SessionContextService

        return SessionContextService(self)

    @cached_property
    def decisions(self) -> DecisionService:
        from madohub_memory.services.decisions import DecisionService

        return DecisionService(self)

    @cached_property
    def queue(self) -> QueueService:
        """The dashboard's read side (pending queue, approved list, counts)."""
        from madohub_memory.services.queue import QueueService

        return QueueService(self)

    @cached_property
    def decay(self) -> DecayService:
        from madohub_memory.services.decay import DecayService

        return DecayService(self)

    @cached_property
    def embedding(self) -> EmbeddingService:
        """Which embedding model recall serves, and re-embedding after a switch."""
        from madohub_memory.services.embedding import EmbeddingService

        return EmbeddingService(self)

    @cached_property
    def nearest(self) -> NearestService:
        from madohub_memory.services.nearest import NearestService

        return NearestService(self)
