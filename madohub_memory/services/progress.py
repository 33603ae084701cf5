"""How far a long import or extraction has come, told to every process through the database.

An import may run in the dashboard's own child process, in a terminal, or in the background
worker; the dashboard shows it in its status bar ("Importing chat.json (1 of 3): 1,200 of
3,000 turns") by reading ``work_progress`` (m0016) whenever the database changes. The
writer updates its row at most every :data:`EVERY_S` (a short transaction that takes its
turn like any other), writes none for work that ends sooner, and removes it when the work
ends, however it ends. A row whose process
was killed is ignored by :func:`running` and removed by the next writer.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

from madohub_memory.core.errors import UserError
from madohub_memory.store import progress as progress_rows
from madohub_memory.store.liveness import is_alive

if TYPE_CHECKING:
    from madohub_memory.services import Services

log = logging.getLogger(__name__)
EVERY_S = 1.0
STALE_S = 600.0  # a row of another host (liveness unknown) not updated for this long is over


class WorkProgress:
    """One running import or extraction's row. ``update`` often; it writes at most every
    :data:`EVERY_S`, and nothing at all for work done within its first :data:`EVERY_S` (the
    Stop hook imports a turn or two on every turn of an agent: no row for that). ``force``
    writes a change at once once the row exists. A failed write is logged and skipped:
    progress never fails the work."""

    def __init__(self, svc: Services, work: str, owner: str) -> None:
        self.svc = svc
        self.work = work
        self.owner = owner
        self.done = 0
        self.total = 0
        self.detail: dict[str, Any] = {}
        self._written = time.monotonic()  # the first row is written once the work has run EVERY_S
        self._started = False

    def update(self, *, done: int | None = None, total: int | None = None, force: bool = False,
               **detail: Any) -> None:
        if done is not None:
            self.done = done
        if total is not None:
            self.total = total
        self.detail.update(detail)
        now = time.monotonic()
        if now - self._written < EVERY_S and not (force and self._started):
            return
        self._written = now
        if self.svc.store.readonly:
            return
        try:
            if not self._started:
                self._started = True
                progress_rows.remove(self.svc.store, _dead_owners(self.svc))
            progress_rows.put(self.svc.store, self.owner, self.work, self.done, self.total, self.detail,
                              self.svc.clock.now_iso())
        except UserError as exc:  # a busy or read-only database: the work goes on without it
            log.info("progress not written: %s", exc)

    def finish(self) -> None:
        if not self._started:
            return
        try:
            progress_rows.remove(self.svc.store, [self.owner])
        except UserError as exc:
            log.info("progress row not removed (readers ignore it once this process is gone): %s", exc)


def _dead_owners(svc: Services) -> list[str]:
    return [r["owner"] for r in progress_rows.rows(svc.store) if is_alive(r["owner"]) is False]


def running(svc: Services) -> list[dict[str, Any]]:
    """The imports and extractions running now (their process is alive, or of another host
    and updated lately): owner, work, done, total, detail, started_at, updated_at."""
    from madohub_memory.core.clock import parse_iso

    now = svc.clock.now()
    out = []
    for row in progress_rows.rows(svc.store):
        alive = is_alive(row["owner"])
        if alive is False:
            continue
        if alive is None and (now - parse_iso(row["updated_at"])).total_seconds() > STALE_S:
            continue
        out.append(row)
    return out
