"""Reliability under load, faults and hostile input (issue 14). Bounded: stops by itself.

Usage: .venv/bin/python bench/reliability.py --json [--code PATH] [--parts remember,ingest,kill,fuzz]
       [--rounds 3] [--turns 6000] [--fuzz 200]
       .venv/bin/python bench/reliability.py --json --parts probes [--scenarios templated,chatgpt,worker]
       [--interval S] [--probe-rounds 1] [--min-probes 21]

Every part runs the real command line (``python -m madohub_memory``) in separate
processes against a real database file in a temporary folder; ``--code`` picks the source
tree under test (default: this checkout), so the same script measures another branch.

* ``remember``: 16 ``remember`` processes started at once, ``--rounds`` times: failures
  (non-zero exit) and Python tracebacks on stderr (target: 0).
* ``ingest``: a repetitive Claude Code transcript of ``--turns`` turns is ingested (with
  extraction) while a second process, warmed up, runs 10 probes (add, remember, approve,
  recall, pending; a fresh connection each, as a command would) every second: each probe's
  latency and error (target: every probe < 1 s), and the longest write-lock hold of the
  ingest process (``MADOHUB_LOCK_STATS``; target < 250 ms).
* ``kill``: an ingest is killed with SIGKILL while its extraction holds claims; the next
  ``ingest`` of the same file is timed, and whether all extraction was finished after it
  (target: within 30 s); if not, ``worker --once --job drain`` is tried too.
* ``fuzz``: ``--fuzz`` inputs per importer (the issue's crash reproducers, then mutated
  seeds; ``bench/_fuzz.py``), tracebacks counted (target: 0).
* ``probes`` (issue 27; ``bench/_probes.py``): what a person sees during a long write. Probes
  that are separate processes (CLI ``add``, ``approve``, ``recall``; ``recall`` over a real MCP
  client session) start every ``--interval`` seconds through each scenario, after the same
  probes on the idle store: ``templated`` (``ingest`` of a 6,000-line JSONL of similar lines,
  3,000 candidates, about 4 minutes), ``chatgpt`` (``ingest`` of the dev ChatGPT export) and ``worker``
  (``worker --once`` over the dev Claude Code sessions). Per scenario: each probe's wall time
  and failure, per kind n / failures / median / p95 / p95 above the idle median, the write's
  throughput with and without probes, its longest lock hold and wait, and load averages.
  A scenario is repeated (fresh store) until ``--min-probes`` probes ran during it.
  Targets: 0 failed; add/approve p95 < 2 s above idle; recall p95 < 1 s above idle;
  throughput falls <= 15 %.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
from _common import print_report  # noqa: E402

RULES = [
    "Always run make test before merging, no exceptions.",
    "Don't use npm in this repo, use pnpm.",
    "No, the API returns snake_case JSON keys, not camelCase.",
    "We decided to keep server-side rendering because of SEO traffic.",
    "Never push directly to main; open a pull request.",
    "Please stop adding comments that repeat the code.",
    "The staging database is on port 5433, not 5432.",
    "Use ruff for linting, not flake8.",
    "I prefer small commits with clear messages.",
    "Deploys happen only on Tuesdays.",
    "Don't mock the database in tests; use a real SQLite file.",
    "The root cause was the missing index on orders.created_at; add indexes with every new query.",
]
REPLIES = ["Understood, I'll do that.", "Got it.", "Okay, noted for the rest of the session.",
           "Right, I'll keep that in mind.", "Done."]


def _env(code: Path, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(code)
    env.pop("MADOHUB_DB", None)
    env.update(extra)
    return env


def _cli(code: Path, db: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "madohub_memory", *args, "--db", str(db)]


def _counts(db: Path) -> dict[str, int]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)
    try:
        rows = conn.execute("SELECT extract_state, COUNT(*) FROM turns GROUP BY extract_state").fetchall()
        return dict(rows)
    except sqlite3.Error:
        return {}
    finally:
        conn.close()


def write_transcript(path: Path, turns: int, seed: int = 6000, repetitive: bool = True) -> None:
    """A Claude Code session: user turns repeating a dozen rules with small variations."""
    rng = random.Random(seed)
    lines = []
    stamp = 1_767_000_000
    for i in range(turns // 2):
        if repetitive:
            rule = rng.choice(RULES)
            text = rule if rng.random() < 0.7 else f"{rule} (project {rng.randint(1, 40)})"
        else:
            text = f"{rng.choice(RULES)} Item {i}: remember that ticket {i} belongs to team {i % 17}."
        lines.append({"type": "user", "sessionId": "bench-session", "uuid": f"u{i}", "cwd": "/home/dev/shop",
                      "timestamp": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(stamp + 60 * i)),
                      "message": {"role": "user", "content": text}})
        lines.append({"type": "assistant", "sessionId": "bench-session", "uuid": f"a{i}",
                      "timestamp": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(stamp + 60 * i + 5)),
                      "message": {"id": f"m{i}", "role": "assistant",
                                  "content": [{"type": "text", "text": rng.choice(REPLIES)}]}})
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")


# -- 1: simultaneous remember --------------------------------------------------------------


def part_remember(code: Path, tmp: Path, rounds: int, processes: int = 16) -> dict[str, Any]:
    db = tmp / "remember.db"
    subprocess.run(_cli(code, db, "add", "The user likes green tea", "--kind", "preference"),
                   env=_env(code), cwd=code, capture_output=True, timeout=300)
    failures: list[int] = []
    tracebacks = 0
    seconds: list[float] = []
    example = None
    for r in range(rounds):
        started = time.perf_counter()
        procs = [subprocess.Popen(
            _cli(code, db, "remember", f"Round {r} fact {i}: service {i} listens on port {8000 + 100 * r + i}",
                 "--kind", "fact"),
            env=_env(code), cwd=code, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        ) for i in range(processes)]
        failed = 0
        for proc in procs:
            try:
                _out, err = proc.communicate(timeout=600)
            except subprocess.TimeoutExpired:
                proc.kill()
                _out, err = proc.communicate()
            if proc.returncode != 0:
                failed += 1
                example = example or err.strip().splitlines()[-1][:300] if err.strip() else example
            if "Traceback (most recent call last)" in err:
                tracebacks += 1
        failures.append(failed)
        seconds.append(round(time.perf_counter() - started, 1))
    return {"processes": processes, "rounds": rounds, "failures_per_round": failures,
            "failures": sum(failures), "tracebacks": tracebacks, "round_seconds": seconds,
            "example_error": example}


# -- 2: ingest beside probes ---------------------------------------------------------------

PROBE = textwrap.dedent("""
    import json, sys, time
    from madohub_memory.services import Services
    db, count, interval = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    with Services.open(db) as svc:  # warm up: model, segmenter, vector index
        svc.recall.search("warm up", record=False)
        seed = svc.review.add_manual("Probe seed: builds use make", "fact", "workspace:probe").candidate_id
    print("ready", flush=True)
    sys.stdin.readline()
    results = []
    ops = ["add", "recall", "approve", "remember", "pending"]
    pending_ids = [seed]
    for i in range(count):
        time.sleep(interval)
        op = ops[i % len(ops)]
        started = time.perf_counter()
        error = None
        try:
            with Services.open(db) as svc:
                if op == "add":
                    pending_ids.append(svc.review.add_manual(f"Probe {i}: the probe service uses port {9000 + i}",
                                                             "fact", "workspace:probe").candidate_id)
                elif op == "recall":
                    svc.recall.search("which port does the probe service use?", k=5)
                elif op == "approve":
                    svc.review.approve(pending_ids.pop())
                elif op == "remember":
                    svc.review.remember(f"Probe {i}: deploys of the probe go through CI", "fact",
                                        "workspace:probe")
                else:
                    svc.review.pending()
        except Exception as exc:
            error = f"{type(exc).__name__}: {exc}"[:200]
        results.append({"probe": op, "ms": round((time.perf_counter() - started) * 1000, 1), "error": error,
                        "at_s": round(time.time(), 2)})
    print(json.dumps(results), flush=True)
""")


def part_ingest(code: Path, tmp: Path, turns: int, probes: int = 10, interval: float = 1.0) -> dict[str, Any]:
    db = tmp / "ingest.db"
    transcript = tmp / "session.jsonl"
    write_transcript(transcript, turns)
    stats = tmp / "lockstats.jsonl"
    probe = subprocess.Popen([sys.executable, "-c", PROBE, str(db), str(probes), str(interval)],
                             env=_env(code), cwd=code, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    assert probe.stdout is not None and probe.stdin is not None
    ready = probe.stdout.readline().strip()
    if ready != "ready":
        return {"error": f"probe process did not start: {probe.stderr.read()[-500:] if probe.stderr else ''}"}
    started = time.time()
    ingest = subprocess.Popen(_cli(code, db, "ingest", str(transcript)),
                              env=_env(code, MADOHUB_LOCK_STATS=str(stats)), cwd=code,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    probe.stdin.write("go\n")
    probe.stdin.flush()
    try:
        out, err = ingest.communicate(timeout=1800)
    except subprocess.TimeoutExpired:
        ingest.kill()
        out, err = ingest.communicate()
    ingest_seconds = time.time() - started
    probe_out, _probe_err = probe.communicate(timeout=600)
    try:
        results = json.loads(probe_out.strip().splitlines()[-1])
    except (ValueError, IndexError):
        results = []
    holds = [json.loads(line) for line in stats.read_text().splitlines()] if stats.exists() else []
    ingest_hold = [h for h in holds if h["pid"] == ingest.pid]
    try:
        summary = json.loads(out)
    except ValueError:
        summary = {}
    latencies = [r["ms"] for r in results]
    during = [r for r in results if r["at_s"] <= started + ingest_seconds]
    return {
        "turns": turns, "ingest_exit": ingest.returncode, "ingest_seconds": round(ingest_seconds, 1),
        "ingest_error": err.strip().splitlines()[-1][:300] if ingest.returncode not in (0, 3) and err.strip() else None,
        "candidates": summary.get("candidates"),
        "longest_write_lock_ms": ingest_hold[-1]["max_hold_ms"] if ingest_hold else None,
        "p99_write_lock_ms": ingest_hold[-1].get("p99_hold_ms") if ingest_hold else None,
        "write_locks_over_250ms": ingest_hold[-1].get("over_250ms") if ingest_hold else None,
        "write_transactions": ingest_hold[-1]["transactions"] if ingest_hold else None,
        "probes": results, "probes_during_ingest": len(during),
        "probe_max_ms": max(latencies) if latencies else None,
        "probe_median_ms": round(statistics.median(latencies), 1) if latencies else None,
        "probe_failures": sum(1 for r in results if r["error"]),
        "probes_over_1s": sum(1 for r in results if r["ms"] >= 1000),
    }


# -- 3: kill -9 mid-ingest -------------------------------------------------------------------


def part_kill(code: Path, tmp: Path, turns: int = 6000) -> dict[str, Any]:
    db = tmp / "kill.db"
    transcript = tmp / "kill.jsonl"
    write_transcript(transcript, turns, seed=9, repetitive=False)
    proc = subprocess.Popen(_cli(code, db, "ingest", str(transcript)), env=_env(code), cwd=code,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.time() + 600
    state: dict[str, int] = {}
    while time.time() < deadline and proc.poll() is None:
        time.sleep(0.05)
        state = _counts(db) if db.exists() else {}
        if state.get("claimed", 0) > 0:  # extraction holds claims: kill it mid-round
            break
    if proc.poll() is not None:
        return {"error": "the ingest finished before it could be killed", "state": state}
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    killed_state = _counts(db)
    started = time.perf_counter()
    subprocess.run(_cli(code, db, "ingest", str(transcript)), env=_env(code), cwd=code, capture_output=True, timeout=900)
    next_run = time.perf_counter() - started
    after = _counts(db)
    finished = after.get("pending", 0) + after.get("claimed", 0) == 0
    report: dict[str, Any] = {"turns": turns, "state_when_killed": killed_state, "next_run": "ingest (same file)",
                              "next_run_seconds": round(next_run, 1), "finished_after_next_run": finished,
                              "state_after_next_run": after}
    if not finished:
        started = time.perf_counter()
        subprocess.run(_cli(code, db, "worker", "--once", "--job", "drain"), env=_env(code), cwd=code,
                       capture_output=True, timeout=900)
        report["drain_seconds"] = round(time.perf_counter() - started, 1)
        report["state_after_drain"] = _counts(db)
        report["finished_after_drain"] = sum(
            report["state_after_drain"].get(k, 0) for k in ("pending", "claimed")) == 0
    report["time_to_finish_s"] = report["next_run_seconds"] if finished else None
    return report


# -- 4: fuzz ---------------------------------------------------------------------------------


def part_fuzz(code: Path, per_importer: int) -> dict[str, Any]:
    run = subprocess.run([sys.executable, str(ROOT / "bench" / "_fuzz_run.py"), "--n", str(per_importer)],
                         env=_env(code), cwd=code, capture_output=True, text=True, timeout=3600)
    try:
        data = json.loads(run.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return {"error": run.stderr[-500:]}
    importers = {k: v for k, v in data.items() if k != "logged_signatures"}
    return {"inputs_per_importer": per_importer, "importers": importers,
            "tracebacks": sum(v["tracebacks"] for v in importers.values()),
            "logged_signatures": data.get("logged_signatures", {})}


# Seconds between two probes: as in the report (every 8 s) through the 4-minute import;
# every 2 s through the short ones (about 10 s each), which are repeated to reach --min-probes.
PROBE_INTERVALS = {"templated": 8.0, "chatgpt": 2.0, "worker": 2.0}


def part_probes(code: Path, tmp: Path, scenarios: list[str], interval: float | None, rounds: int,
                min_probes: int, eval_dir: Path) -> dict[str, Any]:
    import _probes

    def turns_of(db: Path) -> int:
        return sum(_counts(db).values())

    out: dict[str, Any] = {}
    for name in scenarios:
        if name == "templated":
            source = _probes.write_templated(tmp / "similar.jsonl")
            command = lambda db, source=source: _cli(code, db, "ingest", str(source), "--json")  # noqa: E731
            settings: dict[str, Any] = {}
        elif name == "chatgpt":
            source = eval_dir / "chatgpt_conversations_dev.json"
            command = lambda db, source=source: _cli(code, db, "ingest", str(source), "--json")  # noqa: E731
            settings = {}
        elif name == "worker":
            command = lambda db: _cli(code, db, "worker", "--once")  # noqa: E731
            settings = {"workers.watch_paths": [str(eval_dir / "claude_code")], "workers.watch_enabled": True}
        else:
            raise SystemExit(f"unknown scenario {name!r}: use templated, chatgpt or worker")
        out[name] = _probes.scenario(code, tmp, name, command, settings=settings,
                                     interval=interval or PROBE_INTERVALS[name], rounds=rounds,
                                     idle_rounds=2, min_probes=min_probes, turns_of=turns_of)
    return out


def _eval_dir() -> Path:
    for base in (ROOT, *ROOT.parents):
        candidate = base / "shared" / "eval" / "dev"
        if candidate.is_dir():
            return candidate
    return ROOT.parent / "shared" / "eval" / "dev"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--code", type=Path, default=ROOT, help="source tree under test (default: this checkout)")
    parser.add_argument("--parts", default="remember,ingest,kill,fuzz")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--turns", type=int, default=6000)
    parser.add_argument("--fuzz", type=int, default=200)
    parser.add_argument("--scenarios", default="templated,chatgpt,worker", help="probes: which writes to probe")
    parser.add_argument("--interval", type=float, default=None,
                        help="probes: seconds between two probes (default: 8 for templated, 2 for the others)")
    parser.add_argument("--probe-rounds", type=int, default=1, help="probes: runs with probes per scenario (at least)")
    parser.add_argument("--min-probes", type=int, default=21, help="probes: repeat a scenario until this many ran")
    parser.add_argument("--eval", type=Path, default=_eval_dir(), help="the dev evaluation data folder")
    args = parser.parse_args()
    parts = [p.strip() for p in args.parts.split(",") if p.strip()]
    report: dict[str, Any] = {"code": str(args.code.resolve()), "load_average_1min": round(os.getloadavg()[0], 2)}
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        if "remember" in parts:
            report["remember_16"] = part_remember(args.code, tmp, args.rounds)
        if "ingest" in parts:
            report["ingest_with_probes"] = part_ingest(args.code, tmp, args.turns)
        if "kill" in parts:
            report["kill_mid_ingest"] = part_kill(args.code, tmp)
        if "fuzz" in parts:
            report["fuzz"] = part_fuzz(args.code, args.fuzz)
        if "probes" in parts:
            report["probes"] = part_probes(args.code.resolve(), tmp, [s.strip() for s in args.scenarios.split(",")],
                                           args.interval, args.probe_rounds, args.min_probes, args.eval)
    print_report(report, args.json)


if __name__ == "__main__":
    main()
