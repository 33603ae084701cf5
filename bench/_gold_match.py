"""Matching extraction candidates against the hand-labelled coding-session gold.

Why keyword groups and not embeddings: the gold must reward a candidate that says the same
thing in other words, and must not reward one that merely shares the topic. Each gold item
carries a few groups of alternatives; a candidate matches an item of the same conversation
when its content contains (case-insensitive substring) one alternative of every group. One
candidate may match several items; an item is recalled when any candidate matches it.

The gold format is described in ``bench/gold/README.md``; ``bench/extraction_coding.py``
feeds this module, and ``tests/test_extraction_coding_gold.py`` checks it.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

GOLD_DIR = Path(__file__).resolve().parent / "gold"
GOLD_FILE = GOLD_DIR / "coding_sessions.jsonl"
CHATGPT_SELECTION = GOLD_DIR / "chatgpt_selection.json"
CHATGPT_FILE = "chatgpt_conversations_dev.json"
TIERS = ("must", "nice")
# Dev folders whose sessions declare no licence (see the eval README): their gold cites
# evidence by line and record uuid only, with no quote, and states content in its own
# words, so that no text of theirs enters the repository.
NO_LICENCE_DIRS = (
    "claude_code/more/pv-case-review/",
    "claude_code/more/posthog-impact-dashboard/",
    "claude_code/more/bhavana/",
)


@dataclass(frozen=True)
class Candidate:
    """A pending candidate as the bench sees it: text, labels and the conversations it came from."""

    id: int
    content: str
    kind: str
    namespace: str
    conversations: tuple[str, ...]
    file: str = ""
    source: str = ""


@dataclass
class Score:
    """Counts behind the report; :meth:`as_dict` turns them into the published figures."""

    items: list[dict[str, Any]]
    candidates: list[Candidate]
    matches: dict[int, list[str]] = field(default_factory=dict)  # candidate id -> gold item ids

    def recalled(self) -> set[str]:
        return {item_id for ids in self.matches.values() for item_id in ids}


def load_gold(path: Path = GOLD_FILE) -> list[dict[str, Any]]:
    """The gold items, one JSON object per non-empty line."""
    items = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip():
            try:
                items.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path.name} line {number} is not JSON: {exc.msg}.") from None
    return items


def declares_no_licence(file: str) -> bool:
    """True for a gold ``file`` (relative to eval/dev) from a folder without a licence."""
    return file.startswith(NO_LICENCE_DIRS)


def load_chatgpt_selection(path: Path = CHATGPT_SELECTION) -> list[str]:
    """Ids of the ChatGPT conversations the gold labels (all others are not scored)."""
    return [c["id"] for c in json.loads(path.read_text(encoding="utf-8"))["conversations"]]


def conversation_key(conversation_id: str) -> str:
    """The gold's conversation id for a stored one.

    ``cc:<session>`` and a subagent's ``cc:<session>:agent-<id>`` both belong to the
    session; ``chatgpt:<id>`` is the export's conversation id.
    """
    if conversation_id.startswith("cc:"):
        return conversation_id[3:].split(":", 1)[0]
    if conversation_id.startswith("chatgpt:"):
        return conversation_id[len("chatgpt:"):]
    return conversation_id


def _fold(text: str) -> str:
    return re.sub(r"\s+", " ", text).casefold()


def matches(content: str, keywords: Sequence[Sequence[str]]) -> bool:
    """True when ``content`` holds one alternative of every keyword group (no groups: False)."""
    if not keywords:
        return False
    text = _fold(content)
    return all(any(_fold(alt) in text for alt in group) for group in keywords)


def match_all(items: Sequence[dict[str, Any]], candidates: Iterable[Candidate]) -> Score:
    """Match every candidate against the gold items of its own conversations."""
    by_conversation: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for item in items:
        by_conversation[item["conversation"]].append(item)
    score = Score(items=list(items), candidates=list(candidates))
    for cand in score.candidates:
        hits: list[str] = []
        for conv in dict.fromkeys(cand.conversations):
            hits += [it["id"] for it in by_conversation.get(conv, ()) if matches(cand.content, it["keywords"])]
        if hits:
            score.matches[cand.id] = list(dict.fromkeys(hits))
    return score


def _ratio(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def _figures(items: Sequence[dict[str, Any]], cands: Sequence[Candidate], score: Score) -> dict[str, Any]:
    recalled = score.recalled()
    must = [i for i in items if i["tier"] == "must"]
    useful = [c for c in cands if c.id in score.matches]
    return {
        "gold_items": len(items),
        "gold_must": len(must),
        "must_recall": _ratio(sum(i["id"] in recalled for i in must), len(must)),
        "all_recall": _ratio(sum(i["id"] in recalled for i in items), len(items)),
        "candidates": len(cands),
        "useful_candidates": len(useful),
        "precision": _ratio(len(useful), len(cands)),
    }


def report(score: Score, *, show: Sequence[str] = ()) -> dict[str, Any]:
    """The bench's JSON: overall, per source and per file figures, and the requested lists."""
    items_by_id = {i["id"]: i for i in score.items}
    pairs = [(c, items_by_id[i]) for c in score.candidates for i in score.matches.get(c.id, ())]
    result: dict[str, Any] = _figures(score.items, score.candidates, score)
    result["matched_pairs"] = len(pairs)
    result["kind_agreement"] = _ratio(sum(c.kind == it["kind"] for c, it in pairs), len(pairs))
    result["namespace_agreement"] = _ratio(sum(c.namespace == it["namespace"] for c, it in pairs), len(pairs))
    result["per_source"] = {
        source: _figures([i for i in score.items if _source(i["file"]) == source],
                         [c for c in score.candidates if c.source == source], score)
        for source in ("claude_code", "chatgpt")
    }
    files = sorted({i["file"] for i in score.items} | {c.file for c in score.candidates if c.file})
    result["per_file"] = {
        f: _figures([i for i in score.items if i["file"] == f], [c for c in score.candidates if c.file == f], score)
        for f in files
    }
    recalled = score.recalled()
    result["missed_count"] = {t: sum(i["tier"] == t and i["id"] not in recalled for i in score.items) for t in TIERS}
    result["unmatched_candidates_count"] = sum(c.id not in score.matches for c in score.candidates)
    if "missed" in show:
        result["missed"] = [
            {"id": i["id"], "tier": i["tier"], "kind": i["kind"], "file": i["file"], "content": i["content"]}
            for i in score.items if i["id"] not in recalled
        ]
    if "unmatched" in show:
        result["unmatched_candidates"] = [
            {"content": c.content, "kind": c.kind, "namespace": c.namespace, "file": c.file}
            for c in score.candidates if c.id not in score.matches
        ]
    if "matched" in show:
        result["matched"] = [
            {"item": it["id"], "tier": it["tier"], "candidate": c.content,
             "kind": [c.kind, it["kind"]], "namespace": [c.namespace, it["namespace"]]}
            for c, it in pairs
        ]
    return result


def _source(file: str) -> str:
    return "chatgpt" if file == CHATGPT_FILE else "claude_code"
