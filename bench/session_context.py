"""Session start: time and tokens of the context an agent gets, in a big store.

Loads ``--memories`` approved memories (20 workspaces and the persona; every kind; one in
ten Chinese; a few pinned), gives the measured workspace a working memory, then measures
``svc.session_context.build`` as the hook runs it (hits counted, recall logged) and the
whole ``madohub-memory hook`` process for a ``SessionStart`` event (interpreter start,
imports, the database, the context, the output), and reports the tokens it injected.

Usage: ``python bench/session_context.py --memories 100000 --json``
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import print_report, summary_ms
from _recall_common import load_approved

from madohub_memory.core.clock import Clock
from madohub_memory.services import Services

KINDS = ["fact", "preference", "decision", "pattern", "postmortem", "event"]
TOPICS = ["the build", "the API", "deploys", "tests", "the database", "logging", "reviews", "the CI job",
          "migrations", "feature flags", "the release", "the cache"]
RULES = ["always", "never", "prefer", "before merging,", "after a failed run,", "in production,"]
CHINESE = ["提交前先运行测试", "不要在主分支上直接提交", "日志统一发到Kafka", "接口返回的时间都是UTC"]


def item(rng: random.Random, i: int) -> dict[str, Any]:
    text = (f"{rng.choice(CHINESE)}（记录 {i}）" if i % 10 == 9 else
            f"{rng.choice(RULES).capitalize()} check {rng.choice(TOPICS)} with care (note {i}).")
    return {"content": text, "kind": KINDS[(i // 7) % len(KINDS)],
            "namespace": f"workspace:project-{i % 20}" if i % 7 else "persona:default"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--memories", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--hook-runs", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rng = random.Random(11)
    report: dict[str, Any] = {"memories": args.memories}
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "session.db"
        svc = Services.open(db, Clock("2026-11-01T09:00:00Z"))
        for start in range(0, args.memories, 5_000):
            load_approved(svc, [item(rng, i) for i in range(start, min(args.memories, start + 5_000))])
        ws = "workspace:project-1"
        for memory in svc.memories.list(ws)[:5]:
            svc.memories.pin(memory.id)
        svc.working.update(ws, "task", "Move the billing export to the new queue")
        svc.working.update(ws, "add_decision", "Keep the CSV format", reason="finance imports it as is")
        svc.working.update(ws, "add_constraint", "No schema change before the release")
        svc.working.update(ws, "add_pending", "Backfill last month's exports")
        report["workspace_memories"] = len(svc.memories.list(ws))
        context = svc.session_context.build(ws, source="bench")  # warm up
        timings = []
        for _ in range(args.runs):
            started = time.perf_counter()
            context = svc.session_context.build(ws, source="bench")
            timings.append(time.perf_counter() - started)
        report["build"] = summary_ms(timings)
        report["tokens"] = context.tokens
        report["budget_tokens"] = context.budget_tokens
        report["memories_injected"] = len(context.memory_ids)
        report["sections"] = {k: len(v) for k, v in context.sections.items()}
        report["left_out"] = context.left_out
        svc.close()
        repo = Path(tmp) / "project-1"
        (repo / ".git").mkdir(parents=True)
        event = json.dumps({"hook_event_name": "SessionStart", "source": "startup", "cwd": str(repo / "src")})
        env = {**os.environ, "MADOHUB_DB": str(db), "MADOHUB_HOOK_LOG": str(Path(tmp) / "hook.log")}
        hook = []
        for _ in range(args.hook_runs):
            started = time.perf_counter()
            done = subprocess.run([sys.executable, "-m", "madohub_memory", "hook"], input=event.encode(),
                                  capture_output=True, env=env, timeout=120)
            hook.append(time.perf_counter() - started)
            assert done.returncode == 0 and done.stdout, done
        report["hook_process"] = summary_ms(hook)
        report["sample"] = done.stdout.decode()[:600]
    print_report(report, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
