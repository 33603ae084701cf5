"""Working memory: what an agent is doing right now in one workspace.

Per workspace: the current task, decisions (each with a mandatory reason: a decision
without its reason gets overturned by the next agent that does not know it), rejected
approaches (with why), hard constraints, pending to-dos and files touched. It is short
lived and not reviewed; it never becomes searchable memory by itself. Ending a task turns
its summary (goal, final approach, rejected approaches and why) into a *candidate* that a
person reviews like any other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from madohub_memory.core.errors import NotFoundError, ValidationError
from madohub_memory.core.text import validate_content
from madohub_memory.core.types import CandidateDraft, SubmitResult
from madohub_memory.core.vocab import validate_namespace
from madohub_memory.store import working as rows

if TYPE_CHECKING:
    from madohub_memory.services import Services

OPERATIONS = (
    "task", "add_decision", "add_constraint", "add_pending", "resolve_pending", "touch_file",
    "reject_approach",
)
MAX_ITEM_CHARS = 2000

LABELS = {
    "en": {
        "title": "Working memory for {ws} (updated {date})",
        "task": "Current task", "none": "(none)",
        "decisions": "Decisions not to overturn", "because": "because",
        "constraints": "Hard constraints", "todo": "To-do",
        "rejected": "Rejected approaches", "files": "Files touched",
    },
    "zh": {
        "title": "工作记忆：{ws}（更新于 {date}）",
        "task": "当前任务", "none": "（无）",
        "decisions": "不要推翻的决定", "because": "原因",
        "constraints": "硬性约束", "todo": "待办",
        "rejected": "已否决的方案", "files": "已修改的文件",
    },
}


def validate_workspace(workspace: str | None) -> str:
    """``workspace:<project>``; a bare project name is taken as that workspace."""
    text = (workspace or "").strip()
    if not text:
        raise ValidationError("Working memory needs a workspace: give workspace:<project>.")
    if ":" not in text:
        text = f"workspace:{text}"
    value = validate_namespace(text)
    if not value.startswith("workspace:"):
        raise ValidationError(
            "Working memory belongs to a workspace, not {value!r}: give workspace:<project>.", value=value,
        )
    return value


def _text(value: str | None, what: str) -> str:
    if value is None or not str(value).strip():
        raise ValidationError("The {what} is empty.", what=what)
    text = validate_content(value)
    if len(text) > MAX_ITEM_CHARS:
        raise ValidationError(
            "The {what} has {length:,} characters, more than {limit:,}.",
            what=what, length=len(text), limit=MAX_ITEM_CHARS,
        )
    return text


class WorkingMemoryService:
    def __init__(self, svc: Services) -> None:
        self.svc = svc

    # -- reading --------------------------------------------------------------------

    def show(self, workspace: str) -> dict[str, Any]:
        ws = validate_workspace(workspace)
        store = self.svc.store
        head = rows.get(store, ws) or {"task": None, "task_started_at": None, "updated_at": None}

        def listed(item: str, status: str | None = None) -> list[dict[str, Any]]:
            return [
                {"id": r["id"], "text": r["text"], **({"reason": r["reason"]} if r["reason"] else {}),
                 "created_at": r["created_at"]}
                for r in rows.items(store, ws, item, status)
            ]

        return {
            "workspace": ws,
            "task": head["task"],
            "task_started_at": head["task_started_at"],
            "decisions": listed("decision"),
            "rejected": listed("rejected"),
            "constraints": listed("constraint"),
            "pending": listed("pending", "open"),
            "files_touched": [r["text"] for r in rows.items(store, ws, "file")],
            "updated_at": head["updated_at"],
        }

    def workspaces(self) -> list[str]:
        return rows.workspaces(self.svc.store)

    def render(self, workspace: str, language: str = "en") -> str:
        """The short block injected into a prompt: task, decisions, constraints, to-do."""
        data = self.show(workspace)
        lab = LABELS["zh" if language.startswith("zh") else "en"]
        sep = "：" if lab is LABELS["zh"] else ": "
        out = [lab["title"].format(ws=data["workspace"], date=(data["updated_at"] or "-")[:10])]
        out.append(f"{lab['task']}{sep}{data['task'] or lab['none']}")
        sections = [
            ("decisions", [f"- {d['text']} ({lab['because']}{sep}{d['reason']})" for d in data["decisions"]]),
            ("constraints", [f"- {c['text']}" for c in data["constraints"]]),
            ("todo", [f"- [{p['id']}] {p['text']}" for p in data["pending"]]),
            ("rejected", [f"- {r['text']} ({lab['because']}{sep}{r['reason']})" for r in data["rejected"]]),
        ]
        for key, lines in sections:
            if lines or key in ("decisions", "constraints", "todo"):
                out.append(f"{lab[key]}{sep.rstrip()}")
                out.extend(lines or [f"- {lab['none']}"])
        if data["files_touched"]:
            out.append(f"{lab['files']}{sep}{', '.join(data['files_touched'])}")
        return "\n".join(out)

    # -- changing -------------------------------------------------------------------

    def update(
        self,
        workspace: str,
        operation: str,
        text: str | None = None,
        reason: str | None = None,
        item_id: int | None = None,
    ) -> dict[str, Any]:
        """Apply one operation of :data:`OPERATIONS`; return the new working memory."""
        if operation not in OPERATIONS:
            raise ValidationError(
                "Unknown operation {operation!r}: use one of {choices}.",
                operation=operation, choices=', '.join(OPERATIONS),
            )
        ws = validate_workspace(workspace)
        store = self.svc.store
        now = self.svc.clock.now_iso()
        if operation == "task":
            task = _text(text, "task")
        elif operation == "resolve_pending":
            task = None
        else:
            task = _text(text, operation.replace("add_", "").replace("_", " "))
        if operation in ("add_decision", "reject_approach"):
            if reason is None or not str(reason).strip():
                raise ValidationError(
                    "A decision needs a reason: say why, so that nobody overturns it unknowingly."
                    if operation == "add_decision" else "A rejected approach needs a reason: say why it was rejected."
                )
            reason = _text(reason, "reason")
        with store.transaction():
            rows.ensure(store, ws, now)
            if operation == "task":
                rows.set_task(store, ws, task, now)
            elif operation == "resolve_pending":
                self._resolve(ws, text, item_id, now)
            else:
                item = {"add_decision": "decision", "add_constraint": "constraint", "add_pending": "pending",
                        "touch_file": "file", "reject_approach": "rejected"}[operation]
                assert task is not None
                existing = rows.find_open(store, ws, item, task)
                if existing is not None and item in ("file", "constraint", "pending"):
                    rows.touch_item(store, existing["id"], now)
                else:
                    rows.add_item(store, ws, item, task, reason, now)
        return self.show(ws)

    def _resolve(self, ws: str, text: str | None, item_id: int | None, now: str) -> None:
        store = self.svc.store
        target: dict[str, Any] | None = None
        if item_id is not None:
            target = rows.get_item(store, int(item_id))
            if target is None or target["workspace"] != ws or target["item"] != "pending":
                raise NotFoundError("No to-do with id {item_id} in {ws}.", item_id=item_id, ws=ws)
        elif text is not None and str(text).strip():
            target = rows.find_open(store, ws, "pending", " ".join(str(text).split()))
            if target is None:
                raise NotFoundError("No open to-do {text!r} in {ws}.", text=text, ws=ws)
        else:
            raise ValidationError("Say which to-do to resolve: give its id or its exact text.")
        if target["status"] == "resolved":
            raise NotFoundError("To-do {id} is already resolved.", id=target['id'])
        rows.resolve(store, int(target["id"]), now)

    def end_task(
        self, workspace: str, final_approach: str, *, kind: str = "decision", source: str = "remember",
    ) -> SubmitResult:
        """Close the task: its summary becomes a pending candidate, and the task items are cleared."""
        ws = validate_workspace(workspace)
        data = self.show(ws)
        if not data["task"]:
            raise NotFoundError("{ws} has no current task to end.", ws=ws)
        approach = _text(final_approach, "final approach")
        parts = [f"Goal: {data['task']}", f"Final approach: {approach}"]
        if data["decisions"]:
            parts.append("Decisions: " + "; ".join(f"{d['text']} (because {d['reason']})" for d in data["decisions"]))
        if data["rejected"]:
            parts.append("Rejected approaches: " + "; ".join(f"{r['text']} (because {r['reason']})" for r in data["rejected"]))
        content = "\n".join(parts)[:9000]
        store = self.svc.store
        # Matching the summary against known candidates may load the embedding model:
        # done before the write lock is taken.
        prepared = self.svc.review.prepare(CandidateDraft(content, kind, ws, source=source, confidence=0.8))
        if prepared.target is not None and prepared.target is not self.svc:
            # the summary goes to the store this workspace is mapped to: written there first,
            # in its own transaction, never while this store's write lock is held (two write
            # locks at once is the wait core/lock_order.py rules out)
            result = self.svc.review.commit(prepared)
            with store.transaction():
                rows.set_task(store, ws, None, self.svc.clock.now_iso())
                rows.clear_task_items(store, ws)
            return result
        with store.transaction():
            result = self.svc.review.commit(prepared)
            rows.set_task(store, ws, None, self.svc.clock.now_iso())
            rows.clear_task_items(store, ws)
        return result
