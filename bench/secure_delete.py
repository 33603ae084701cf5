"""What ``PRAGMA secure_delete`` costs: the same edits and deletes with it OFF, FAST and ON.

    python bench/secure_delete.py --json            # 3 runs per mode, medians
    python bench/secure_delete.py --json --rows 20000

The store turns it ON on every connection (``store/database.py``): text that is deleted or
overwritten (an edited memory, a deleted one, an ended task's items, a masked secret, the
recall log's old rows) is zeroed in the page and in freed pages instead of lingering in the
file. FAST zeroes within pages only when that costs no extra I/O, so text in a page that
becomes free survives; OFF zeroes nothing.

The workload is the store's own tables through the store's connection (the write guard and
the keyword-index triggers included): insert memories, edit half of them (the FTS index
deletes and re-inserts), delete a quarter, log recalls and prune them. Reported: seconds per
phase, bytes written to the WAL, and whether a deleted marker text is still in the file.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from madohub_memory.store.database import Store

MARKER = "Quokka-Marmalade-Zeppelin"
WORDS = ["deploy", "staging", "review", "merge", "cache", "token", "build", "release", "rollback", "schema", "index", "query", "worker", "queue", "retry", "timeout", "budget", "vendor", "pnpm", "docker", "compose", "nginx", "postgres", "redis", "backup"]


def _text(i: int, salt: str) -> str:
    words = [WORDS[(i * 7 + k * 3) % len(WORDS)] for k in range(28)]
    return f"{MARKER} {salt} {i}: " + " ".join(words)


def run_once(mode: str, rows: int) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="mh-sd-"))
    path = folder / "memory.db"
    store = Store(path)
    store.conn.execute(f"PRAGMA secure_delete = {mode}")
    timings: dict[str, float] = {}
    wal = folder / "memory.db-wal"

    def phase(name: str, work: Any) -> None:
        started = time.perf_counter()
        with store.transaction():
            work()
        timings[name] = round(time.perf_counter() - started, 3)

    now = "2026-11-01T00:00:00.000Z"
    phase("insert", lambda: store.conn.executemany(
        "INSERT INTO memories (content, kind, namespace, fingerprint, created_at, updated_at)"
        " VALUES (?, 'fact', 'persona:default', ?, ?, ?)",
        [(_text(i, "first"), f"fp{i}", now, now) for i in range(rows)]))
    phase("edit_half", lambda: store.conn.executemany(
        "UPDATE memories SET content = ?, updated_at = ? WHERE id = ?",
        [(_text(i, "edited"), now, i + 1) for i in range(0, rows, 2)]))
    phase("delete_quarter", lambda: store.conn.executemany(
        "DELETE FROM memories WHERE id = ?", [(i + 1,) for i in range(1, rows, 4)]))
    phase("recall_log", lambda: store.conn.executemany(
        "INSERT INTO recall_log (at, source, query, namespace, memory_ids, token_estimate) VALUES (?, 'cli', ?, NULL, '[]', 0)",
        [(now, _text(i, "query")) for i in range(rows)]))
    phase("prune_log", lambda: store.execute("DELETE FROM recall_log"))
    wal_bytes = wal.stat().st_size if wal.exists() else 0
    store.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    raw = path.read_bytes()
    store.close()
    deleted = [f"{MARKER} first {i}:".encode() for i in range(1, rows, 4)][:200]
    return {"seconds": timings, "total_s": round(sum(timings.values()), 3), "wal_bytes": wal_bytes,
            "file_bytes": len(raw), "deleted_text_left_in_file": sum(1 for d in deleted if d in raw),
            "edited_text_left_in_file": sum(1 for i in range(0, min(rows, 400), 2)
                                            if f"{MARKER} first {i}:".encode() in raw),
            "pruned_log_text_left_in_file": sum(1 for i in range(0, min(rows, 400))
                                                if f"{MARKER} query {i}:".encode() in raw)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--rows", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    report: dict[str, Any] = {"rows": args.rows, "runs": args.runs, "load_average": os.getloadavg()[0], "modes": {}}
    run_once("OFF", min(args.rows, 200))  # warm-up: the word segmenter and the scanner load once
    for mode in ("OFF", "FAST", "ON"):
        runs = [run_once(mode, args.rows) for _ in range(args.runs)]
        report["modes"][mode] = {
            "median_total_s": statistics.median(r["total_s"] for r in runs),
            "median_seconds": {k: statistics.median(r["seconds"][k] for r in runs) for k in runs[0]["seconds"]},
            "wal_bytes": runs[-1]["wal_bytes"], "file_bytes": runs[-1]["file_bytes"],
            "deleted_text_left_in_file": runs[-1]["deleted_text_left_in_file"],
            "edited_text_left_in_file": runs[-1]["edited_text_left_in_file"],
            "pruned_log_text_left_in_file": runs[-1]["pruned_log_text_left_in_file"],
        }
    off = report["modes"]["OFF"]["median_total_s"]
    report["on_vs_off"] = round(report["modes"]["ON"]["median_total_s"] / off, 3) if off else None
    print(json.dumps(report, indent=None if args.json else 2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
