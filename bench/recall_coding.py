"""Coding recall bench: does a later session's prompt get the memory it needs, and nothing when none is needed?

Memories are the dev gold of ``bench/gold/`` (coding sessions: project facts, rules,
decisions, postmortems, and the person's preferences), each added and approved through the
review service in its namespace. Prompts are ``bench/gold/recall_prompts.jsonl``: tasks and
questions a later session in that project would contain, written by hand before any tuning,
about a fifth in the session's language and about a fifth needing no memory at all.

Each prompt is recalled as a session in its project would (``recall --namespace
workspace:X -k 10``: the workspace and the persona) and over everything (unscoped). Reported:

- hit@1/3/10 scoped and unscoped, overall and per language;
- the separation of "a memory is needed" from "nothing relevant": AUC of the top hit's
  score, keyword and vector parts and (when recall gives one) its calibrated relevance;
  at the shipped threshold, the share of no-memory prompts answered with nothing and the
  share of the others still answered with their memory in the top 3;
- how often a persona memory the prompt does not need is in a workspace prompt's top 3;
- the session-start block (``context``, today's token budget): the share of workspace prompts
  whose memory it already holds;
- the per-prompt hook (when present): memories added, tokens, needed memory given.

LoCoMo stays in ``bench/recall_quality.py``; this bench is for coding sessions only.

Usage: ``python bench/recall_coding.py [--json] [--model e5-small] [--workspace W ...]``
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import print_report
from _recall_coding_data import GoldStore, Prompt, build_store, load_gold, load_prompts

from madohub_memory.core.clock import Clock
from madohub_memory.services import Services

K = 10
NOW = "2026-03-01T09:00:00Z"


def auc(positives: list[float], negatives: list[float]) -> float | None:
    """Probability that a random positive outranks a random negative (ties count half)."""
    if not positives or not negatives:
        return None
    wins = sum((p > n) + 0.5 * (p == n) for p in positives for n in negatives)
    return round(wins / (len(positives) * len(negatives)), 3)


def rank_of(prompt: Prompt, hits: list[dict[str, Any]], gold: GoldStore) -> int | None:
    """1-based rank of the first hit the prompt needs, or None."""
    for position, hit in enumerate(hits, 1):
        if set(gold.gold_of.get(hit["id"], ())) & set(prompt.needs):
            return position
    return None


def hit_rates(ranks: list[int | None]) -> dict[str, float | int]:
    n = len(ranks)
    out: dict[str, float | int] = {"n": n}
    for k in (1, 3, 10):
        out[f"hit@{k}"] = round(sum(1 for r in ranks if r is not None and r <= k) / n, 3) if n else 0.0
    return out


def recall_all(svc: Services, prompts: list[Prompt], scoped: bool) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for prompt in prompts:
        hits = svc.recall.search(prompt.prompt, prompt.namespace if scoped else None, K, record=False)
        out[prompt.id] = [{**h.to_dict(), "rank": i} for i, h in enumerate(hits, 1)]
    return out


def separation(prompts: list[Prompt], answers: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """AUC of the top hit's parts between prompts that need a memory and those that need none."""
    out: dict[str, Any] = {}
    for part in ("score", "keyword_score", "vector_score", "similarity", "relevance"):
        top = {p.id: (answers[p.id][0].get(part, 0.0) if answers[p.id] else 0.0) for p in prompts}
        if part == "relevance" and not any(answers[p.id] and "relevance" in answers[p.id][0] for p in prompts):
            continue
        out[f"auc_{part}"] = auc([top[p.id] for p in prompts if p.needs], [top[p.id] for p in prompts if not p.needs])
    return out


def answered(hits: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The answer as recall gives it by default: nothing when no hit is relevant (hits
    without a ``relevant`` flag come from a recall that never says nothing)."""
    if hits and "relevant" in hits[0] and not any(h["relevant"] for h in hits):
        return []
    return hits


def threshold_figures(prompts: list[Prompt], answers: dict[str, list[dict[str, Any]]], gold: GoldStore) -> dict[str, Any]:
    none = [p for p in prompts if not p.needs]
    need = [p for p in prompts if p.needs]
    given = {p.id: answered(answers[p.id]) for p in prompts}
    kept = [p for p in need if (r := rank_of(p, given[p.id], gold)) is not None and r <= 3]
    return {
        "no_memory_answered_nothing": round(sum(1 for p in none if not given[p.id]) / len(none), 3) if none else None,
        "needing_kept_in_top3": round(len(kept) / len(need), 3) if need else None,
    }


def persona_crowding(prompts: list[Prompt], answers: dict[str, list[dict[str, Any]]], gold: GoldStore) -> dict[str, Any]:
    """Share of workspace prompts with a persona memory they do not need in the top 3 (of the
    ranking, and of the answer as given by default)."""
    ws = [p for p in prompts if p.workspace]

    def crowded(p: Prompt, hits: list[dict[str, Any]]) -> bool:
        return any(h["namespace"].startswith("persona:") and not set(gold.gold_of.get(h["id"], ())) & set(p.needs)
                   for h in hits[:3])

    n = len(ws)
    return {
        "n": n,
        "unrelated_persona_top3": round(sum(crowded(p, answers[p.id]) for p in ws) / n, 3) if n else None,
        "unrelated_persona_top1": round(sum(crowded(p, answers[p.id][:1]) for p in ws) / n, 3) if n else None,
        "unrelated_persona_top3_answered": round(sum(crowded(p, answered(answers[p.id])) for p in ws) / n, 3)
        if n else None,
    }


def session_start(svc: Services, prompts: list[Prompt], gold: GoldStore) -> dict[str, Any]:
    """Share of workspace prompts needing a memory whose memory is in the session-start block."""
    blocks: dict[str, Any] = {}
    held: list[bool] = []
    for prompt in prompts:
        if not prompt.workspace or not prompt.needs:
            continue
        if prompt.workspace not in blocks:
            blocks[prompt.workspace] = svc.session_context.build(prompt.namespace, record=False)
        ids = set(blocks[prompt.workspace].memory_ids)
        held.append(any(gold.memory_of.get(g) in ids for g in prompt.needs))
    tokens = [b.tokens for b in blocks.values()]
    return {
        "n": len(held),
        "coverage": round(sum(held) / len(held), 3) if held else None,
        "budget_tokens": next(iter(blocks.values())).budget_tokens if blocks else None,
        "mean_tokens": round(sum(tokens) / len(tokens), 1) if tokens else None,
    }


def by_language(prompts: list[Prompt], ranks: dict[str, int | None]) -> dict[str, Any]:
    groups: dict[str, list[int | None]] = defaultdict(list)
    for p in prompts:
        if p.needs:
            groups[p.language].append(ranks[p.id])
    return {lang: hit_rates(r) for lang, r in sorted(groups.items())}


def evaluate(svc: Services, gold: GoldStore, prompts: list[Prompt]) -> dict[str, Any]:
    report: dict[str, Any] = {
        "prompts": len(prompts), "needing": sum(1 for p in prompts if p.needs),
        "no_memory": sum(1 for p in prompts if not p.needs),
        "languages": dict(sorted(_count(p.language for p in prompts).items())),
    }
    for name, scoped in (("scoped", True), ("unscoped", False)):
        answers = recall_all(svc, prompts, scoped)
        ranks = {p.id: rank_of(p, answers[p.id], gold) for p in prompts}
        need = [p for p in prompts if p.needs]
        report[name] = {
            **hit_rates([ranks[p.id] for p in need]),
            "by_language": by_language(prompts, ranks),
            "separation": separation(prompts, answers),
            "at_threshold": threshold_figures(prompts, answers, gold),
        }
        if scoped:
            report[name]["persona"] = persona_crowding(prompts, answers, gold)
    report["session_start"] = session_start(svc, prompts, gold)
    return report


def _count(values: Any) -> dict[str, int]:
    out: dict[str, int] = defaultdict(int)
    for v in values:
        out[v] += 1
    return dict(out)


def open_gold_store(db: Path, model: str | None, workspaces: list[str] | None) -> tuple[Services, GoldStore]:
    svc = Services.open(db, Clock(NOW))
    if model:
        svc.settings.set("embedding.model", model)
    svc.recall.model_name()  # a new store decides its recall model at once, as the CLI's first command does
    items = load_gold()
    if workspaces:
        keep = {f"workspace:{w}" for w in workspaces}
        items = [i for i in items if i["namespace"] in keep or i["namespace"].startswith("persona:")]
    return svc, build_store(svc, items)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--model", default=None, help="embedding.model for recall (default: the shipped default)")
    parser.add_argument("--workspace", action="append", help="only these workspaces' memories and prompts")
    args = parser.parse_args()
    prompts = load_prompts()
    if args.workspace:
        prompts = [p for p in prompts if p.workspace in set(args.workspace)]
    with tempfile.TemporaryDirectory() as tmp:
        svc, gold = open_gold_store(Path(tmp) / "coding.db", args.model, args.workspace)
        try:
            report = {"model": svc.recall.model_name(), "memories": len(gold.gold_of), **evaluate(svc, gold, prompts)}
        finally:
            svc.close()
    print_report(report, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
