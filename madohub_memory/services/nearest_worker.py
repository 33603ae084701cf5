"""A process that answers "which approved memory is nearest to this text?" for the dashboard.

Why a process and not a thread: the embedding model and the index upkeep are Python-heavy
work, and a busy thread holds the interpreter lock in 5 ms slices; the GUI thread re-takes
that lock for every cell it paints, so a key press could wait hundreds of milliseconds
(measured: 20-275 ms per key with a thread, 4-12 ms without). In its own process the work
costs the dashboard nothing but a pipe read.

Protocol over a ``multiprocessing`` connection: requests ``("find", id, text, namespace,
urgent, generation)`` and ``("stop",)``; answers ``(id, text, generation, result, ms)`` where
result is what :meth:`NearestService.nearest` returns or ``{"error": sentence}`` and ``ms``
what computing it cost. Urgent requests (the candidate on screen) are answered before the
ones asked in advance.
"""

from __future__ import annotations

import os
import sys
import time
import traceback
from collections import OrderedDict
from typing import Any

from madohub_memory.core.errors import UserError


def serve(db_path: str, conn: Any) -> None:
    """Run until told to stop or the dashboard goes away."""
    if hasattr(os, "nice"):
        os.nice(10)  # background work: on a busy machine the dashboard's own thread goes first
    from madohub_memory.services import Services

    try:
        svc = Services.open(db_path, origin="gui-nearest")
    except UserError:
        return  # the dashboard's own worker reports why the file cannot be opened
    nearest = svc.nearest
    urgent: tuple[int, str, str, int] | None = None
    ahead: OrderedDict[tuple[int, str], tuple[str, int]] = OrderedDict()
    try:
        while True:
            # take in everything asked so far, so the shown candidate goes first
            while (urgent is None and not ahead) or conn.poll(0):
                try:
                    message = conn.recv()
                except (EOFError, OSError):
                    return
                if message[0] == "stop":
                    return
                _, candidate_id, text, namespace, is_urgent, generation = message
                if is_urgent:
                    if urgent is not None:  # the person moved on: still worth having, later
                        ahead[(urgent[0], urgent[1])] = (urgent[2], urgent[3])
                    urgent = (candidate_id, text, namespace, generation)
                else:
                    ahead[(candidate_id, text)] = (namespace, generation)
            if urgent is not None:
                item, urgent = urgent, None
                ahead.pop((item[0], item[1]), None)
            else:
                (candidate_id, text), (namespace, generation) = ahead.popitem(last=False)
                item = (candidate_id, text, namespace, generation)
            candidate_id, text, namespace, generation = item
            started = time.perf_counter()
            try:
                value: Any = nearest.nearest(text, namespace, candidate_id)
            except UserError as exc:
                value = {"error": str(exc)}
            except Exception as exc:  # a bug: keep the traceback, send one sentence
                traceback.print_exc(file=sys.stderr)
                value = {"error": f"{type(exc).__name__}: {exc}"}
            try:
                conn.send((candidate_id, text, generation, value, (time.perf_counter() - started) * 1000))
            except (BrokenPipeError, OSError):
                return
    finally:
        svc.close()
