"""The lock order (madohub_memory/core/lock_order.py): a process never stalls itself.

Issue 33: in the dashboard and ``worker``, a drain held the SQLite write lock and waited for
semantic dedup's group lock while the watch job's preload held that lock and waited, to
store the vectors it had computed, for the write lock. Both waited until the 30 s give-up,
every writer on the machine with them. These tests drive that interleaving with the real
model and two connections to one file, as the two jobs have.
"""

from __future__ import annotations

import threading
import time

import pytest

from madohub_memory.core import lock_order
from madohub_memory.core.lock_order import Level, LockOrderError, OrderedLock
from madohub_memory.core.types import CandidateDraft
from madohub_memory.recall.embeddings import SIMILARITY_MODEL
from madohub_memory.recall.vector_cache import forget_all, vector_cache
from madohub_memory.services import Services, semantic_dedup
from madohub_memory.store import embeddings as vector_rows

NAMESPACE = "workspace:locks"
KIND = "fact"
ROWS = 600  # enough that loading the group takes a while (their vectors are computed then)


@pytest.fixture
def stocked(svc: Services) -> Services:
    """A database whose (namespace, kind) group has many candidates and no stored vectors."""
    svc.settings.set("dedup.semantic", False)
    for i in range(ROWS):
        svc.review.submit(CandidateDraft(f"The build server number {i} runs job {i * 7} on port {2000 + i}.",
                                         KIND, NAMESPACE, source="turn", turn_ids=(f"t{i}",)))
    svc.settings.set("dedup.semantic", True)
    assert vector_rows.count(svc.store, SIMILARITY_MODEL) == 0
    forget_all()  # no group of this file loaded in this process yet
    return svc


def _wait_until(condition, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the other thread never got there"
        time.sleep(0.001)


@pytest.mark.parametrize("first", ["watch", "drain"])
def test_a_drain_inside_the_write_lock_and_a_preload_in_the_group_lock_do_not_wait_for_each_other(
        stocked: Services, db_path, clock, monkeypatch, first: str) -> None:
    monkeypatch.setenv("MADOHUB_BUSY_TIMEOUT", "8")  # the old deadlock ended after this, not 30 s
    drain, watch = stocked, Services.open(db_path, clock)
    cache = vector_cache(drain.store, SIMILARITY_MODEL)
    key = (NAMESPACE, KIND)
    failures: list[BaseException] = []
    drain_began = threading.Event()

    def watch_job() -> None:  # the watch job's import: its drain round preloads the group it will search
        try:
            if first == "drain":
                drain_began.wait(20)
            semantic_dedup.preload(watch, ["The build server runs nightly jobs."], {key})
        except BaseException as exc:
            failures.append(exc)

    worker = threading.Thread(target=watch_job)
    worker.start()
    if first == "watch":
        _wait_until(lambda: key in cache.groups.groups or not worker.is_alive())
    with drain.store.transaction():  # the drain's write transaction
        began = time.monotonic()
        drain_began.set()
        if first == "drain":
            _wait_until(lambda: key in cache.groups.groups or not worker.is_alive())
        match = semantic_dedup.match(drain.store, cache, "The build server number 5 runs job 35 on port 2005.",
                                     NAMESPACE, KIND, float(drain.settings.get("dedup.threshold")))
        held = time.monotonic() - began
    worker.join(30)
    watch.close()
    assert not failures, failures
    assert held < 2.0, f"the write lock was held {held:.1f} s"
    assert match is not None and match.candidate is not None  # the match itself still works
    cache.groups.save(drain.store)  # anything a busy moment kept back
    assert vector_rows.count(drain.store, SIMILARITY_MODEL) >= ROWS  # the loaded vectors are stored


def test_no_wait_for_the_write_lock_while_holding_an_in_process_lock(svc: Services) -> None:
    assert lock_order.CHECK  # the suite runs with MADOHUB_CHECK_LOCKS=1 (tests/conftest.py)
    cache = vector_cache(svc.store, SIMILARITY_MODEL)
    with cache.groups.lock, pytest.raises(LockOrderError, match="write lock"), svc.store.transaction():
        pass
    with svc.store.transaction(), cache.groups.lock:  # the other way round is the order
        pass
    assert lock_order.held_names() == []


def test_a_second_connection_to_the_same_file_inside_a_write_transaction_is_refused(svc: Services, db_path,
                                                                                       clock) -> None:
    other = Services.open(db_path, clock)
    try:
        with svc.store.transaction(), pytest.raises(LockOrderError), other.store.transaction():
            pass  # would wait for its own thread's lock until the give-up
    finally:
        other.close()


def test_locks_are_taken_outermost_first() -> None:
    outer, inner = OrderedLock("outer", Level.GROUPS, reentrant=True), OrderedLock("inner", Level.TEXTS)
    with outer, inner, outer:  # a re-entrant lock again is fine
        pass
    with inner, pytest.raises(LockOrderError, match="outer"), outer:
        pass
    assert inner.acquire(blocking=False)  # a try-lock cannot deadlock and is not refused
    inner.release()
