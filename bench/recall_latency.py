"""Recall latency, index build time, insert cost as the store grows, and memory use.

Loads synthetic memories (English, one in three citing a ticket id, one in ten Chinese)
in big transactions up to
``--memories``; at each checkpoint measures the cost of adding one approved memory
(store insert with its triggers + embedding it into the live index), and at the end:

* index build: embedding every memory (first start) and loading the stored embeddings
  into the matrix (every later start);
* recall latency p50/p95 over ``--queries`` queries, end to end through
  ``svc.recall.search`` (query embedding, vector + keyword search, ranking, hit update,
  log line), unscoped and scoped to one workspace;
* RSS of the process.

For comparison (issue 6, same machine kind): mem0 2.2.1 at 10,000 memories searched at
p50 12.7 ms / p95 14.9 ms, added 66 ms per memory, and reached 760 MB RSS.

Usage: ``python bench/recall_latency.py --memories 100000 --json`` (``--db pg``: on a throwaway
PostgreSQL server; ``--db postgresql://…``: on an empty database there)
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import peak_rss_mb, print_report, rss_mb, summary_ms
from _database import HELP, bench_database, size_mb
from _recall_common import load_approved

from madohub_memory.core.clock import Clock
from madohub_memory.recall import vector_cache
from madohub_memory.services import Services

SUBJECTS = ["The user", "The team", "Our API", "The build", "The staging server", "The mobile app",
            "The billing service", "The data pipeline", "The CI job", "The design system"]
VERBS = ["prefers", "uses", "avoids", "depends on", "was migrated to", "must not call", "logs to",
         "is deployed with", "was rewritten in", "caches responses in"]
OBJECTS = ["pnpm", "Postgres 16", "Redis", "snake_case keys", "GitHub Actions", "Kubernetes", "Rust",
           "Tailwind", "S3 buckets", "feature flags", "UTC timestamps", "gRPC", "SQLite in WAL mode",
           "a nightly cron", "OpenTelemetry", "Terraform", "Vite", "Django", "FastAPI", "Kafka"]
QUALIFIERS = ["since the March outage", "for every new project", "because reviews were slow",
              "in production only", "after the security audit", "to keep costs down", "on Fridays",
              "unless the user says otherwise", "for the EU region", "when tests are flaky"]
CHINESE = ["用户喜欢用深色主题", "项目的数据库是PostgreSQL", "每周五下午发布新版本", "接口返回的时间都是UTC",
           "不要在主分支上直接提交", "测试环境部署在上海机房", "团队决定用Rust重写解析器", "日志统一发到Kafka"]
QUERIES = ["which package manager does the user prefer", "where are logs sent", "database for the billing service",
           "how is the mobile app deployed", "what happened after the security audit", "CI pipeline tool",
           "feature flags in production", "caching layer", "用什么数据库", "什么时候发布新版本", "timestamps timezone",
           "infrastructure as code", "why was the parser rewritten", "frontend build tool", "message queue",
           "what was decided in ticket MH-1234", "ticket MH-20417 billing", "MH-777 outage notes"]


def sentence(rng: random.Random, i: int) -> str:
    if i % 10 == 9:
        return f"{rng.choice(CHINESE)}（记录 {i}）"
    ticket = f", see ticket MH-{rng.randint(1, 30_000)}" if i % 3 == 0 else ""
    return (f"{rng.choice(SUBJECTS)} {rng.choice(VERBS)} {rng.choice(OBJECTS)} "
            f"{rng.choice(QUALIFIERS)}{ticket} (note {i}).")


def item(rng: random.Random, i: int) -> dict[str, Any]:
    return {"content": sentence(rng, i), "kind": rng.choice(["fact", "preference", "decision", "pattern"]),
            "namespace": f"workspace:project-{i % 20}" if i % 3 else "persona:default"}


def insert_cost(svc: Services, rng: random.Random, start: int, count: int) -> dict[str, float]:
    """Mean ms to add one memory and make it searchable (insert + embed + index update)."""
    timings = []
    for j in range(count):
        started = time.perf_counter()
        load_approved(svc, [item(rng, start + j)])
        svc.recall.index()
        timings.append(time.perf_counter() - started)
    return summary_ms(timings)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--memories", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--db", metavar="TARGET", help=HELP)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rng = random.Random(7)
    checkpoints = sorted({c for c in (1_000, 10_000, args.memories) if c <= args.memories})
    report: dict[str, Any] = {"memories": args.memories, "insert_ms_per_memory": {}}
    with tempfile.TemporaryDirectory() as tmp, bench_database(args.db, Path(tmp), "latency.db") as target:
        svc = Services.open(target, Clock("2026-11-01T09:00:00Z"))
        svc.recall.index()  # loads the model
        loaded = 0
        load_s = embed_s = 0.0
        for checkpoint in checkpoints:
            started = time.perf_counter()
            while loaded < checkpoint - 50:
                n = min(5_000, checkpoint - 50 - loaded)
                load_approved(svc, [item(rng, loaded + j) for j in range(n)])
                loaded += n
            load_s += time.perf_counter() - started
            started = time.perf_counter()
            svc.recall.index()
            embed_s += time.perf_counter() - started
            report["insert_ms_per_memory"][str(checkpoint)] = insert_cost(svc, rng, loaded, 50)
            loaded += 50
        if svc.store.backend == "postgresql":  # the steady state autovacuum keeps: visibility map, statistics
            started = time.perf_counter()
            svc.store.execute("VACUUM ANALYZE")
            report["vacuum_analyze_s"] = round(time.perf_counter() - started, 2)
        report["bulk_store_insert_s"] = round(load_s, 2)
        report["embed_all_s"] = round(embed_s, 2)
        vector_cache.forget_all()
        started = time.perf_counter()
        svc.recall.index()
        report["index_load_s"] = round(time.perf_counter() - started, 2)
        for label, namespace in (("unscoped", None), ("workspace", "workspace:project-1")):
            for q in QUERIES[:3]:
                svc.recall.search(q, namespace, k=10)  # warm up
            timings = []
            for n in range(args.queries):
                started = time.perf_counter()
                svc.recall.search(QUERIES[n % len(QUERIES)], namespace, k=10, source="bench")
                timings.append(time.perf_counter() - started)
            report[f"recall_{label}"] = summary_ms(timings)
        report["rss_mb"] = rss_mb()
        report["peak_rss_mb"] = peak_rss_mb()
        report["db_mb"] = size_mb(svc, target)
        report["backend"] = svc.store.backend
        svc.close()
    print_report(report, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
