"""Waiting for another program's change to the database (a colleague's decision, a worker's candidates).

A live view refreshes when the database changed under it. On a PostgreSQL server the
server tells: :func:`watch_changes` opens a listening connection and :meth:`wait` returns
as soon as another connection commits, so two dashboards see each other's decisions within
a second. A SQLite file has nobody to tell it: its watch never pushes (``pushes`` is
``False``) and the view keeps polling ``Store.data_version``.

A server connection can drop (a server restart, an administrator ending it, a network
blip): ``wait`` then raises a :class:`~madohub_memory.core.errors.UserError` and ``reopen``
connects again, so a long-lived view can come back to live updates by itself.
"""

from __future__ import annotations

import threading
from typing import Protocol

from madohub_memory.store.database import Store


class ChangeWatch(Protocol):
    pushes: bool

    def wait(self, timeout: float) -> bool:
        """Block up to ``timeout`` seconds; ``True`` when another connection committed a change."""

    def reopen(self) -> bool:
        """Connect again after ``wait`` raised; ``False`` once closed. Raises while the
        server cannot be reached. Changes made meanwhile were not announced."""

    def close(self) -> None: ...


class PollOnly:
    """The watch of a database that cannot push (SQLite): waiting only passes the time."""

    pushes = False

    def __init__(self) -> None:
        self._closed = threading.Event()

    def wait(self, timeout: float) -> bool:
        self._closed.wait(timeout)
        return False

    def reopen(self) -> bool:
        return not self._closed.is_set()

    def close(self) -> None:
        self._closed.set()


def watch_changes(store: Store) -> ChangeWatch:
    """A watch on ``store``'s database, on a connection of its own (use it from one thread)."""
    if store.backend == "postgresql":
        from madohub_memory.store.pg.listen import ChangeListener

        return ChangeListener(store.dsn)  # type: ignore[attr-defined]
    return PollOnly()
