"""Team memory on one PostgreSQL server: 4 extraction workers and 2 reviewing dashboards at once.

Usage: .venv/bin/python bench/team.py --json [--seconds 300] [--dsn postgresql://…] [--workers 4]

Without ``--dsn`` a throwaway server is started (``scripts/pg_cluster.py``, as the tests do).
Each worker process imports conversations (the dev ChatGPT export, its ids renamed per round
so every round brings new conversations), proposes a few of their sentences as an agent's
``remember`` would (extraction alone finds few candidates in chat data) and drains all pending turns, so the workers claim
turns from each other's imports concurrently (``FOR UPDATE SKIP LOCKED`` claims). Each
reviewer process approves or rejects the pending candidates of its half (odd or even ids)
through the services, as a dashboard does, and a second thread of it waits on the server's
change notifications (``services.change_watch``) and times how long a decision of the other
reviewer takes to become visible to it: from the moment the other reviewer starts the
decision to the moment a notification-triggered read shows it decided.

Reported: ``turns_extracted_twice`` (a turn in the finished passes of two rounds, from the
workers' logs; must be 0), ``lost_decisions`` (a decision a reviewer made that the database
does not hold at the end; 0), ``errors`` (one-sentence errors that would reach a user; 0),
decision visibility median / p95 in ms (and how many were first seen on a notification
rather than on the fallback timeout), how long a claim takes (waiting for the write lock
included) and the longest write-lock hold of any process (extraction runs outside the lock,
so this stays at submit-group size), throughput (turns extracted, candidates, decisions per s).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import random
import re
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
DATA = ROOT.parent / "shared" / "eval" / "dev" / "chatgpt_conversations_dev.json"
if not DATA.is_file():
    DATA = Path("/work/shared/eval/dev/chatgpt_conversations_dev.json")
_UUID = re.compile(r'"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})"')
PER_ROUND = 6  # conversations a worker imports per round
REMEMBERED = 6  # candidates the agents propose per round (remember), besides what extraction finds
KINDS = ("fact", "preference", "decision", "pattern")


def _proposals(conversations: list[dict[str, Any]], rng: random.Random, count: int) -> list[str]:
    """Sentences from the conversations' user messages, as an agent's ``remember`` would send."""
    texts = []
    for conv in conversations:
        for node in conv.get("mapping", {}).values():
            message = node.get("message") or {}
            parts = (message.get("content") or {}).get("parts") or []
            if (message.get("author") or {}).get("role") == "user" and parts and isinstance(parts[0], str):
                text = " ".join(parts[0].split())[:200]
                if len(text) > 30:
                    texts.append(text)
    rng.shuffle(texts)
    return [f"Team note: {t}" for t in texts[:count]]


def _worker(index: int, dsn: str, deadline: float, folder: str) -> None:
    """Import a few new conversations, drain everything pending, repeat until the deadline."""
    from madohub_memory.core.errors import UserError
    from madohub_memory.services import Services
    from madohub_memory.services.ingest import IngestService

    extracted: list[str] = []
    original = IngestService._extract

    def logged(extractor: Any, rows: list[dict[str, Any]]) -> Any:
        for turn_ids, drafts in original(extractor, rows):
            extracted.extend(turn_ids)
            yield turn_ids, drafts

    IngestService._extract = staticmethod(logged)  # type: ignore[method-assign,assignment]
    from madohub_memory.services import ingest as ingest_service

    claim_ms: list[float] = []
    claim = ingest_service.ingest_rows.claim_pending

    def timed_claim(*args: Any, **kwargs: Any) -> Any:  # waiting for the lock included
        began = time.perf_counter()
        try:
            return claim(*args, **kwargs)
        finally:
            claim_ms.append((time.perf_counter() - began) * 1000)

    ingest_service.ingest_rows.claim_pending = timed_claim  # type: ignore[assignment]
    conversations = json.loads(DATA.read_text(encoding="utf-8"))
    svc = Services.open(dsn, origin=f"bench-worker-{index}")
    errors: list[str] = []
    stats = {"rounds": 0, "candidates": 0}
    rng = random.Random(index)
    try:
        round_no = 0
        while time.time() < deadline:
            round_no += 1
            chosen = rng.sample(conversations, PER_ROUND)
            prefix = f"w{index}r{round_no}-"
            text = _UUID.sub(lambda m, prefix=prefix: f'"{prefix}{m.group(1)}"', json.dumps(chosen))
            path = Path(folder) / f"w{index}-r{round_no}.json"
            path.write_text(text, encoding="utf-8")
            try:
                svc.ingest.ingest_paths([str(path)], format="chatgpt", extract=False)
                for text in _proposals(chosen, rng, REMEMBERED):  # what the team's agents ask to remember
                    outcome = svc.review.remember(text, rng.choice(KINDS), "workspace:team").outcome
                    stats["candidates"] += outcome == "new"
                while time.time() < deadline:
                    counts = svc.ingest.drain(max_rounds=1, batch_turns=60)
                    stats["candidates"] += int(counts.get("new", 0))
                    if not counts.get("turns"):
                        break
            except UserError as exc:
                errors.append(f"worker {index}: {exc}")
            path.unlink()
            stats["rounds"] += 1
    finally:
        svc.close()
    Path(folder, f"worker-{index}.json").write_text(json.dumps({"extracted": extracted, "errors": errors, "claim_ms": claim_ms, **stats}))


def _reviewer(index: int, dsn: str, deadline: float, folder: str, outbox: Any, inbox: Any) -> None:
    """Decide the pending candidates of one half (``id % 2 == index``), a few per second, and
    time the other reviewer's decisions as this one's notifications reveal them."""
    from madohub_memory.core.errors import UserError
    from madohub_memory.services import Services
    from madohub_memory.services.change_watch import watch_changes

    svc = Services.open(dsn, origin=f"bench-reviewer-{index}")
    decisions: list[tuple[int, str]] = []
    errors: list[str] = []
    latencies: list[float] = []
    on_notification = [0, 0]  # seen after a notification, seen after a timeout
    stop = threading.Event()

    def listen() -> None:
        reader = Services.open(dsn, origin=f"bench-listener-{index}")
        watch = watch_changes(reader.store)
        awaiting: dict[int, float] = {}
        try:
            while not stop.is_set():
                notified = watch.wait(0.5)
                seen_at = time.time()
                while not inbox.empty():
                    cid, started = inbox.get()
                    if started is None:
                        awaiting.pop(cid, None)
                    else:
                        awaiting[cid] = started
                for cid in list(awaiting):
                    if reader.review.get(cid).status != "pending":
                        latencies.append(seen_at - awaiting.pop(cid))
                        on_notification[0 if notified else 1] += 1
        except UserError as exc:
            errors.append(f"listener {index}: {exc}")
        finally:
            watch.close()
            reader.close()

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    rng = random.Random(100 + index)
    try:
        while time.time() < deadline:
            mine = [c for c in svc.review.pending() if c.id % 2 == index]
            if not mine:
                time.sleep(0.2)
                continue
            for candidate in mine[:5]:
                if time.time() >= deadline:
                    break
                status = "approved" if rng.random() < 0.6 and not candidate.flags else "rejected"
                outbox.put((candidate.id, time.time()))
                try:
                    if status == "approved":
                        svc.review.approve(candidate.id)
                    else:
                        svc.review.reject(candidate.id)
                except UserError as exc:
                    outbox.put((candidate.id, None))
                    errors.append(f"reviewer {index}: {exc}")
                    continue
                decisions.append((candidate.id, status))
                time.sleep(rng.uniform(0.05, 0.3))  # a person reading the next candidate
    finally:
        time.sleep(1.5)  # the other reviewer's last decisions reach the listener
        stop.set()
        listener.join(5)
        svc.close()
    Path(folder, f"reviewer-{index}.json").write_text(json.dumps({
        "decisions": decisions, "errors": errors, "latencies": latencies, "seen": on_notification}))


def _percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def run(dsn: str, seconds: float, workers: int) -> dict[str, Any]:
    from madohub_memory.services import Services

    Services.open(dsn).close()  # the schema, once, before the processes race for it
    ctx = mp.get_context("spawn")
    with tempfile.TemporaryDirectory() as folder:
        os.environ["MADOHUB_LOCK_STATS"] = str(Path(folder, "locks.jsonl"))  # each process's write-lock holds
        start = time.time()
        deadline = start + seconds
        boxes = [ctx.Queue(), ctx.Queue()]
        procs = [ctx.Process(target=_worker, args=(i, dsn, deadline, folder)) for i in range(workers)]
        procs += [ctx.Process(target=_reviewer, args=(i, dsn, deadline, folder, boxes[1 - i], boxes[i]))
                  for i in range(2)]
        for proc in procs:
            proc.start()
        for proc in procs:
            proc.join(seconds + 600)
        elapsed = time.time() - start
        crashed = [p.exitcode for p in procs if p.exitcode != 0]
        worker_logs = [json.loads(Path(folder, f"worker-{i}.json").read_text())
                       for i in range(workers) if Path(folder, f"worker-{i}.json").exists()]
        reviewer_logs = [json.loads(Path(folder, f"reviewer-{i}.json").read_text())
                         for i in range(2) if Path(folder, f"reviewer-{i}.json").exists()]
        locks_file = Path(folder, "locks.jsonl")
        locks = [json.loads(line) for line in locks_file.read_text().splitlines()] if locks_file.exists() else []
        os.environ.pop("MADOHUB_LOCK_STATS", None)
    extracted = [t for log in worker_logs for t in log["extracted"]]
    twice = len(extracted) - len(set(extracted))
    svc = Services.open(dsn)
    try:
        lost = sum(1 for log in reviewer_logs for cid, status in log["decisions"]
                   if svc.review.get(int(cid)).status != status)
        states = svc.ingest.pending()
    finally:
        svc.close()
    latencies = [x * 1000 for log in reviewer_logs for x in log["latencies"]]
    decisions = sum(len(log["decisions"]) for log in reviewer_logs)
    claims = [x for log in worker_logs for x in log["claim_ms"]]
    errors = [e for log in worker_logs + reviewer_logs for e in log["errors"]]
    return {
        "seconds": round(elapsed, 1),
        "workers": workers,
        "reviewers": 2,
        "processes_failed": len(crashed) + (workers - len(worker_logs)) + (2 - len(reviewer_logs)),
        "turns_extracted": len(extracted),
        "turns_extracted_twice": twice,
        "turns_done_in_db": states.get("done", 0),
        "turns_left_pending": states.get("pending", 0) + states.get("claimed", 0),
        "candidates_new": sum(int(log["candidates"]) for log in worker_logs),
        "decisions": decisions,
        "lost_decisions": lost,
        "errors": len(errors),
        "error_samples": errors[:5],
        "visibility_ms_median": round(statistics.median(latencies), 1) if latencies else None,
        "visibility_ms_p95": round(_percentile(latencies, 0.95) or 0, 1) if latencies else None,
        "visibility_samples": len(latencies),
        "seen_on_notification": sum(log["seen"][0] for log in reviewer_logs),
        "seen_on_timeout": sum(log["seen"][1] for log in reviewer_logs),
        "claim_ms_median": round(statistics.median(claims), 1) if claims else None,
        "claim_ms_p95": round(_percentile(claims, 0.95) or 0, 1) if claims else None,
        "claims": len(claims),
        "write_lock_max_hold_ms": max((lock["max_hold_ms"] for lock in locks), default=None),
        "write_lock_p99_hold_ms": max((lock["p99_hold_ms"] for lock in locks), default=None),
        "turns_extracted_per_s": round(len(extracted) / elapsed, 1),
        "decisions_per_s": round(decisions / elapsed, 2),
        "load_average_1min": round(os.getloadavg()[0], 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dsn", help="an empty database on a server (default: a throwaway server)")
    parser.add_argument("--seconds", type=float, default=300.0)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.dsn:
        result = run(args.dsn, args.seconds, args.workers)
    else:
        from pg_cluster import PgCluster

        with PgCluster() as cluster:
            result = run(cluster.create_database("team"), args.seconds, args.workers)
    print(json.dumps(result, indent=None if args.json else 2, ensure_ascii=False))
    ok = not result["turns_extracted_twice"] and not result["lost_decisions"] and not result["errors"]
    return 0 if ok and not result["processes_failed"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
