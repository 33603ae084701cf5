"""Recall quality on the dev evaluation data: keyword only, vectors only, and the hybrid.

Data sets (see ``bench/_recall_data.py``): LoCoMo dev (observations as memories, category
1-4 questions, hit@k = a top-k memory links to an evidence turn), LongMemEval S and oracle
(one memory per session, recall@k = an answer session in the top k) and the Chinese check
(MemoryBank CN). Every memory records the date of the turn it came from; each question
is asked "on" its own date (LongMemEval's question date, otherwise the day after the
conversation's last session), which relative dates such as "two months ago" need.

LoCoMo figures are also given per declared split: ``train`` (conv-26, conv-44: the only
questions the ranking weights were fitted on) and ``heldout`` (the other conversations).

``--dated``: memories are created on their turn's date instead of all at once, so their
freshness differs the way a year of real use makes it differ; with ``--set
recall.freshness_share=0`` (no multiplier) or ``=1`` (the full weight × freshness
multiplier) it shows what the multipliers cost where age says nothing about relevance.

Usage: ``python bench/recall_quality.py --json [--model e5-small|use-multilingual|minilm]
[--only locomo|lme_s|lme_oracle|chinese] [--dated] [--set KEY=VALUE]``
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from collections import defaultdict
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _recall_common import EVAL_DEV, load_approved
from _recall_data import LOADERS, Question

from madohub_memory.core.clock import Clock, parse_iso, to_iso
from madohub_memory.recall.embeddings import DEFAULT_MODEL, MODEL_NAMES
from madohub_memory.services import Services
from madohub_memory.store import fts_text
from madohub_memory.store import memories as memory_rows
from madohub_memory.store import recall as recall_rows

MODES = ("keyword", "vector", "hybrid")
KS = (1, 5, 10)
TRAIN_CONVERSATIONS = ("conv-26", "conv-44")
SETTINGS: dict[str, str] = {}
LOAD_TIME = "2026-11-01T09:00:00Z"


def _open(tmp: str, name: str, model: str) -> Services:
    svc = Services.open(Path(tmp) / f"{name}.db", Clock(LOAD_TIME))
    svc.settings.set("embedding.model", model)
    for key, value in SETTINGS.items():
        svc.settings.set(key, value)
    return svc


def _asked_at(questions: list[Question], items: list[dict[str, Any]]) -> dict[int, str]:
    """When each question is asked: its own date, else the day after its scope's last turn."""
    last: dict[str, str] = defaultdict(str)
    for item in items:
        last[item["namespace"]] = max(last[item["namespace"]], item.get("turn_date") or "")
    out = {}
    for i, q in enumerate(questions):
        if q.date:
            out[i] = q.date
        elif last.get(q.namespace or ""):
            out[i] = to_iso(parse_iso(last[q.namespace or ""]) + timedelta(days=1))
    return out


def _age_like_real_use(svc: Services, items: list[dict[str, Any]], ids: list[int], asked: dict[int, str]) -> None:
    """--dated: weight 0.5 for memories idle more than 14 days before the last question
    (what the daily decay scan does), 1 for the others."""
    end = max(asked.values()) if asked else LOAD_TIME
    cutoff = to_iso(parse_iso(end) - timedelta(days=14))
    with svc.store.transaction():
        for memory_id, item in zip(ids, items, strict=True):
            if (item.get("turn_date") or end) < cutoff:
                memory_rows.update(svc.store, memory_id, {"weight": 0.5})


def _evaluate(svc: Services, questions: list[Question], asked: dict[int, str]) -> dict[str, Any]:
    """hit@k per mode, overall and per group of questions."""
    out: dict[str, Any] = {}
    groups: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    for mode in MODES:
        hits = {k: 0 for k in KS}
        started = time.perf_counter()
        for i, q in enumerate(questions):
            if i in asked:
                svc.clock.set(asked[i])
            found = svc.recall.search(q.text, q.namespace, k=max(KS), include_persona=False,
                                      mode=mode, record=False, source="bench")
            first = next((r for r, h in enumerate(found) if q.gold & set(h.turn_ids)), None)
            for k in KS:
                hits[k] += first is not None and first < k
            for group in (f"category:{q.category}" if q.category else "", _split(q)):
                if group:
                    groups[group][mode].append(99 if first is None else first)
        n = max(1, len(questions))
        out[mode] = {f"hit@{k}": round(hits[k] / n, 3) for k in KS}
        out[mode]["ms_per_query"] = round((time.perf_counter() - started) * 1000 / n, 1)
    out["questions"] = len(questions)
    if len(groups) > 1:
        out["groups"] = {
            group: {"questions": len(ranks["hybrid"]), **{
                mode: "/".join(f"{sum(r < k for r in ranks[mode]) / len(ranks[mode]):.3f}" for k in KS)
                for mode in MODES}}
            for group, ranks in sorted(groups.items())
        }
    return out


def _split(q: Question) -> str:
    if not q.group.startswith("conv-"):
        return ""
    return "split:train" if q.group in TRAIN_CONVERSATIONS else "split:heldout"


def run(tmp: str, name: str, model: str, dated: bool) -> dict[str, Any]:
    items, questions = LOADERS[name]()
    asked = _asked_at(questions, items)
    if dated:
        items = [{**item, "created_at": item["turn_date"]} if item.get("turn_date") else item for item in items]
    svc = _open(tmp, name, model)
    ids = load_approved(svc, items)
    if dated:
        _age_like_real_use(svc, items, ids, asked)
    started = time.perf_counter()
    svc.recall.index()
    build = time.perf_counter() - started
    result = _evaluate(svc, questions, asked)
    if name.startswith("lme"):
        for mode in MODES:
            result[mode] = {k.replace("hit@", "recall@"): v for k, v in result[mode].items()}
    result["memories"] = len(items)
    result["index_build_s"] = round(build, 2)
    if name == "chinese":
        result["trigram_keyword"] = _trigram(svc, questions, dict(zip(ids, items, strict=True)))
    svc.close()
    return result


def _trigram(svc: Services, questions: list[Question], by_id: dict[int, Any]) -> dict[str, Any]:
    """Keyword-only hit@k with the trigram tokenizer (query = OR of its 3-char substrings)."""
    recall_rows.build_trigram_index(svc.store)
    hits = {k: 0 for k in KS}
    for q in questions:
        grams = {run[i : i + 3] for run in re.findall(r"[^\W_]+", q.text) for i in range(max(1, len(run) - 2))}
        match = fts_text.match_expression(sorted(g for g in grams if len(g) >= 3))
        found = [mid for mid, _ in recall_rows.trigram_search(svc.store, match, 200)] if match else []
        found = [mid for mid in found if by_id[mid]["namespace"] == q.namespace][: max(KS)]
        for k in KS:
            if any(q.gold & set(by_id[mid]["turn_ids"]) for mid in found[:k]):
                hits[k] += 1
    n = max(1, len(questions))
    return {f"hit@{k}": round(hits[k] / n, 3) for k in KS}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--model", default=DEFAULT_MODEL, choices=list(MODEL_NAMES))
    parser.add_argument("--only", choices=list(LOADERS))
    parser.add_argument("--dated", action="store_true", help="memories created on their turn's date")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="a recall setting to try, e.g. recall.freshness_share=1")
    args = parser.parse_args()
    for pair in args.set:
        key, _, value = pair.partition("=")
        SETTINGS[key] = value
    if not EVAL_DEV.is_dir():
        print(f"evaluation data not found at {EVAL_DEV}", file=sys.stderr)
        return 1
    report: dict[str, Any] = {"model": args.model, "dated": args.dated, "settings": SETTINGS,
                              "started": datetime.now().isoformat(timespec="seconds")}
    with tempfile.TemporaryDirectory() as tmp:
        for name in LOADERS:
            if args.only in (None, name):
                report[name] = run(tmp, name, args.model, args.dated)
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        for name, value in report.items():
            print(name, value)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
