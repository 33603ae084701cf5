"""What an agent gets when a session starts: the rules it must follow in this workspace.

A session starts without a question, so searching (as the old ``SessionStart`` did, with
the folder's name as the query) returns whatever mentions the project's name. What an
agent needs first are the rules: the workspace's pinned memories, its working memory
(current task, decisions not to overturn, constraints, to-do), its patterns and
preferences, then the person's own preferences; after those, if the budget allows, the
workspace's decisions, postmortems and facts. Within a section the most used come first
(hit count, then last use), pinned ones before the rest. Everything fits a token budget
(setting ``recall.session_budget_tokens``); what did not fit is counted in a closing line.

Everything handed over is traceable like any recall: each memory counts a hit and one
line goes to the recall log with the ids and the token estimate. No embedding model is
loaded: a session start costs a few SQLite reads.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from madohub_memory.core.errors import ValidationError
from madohub_memory.core.vocab import validate_namespace
from madohub_memory.services.recall import estimate_tokens
from madohub_memory.services.working import LABELS as WORKING_LABELS
from madohub_memory.store import recall as recall_rows

if TYPE_CHECKING:
    from madohub_memory.services import Services

SECTION_LIMIT = 200
QUERY_LABEL = "(session start)"

LABELS = {
    "en": {
        "header": "Memory for {scope} (approved earlier; it may be out of date, check before relying on it):",
        "pinned": "Pinned (always apply):",
        "rules": "Patterns and preferences of this project:",
        "persona": "The user's preferences:",
        "decisions": "Decisions and lessons of this project:",
        "facts": "Facts about this project:",
        "more": "({n} more not shown; `recall` finds them when relevant.)",
    },
    "zh": {
        "header": "{scope} 的记忆（之前已批准；内容可能已过时，使用前请核实）：",
        "pinned": "置顶（始终适用）：",
        "rules": "本项目的模式与偏好：",
        "persona": "用户的偏好：",
        "decisions": "本项目的决定与教训：",
        "facts": "本项目的事实：",
        "more": "（另有 {n} 条未列出；需要时可用 `recall` 查找。）",
    },
}


@dataclass
class SessionContext:
    """The rendered block and what went into it."""

    text: str
    workspace: str | None
    persona: str
    memory_ids: list[int] = field(default_factory=list)
    sections: dict[str, list[int]] = field(default_factory=dict)
    working_memory: bool = False
    left_out: int = 0
    tokens: int = 0
    budget_tokens: int = 0
    elapsed_ms: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


class SessionContextService:
    def __init__(self, svc: Services) -> None:
        self.svc = svc

    def workspace_for(self, workspace: str | None = None, cwd: str | None = None) -> str | None:
        """``workspace:<project>`` from an explicit name or from a working directory (the
        repository it belongs to, as for ingestion); None when neither says."""
        if workspace is not None and str(workspace).strip():
            text = str(workspace).strip()
            value = validate_namespace(text if ":" in text else f"workspace:{text}")
            if not value.startswith("workspace:"):
                raise ValidationError(f"{value!r} is not a workspace: give workspace:<project>.")
            return value
        if cwd is not None and str(cwd).strip():
            from madohub_memory.ingest.workspace import project_name

            name = project_name(str(cwd))
            return validate_namespace(f"workspace:{name}") if name else None
        return None

    def build(
        self,
        workspace: str | None = None,
        *,
        cwd: str | None = None,
        budget_tokens: int | None = None,
        language: str | None = None,
        source: str = "cli",
        record: bool = True,
    ) -> SessionContext:
        """The session-start block for a workspace (or the persona alone), within budget.
        ``language`` of the headings: en or zh (default: Chinese when the dashboard is)."""
        started = time.perf_counter()
        settings = self.svc.settings
        if language is None:
            language = "zh" if str(settings.get("ui.language")).startswith("zh") else "en"
        budget = int(budget_tokens if budget_tokens is not None else settings.get("recall.session_budget_tokens"))
        if budget < 50:
            raise ValidationError(f"The token budget must be at least 50 (got {budget}).")
        lab = LABELS["zh" if language.startswith("zh") else "en"]
        ws = self.workspace_for(workspace, cwd)
        persona = f"persona:{settings.get('persona')}"
        header = lab["header"].format(scope=ws or persona)
        block = _Block(budget - estimate_tokens(lab["more"].format(n=999)) - 1)
        block.add_line(header)
        sections: list[tuple[str, list[dict[str, Any]]]] = []
        store = self.svc.store
        if ws:
            sections.append(("pinned", recall_rows.context_rows(store, ws, pinned=True, limit=SECTION_LIMIT)))
        working = self._working(ws, language) if ws else None
        if ws:
            sections.append(("rules", recall_rows.context_rows(
                store, ws, kinds=("pattern", "preference"), pinned=False, limit=SECTION_LIMIT)))
        persona_rows = recall_rows.context_rows(store, persona, pinned=True, limit=SECTION_LIMIT)
        persona_rows += recall_rows.context_rows(store, persona, kinds=("preference",), pinned=False,
                                                 limit=SECTION_LIMIT)
        sections.append(("persona", persona_rows))
        if ws:
            sections.append(("decisions", recall_rows.context_rows(
                store, ws, kinds=("decision", "postmortem"), pinned=False, limit=SECTION_LIMIT)))
            sections.append(("facts", recall_rows.context_rows(
                store, ws, kinds=("fact",), pinned=False, limit=SECTION_LIMIT)))
        chosen: dict[str, list[int]] = {}
        left_out = 0
        for name, rows in sections:
            if name == "rules" and working:
                block.add_text(working)
            lines = [(row["id"], _entry(row)) for row in rows]
            taken = block.add_section(lab[name], lines)
            chosen[name] = taken
            left_out += len(rows) - len(taken)
        ids = [i for taken in chosen.values() for i in taken]
        if left_out:
            block.lines.append(lab["more"].format(n=left_out))
        text = "\n".join(block.lines) if (ids or block.has_working) else ""
        tokens = estimate_tokens(text) if text else 0
        if record and text:
            self.svc.recall.record_injection(ids, tokens, QUERY_LABEL, ws or persona, source)
        return SessionContext(
            text=text, workspace=ws, persona=persona, memory_ids=ids,
            sections={k: v for k, v in chosen.items() if v}, working_memory=block.has_working,
            left_out=left_out, tokens=tokens, budget_tokens=budget,
            elapsed_ms=round((time.perf_counter() - started) * 1000, 2),
        )

    def _working(self, ws: str, language: str) -> str | None:
        """The working-memory block without its empty sections, when the workspace has a
        task or any item."""
        data = self.svc.working.show(ws)
        if not (data["task"] or data["decisions"] or data["constraints"] or data["pending"] or data["rejected"]):
            return None
        lines = str(self.svc.working.render(ws, language)).splitlines()
        none = "- " + WORKING_LABELS["zh" if language.startswith("zh") else "en"]["none"]
        kept = [line for i, line in enumerate(lines)
                if line != none and not (i + 1 < len(lines) and lines[i + 1] == none)]
        return "\n".join(kept)


def _entry(row: dict[str, Any]) -> str:
    return f"- [{str(row['updated_at'])[:10]}] ({row['kind']}) {' '.join(str(row['content']).split())}"


class _Block:
    """Lines within a token budget: whatever does not fit is left out, smaller entries
    after it may still fit."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.used = 0
        self.lines: list[str] = []
        self.has_working = False

    def fits(self, line: str) -> bool:
        return self.used + estimate_tokens(line) + 1 <= self.budget

    def add_line(self, line: str) -> bool:
        if not self.fits(line):
            return False
        self.lines.append(line)
        self.used += estimate_tokens(line) + 1
        return True

    def add_text(self, text: str) -> None:
        """A block of lines (working memory), cut at the budget; left out unless at least its
        first two lines (title and current task) fit."""
        lines = text.splitlines()
        if not self.fits("\n".join(lines[:2])):
            return
        for line in lines:
            if not self.add_line(line):
                break
            self.has_working = True

    def add_section(self, title: str, entries: list[tuple[int, str]]) -> list[int]:
        taken: list[int] = []
        title_cost = estimate_tokens(title) + 1
        for memory_id, line in entries:
            cost = estimate_tokens(line) + 1 + (0 if taken else title_cost)
            if self.used + cost > self.budget:
                continue
            if not taken:
                self.lines.append(title)
            self.lines.append(line)
            self.used += cost
            taken.append(memory_id)
        return taken
