"""Decay and garbage collection of approved memory, run at most once a day.

Rules (settings ``decay.*``), applied to active memories that are not pinned (pinned ones
are core: never demoted or evicted automatically):

* idle (no hit, edit or reinforcement) for more than ``idle_days`` (14): weight drops
  to ``idle_weight`` (0.5); a later recall hit restores it (see the recall store);
* never hit and older than ``archive_days`` (90): archived;
* transient kinds (``transient_kinds``, default ``event``): weight follows a power law
  ``(1 + age_days) ** -0.5`` and at ``ttl_days`` (28) they are evicted (archived);
* a memory's age for these two rules counts from its last change by a person or a new
  sighting (``updated_at``), not only from its creation: a memory a person restored from
  the archive is not archived again by the next pass.
* above ``max_active`` (0 = no cap) the lowest-weight memories are evicted first.

Evictions happen lowest weight first. Every change is one history row (actor ``auto``)
in a single batch per pass, so the dashboard shows it and a person can put it back. The
pass is gated by a timestamp stored in ``recall_state``; ``force`` skips the gate.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from madohub_memory.core.clock import parse_iso, to_iso
from madohub_memory.store import embeddings as vector_rows
from madohub_memory.store import memories as memory_rows
from madohub_memory.store import recall as recall_rows

if TYPE_CHECKING:
    from madohub_memory.services import Services

GATE_KEY = "decay.last_run"
POWER = 0.5
_EPS = 1e-3


def transient_weight(age_days: float) -> float:
    """Power-law decay of a transient memory's weight with its age."""
    return float((1.0 + max(0.0, age_days)) ** -POWER)


def _days(now: datetime, stamp: str | None) -> float:
    if not stamp:
        return 0.0
    return (now - parse_iso(stamp)).total_seconds() / 86400.0


class DecayService:
    def __init__(self, svc: Services) -> None:
        self.svc = svc
        self.changes = svc.changelog

    def last_run(self) -> str | None:
        return recall_rows.state_get(self.svc.store, GATE_KEY)

    def due(self) -> bool:
        last = self.last_run()
        if last is None:
            return True
        elapsed = self.svc.clock.now() - parse_iso(last)
        return elapsed >= timedelta(days=1) or elapsed < timedelta(0)

    def run(self, force: bool = False) -> dict[str, Any]:
        """One decay pass; returns the ids touched per rule (or ``skipped``)."""
        if not force and not self.due():
            return {"skipped": True, "last_run": self.last_run()}
        settings = self.svc.settings
        now = self.svc.clock.now()
        idle_days = settings.get("decay.idle_days")
        idle_weight = float(settings.get("decay.idle_weight"))
        archive_days = settings.get("decay.archive_days")
        transient = set(settings.get("decay.transient_kinds"))
        ttl_days = settings.get("decay.ttl_days")
        max_active = settings.get("decay.max_active")
        report: dict[str, Any] = {"skipped": False, "idle": [], "transient": [], "archived": [], "evicted": []}
        store = self.svc.store
        with self.changes.batch():
            rows = recall_rows.decay_rows(store)
            expired: list[dict[str, Any]] = []
            survivors: list[dict[str, Any]] = []
            for row in rows:
                if row["pinned"]:
                    survivors.append(row)
                    continue
                # counted from the last change by a person (a restore, an edit) or a new sighting
                age = _days(now, max(row["created_at"], row["updated_at"] or ""))
                last_use = max(row["updated_at"], row["last_hit_at"] or "")
                if row["kind"] in transient:
                    if age >= ttl_days:
                        expired.append(row)
                        continue
                    weight = transient_weight(_days(now, last_use))
                    if abs(weight - row["weight"]) > _EPS:
                        self._set(row, {"weight": round(weight, 4)}, "decay")
                        report["transient"].append(row["id"])
                        row = {**row, "weight": weight}
                elif row["hit_count"] == 0 and age > archive_days:
                    self._set(row, {"status": "archived"}, "archive")
                    report["archived"].append(row["id"])
                    continue
                elif _days(now, last_use) > idle_days and row["weight"] > idle_weight + _EPS:
                    self._set(row, {"weight": idle_weight}, "decay")
                    report["idle"].append(row["id"])
                    row = {**row, "weight": idle_weight}
                survivors.append(row)
            for row in sorted(expired, key=lambda r: (r["weight"], r["id"])):
                self._set(row, {"status": "archived"}, "evict")
                report["evicted"].append(row["id"])
            if max_active and len(survivors) > max_active:
                movable = sorted((r for r in survivors if not r["pinned"]), key=lambda r: (r["weight"], r["id"]))
                for row in movable[: len(survivors) - max_active]:
                    self._set(row, {"status": "archived"}, "evict")
                    report["evicted"].append(row["id"])
            recall_rows.state_set(store, GATE_KEY, to_iso(now))
            vector_rows.prune_changes(store)
        return report

    def _set(self, row: dict[str, Any], values: dict[str, Any], action: str) -> None:
        """Change one memory and record it in history (actor ``auto``); ``updated_at`` is kept
        so that decay itself does not look like activity."""
        store = self.svc.store
        before = memory_rows.get_row(store, row["id"])
        memory_rows.update(store, row["id"], values)
        self.changes.record("memory", row["id"], action, "auto", before, memory_rows.get_row(store, row["id"]))
