"""Ingest + extract + dedup throughput on LoCoMo dev, from an empty database file.

Usage: .venv/bin/python bench/ingest.py --json [--data PATH] [--runs N] [--codex]

With ``--codex`` the same dialogues are first written as Codex CLI rollout files (one per
session, ``sessions/YYYY/MM/DD/rollout-*.jsonl``: bench/_codex_rollouts.py) and that folder
is what is timed: the rollout reader with its format detection, the folder walk and the
per-file bookkeeping, then the same extraction.

Each run starts from a fresh file in a temporary folder and times
``svc.ingest.ingest_paths([data])`` (reading, storing turns, the default extractor, and
fingerprint + semantic dedup, embedding model load included), then times a re-ingest of
the same file and counts the rows it added (target: >= 500 turns/s; re-ingest < 2 s with
zero new rows). With ``--runs N`` the figures are medians over N runs in separate processes.
``embedding_seconds`` is the time spent embedding drafts for semantic dedup (model load
included), mostly on a worker thread that overlaps extraction and submits, so
``turns_per_s_excluding_embedding`` overstates what removing it would gain;
``load_average_1min`` says how busy the shared machine was; ``cpu_ms_per_turn`` (user + sys
of every thread of the process, over the timed import) is far less sensitive to it.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DEFAULT_DATA = ROOT.parent / "shared" / "eval" / "dev" / "locomo_dev.json"
TABLES = ("conversations", "turns", "candidates", "candidate_sightings", "memories", "history")


def _rows(svc) -> dict[str, int]:
    return {t: svc.store.query_one(f"SELECT COUNT(*) FROM {t}")[0] for t in TABLES}


class _EncodeTimer:
    """Wraps the embedder's ``encode`` to report how much of the run is embedding (dedup)."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.texts = 0

    def install(self, svc) -> None:
        index = svc.recall.vectors()
        original = index.embedder.encode

        def timed(texts):
            started = time.perf_counter()
            try:
                return original(texts)
            finally:
                self.seconds += time.perf_counter() - started
                self.texts += len(texts)

        index.embedder.encode = timed


def one_run(data: Path, codex: bool = False) -> dict:
    from madohub_memory.services import Services

    timer = _EncodeTimer()
    with tempfile.TemporaryDirectory() as tmp, Services.open(Path(tmp) / "bench.db") as svc:
        files = 1
        if codex:
            from _codex_rollouts import write_rollouts

            files = write_rollouts(data, Path(tmp))
            data = Path(tmp) / "sessions"
        timer.install(svc)  # the model itself loads lazily, inside the timed run
        started, cpu_started = time.perf_counter(), time.process_time()
        summary = svc.ingest.ingest_paths([str(data)])
        elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu_started
        before = _rows(svc)
        started = time.perf_counter()
        again = svc.ingest.ingest_paths([str(data)])
        reingest = time.perf_counter() - started
        after = _rows(svc)
    turns = summary["turns"]["new"]
    created = summary["candidates"]["new"]
    return {
        "format": "codex" if codex else "auto",
        "files": files,
        "turns": turns,
        "seconds": round(elapsed, 3),
        "turns_per_s": round(turns / elapsed, 1),
        "cpu_seconds": round(cpu, 3),
        "cpu_ms_per_turn": round(1000 * cpu / max(1, turns), 3),
        "candidates_new": created,
        "candidates_seen_again": summary["candidates"]["seen_again"],
        "candidates_per_turn": round(created / max(1, turns), 4),
        "errors": len(summary["errors"]) + len(again["errors"]),
        "reingest_seconds": round(reingest, 3),
        "reingest_new_rows": sum(after.values()) - sum(before.values()),
        "reingest_turns_known": again["turns"]["known"],
        "embedding_seconds": round(timer.seconds, 3),
        "embedded_texts": timer.texts,
        "turns_per_s_excluding_embedding": round(turns / max(1e-9, elapsed - timer.seconds), 1),
        "load_average_1min": round(os.getloadavg()[0], 2),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print JSON (the only output format)")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--runs", type=int, default=1, help="runs in separate processes; medians reported")
    parser.add_argument("--codex", action="store_true", help="time Codex rollout files made from the dialogues")
    parser.add_argument("--single", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not args.data.exists():
        print(json.dumps({"error": f"data not found: {args.data}"}))
        return 1
    if args.single or args.runs <= 1:
        result = one_run(args.data, args.codex)
        result["runs"] = 1
        print(json.dumps(result, indent=None if args.single else 2))
        return 0
    results = []
    for _ in range(args.runs):
        out = subprocess.run([sys.executable, __file__, "--single", "--data", str(args.data),
                              *(["--codex"] if args.codex else [])],
                             capture_output=True, text=True, check=True, env={**os.environ})
        results.append(json.loads(out.stdout.strip().splitlines()[-1]))
    median = {k: statistics.median(r[k] for r in results) for k in results[0] if k not in ("runs", "format")}
    median["format"] = results[0]["format"]
    median["runs"] = len(results)
    median["turns_per_s_all"] = [r["turns_per_s"] for r in results]
    median["target_turns_per_s"] = 500
    median["target_reingest_seconds"] = 2.0
    print(json.dumps(median, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
