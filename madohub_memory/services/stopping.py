"""A process that is quitting asks its long jobs to stop at their next safe point.

The dashboard runs the background jobs in its own process; quit while its extraction job
works through an import's turns, and the interpreter would wait for the whole job (minutes)
or cut it off with a traceback. Instead :func:`request_stop` is called first: an extraction
ends after the pass it is in (what finished is stored, the rest of its claims are given
back), an import after the file it is in. The ``worker`` daemon does the same on SIGTERM.
"""

from __future__ import annotations

import threading

_STOP = threading.Event()


def request_stop() -> None:
    _STOP.set()


def stop_requested() -> bool:
    return _STOP.is_set()
