"""Recall over two stores (setting ``stores.map``) against one store holding everything.

Each dev recall set (see ``bench/_recall_data.py``) is loaded twice: once into one store
(``single``), once split by alternating memories between a local store and a team store
whose namespaces the local store maps there (``merged``: what ``recall`` does, every store's
candidates fused and ranked as one). ``separate`` is the naive merge for comparison: each
store ranks on its own (its scores normalised against its own best match) and the two lists
are sorted by score. hit@k: a top-k memory links to an evidence turn (hybrid recall, the
question's own namespace, as ``bench/recall_quality.py``).

Usage: ``python bench/store_map.py --json [--only locomo|chinese|lme_s|lme_oracle]``
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _recall_common import EVAL_DEV, load_approved
from _recall_data import LOADERS, Question

from madohub_memory.core.clock import Clock
from madohub_memory.recall.ranking import Hit
from madohub_memory.services import Services

KS = (1, 5, 10)
LOAD_TIME = "2026-11-01T09:00:00Z"
SETS = ("locomo", "chinese", "lme_s")


def _open(path: Path) -> Services:
    return Services.open(path, Clock(LOAD_TIME))


def _hits(found: list[Hit], q: Question) -> int | None:
    return next((r for r, h in enumerate(found) if q.gold & set(h.turn_ids)), None)


def _score(ranks: list[int | None]) -> dict[str, float]:
    n = max(1, len(ranks))
    return {f"hit@{k}": round(sum(r is not None and r < k for r in ranks) / n, 3) for k in KS}


def run(tmp: Path, name: str) -> dict[str, Any]:
    items, questions = LOADERS[name]()
    single = _open(tmp / f"{name}-single.db")
    load_approved(single, items)
    local, team = _open(tmp / f"{name}-local.db"), _open(tmp / f"{name}-team.db")
    load_approved(local, items[0::2])
    load_approved(team, items[1::2])
    namespaces = sorted({item["namespace"] for item in items})
    local.settings.set("stores.map", {ns: str(team.store.path) for ns in namespaces})
    for svc in (single, local, team):
        svc.recall.index()
    ranks: dict[str, list[int | None]] = {"single": [], "merged": [], "separate": []}
    k = max(KS)
    for q in questions:
        ask = {"k": k, "include_persona": False, "record": False, "source": "bench"}
        ranks["single"].append(_hits(single.recall.search(q.text, q.namespace, **ask), q))  # type: ignore[arg-type]
        ranks["merged"].append(_hits(local.recall.search(q.text, q.namespace, **ask), q))  # type: ignore[arg-type]
        # The naive alternative: each store ranks alone, the lists are sorted by score.
        team_alone = team.recall.search(q.text, q.namespace, **ask)  # type: ignore[arg-type]
        both = sorted(_search_without_map(local, q, k) + team_alone, key=lambda h: -h.score)[:k]
        ranks["separate"].append(_hits(both, q))
    out: dict[str, Any] = {"questions": len(questions), "memories": len(items)}
    out.update({variant: _score(r) for variant, r in ranks.items()})
    for svc in (single, local, team):
        svc.close()
    return out


def _search_without_map(svc: Services, q: Question, k: int) -> list[Hit]:
    """The local store ranked on its own (the map set aside for one search)."""
    svc.mapped = True  # a mapped store does not follow a map: searches itself only
    try:
        return svc.recall.search(q.text, q.namespace, k=k, include_persona=False, record=False, source="bench")
    finally:
        svc.mapped = False


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--only", choices=list(LOADERS))
    args = parser.parse_args()
    if not EVAL_DEV.is_dir():
        print(f"evaluation data not found at {EVAL_DEV}", file=sys.stderr)
        return 1
    report: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in ([args.only] if args.only else SETS):
            report[name] = run(Path(tmp), name)
    print(json.dumps(report, indent=2, ensure_ascii=False) if args.json else report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
