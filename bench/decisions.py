"""Decision-memory timings on a fresh file.

    python bench/decisions.py --json

Record cost per decision, recommendation latency over 1,000 past choices, the dashboard's
``points()`` over 101 decision points / 3,000 records, and capturing AskUserQuestion answers
from the dev Claude Code transcripts (skipped when ../shared/eval/dev is absent).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from madohub_memory.core.clock import Clock  # noqa: E402
from madohub_memory.services import Services  # noqa: E402

DEV = ROOT.parent / "shared" / "eval" / "dev" / "claude_code"


def timed(fn: Callable[[], object], repeat: int = 7) -> float:
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return statistics.median(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        svc = Services.open(folder / "b.db", Clock("2026-11-01T09:00:00Z"))
        ds = svc.decisions
        opts = ["Tier S", "Tier M", "Tier L"]
        t0 = time.perf_counter()
        for i in range(1000):
            ds.record("Which tier?", opts, opts[i % 3 if i % 5 else 1], session=f"s{i // 20}")
        record_ms = (time.perf_counter() - t0)
        for p in range(100):
            for i in range(20):
                ds.record(f"Question {p}?", ["A", "B", "C"], "ABC"[(i * p) % 3], session=f"s{i}")
        result: dict[str, object] = {
            "record_ms_each": round(record_ms, 3),
            "recommend_ms_1000_obs": round(timed(lambda: ds.recommend("Which tier?", opts)) * 1000, 2),
            "points_ms_101_points_3000_records": round(timed(ds.points) * 1000, 1),
        }
        if DEV.is_dir():
            def capture() -> None:
                with Services.open(folder / f"c{time.time_ns()}.db") as fresh:
                    fresh.decisions.capture_transcript(str(DEV / "subagent.jsonl"))

            result["capture_subagent_ms_incl_new_file"] = round(timed(capture, 5) * 1000, 1)
        svc.close()
    print(json.dumps(result, indent=2 if args.json else None))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
