"""One pass of the periodic jobs: archive stale candidates, auto-approve, memory decay and
decision-memory decay.

The same pass runs from ``madohub-memory sweep`` (time injectable with ``--now``) and from
the background workers. :func:`sweep_counts` says what one pass did per action (the jobs
table keeps it), and :meth:`SweepService.archived_since` which approved memories the decay
took out of the Approved list since a person last looked (the dashboard's status-bar note).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from madohub_memory.store import history, memory_list

if TYPE_CHECKING:
    from madohub_memory.services import Services

# What the report of one pass counts, in the order the dashboard names them.
COUNT_KEYS = ("memories_archived", "memories_evicted", "weight_lowered", "candidates_archived", "auto_approved",
              "decisions_expired", "preferences_proposed")


def _size(value: Any) -> int:
    if isinstance(value, list):
        return len(value)
    return int(value) if isinstance(value, int) and not isinstance(value, bool) else 0


def sweep_counts(report: dict[str, Any]) -> dict[str, int]:
    """How many things each action of one pass touched (a skipped decay counts nothing)."""
    decay = report.get("decay") or {}
    decisions = report.get("decisions") or {}
    return {
        "memories_archived": _size(decay.get("archived")),
        "memories_evicted": _size(decay.get("evicted")),
        "weight_lowered": _size(decay.get("idle")) + _size(decay.get("transient")),
        "candidates_archived": _size(report.get("archived")),
        "auto_approved": _size(report.get("auto_approved")),
        "decisions_expired": _size(decisions.get("expired")),
        "preferences_proposed": _size(decisions.get("proposed")),
    }


class SweepService:
    def __init__(self, svc: Services) -> None:
        self.svc = svc

    def run(self, *, force: bool = False) -> dict[str, Any]:
        review = self.svc.review
        may_decide = getattr(self.svc.store, "may_decide_workspace", None)
        if may_decide is not None and not may_decide():
            # A team server's proposer may not archive shared rows: the reviewers' workers sweep.
            report: dict[str, Any] = {"now": self.svc.clock.now_iso(), "archived": [],
                                      "auto_approved": review.auto_approve(),
                                      "decay": {"skipped": True, "reason": "reviewer role needed"}}
            report["decisions"] = self.svc.decisions.decay_scan(force=force)
            return report
        report = {
            "now": self.svc.clock.now_iso(),
            "archived": review.archive_stale(),
            "auto_approved": review.auto_approve(),
        }
        report["decay"] = self.svc.decay.run(force=force)
        # Decision memory: expire transient choices, propose stable preferences (once a day).
        report["decisions"] = self.svc.decisions.decay_scan(force=force)
        return report

    def archived_since(self, after: int) -> dict[str, Any]:
        """Approved memories the decay archived or evicted in history rows after ``after``
        that are archived still: ``{"count", "memory_ids", "last"}``, ``last`` being the
        newest such row (the mark to pass next time; ``after`` when there is none)."""
        rows = history.auto_archives_after(self.svc.store, after)
        if not rows:
            return {"count": 0, "memory_ids": [], "last": after}
        still = memory_list.statuses(self.svc.store, sorted({mid for mid, _ in rows}))
        ids = sorted(mid for mid, status in still.items() if status == "archived")
        return {"count": len(ids), "memory_ids": ids, "last": max(row_id for _, row_id in rows)}
