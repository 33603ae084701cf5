"""The one order in which a process takes its locks, and the check that keeps it.

Why: the dashboard and ``worker`` run several jobs on threads of one process, and each job
has its own connection to the database. SQLite's write lock (``BEGIN IMMEDIATE``) is then a
lock between threads of one process as much as between processes, and it is taken inside
in-process locks and they inside it. When one thread held the write lock and waited for
semantic dedup's group lock while another held that lock and waited for the write lock, the
two waited for each other until the 30 s give-up, and every writer on the machine with them
(issue 33). A lock order makes that impossible: a thread takes a lock only when every lock
it already holds comes earlier in the order.

The order, outermost first (:class:`Level`):

1. ``INDEX``: recall's vector index of active memories (``VectorIndex.lock``). Its refresh
   stores the vectors of new memories, so it is taken *before* the write lock, never inside
   a write transaction.
2. ``WRITE``: the database's write lock (SQLite's ``BEGIN IMMEDIATE``; on PostgreSQL the
   transaction and its advisory locks), taken by ``Store.transaction`` of the outermost
   transaction. A nested transaction joins the outer one and waits for nothing. A thread
   holding it never waits for it again through another connection to the same file.
3. ``GROUPS``: semantic dedup's vector groups (``VectorGroups.lock``). A drain matches its
   drafts inside its write transaction, so this comes after ``WRITE``: a group computed under
   this lock is written to the ``embeddings`` table only after the lock is released.
4. ``TEXTS``: a vector cache's texts embedded lately (``VectorCache._lock``).
5. ``MODEL``: loading an embedding model (``embeddings._lock``, seconds on a first load).
6. ``LEAF``: short locks around one dictionary or one initialisation (the cache registry,
   jieba's loader, the instruction model's sentence cache, the open-files registry, the hit
   counter's thread). Nothing is taken while one is held.

A store's own re-entrant lock (``Store._lock``) is not in the order: one thread uses a
store at a time, so nothing contends on it; it is taken just before the write lock.

The check: with ``MADOHUB_CHECK_LOCKS=1`` in the environment (the test suite sets it), every
:class:`OrderedLock` and every wait for the write lock (:func:`waiting_for`) raises
:class:`LockOrderError` when the thread holds a lock of the same or a later level (the same
re-entrant lock again is fine). Without it the check costs one attribute read per lock.
"""

from __future__ import annotations

import os
import threading
from enum import IntEnum
from types import TracebackType


class Level(IntEnum):
    INDEX = 10
    WRITE = 20
    GROUPS = 30
    TEXTS = 40
    MODEL = 50
    LEAF = 90


class LockOrderError(AssertionError):
    """A lock taken against the documented order: a deadlock waiting for its interleaving."""


CHECK = os.environ.get("MADOHUB_CHECK_LOCKS") == "1"

_local = threading.local()


def _held() -> list[tuple[Level, str, object]]:
    held: list[tuple[Level, str, object]] | None = getattr(_local, "held", None)
    if held is None:
        held = _local.held = []
    return held


def check(level: Level, name: str, key: object) -> None:
    """Raise :class:`LockOrderError` when taking ``name`` now would break the order."""
    held = _held()
    if any(held_key is key for _level, _name, held_key in held):
        return  # a re-entrant lock this thread holds already: taking it again never waits
    for held_level, held_name, _key in held:
        if held_level >= level:
            raise LockOrderError(
                f"lock order: {name} (level {level.name}) taken while holding {held_name} "
                f"(level {held_level.name}); see madohub_memory/core/lock_order.py"
            )


def note_taken(level: Level, name: str, key: object) -> None:
    _held().append((level, name, key))


def note_released(key: object) -> None:
    held = _held()
    for i in range(len(held) - 1, -1, -1):
        if held[i][2] is key:
            del held[i]
            return


def held_names() -> list[str]:
    """The locks this thread holds (checked mode only; empty otherwise)."""
    return [name for _level, name, _key in _held()]


def waiting_for(level: Level, name: str, key: object) -> None:
    """Called before a wait for a lock that is not an :class:`OrderedLock` (the write lock)."""
    if CHECK:
        check(level, name, key)


class OrderedLock:
    """A ``threading.Lock`` (or ``RLock``) with its place in the order."""

    __slots__ = ("_lock", "level", "name")

    def __init__(self, name: str, level: Level, *, reentrant: bool = False) -> None:
        self.name = name
        self.level = level
        self._lock: threading.Lock | threading.RLock = threading.RLock() if reentrant else threading.Lock()

    def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
        if CHECK and blocking:  # a try-lock cannot deadlock: only a wait is checked
            check(self.level, self.name, self)
        taken = self._lock.acquire(blocking, timeout)
        if taken and CHECK:
            note_taken(self.level, self.name, self)
        return taken

    def release(self) -> None:
        if CHECK:
            note_released(self)
        self._lock.release()

    def __enter__(self) -> bool:
        return self.acquire()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.release()
