"""Data of the coding recall bench: the gold memories, the prompts, and a store that holds them.

Memories are the items of ``bench/gold/*.jsonl`` that carry a ``namespace`` and a ``content``
(tier ``anti`` items are what must *not* be remembered, so they are left out), added and
approved through the review service one by one, as a person typing them in the dashboard or
the CLI would (``add`` then ``approve``). Prompts are ``bench/gold/*prompts*.jsonl``: what a
later session in that project would ask, written by hand before any tuning (see
``bench/gold/README.md``), each with the gold ids it needs, or none.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from madohub_memory.services import Services

GOLD = Path(__file__).resolve().parent / "gold"
PERSONA_GROUP = "persona"  # prompts without a workspace (chat assistants): one group of their own


@dataclass
class Prompt:
    id: str
    prompt: str
    workspace: str | None
    language: str
    needs: list[str]
    set: str = "first"  # which labelling round wrote it (a later round is a fresh check)
    order: int = 0  # position within its workspace: earlier prompts are earlier sessions

    @property
    def group(self) -> str:
        """Leave-one-project-out group."""
        return self.workspace or PERSONA_GROUP

    @property
    def namespace(self) -> str | None:
        return f"workspace:{self.workspace}" if self.workspace else None


@dataclass
class GoldStore:
    svc: Services
    memory_of: dict[str, int] = field(default_factory=dict)  # gold id -> memory id
    gold_of: dict[int, list[str]] = field(default_factory=dict)  # memory id -> gold ids
    namespace_of: dict[int, str] = field(default_factory=dict)


def gold_files(pattern: str = "*.jsonl") -> list[Path]:
    return sorted(p for p in GOLD.glob(pattern) if "prompts" not in p.name)


def load_gold(files: Iterable[Path] | None = None) -> list[dict[str, Any]]:
    """Every gold item that is a memory (namespace and content, tier other than ``anti``)."""
    out: list[dict[str, Any]] = []
    for path in files if files is not None else gold_files():
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            item = json.loads(line)
            if item.get("tier") == "anti" or not item.get("namespace") or not item.get("content"):
                continue
            out.append(item)
    return out


def prompt_files() -> list[Path]:
    return sorted(GOLD.glob("*prompts*.jsonl"))


def load_prompts(files: Iterable[Path] | None = None) -> list[Prompt]:
    out: list[Prompt] = []
    position: dict[str | None, int] = {}
    for path in files if files is not None else prompt_files():
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            row = json.loads(line)
            ws = row.get("workspace") or None
            position[ws] = position.get(ws, 0) + 1
            out.append(Prompt(
                id=row["id"], prompt=row["prompt"], workspace=ws, language=row.get("language", "en"),
                needs=list(row.get("needs") or []), set=row.get("set", "first"), order=position[ws],
            ))
    return out


def build_store(svc: Services, items: list[dict[str, Any]]) -> GoldStore:
    """Add and approve every item through the review service (manual source, human actor).
    Two gold items that the dedup folds into one memory both map to it."""
    out = GoldStore(svc)
    for item in items:
        result = svc.review.add_manual(item["content"], item["kind"], item["namespace"])
        memory_id = result.memory_id if getattr(result, "memory_id", None) else None
        if memory_id is None:
            memory_id = svc.review.approve(result.candidate_id)
        out.memory_of[item["id"]] = int(memory_id)
        out.gold_of.setdefault(int(memory_id), []).append(item["id"])
        out.namespace_of[int(memory_id)] = item["namespace"]
    return out
