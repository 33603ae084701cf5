"""Namespaces kept in another store: the setting ``stores.map`` (namespace -> location).

A person keeps their persona in the local file and puts a workspace on a team store (a
shared SQLite file today, a PostgreSQL server once that backend is in): candidates of a
mapped namespace are written there and reviewed there, and recall reads each namespace
from where it lives and merges the answers (:mod:`madohub_memory.services.recall_merge`).

The map is read from the local store's settings. Mapped stores are opened only through
:meth:`Services.open` (a path or a DSN alike; nothing here stats a location), at most once
per ``Services`` and closed with it, and never created: a file that is not there (a share
that is not mounted) is an error, not a new empty team store. Every location shown to a
person goes through :func:`display_location` (a DSN may carry a password).

Ids: a memory or candidate of a mapped store is named ``<label>:<id>`` (``team:12``); the
label is the file's stem or the DSN's database name (``local`` is the local store), made
unique with ``-2``, ``-3``… when two locations would share one.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from madohub_memory.core.errors import (
    MappedStoreError,
    MissingDatabaseError,
    NotFoundError,
    UserError,
    ValidationError,
)
from madohub_memory.core.locations import display_location, location_label

if TYPE_CHECKING:
    from madohub_memory.services import Services

log = logging.getLogger("madohub_memory.stores")

LOCAL = "local"
RETRY_AFTER_S = 30.0  # a store that could not be opened is tried again after this long


@dataclass(frozen=True)
class StorePart:
    """One store's share of a read: its label (``None``: the local store, no mapping in
    use), its services and the namespaces asked of it (``None``: all)."""

    label: str | None
    svc: Services
    scope: list[str] | None


def store_map(svc: Services) -> dict[str, str]:
    """The namespace -> location map of the local store (empty: every namespace is local)."""
    value = svc.settings.get("stores.map")
    return dict(value) if value else {}


class StoreRouter:
    """Which store holds a namespace, and the open mapped stores of one ``Services``."""

    def __init__(self, svc: Services) -> None:
        self.svc = svc
        self.mapping: dict[str, str] = {}
        self.labels: dict[str, str] = {}
        self._open: dict[str, Services] = {}
        self._failed: dict[str, tuple[float, MappedStoreError]] = {}
        self.refresh()

    def refresh(self) -> None:
        """Follow a change of the setting (a worker or the dashboard keeps one ``Services``
        for hours): stores no longer named are closed, labels are given anew."""
        mapping = store_map(self.svc)
        if mapping != self.mapping:
            self.close()
            self._failed.clear()
            self.mapping, self.labels = mapping, _labels(mapping.values())

    @property
    def active(self) -> bool:
        return bool(self.mapping)

    def location_for(self, namespace: str) -> str | None:
        """The mapped location of ``namespace``; ``None`` when it is kept locally."""
        self.refresh()
        return self.mapping.get(namespace)

    def label_of(self, location: str | None) -> str:
        return LOCAL if location is None else self.labels[location]

    def describe(self, location: str) -> str:
        """``team (/srv/team.db)``: a store as a person reads it (passwords masked)."""
        return f"{self.labels[location]} ({display_location(location)})"

    def location_of_label(self, label: str) -> str | None:
        """The location named by ``label`` (``None`` for ``local``); one sentence otherwise."""
        if label == LOCAL:
            return None
        self.refresh()
        for location, name in self.labels.items():
            if name == label:
                return location
        known = ", ".join([LOCAL, *sorted(self.labels.values())])
        raise NotFoundError("No store is named {label!r}: the stores are {known} (setting stores.map).",
                            label=label, known=known)

    def open(self, location: str) -> Services:
        """The services of a mapped store, opened once (never created); a store that cannot
        be opened is one sentence naming it."""
        if location in self._open:
            return self._open[location]
        failed = self._failed.get(location)
        if failed is not None and time.monotonic() - failed[0] < RETRY_AFTER_S:
            raise failed[1]  # a server that just timed out is not waited for once per draft
        try:
            target = self._connect(location)
        except MappedStoreError as exc:
            self._failed[location] = (time.monotonic(), exc)
            raise
        self._failed.pop(location, None)
        return target

    def _connect(self, location: str) -> Services:
        try:
            target = type(self.svc).open(
                location, self.svc.clock, self.svc.origin, create=False, person=self.svc.person_override,
            )
        except MissingDatabaseError:
            raise MappedStoreError(
                "The store {store} could not be opened: there is no database there (a share that is "
                "not mounted?); a write never creates it, check stores.map.", store=self.describe(location),
            ) from None
        except UserError as exc:
            raise MappedStoreError(
                "The store {store} could not be opened: {reason}",
                store=self.describe(location), reason=display_location(str(exc)),
            ) from None
        except Exception as exc:  # a driver's own error (network, authentication): one sentence too
            raise MappedStoreError(
                "The store {store} could not be opened: {reason}.",
                store=self.describe(location), reason=display_location(str(exc).strip().splitlines()[0]
                                                                       if str(exc).strip() else type(exc).__name__),
            ) from None
        target.mapped = True
        target.home = frozenset(ns for ns, there in self.mapping.items() if there == location)
        self._open[location] = target
        return target

    def take(self, location: str) -> Services:
        """A mapped store opened for the caller to keep (and close) after this object is gone."""
        target = self.open(location)
        del self._open[location]
        return target

    def for_namespace(self, namespace: str) -> Services | None:
        """The services to write ``namespace`` into, or ``None`` for the local store."""
        location = self.location_for(namespace)
        return None if location is None else self.open(location)

    def holder(self, namespace: str | None) -> tuple[Services, str | None]:
        """The services that hold ``namespace``'s queue and memories, with the store's label
        (``None``: this store). Without a map, or for no namespace, this store."""
        if not namespace or self.svc.mapped:
            return self.svc, None
        from madohub_memory.core.vocab import validate_namespace

        location = self.location_for(validate_namespace(namespace))
        return (self.svc, None) if location is None else (self.open(location), self.labels[location])

    def read_parts(self, scope: list[str] | None) -> tuple[list[StorePart], list[str]]:
        """The stores a read of ``scope`` (``None``: every namespace) asks, and a warning for
        each mapped store that could not be opened (the read goes on without it).

        The local store is asked for the whole scope (entries written there before the
        namespace was mapped stay recallable); a mapped store only for its own namespaces
        within the scope."""
        self.refresh()
        parts = [StorePart(LOCAL, self.svc, scope)]
        warnings: list[str] = []
        wanted: dict[str, list[str]] = {}
        for namespace, location in self.mapping.items():
            if scope is None or namespace in scope:
                wanted.setdefault(location, []).append(namespace)
        for location, namespaces in wanted.items():
            try:
                parts.append(StorePart(self.labels[location], self.open(location), namespaces))
            except MappedStoreError as exc:
                warnings.append(f"{exc} Answering without {', '.join(namespaces)}.")
        return parts, warnings

    def close(self) -> None:
        for location, target in self._open.items():
            try:
                target.close()
            except Exception:  # closing one store must not keep the others open
                log.warning("could not close the store %s", self.describe(location))
        self._open.clear()


def keep_in_store(svc: Services, namespace: str) -> None:
    """Refuse an edit that would move an entry to a namespace another store keeps: a team
    memory made ``persona:…`` would sit on the team store where no recall looks, a local one
    made ``workspace:shop`` would bypass the team's review."""
    if svc.mapped:
        if namespace not in svc.home:
            raise ValidationError(
                "{namespace} is not kept in this store (it holds {home}): propose it where it is kept"
                " instead.", namespace=namespace, home=", ".join(sorted(svc.home)),
            )
        return
    location = svc.stores.location_for(namespace)
    if location is not None:
        raise ValidationError(
            "{namespace} is kept in the store {store}: propose it there (remember --namespace {namespace})"
            " instead of moving this entry.", namespace=namespace, store=svc.stores.describe(location),
        )


def mapped_queues(svc: Services) -> list[tuple[str, str, list[str]]]:
    """(label, location fit to show, namespaces) of each mapped store, from the setting alone
    (no store is opened: the dashboard says where a queue is without waiting on a server)."""
    mapping = store_map(svc)
    labels = _labels(mapping.values())
    grouped: dict[str, list[str]] = {}
    for namespace, location in mapping.items():
        grouped.setdefault(location, []).append(namespace)
    return [(labels[location], display_location(location), namespaces) for location, namespaces in grouped.items()]


def _labels(locations: object) -> dict[str, str]:
    """A unique label per distinct location, in the map's order (``local`` is reserved)."""
    out: dict[str, str] = {}
    taken = {LOCAL}
    for location in dict.fromkeys(locations):  # type: ignore[call-overload]
        base = location_label(location)
        label, number = base, 2
        while label in taken:
            label, number = f"{base}-{number}", number + 1
        taken.add(label)
        out[location] = label
    return out
