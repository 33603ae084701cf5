"""Recall latency, index build time, insert cost as the store grows, and memory use.

Loads synthetic memories (English, one in three citing a ticket id, one in ten Chinese)
in big transactions up to
``--memories``; at each checkpoint measures the cost of adding one approved memory
(store insert with its triggers + embedding it into the live index), and at the end:

* index build: embedding every memory (first start), writing the index (from 20,000
  memories a memory-mapped int8 file, ``recall/vector_file.py``), and a cold start (a new
  process's first recall: maps the file, or reads every vector of a small store);
* recall latency p50/p95 over ``--queries`` queries, end to end through
  ``svc.recall.search`` (query embedding with the model, vector + keyword search, ranking,
  hit update, log line), unscoped and scoped to one workspace;
* for a mapped index: how many of the exact top 10 (a full scan of the same vectors) the
  coarse scan + shortlist finds;
* RSS of the process (current and peak).

``--model``: the embedding model (default: the product's default). ``--template-vectors``:
each memory's vector is its model's embedding of the sentence without its ticket and note
number (at most 3,000 distinct sentences are embedded; a sentence past that takes the vector
of one of them), plus a little noise, instead of embedding every memory (a million texts
take about 20 minutes with USE and over 5 hours with e5 on one core here); the queries are
embedded for real. ``--store PATH``: keep the loaded store there and reuse it on the next run (the
index file goes beside it), so a million memories are loaded once.

For comparison (issue 6, same machine kind): mem0 2.2.1 at 10,000 memories searched at
p50 12.7 ms / p95 14.9 ms, added 66 ms per memory, and reached 760 MB RSS.

Usage: ``python bench/recall_latency.py --memories 100000 --json`` (``--db pg``: on a throwaway
PostgreSQL server; ``--db postgresql://…``: on an empty database there);
``python bench/recall_latency.py --memories 1000000 --template-vectors --store /tmp/madohub-1m.db --json``
"""

from __future__ import annotations

import argparse
import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as the command line sets it before numpy loads
import random
import re
import shutil
import sys
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import peak_rss_mb, print_report, rss_mb, summary_ms
from _database import HELP, bench_database, size_mb
from _recall_common import load_approved

from madohub_memory.core.clock import Clock
from madohub_memory.recall import vector_cache
from madohub_memory.recall.embeddings import DEFAULT_MODEL, MODEL_NAMES, encode_queries, get_embedder, to_blob
from madohub_memory.services import Services
from madohub_memory.store import embeddings as vector_rows

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


TEMPLATE_CAP = 3_000  # distinct sentences embedded for --template-vectors (e5: ~25 ms each)
_SUFFIX = re.compile(r"(, see ticket MH-\d+)? \(note \d+\)\.$|（记录 \d+）$")


def template_vectors(svc: Services, model: str, rng: random.Random) -> int:
    """Store a vector for every active memory lacking one: its sentence without ticket and
    note number, embedded once per distinct template, plus noise (see the module docstring)."""
    embedder = get_embedder(model)
    known: dict[str, np.ndarray] = {}
    noise = np.random.default_rng(11)
    written = 0
    while True:
        rows = vector_rows.missing_memory_vectors(svc.store, model, 20_000)
        if not rows:
            return written
        templates = [_SUFFIX.sub("", r["content"]) for r in rows]
        fresh = sorted(set(templates) - set(known))[: max(0, TEMPLATE_CAP - len(known))]
        if len(known) + len(fresh) >= TEMPLATE_CAP:  # a template past the cap takes an embedded one's vector
            pool = sorted(set(known) | set(fresh))
            templates = [t if t in known or t in fresh else pool[zlib.crc32(t.encode()) % len(pool)]
                         for t in templates]
        for start in range(0, len(fresh), 256):
            part = fresh[start:start + 256]
            known.update(zip(part, embedder.encode(part), strict=True))
        base = np.stack([known[t] for t in templates])
        jitter = noise.standard_normal(base.shape).astype(np.float32)
        vectors = base + 0.04 * jitter / np.linalg.norm(jitter, axis=1, keepdims=True)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        vector_rows.put(svc.store, "memory", model,
                        ((int(r["id"]), r["fingerprint"], to_blob(v)) for r, v in zip(rows, vectors, strict=True)))
        written += len(rows)


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


def agreement(svc: Services, model: str, queries: list[str]) -> dict[str, Any] | None:
    """For a mapped index: share of the exact top 10 (a full scan of the same int8 vectors)
    that the coarse scan + shortlist returns."""
    index = svc.recall.vectors(model).memory_index(svc.store)
    base = index.base
    if base is None:
        return None
    embedder = get_embedder(model)
    found = 0
    for text in queries:
        q = encode_queries(embedder, [text])[0]
        exact = np.empty(len(base), dtype=np.float32)
        for start in range(0, len(base), 100_000):
            stop = min(len(base), start + 100_000)
            exact[start:stop] = (base.vectors[start:stop].astype(np.float32) @ q) * base.scales[start:stop]
        exact[index.dead] = -np.inf
        best = set(np.asarray(base.ids)[np.argpartition(-exact, 10)[:10]].tolist())
        got = {i for i, _ in index.search(q, None, 10)}
        found += len(best & got)
    return {"queries": len(queries), "exact_top10_found": round(found / (10 * len(queries)), 3)}


def load(svc: Services, rng: random.Random, args: argparse.Namespace, model: str,
         report: dict[str, Any]) -> None:
    """Fill the store up to --memories, measuring insert cost at each checkpoint."""
    checkpoints = sorted({c for c in (1_000, 10_000, args.memories) if c <= args.memories})
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
        if args.template_vectors:
            template_vectors(svc, model, rng)
        svc.recall.index()
        embed_s += time.perf_counter() - started
        report["insert_ms_per_memory"][str(checkpoint)] = insert_cost(svc, rng, loaded, 50)
        loaded += 50
    if svc.store.backend == "postgresql":  # the steady state autovacuum keeps: visibility map, statistics
        started = time.perf_counter()
        svc.store.execute("VACUUM ANALYZE")
        report["vacuum_analyze_s"] = round(time.perf_counter() - started, 2)
    report["bulk_store_insert_s"] = round(load_s, 2)
    report["embed_and_index_s"] = round(embed_s, 2)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--memories", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--model", default=DEFAULT_MODEL, choices=MODEL_NAMES)
    parser.add_argument("--template-vectors", action="store_true",
                        help="vectors from the sentence templates (see above) instead of embedding every memory")
    parser.add_argument("--store", metavar="PATH", help="keep the loaded store here and reuse it next time")
    parser.add_argument("--db", metavar="TARGET", help=HELP)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rng = random.Random(7)
    report: dict[str, Any] = {"memories": args.memories, "model": args.model,
                              "template_vectors": args.template_vectors, "insert_ms_per_memory": {}}
    with tempfile.TemporaryDirectory() as tmp, bench_database(args.db, Path(tmp), "latency.db") as target:
        reused = False
        if args.store:
            target = Path(args.store)
            os.environ["MADOHUB_CACHE_DIR"] = str(target.with_suffix(".cache"))
            reused = target.exists()
        else:
            os.environ.setdefault("MADOHUB_CACHE_DIR", str(Path(tmp) / "cache"))
        svc = Services.open(target, Clock("2026-11-01T09:00:00Z"))
        svc.settings.set("embedding.model", args.model)
        if reused:
            report["reused_store"] = str(target)
            report["memories_in_store"] = svc.store.scalar("SELECT count(*) FROM memories WHERE status = 'active'")
            if args.template_vectors:  # a store built for another model: its vectors, the same way
                started = time.perf_counter()
                report["template_vectors_added"] = template_vectors(svc, args.model, rng)
                report["template_vectors_s"] = round(time.perf_counter() - started, 1)
        else:
            svc.recall.index()  # loads the model
            load(svc, rng, args, args.model, report)
        svc.embedding.reembed()  # (a reused store: nothing to do)
        if args.store:  # the cold start maps the file the first run wrote
            vector_cache.forget_all()
            svc.close()
            svc = Services.open(target, Clock("2026-11-01T09:00:00Z"))
        else:
            vector_cache.forget_all()
            index = svc.recall.index()
            if index.base is not None:  # the next start maps what this one wrote
                shutil.rmtree(index.base.folder.parent, ignore_errors=True)
                vector_cache.forget_all()
                started = time.perf_counter()
                svc.recall.index()
                report["index_file_write_s"] = round(time.perf_counter() - started, 2)
                vector_cache.forget_all()
        rss_before = rss_mb()
        started = time.perf_counter()
        svc.recall.index()
        report["index_cold_start_s"] = round(time.perf_counter() - started, 2)
        report["index_cold_start_rss_mb"] = round(rss_mb() - rss_before, 1)
        first = time.perf_counter()
        svc.recall.search(QUERIES[0], None, k=10, source="bench")
        report["first_recall_ms"] = round((time.perf_counter() - first) * 1000, 1)
        for label, namespace in (("unscoped", None), ("workspace", "workspace:project-1")):
            for q in QUERIES[:3]:
                svc.recall.search(q, namespace, k=10)  # warm up
            timings = []
            for n in range(args.queries):
                started = time.perf_counter()
                svc.recall.search(QUERIES[n % len(QUERIES)], namespace, k=10, source="bench")
                timings.append(time.perf_counter() - started)
            report[f"recall_{label}"] = summary_ms(timings)
        report["served_model"] = svc.recall.model_name()
        report["rss_mb"] = rss_mb()
        report["peak_rss_mb"] = peak_rss_mb()
        report["vector_search_agreement"] = agreement(svc, svc.recall.model_name(), QUERIES[:20])
        report["db_mb"] = size_mb(svc, target)
        report["backend"] = svc.store.backend
        report["load_average"] = [round(x, 2) for x in os.getloadavg()]
        svc.close()
    print_report(report, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
