"""Transfer benchmark: copying a whole store into a new one, and resuming after a kill.

    python bench/transfer.py --json                      # 40,000 turns, 10,000 memories
    python bench/transfer.py --turns 5000 --memories 1000 --runs 1

Builds a source file (through the JSONL import: turns, candidates with sightings, memories
with stored 512-dimension vectors, history), then times ``madohub-memory transfer`` into a
fresh file several times (median), the re-run that finds it complete, and a run killed
(SIGKILL) half-way and resumed: how long the resume takes and whether the two stores then
export the same bytes.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _common import print_report

from madohub_memory.services import Services

ROOT = Path(__file__).resolve().parent.parent

NOW = "2026-11-01T09:00:00.000Z"


def build_source(path: Path, turns: int, memories: int) -> dict[str, int]:
    import numpy as np

    rng = np.random.default_rng(7)
    lines: list[dict] = [{"format": "madohub-memory-export", "version": 1}]
    conversations = max(1, turns // 200)
    for c in range(conversations):
        lines.append({"table": "conversations", "row": {"id": f"c{c:05d}", "format": "jsonl", "meta": "{}"}})
    for i in range(turns):
        lines.append({"table": "turns", "row": {
            "id": f"t{i:07d}", "conversation_id": f"c{i % conversations:05d}", "seq": i, "role": "user",
            "content": f"Turn {i}: we deploy the shop with make deploy after the tests pass ({i % 97}).",
            "meta": "{}", "created_at": NOW}})
    for i in range(1, memories + 1):
        text = f"Memory {i}: the shop API uses snake_case keys in service {i % 113}."
        common = {"content": text, "kind": "fact", "namespace": "workspace:shop", "fingerprint": f"fp{i}",
                  "created_at": NOW, "updated_at": NOW}
        lines.append({"table": "candidates", "row": {**common, "id": i, "source": "turn", "confidence": 0.8,
                                                    "status": "approved", "memory_id": i}})
        lines.append({"table": "candidate_sightings", "row": {
            "id": i, "candidate_id": i, "turn_id": f"t{(i * 7) % max(1, turns):07d}", "source": "turn",
            "confidence": 0.8, "actor": "agent", "seen_at": NOW}})
        lines.append({"table": "memories", "row": {**common, "id": i, "candidate_id": i}})
        lines.append({"table": "history", "row": {
            "id": i, "entity": "memory", "entity_id": str(i), "action": "create", "actor": "human", "at": NOW,
            "after": json.dumps({"content": text}), "batch": f"b{i}", "person": "wei"}})
    dump = path.with_suffix(".jsonl")
    dump.write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    with Services.open(path) as svc:
        counts = svc.transfer.import_file(dump)
        with svc.store.transaction():
            vectors = rng.standard_normal((memories, 512)).astype("float32")
            svc.store.conn.executemany(
                "INSERT INTO embeddings (entity, entity_id, model, fingerprint, vector) VALUES ('memory', ?, "
                "'use-multilingual', ?, ?)", [(i + 1, f"fp{i + 1}", vectors[i].tobytes()) for i in range(memories)])
    dump.unlink()
    return {**counts, "embeddings": memories}


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "madohub_memory", *args], capture_output=True, text=True, env=env,
                          check=False)


def timed_transfer(source: Path, target: Path) -> float:
    started = time.perf_counter()
    result = cli("transfer", "--from", str(source), "--to", str(target))
    if result.returncode:
        raise SystemExit(result.stderr)
    return time.perf_counter() - started


def killed_and_resumed(source: Path, target: Path, turns: int) -> dict[str, object]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with subprocess.Popen([sys.executable, "-m", "madohub_memory", "transfer", "--from", str(source), "--to",
                           str(target), "--batch", "500"], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL,
                          text=True, env=env) as proc:
        assert proc.stderr is not None
        for line in proc.stderr:
            name, _, counts = line.partition(" ")
            if name == "turns" and int(counts.split("/")[0].replace(",", "")) >= turns // 2:
                break
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    started = time.perf_counter()
    resumed = cli("transfer", "--from", str(source), "--to", str(target))
    seconds = time.perf_counter() - started
    same = cli("--db", str(source), "export", str(target.with_suffix(".a.jsonl"))).returncode == 0 and \
        cli("--db", str(target), "export", str(target.with_suffix(".b.jsonl"))).returncode == 0 and \
        target.with_suffix(".a.jsonl").read_bytes() == target.with_suffix(".b.jsonl").read_bytes()
    return {"resume_s": round(seconds, 2), "resume_exit": resumed.returncode, "exports_identical": same}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=40_000)
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="madohub-bench-transfer-") as tmp:
        source = Path(tmp) / "source.db"
        counts = build_source(source, args.turns, args.memories)
        rows = sum(counts.values())
        runs = []
        for n in range(args.runs):
            runs.append(timed_transfer(source, Path(tmp) / f"target{n}.db"))
        started = time.perf_counter()
        again = cli("transfer", "--from", str(source), "--to", str(Path(tmp) / "target0.db"))
        complete_s = time.perf_counter() - started
        median = statistics.median(runs)
        report = {
            "rows": rows, "source_rows": counts, "runs_s": [round(r, 2) for r in runs],
            "transfer_median_s": round(median, 2), "rows_per_s": round(rows / median),
            "rerun_when_complete_s": round(complete_s, 2),
            "rerun_says": again.stdout.strip()[:60],
            "killed_at_half_of_turns": killed_and_resumed(source, Path(tmp) / "killed.db", args.turns),
        }
    print_report(report, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
