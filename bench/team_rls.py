"""What row-level security costs a team server: recall and approval as the owner (who
bypasses it), as a reviewer who owns the persona rows, and as a proposer who sees none.

Loads ``--memories`` synthetic memories (a third of them ``persona:default``) into a
throwaway PostgreSQL server (or ``--db postgresql://…``, an empty database, given as its
owner), runs ``server-setup`` (reviewer ``wei`` owning the persona rows, proposer ``li``),
then times ``--queries`` recalls end to end (query embedding, vector + keyword search,
ranking, hit update, log line) per role, and approvals of fresh candidates.

Usage: ``python bench/team_rls.py --memories 20000 --json``
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

from _common import print_report, summary_ms
from _database import bench_database
from _recall_common import load_approved
from recall_latency import QUERIES, item

from madohub_memory.core.clock import Clock
from madohub_memory.services import Services
from madohub_memory.store.pg import security


def _as(dsn: str, role: str) -> str:
    user = dsn.split("//", 1)[1].split("@", 1)[0]
    return dsn.replace(f"//{user}@", f"//{role}@", 1)


def _recalls(target: str, queries: int) -> dict[str, float]:
    clock = Clock("2026-11-01T09:00:00Z")
    with Services.open(target, clock) as svc:
        svc.recall.index()
        for q in QUERIES[:3]:
            svc.recall.search(q, k=10)  # warm up
        timings = []
        for n in range(queries):
            started = time.perf_counter()
            svc.recall.search(QUERIES[n % len(QUERIES)], k=10, source="bench")
            timings.append(time.perf_counter() - started)
    return summary_ms(timings)


def _approvals(target: str, count: int, label: str) -> dict[str, float]:
    clock = Clock("2026-11-01T09:00:00Z")
    with Services.open(target, clock) as svc:
        rng = random.Random(label)
        words = [" ".join("".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(7)) for _ in range(5))
                 for _ in range(count)]  # distinct texts: numbers alone do not make a new candidate
        ids = [svc.review.add_manual(f"Builds on {text}", "fact", "workspace:bench").candidate_id for text in words]
        timings = []
        for cid in ids:
            started = time.perf_counter()
            svc.review.approve(cid)
            timings.append(time.perf_counter() - started)
    return summary_ms(timings)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--memories", type=int, default=20_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--db", metavar="TARGET", default="pg",
                        help="'pg' (a throwaway server) or the postgresql:// address of an empty database")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rng = random.Random(7)
    report: dict[str, Any] = {"memories": args.memories}
    with tempfile.TemporaryDirectory() as tmp, bench_database(args.db, Path(tmp), "team.db") as target:
        owner = str(target)
        with Services.open(owner, Clock("2026-11-01T09:00:00Z")) as svc:
            for start in range(0, args.memories, 5_000):
                load_approved(svc, [item(rng, start + j) for j in range(min(5_000, args.memories - start))])
            svc.recall.index()  # vectors stored once, before the roles read them
            for role in ("wei", "li"):
                svc.store.execute(f"DO $$ BEGIN CREATE ROLE {role} LOGIN; EXCEPTION WHEN duplicate_object"
                                  " THEN NULL; END $$")
            started = time.perf_counter()
            security.apply(svc.store, ["wei"], ["li"], persona_owner="wei")
            report["setup_s"] = round(time.perf_counter() - started, 2)
        for label, role in (("owner", None), ("reviewer_wei", "wei"), ("proposer_li", "li")):
            report[f"recall_{label}"] = _recalls(owner if role is None else _as(owner, role), args.queries)
        for label, role in (("owner", None), ("reviewer_wei", "wei")):
            report[f"approve_{label}"] = _approvals(owner if role is None else _as(owner, role), 50, label)
    print_report(report, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
