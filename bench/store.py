"""Store benchmark: approve/reject latency with many candidates, and dedup-insert cost growth.

    python bench/store.py --json                 # 100,000 candidates (about a minute)
    python bench/store.py --candidates 20000     # quicker
    python bench/store.py --db pg --json         # on a throwaway PostgreSQL server (or --db postgresql://…)

Fills a fresh file with N pending candidates (through the real submit path, in large
transactions), then measures on that file: the median time of one approve and one reject
(each its own transaction, as the dashboard does), and the per-candidate cost of
submitting new candidates at 1,000 stored versus N stored. Targets on the 2-core dev
machine: approve/reject median < 10 ms; insert cost at 100,000 <= 2x the cost at 1,000.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _common import print_report
from _database import HELP, bench_database, size_mb

from madohub_memory.core.types import CandidateDraft
from madohub_memory.services import Services

KINDS = ["preference", "fact", "decision", "pattern", "postmortem", "event"]
WORDS = ["api", "cache", "build", "deploy", "test", "lint", "schema", "queue", "worker", "index", "token", "docker", "python", "rust", "go", "postgres", "redis", "nginx", "react", "vue", "pnpm", "npm", "yarn", "make", "ci", "branch", "release", "hotfix", "migration"]


def sentence(rng: random.Random, i: int) -> str:
    return f"{' '.join(rng.choice(WORDS) for _ in range(8)).capitalize()} (note {i})."


def fill(svc: Services, start: int, stop: int, rng: random.Random) -> None:
    """Submit candidates in chunks, embedding each chunk in one batch first (as ingest does)."""
    from madohub_memory.services.semantic_dedup import prime

    for chunk in range(start, stop, 2000):
        drafts = [
            CandidateDraft(sentence(rng, i), rng.choice(KINDS), f"workspace:p{i % 20}", "turn", 0.7, (f"turn-{i}",))
            for i in range(chunk, min(chunk + 2000, stop))
        ]
        prime(svc, [d.content for d in drafts])
        with svc.store.transaction():
            for draft in drafts:
                svc.review.submit(draft)


def insert_cost(svc: Services, rng: random.Random, base: int, samples: int) -> float:
    """Median seconds per submit (own transaction each), new texts plus 20 % re-sightings."""
    times = []
    for j in range(samples):
        if j % 5 == 4:
            text = sentence(random.Random(j), rng.randrange(base))  # usually new, sometimes a repeat
        else:
            text = sentence(rng, 10_000_000 + base + j)
        draft = CandidateDraft(text, rng.choice(KINDS), f"workspace:p{j % 20}", "turn", 0.7, (f"x-{base}-{j}",))
        t0 = time.perf_counter()
        svc.review.submit(draft)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--candidates", type=int, default=100_000)
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--semantic", choices=["on", "off", "default"], default="default",
                        help="semantic dedup setting during the run (default: the product default)")
    parser.add_argument("--db", metavar="TARGET", help=HELP)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp, bench_database(args.db, Path(tmp), "bench.db") as target:
        svc = Services.open(target)
        if args.semantic != "default":
            svc.settings.set("dedup.semantic", args.semantic == "on")
        fill(svc, 0, 1000, rng)
        cost_small = insert_cost(svc, rng, 1000, args.samples)
        t0 = time.perf_counter()
        fill(svc, 1000 + args.samples, args.candidates, rng)
        fill_seconds = time.perf_counter() - t0
        cost_large = insert_cost(svc, rng, args.candidates, args.samples)
        pending = [c.id for c in svc.review.pending()[: 2 * args.samples]]
        approve, reject = [], []
        for i, cid in enumerate(pending):
            t0 = time.perf_counter()
            (svc.review.approve if i % 2 == 0 else svc.review.reject)(cid)
            (approve if i % 2 == 0 else reject).append(time.perf_counter() - t0)
        stored = svc.store.query_one("SELECT COUNT(*) FROM candidates")[0]
        size = size_mb(svc, target)
        backend = svc.store.backend
        svc.close()
    result = {
        "machine": f"{platform.machine()} {platform.processor() or ''} cores={__import__('os').cpu_count()}".strip(),
        "candidates_stored": stored,
        "approve_median_ms": round(statistics.median(approve) * 1000, 3),
        "reject_median_ms": round(statistics.median(reject) * 1000, 3),
        "insert_ms_at_1000": round(cost_small * 1000, 3),
        f"insert_ms_at_{args.candidates}": round(cost_large * 1000, 3),
        "insert_growth_ratio": round(cost_large / cost_small, 2),
        "bulk_fill_candidates_per_s": round((args.candidates - 1000 - args.samples) / fill_seconds),
        "db_size_mb": size,
        "backend": backend,
        "semantic_dedup": args.semantic,
        "targets": {"approve_reject_median_ms": 10, "insert_growth_ratio_max": 2.0},
    }
    print_report(result, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
