"""Re-embedding a big store after a model switch: killed midway, resumed, recall answering throughout.

Takes a store (e.g. the one ``bench/recall_latency.py --store`` keeps), sets
``embedding.model`` to ``--to``, runs ``madohub-memory embeddings reembed`` in a child process,
sends it ``kill -9`` after ``--kill-after`` seconds, runs it again to the end, and meanwhile
recalls from this process every half second. Reports: memories embedded before the kill,
the served model right after it (still the old one), how long the resumed run took, each
recall's latency and whether any failed, and the served model at the end.

Usage: ``python bench/reembed.py --store /tmp/madohub-100k.db --to use-multilingual --json``
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import print_report, summary_ms

from madohub_memory.recall import vector_cache
from madohub_memory.services import Services
from madohub_memory.store import embeddings as vector_rows

QUERIES = ["which package manager does the user prefer", "where are logs sent", "用什么数据库", "ticket MH-1234"]


def _child(store: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "madohub_memory", "--db", str(store), "embeddings", "reembed"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _recall_while(svc: Services, child: subprocess.Popen[bytes], until: float, log: dict[str, Any]) -> None:
    while child.poll() is None and time.monotonic() < until:
        started = time.perf_counter()
        try:
            hits = svc.recall.search(QUERIES[len(log["times"]) % len(QUERIES)], k=10, source="bench")
            log["times"].append(time.perf_counter() - started)
            log["empty"] += not hits
            log["models"].add(svc.recall.model_name())
        except Exception as exc:  # counted: the point is that there are none
            log["errors"].append(f"{type(exc).__name__}: {exc}")
        time.sleep(0.5)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--store", required=True, type=Path)
    parser.add_argument("--to", required=True)
    parser.add_argument("--kill-after", type=float, default=30.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    os.environ.setdefault("MADOHUB_CACHE_DIR", str(args.store.with_suffix(".cache")))
    report: dict[str, Any] = {"store": str(args.store), "to": args.to}
    log: dict[str, Any] = {"times": [], "empty": 0, "errors": [], "models": set()}
    with Services.open(args.store) as svc:
        report["served_before"] = svc.embedding.served()
        svc.settings.set("embedding.model", args.to)
        report["memories"] = svc.embedding.status()["memories"]
        child = _child(args.store)
        _recall_while(svc, child, time.monotonic() + args.kill_after, log)
        child.send_signal(signal.SIGKILL)
        child.wait()
        vector_cache.forget_all()
        report["embedded_before_kill"] = vector_rows.count_active_memory_vectors(svc.store, args.to)
        report["served_after_kill"] = svc.embedding.served()
        started = time.monotonic()
        child = _child(args.store)
        _recall_while(svc, child, float("inf"), log)
        report["resumed_run_s"] = round(time.monotonic() - started, 1)
        report["child_exit"] = child.wait()
        report["served_at_end"] = svc.embedding.served()
        report["missing_at_end"] = svc.embedding.status()["missing"]
        report["recall_during"] = {"count": len(log["times"]), "empty": log["empty"], "errors": log["errors"][:3],
                                   "models": sorted(log["models"]), **summary_ms(log["times"] or [0.0])}
    report["load_average"] = [round(x, 2) for x in os.getloadavg()]
    print_report(report, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
