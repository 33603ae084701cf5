"""One pass of the periodic jobs: archive stale candidates, auto-approve, memory decay and
decision-memory decay.

The same pass runs from ``madohub-memory sweep`` (time injectable with ``--now``) and from
the background workers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from madohub_memory.services import Services


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
