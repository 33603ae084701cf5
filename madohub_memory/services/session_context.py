"""What an agent gets when a session starts: the rules it must follow in this workspace.

A session starts without a question, so searching (as the old ``SessionStart`` did, with
the folder's name as the query) returns whatever mentions the project's name. What an
agent needs first are the rules: the workspace's pinned memories, its working memory
(current task, decisions not to overturn, constraints, to-do), its patterns and
preferences, then the person's own preferences; after those, if the budget allows, the
workspace's decisions, postmortems and facts. Within a section the most used come first
(hit count, then the newest), pinned ones before the rest. Everything fits a token budget
(setting ``recall.session_budget_tokens``); while later sections wait, one section takes at
most 60 % of the room left, so two hundred project patterns cannot crowd out the user's
own preferences. What did not fit is counted in a closing line.

Everything handed over is traceable like any recall: each memory counts a hit and one
line goes to the recall log with the ids and the token estimate. No embedding model is
loaded: a session start costs a few SQLite reads.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from madohub_memory.core.clock import date_said
from madohub_memory.core.errors import UserError, ValidationError
from madohub_memory.core.text import estimate_tokens
from madohub_memory.core.vocab import validate_namespace
from madohub_memory.services.working import LABELS as WORKING_LABELS
from madohub_memory.store import recall as recall_rows

if TYPE_CHECKING:
    from madohub_memory.services import Services

SECTION_LIMIT = 200
SHARE = 0.6
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
    warnings: list[str] = field(default_factory=list)  # a mapped store it went on without
    stores: dict[str, list[int]] = field(default_factory=dict)  # ids of memories of mapped stores

    def to_dict(self) -> dict[str, Any]:
        out = dict(self.__dict__)
        for key in ("warnings", "stores"):  # only when namespaces are kept in other stores
            if not out[key]:
                del out[key]
        return out


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
                raise ValidationError("{value!r} is not a workspace: give workspace:<project>.", value=value)
            return value
        if cwd is not None and str(cwd).strip():
            from madohub_memory.services.workspaces import project_for

            name = project_for(self.svc, str(cwd))  # the user's folder mapping applies here too
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
            raise ValidationError("The token budget must be at least 50 (got {budget}).", budget=budget)
        lab = LABELS["zh" if language.startswith("zh") else "en"]
        ws = self.workspace_for(workspace, cwd)
        persona = f"persona:{settings.get('persona')}"
        header = lab["header"].format(scope=ws or persona)
        reader = _Reader(self.svc)
        rows = reader.rows
        parts: list[_Part] = []
        if ws:
            parts.append(_Part("pinned", lab["pinned"], rows(ws, pinned=True), capped=False))
            working = self._working(ws, language)
            if working:
                parts.append(_Part("working", "", [], capped=False, block=working.splitlines()))
            parts.append(_Part("rules", lab["rules"], rows(ws, kinds=("pattern", "preference"), pinned=False)))
        parts.append(_Part("persona", lab["persona"], rows(persona, pinned=True) + rows(
            persona, kinds=("preference",), pinned=False)))
        if ws:
            parts.append(_Part("decisions", lab["decisions"], rows(ws, kinds=("decision", "postmortem"), pinned=False)))
            parts.append(_Part("facts", lab["facts"], rows(ws, kinds=("fact",), pinned=False)))
        room = budget - _cost(header) - _cost(lab["more"].format(n=999))
        room = _allocate(parts, room)
        # Entries are dated when they were said; a date costs the same tokens whichever it
        # is, so only the entries that fit are looked up.
        entries = [p.rows[i] for p in parts for i in sorted(p.taken)]
        said = reader.turn_dates(entries)
        lines = [header]
        for part in parts:
            lines += part.render(said)
        chosen = {p.name: p.taken_ids() for p in parts if p.rows}
        ids = [i for taken in chosen.values() for i in taken]
        left_out = sum(len(p.rows) - len(p.taken) for p in parts)
        has_working = any(p.name == "working" and p.block_taken for p in parts)
        if left_out:
            lines.append(lab["more"].format(n=left_out))
        lines += reader.warnings
        text = "\n".join(lines) if (ids or has_working) else ""
        tokens = estimate_tokens(text) if text else 0
        elsewhere = reader.ids_by_store(entries)
        if elsewhere:  # memories of mapped stores: counted and logged where they live
            ids = elsewhere.pop(None, [])
        if record and text:
            self.svc.recall.record_injection(ids, tokens, QUERY_LABEL, ws or persona, source)
            for label, store_ids in elsewhere.items():
                reader.services(label).recall.record_injection(store_ids, tokens, QUERY_LABEL, ws or persona, source)
        return SessionContext(
            text=text, workspace=ws, persona=persona, memory_ids=ids,
            sections={k: v for k, v in chosen.items() if v}, working_memory=has_working,
            left_out=left_out, tokens=tokens, budget_tokens=budget, warnings=reader.warnings,
            stores={str(k): v for k, v in elsewhere.items()},
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


def _key(row: dict[str, Any]) -> tuple[str | None, int]:
    return row.get(_STORE), int(row["id"])


class _Reader:
    """Rows of a namespace from the store that holds it (setting ``stores.map``) and those
    left in the local store, most used first; without a map, the local store alone. A
    mapped store that cannot be opened is a warning line, and the block goes on without it."""

    def __init__(self, svc: Services) -> None:
        self.svc = svc
        self.mapped = bool(not svc.mapped and svc.settings.get("stores.map"))
        self.warnings: list[str] = []
        self._by_label: dict[str | None, Services] = {None: svc}

    def rows(self, namespace: str, **query: Any) -> list[dict[str, Any]]:
        out = recall_rows.context_rows(self.svc.store, namespace, limit=SECTION_LIMIT, **query)
        if not self.mapped:
            return out
        location = self.svc.stores.location_for(namespace)
        if location is None:
            return out
        try:
            target = self.svc.stores.open(location)
        except UserError as exc:
            warning = f"({exc} Its memories of {namespace} are missing here.)"
            if warning not in self.warnings:
                self.warnings.append(warning)
            return out
        label = self.svc.stores.label_of(location)
        self._by_label[label] = target
        theirs = [{**row, _STORE: label}
                  for row in recall_rows.context_rows(target.store, namespace, limit=SECTION_LIMIT, **query)]
        merged = theirs + out
        merged.sort(key=lambda r: r["hit_count"], reverse=True)  # stable: the mapped store first on ties
        return merged[:SECTION_LIMIT]

    def services(self, label: str | None) -> Services:
        return self._by_label[label]

    def turn_dates(self, rows: list[dict[str, Any]]) -> dict[tuple[str | None, int], str]:
        out: dict[tuple[str | None, int], str] = {}
        groups: dict[str | None, list[int]] = {}
        for row in rows:
            groups.setdefault(row.get(_STORE), []).append(int(row["id"]))
        for label, ids in groups.items():
            for memory_id, said in recall_rows.turn_dates(self._by_label[label].store, ids).items():
                out[(label, memory_id)] = said
        return out

    def ids_by_store(self, rows: list[dict[str, Any]]) -> dict[str | None, list[int]]:
        """Ids per store label (``None``: the local store); empty without a map."""
        if not self.mapped:
            return {}
        out: dict[str | None, list[int]] = {}
        for row in rows:
            out.setdefault(row.get(_STORE), []).append(int(row["id"]))
        return out


_STORE = "_store"


def _entry(row: dict[str, Any]) -> str:
    return f"- [{date_said(row.get('turn_date'), str(row['updated_at']))}] ({row['kind']}) {' '.join(str(row['content']).split())}"


def _cost(line: str) -> int:
    return estimate_tokens(line) + 1


class _Part:
    """One section: its rows in order of priority and which of them fit."""

    def __init__(self, name: str, title: str, rows: list[dict[str, Any]], capped: bool = True,
                 block: list[str] | None = None) -> None:
        self.name, self.title, self.rows, self.capped = name, title, rows, capped
        self.lines = [_entry(r) for r in rows]
        self.costs = [_cost(line) for line in self.lines]
        self.taken: list[int] = []  # positions in rows
        self.block = block or []
        self.block_taken = 0

    def fill(self, room: int) -> int:
        """Take what fits in ``room`` tokens (in order, skipping what does not); return the cost."""
        used = 0
        if self.block and not self.block_taken:
            # The working-memory block: all of it, or as much as fits if its title and task do.
            if sum(_cost(x) for x in self.block[:2]) <= room:
                for line in self.block:
                    if used + _cost(line) > room:
                        break
                    used += _cost(line)
                    self.block_taken += 1
            return used
        taken = set(self.taken)
        for position in range(len(self.lines)):
            if position in taken:
                continue
            cost = self.costs[position] + (0 if self.taken else _cost(self.title))
            if used + cost <= room:
                self.taken.append(position)
                taken.add(position)
                used += cost
        return used

    def taken_ids(self) -> list[int]:
        return [int(self.rows[p]["id"]) for p in sorted(self.taken)]

    def render(self, said: dict[tuple[str | None, int], str]) -> list[str]:
        if self.block_taken:
            return self.block[: self.block_taken]
        if not self.taken:
            return []
        return [self.title] + [_entry({**self.rows[p], "turn_date": said.get(_key(self.rows[p]))})
                               for p in sorted(self.taken)]


def _allocate(parts: list[_Part], room: int) -> int:
    """Fill the sections in priority order. While a later section has entries waiting, a
    capped section may use at most :data:`SHARE` of the room left (so the user's own
    preferences are not crowded out by two hundred project patterns); a second pass gives
    whatever room remains to what was left out, in the same order."""
    for i, part in enumerate(parts):
        waiting = any(p.rows for p in parts[i + 1:])
        limit = int(room * SHARE) if part.capped and waiting else room
        room -= part.fill(limit)
    for part in parts:
        if part.capped:
            room -= part.fill(room)
    return room
