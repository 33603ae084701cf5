"""Precision/recall of the semantic-dedup threshold, and the insert cost as the store grows.

Pairs (all from the dev data, ``../shared/eval/dev``):
- positives: paraphrases written by hand of LoCoMo observation facts (English) and of
  MemoryBank CN user statements (Chinese), each as the extractor would phrase it
  ("User …" / "用户…") against a reworded variant;
- negatives: every pair of distinct LoCoMo observation facts about the same speaker in the
  same session (same person, same day: the realistic near-misses), the nearest other fact
  of the same speaker (hardest case), every pair of distinct declarative MemoryBank user
  statements of the same user (Chinese), and contradictions (reversed comparison,
  negation, changed number) of the positives.
A pair is predicted equivalent when cosine >= threshold and the lexical guard
(:func:`madohub_memory.services.semantic_dedup.compatible`) passes.

``--scale`` also measures ``svc.review.submit`` latency at growing store sizes.

Usage: ``python bench/dedup_threshold.py --json [--scale 1000,10000]``
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from madohub_memory.recall.embeddings import get_embedder, to_blob
from madohub_memory.services.semantic_dedup import compatible

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "eval" / "dev"

# Hand-written paraphrases of dev statements (first: as extracted; second: reworded).
POSITIVES_EN = [
    ("Caroline went to an LGBTQ support group yesterday.", "Caroline attended an LGBTQ support group yesterday."),
    ("Melanie painted a lake sunrise last year.", "Last year Melanie painted a sunrise over a lake."),
    ("Melanie is swamped with the kids and work.", "Melanie is overwhelmed by her kids and her job."),
    ("Caroline is researching adoption agencies.", "Caroline has been looking into adoption agencies."),
    ("Andrew is looking for a place near a park or woods for the dog.", "Andrew wants a home close to a park or woods so the dog can run."),
    ("Dave finds fixing cars like therapy.", "For Dave, repairing cars is a kind of therapy."),
    ("Audrey got a new place with a bigger backyard for the dogs.", "Audrey moved into a new home that has a bigger backyard for her dogs."),
    ("James enjoys cuddling with his dog Max.", "James loves cuddles with Max, his dog."),
    ("John has been super busy at work with deadlines.", "John is very busy at work because of many deadlines."),
    ("Jolene loves listening to Nils Frahm during her practice.", "During practice Jolene likes to listen to Nils Frahm."),
    ("Calvin plans to visit Japan after his tour ends.", "After the tour is over, Calvin intends to travel to Japan."),
    ("Deborah is preparing for a yoga retreat with friends.", "Deborah is getting ready for a yoga retreat with her friends."),
    ("Caroline's favorite book is Becoming Nicole by Amy Ellis Nutt.", "The book Caroline likes most is Becoming Nicole by Amy Ellis Nutt."),
    ("User prefers pnpm over npm.", "User likes pnpm better than npm."),
    ("User prefers tabs over spaces for indentation.", "For indentation the user prefers tabs over spaces."),
    ("The project uses PostgreSQL 16 for storage.", "Storage in this project is PostgreSQL 16."),
    ("User decided to use SQLite because the app must work offline.", "User chose SQLite since the app has to run offline."),
    ("The CI failed because the cache key ignored the lockfile.", "The CI broke since the cache key did not include the lockfile."),
    ("User runs the tests before every commit.", "Before each commit the user runs the tests."),
    ("User wants commit messages in English.", "User prefers to write commit messages in English."),
]
POSITIVES_ZH = [
    ("用户很喜欢旅游和看电影。", "用户喜欢旅行，也爱看电影。"),
    ("用户最近去了厦门。", "用户前不久去厦门旅游了。"),
    ("用户最喜欢鼓浪屿。", "鼓浪屿是用户最喜欢的地方。"),
    ("用户喜欢喜剧和爱情片。", "用户爱看喜剧片和爱情片。"),
    ("用户去看了周杰伦的演唱会。", "用户看了一场周杰伦的演唱会。"),
    ("用户最喜欢的歌是《听妈妈的话》。", "《听妈妈的话》是用户最喜欢的歌。"),
    ("用户还想去看张学友和邓紫棋的演唱会。", "用户也想去听张学友和邓紫棋的演唱会。"),
    ("用户最近在学习烹饪。", "用户这段时间在学做菜。"),
    ("用户比较喜欢川菜和粤菜。", "用户偏爱川菜和粤菜。"),
    ("用户最近经常感到焦虑。", "用户近来常常觉得焦虑。"),
    ("用户觉得目前的薪资和职业发展前景不太理想。", "用户对现在的工资和职业前景不太满意。"),
    ("用户最近在学习英语。", "用户这阵子在学英语。"),
    ("用户喜欢唱歌跳舞、健身、旅游、电影和摄影。", "用户的爱好是唱歌、跳舞、健身、旅游、看电影和摄影。"),
    ("用户今天去游泳池游泳，感觉非常放松。", "用户今天去游泳了，觉得很放松。"),
    ("用户还喜欢潜水、滑雪、跑步、登山和攀岩。", "用户的爱好还有潜水、滑雪、跑步、登山和攀岩。"),
    ("用户的性格比较内向。", "用户性格偏内向。"),
    ("用户的工作很稳定但是一点也不有意思。", "用户的工作稳定，但很无趣。"),
    ("用户喜欢户外活动，像滑板、攀岩和街舞。", "用户爱好户外运动，比如滑板、攀岩和街舞。"),
    ("用户喜欢摇滚音乐，喜欢AC/DC、枪与玫瑰等乐队。", "用户爱听摇滚，喜欢AC/DC和枪与玫瑰这样的乐队。"),
    ("用户喜欢巴赫的管弦乐组曲，还爱听肖邦的钢琴曲。", "用户爱听巴赫的管弦乐组曲和肖邦的钢琴曲。"),
    ("用户决定用 pnpm 而不是 npm，因为安装更快。", "用户选择了 pnpm 而不是 npm，原因是安装更快。"),
    ("用户周末喜欢去爬山。", "用户喜欢在周末爬山。"),
]
CONTRADICTIONS = [
    ("User prefers pnpm over npm.", "User prefers npm over pnpm."),
    ("User prefers tabs over spaces for indentation.", "User prefers spaces over tabs for indentation."),
    ("The project uses PostgreSQL 16 for storage.", "The project uses PostgreSQL 15 for storage."),
    ("User wants commit messages in English.", "User does not want commit messages in English."),
    ("User runs the tests before every commit.", "User never runs the tests before a commit."),
    ("用户喜欢喜剧和爱情片。", "用户不喜欢喜剧和爱情片。"),
    ("用户决定用 pnpm 而不是 npm，因为安装更快。", "用户决定用 npm 而不是 pnpm，因为安装更快。"),
    ("用户周末喜欢去爬山。", "用户周末不喜欢去爬山。"),
    ("The API server listens on port 8080.", "The API server listens on port 9090."),
    ("用户每天跑步5公里。", "用户每天跑步10公里。"),
]


def locomo_negatives(data: Path, rng: random.Random) -> tuple[list[tuple[str, str]], list[list[str]]]:
    samples = json.loads((data / "locomo_dev.json").read_text())
    pairs: list[tuple[str, str]] = []
    per_speaker: list[list[str]] = []
    for sample in samples:
        by_speaker: dict[str, list[str]] = {}
        for facts_by_speaker in sample["observation"].values():
            for speaker, facts in facts_by_speaker.items():
                texts = sorted({f for f, _ in facts})
                pairs += list(itertools.combinations(texts, 2))
                by_speaker.setdefault(speaker, []).extend(texts)
        per_speaker += [sorted(set(v)) for v in by_speaker.values()]
    return pairs, per_speaker


def memorybank_negatives(data: Path) -> list[tuple[str, str]]:
    users = json.loads((data / "memorybank_cn_dev.json").read_text())
    pairs = []
    for user in users.values():
        statements = sorted({
            x["query"] for day in user["history"].values() for x in day
            if "我" in x["query"] and not any(q in x["query"] for q in "？?吗呢")
        })
        pairs += list(itertools.combinations(statements, 2))
    return pairs


def nearest_negatives(groups: list[list[str]], embed: Any) -> list[tuple[str, str]]:
    """For each fact, the most similar OTHER fact of the same speaker (the hardest negative)."""
    pairs = []
    for texts in groups:
        if len(texts) < 2:
            continue
        vecs = embed(texts)
        sims = vecs @ vecs.T
        np.fill_diagonal(sims, -1)
        for i, j in enumerate(sims.argmax(1)):
            pairs.append((texts[i], texts[int(j)]))
    return pairs


def cosines(pairs: list[tuple[str, str]], embed: Any) -> np.ndarray:
    if not pairs:
        return np.zeros(0)
    a = embed([p[0] for p in pairs])
    b = embed([p[1] for p in pairs])
    return (a * b).sum(1)


def sweep(pos: dict[str, tuple[list, np.ndarray]], neg: dict[str, tuple[list, np.ndarray]],
          thresholds: list[float]) -> list[dict[str, Any]]:
    out = []
    pos_guard = {k: np.array([compatible(a, b) for a, b in p]) for k, (p, _) in pos.items()}
    neg_guard = {k: np.array([compatible(a, b) for a, b in p]) for k, (p, _) in neg.items()}
    for t in thresholds:
        tp = {k: int(((c >= t) & pos_guard[k]).sum()) for k, (_, c) in pos.items()}
        fp = {k: int(((c >= t) & neg_guard[k]).sum()) for k, (_, c) in neg.items()}
        fp_no_guard = sum(int((c >= t).sum()) for _, c in neg.values())
        n_pos = sum(len(p) for p, _ in pos.values())
        total_tp = sum(tp.values())
        total_fp = sum(fp.values())
        out.append({
            "threshold": t,
            "recall": round(total_tp / n_pos, 4),
            "recall_en": round(tp["en"] / len(pos["en"][0]), 4),
            "recall_zh": round(tp["zh"] / len(pos["zh"][0]), 4),
            "precision": round(total_tp / max(1, total_tp + total_fp), 4),
            "false_merges": fp,
            "false_merges_without_guard": fp_no_guard,
        })
    return out


def scale_bench(sizes: list[int], rng: random.Random) -> list[dict[str, Any]]:
    """Median submit latency after the store holds N candidates (one namespace and kind)."""
    from madohub_memory.core.clock import Clock
    from madohub_memory.core.types import CandidateDraft
    from madohub_memory.services import Services
    from madohub_memory.store import embeddings

    words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "sigma", "omega", "red", "green", "blue", "cyan", "amber", "river", "mountain", "forest", "desert", "ocean", "python", "rust", "go", "java", "kotlin", "swift"]
    results = []
    for n in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            svc = Services.open(Path(tmp) / "m.db", Clock("2026-11-01T09:00:00Z"))
            texts = [f"User note {i}: " + " ".join(rng.choice(words) for _ in range(8)) for i in range(n + 200)]
            # Stored vectors are random unit vectors: this measures the cost of the index, not
            # the encoder (which would take minutes to fill 100,000 rows here).
            vecs = np.random.default_rng(n).standard_normal((n, 512)).astype(np.float32)
            vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
            with svc.store.transaction():
                for i, text in enumerate(texts[:n]):
                    svc.store.execute(
                        "INSERT INTO candidates (content, kind, namespace, source, confidence, status,"
                        " fingerprint, created_at, updated_at) VALUES (?, 'fact', 'persona:default',"
                        " 'turn', 0.5, 'pending', ?, 'x', 'x')", (text, f"fp{i}"))
            embeddings.put(svc.store, "candidate", "use-multilingual",
                           [(i + 1, f"fp{i}", to_blob(vecs[i])) for i in range(n)])
            t0 = time.perf_counter()
            svc.review.submit(CandidateDraft(texts[n], "fact", source="turn"))  # loads the partition
            first = time.perf_counter() - t0
            times = []
            for text in texts[n + 1:]:
                t0 = time.perf_counter()
                svc.review.submit(CandidateDraft(text, "fact", source="turn"))
                times.append(time.perf_counter() - t0)
            svc.settings.set("dedup.semantic", False)
            plain = []
            for text in texts[n + 1: n + 101]:
                t0 = time.perf_counter()
                svc.review.submit(CandidateDraft(text + " again", "fact", source="turn"))
                plain.append(time.perf_counter() - t0)
            svc.close()
        results.append({
            "store_candidates": n,
            "first_submit_s": round(first, 3),
            "submit_median_ms": round(statistics.median(times) * 1000, 2),
            "submit_p95_ms": round(sorted(times)[int(len(times) * 0.95)] * 1000, 2),
            "submit_without_semantic_median_ms": round(statistics.median(plain) * 1000, 2),
        })
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--scale", default="", help="comma-separated store sizes, e.g. 1000,10000,100000")
    args = parser.parse_args()
    rng = random.Random(7)
    emb = get_embedder("use-multilingual")
    cache: dict[str, np.ndarray] = {}

    def encode(texts: list[str]) -> np.ndarray:
        missing = [t for t in dict.fromkeys(texts) if t not in cache]
        if missing:
            cache.update(zip(missing, emb.encode(missing), strict=True))
        return np.stack([cache[t] for t in texts]) if texts else np.zeros((0, emb.dim))
    en_neg, groups = locomo_negatives(args.data, rng)
    pos = {
        "en": (POSITIVES_EN, cosines(POSITIVES_EN, encode)),
        "zh": (POSITIVES_ZH, cosines(POSITIVES_ZH, encode)),
    }
    nearest = nearest_negatives(groups, encode)
    zh_neg = memorybank_negatives(args.data)
    neg = {
        "en_same_session": (en_neg, cosines(en_neg, encode)),
        "en_nearest": (nearest, cosines(nearest, encode)),
        "zh_same_user": (zh_neg, cosines(zh_neg, encode)),
        "contradictions": (CONTRADICTIONS, cosines(CONTRADICTIONS, encode)),
    }
    thresholds = [round(x, 2) for x in np.arange(0.70, 0.96, 0.02)]
    result: dict[str, Any] = {
        "pairs": {"positive": {k: len(v[0]) for k, v in pos.items()},
                  "negative": {k: len(v[0]) for k, v in neg.items()}},
        "cosine_median": {k: round(float(np.median(v[1])), 3) for k, v in {**pos, **neg}.items()},
        "sweep": sweep(pos, neg, thresholds),
    }
    if args.scale:
        result["scale"] = scale_bench([int(x) for x in args.scale.split(",")], rng)
    print(json.dumps(result, ensure_ascii=False, indent=None if args.json else 2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
