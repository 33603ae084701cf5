"""What a person sees during a long write (issue 27): probes that are separate processes.

While an import (or ``worker --once``) runs in its own process, probes are started at a fixed
interval, each a separate process doing what a person's CLI, the dashboard or an agent does:

* ``add``: ``madohub-memory add TEXT --kind fact`` (a new pending candidate);
* ``approve``: ``madohub-memory approve ID`` (one of the candidates seeded pending);
* ``recall``: ``madohub-memory recall QUERY --json``;
* ``mcp_recall``: the ``recall`` tool over a real MCP client session (``mcp.Client`` over stdio
  to ``madohub-memory mcp``), one client process kept open through the run, as an agent keeps
  its server.

Each probe's wall time (process start to exit; for MCP, the tool call) and failure (non-zero
exit, a tool error) are recorded. The same probes run a few times on the idle store first, in
the same run, so "above idle" compares like with like on a shared machine. The write's own
throughput is measured with probes and, on a fresh copy, without them.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

KINDS = ("add", "approve", "recall", "mcp_recall")
QUERY = "which port does the probe service use?"

SEED = textwrap.dedent("""
    import json, sys
    from madohub_memory.services import Services
    db, memories, pending, settings = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), json.loads(sys.argv[4])
    with Services.open(db) as svc:
        for key, value in settings.items():
            svc.settings.set(key, value)
        for i in range(memories):
            cid = svc.review.add_manual(f"The probe service number {i} listens on port {7000 + i}", "fact",
                                        "workspace:probe").candidate_id
            svc.review.approve(cid)
        ids = [svc.review.add_manual(f"Probe pool {i}: the staging host {i} runs the nightly job at {i % 24}:00",
                                     "fact", "workspace:probe").candidate_id for i in range(pending)]
        svc.recall.search("warm up")  # vectors of the memories stored, as on a store in use
    print(json.dumps(ids))
""")

MCP_CLIENT = textwrap.dedent("""
    import asyncio, json, sys, time
    from mcp import Client, StdioServerParameters
    db, code = sys.argv[1], sys.argv[2]
    params = StdioServerParameters(command=sys.executable, args=["-m", "madohub_memory", "mcp", "--db", db],
                                   cwd=code, env={**__import__("os").environ, "PYTHONPATH": code})

    async def main():
        async with Client(params) as client:
            await client.call_tool("recall", {"query": "warm up"})
            print("ready", flush=True)
            loop = asyncio.get_running_loop()
            while True:
                line = await loop.run_in_executor(None, sys.stdin.readline)
                if not line.strip():
                    return
                started = time.perf_counter()
                error = None
                try:
                    result = await client.call_tool("recall", {"query": line.strip()})
                    if result.is_error:
                        error = result.content[0].text[:200]
                except Exception as exc:
                    error = f"{type(exc).__name__}: {exc}"[:200]
                print(json.dumps({"ms": round((time.perf_counter() - started) * 1000, 1), "error": error}), flush=True)

    asyncio.run(main())
""")


def env_for(code: Path, **extra: str) -> dict[str, str]:
    """The environment of every process of a run. The model caches go to a folder of this
    checkout's own: on a machine shared by several installations the user cache keeps two
    builds per model, so another installation's process may evict this one's, and a probe then
    spends 10-20 s rebuilding it (seen in a run: two probes of 19 and 24 s, none waiting for
    the lock)."""
    import tempfile
    import zlib

    env = dict(os.environ)
    env["PYTHONPATH"] = str(code)
    env.pop("MADOHUB_DB", None)
    env.setdefault("MADOHUB_CACHE_DIR", str(Path(tempfile.gettempdir())
                                            / f"madohub-bench-cache-{zlib.crc32(str(code).encode()):08x}"))
    env.update(extra)
    return env


def cli(db: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "madohub_memory", *args, "--db", str(db)]


def seed(code: Path, db: Path, memories: int = 30, pending: int = 80, settings: dict[str, Any] | None = None) -> list[int]:
    run = subprocess.run([sys.executable, "-c", SEED, str(db), str(memories), str(pending), json.dumps(settings or {})],
                         env=env_for(code), cwd=code, capture_output=True, text=True, timeout=900)
    if run.returncode != 0:
        raise SystemExit(f"seeding {db} failed: {run.stderr[-800:]}")
    return [int(i) for i in json.loads(run.stdout.strip().splitlines()[-1])]


class McpClient:
    """One MCP client process (and its server) kept open through a run."""

    def __init__(self, code: Path, db: Path) -> None:
        self.proc = subprocess.Popen([sys.executable, "-c", MCP_CLIENT, str(db), str(code)], env=env_for(code),
                                     cwd=code, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True)
        assert self.proc.stdout is not None
        ready = self.proc.stdout.readline().strip()
        if ready != "ready":
            raise SystemExit("the MCP probe client did not start")
        self._lock = threading.Lock()

    def recall(self) -> tuple[float, str | None]:
        with self._lock:  # one session: calls go one after another, as an agent's do
            assert self.proc.stdin is not None and self.proc.stdout is not None
            self.proc.stdin.write(QUERY + "\n")
            self.proc.stdin.flush()
            answer = json.loads(self.proc.stdout.readline())
        return float(answer["ms"]), answer["error"]

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.write("\n")
            self.proc.stdin.flush()
        try:
            self.proc.wait(60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)


class Prober:
    """Runs probes of one store; each probe is a separate process (or an MCP call)."""

    def __init__(self, code: Path, db: Path, pending_ids: list[int]) -> None:
        self.code = code
        self.db = db
        self.pending = list(pending_ids)
        self.mcp = McpClient(code, db)
        self.stats = db.with_name(db.name + ".probe-lockstats")
        self.count = 0
        self._lock = threading.Lock()

    def probe(self, kind: str) -> dict[str, Any]:
        with self._lock:
            self.count += 1
            number = self.count
            target = self.pending.pop() if kind == "approve" else None
        started = time.perf_counter()
        error = None
        if kind == "mcp_recall":
            ms, error = self.mcp.recall()
        else:
            if kind == "add":
                args = ["add", f"Probe {number} at {time.time():.3f}: the probe service uses port {9000 + number}",
                        "--kind", "fact", "--namespace", "workspace:probe"]
            elif kind == "approve":
                args = ["approve", str(target)]
            else:
                args = ["recall", QUERY, "--json"]
            proc = subprocess.Popen(cli(self.db, *args), env=env_for(self.code, MADOHUB_LOCK_STATS=str(self.stats)),
                                    cwd=self.code, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            _out, err = proc.communicate(timeout=600)
            ms = (time.perf_counter() - started) * 1000
            if proc.returncode != 0:
                error = (err.strip().splitlines() or ["exit " + str(proc.returncode)])[-1][:300]
            # how much of it was waiting for the write lock (the rest: start-up, model, CPU)
            return {"kind": kind, "ms": round(ms, 1), "error": error,
                    "lock_wait_ms": _lock_stats(self.stats, proc.pid).get("max_wait_ms")}
        return {"kind": kind, "ms": round(ms, 1), "error": error}

    def idle(self, rounds: int) -> list[dict[str, Any]]:
        return [self.probe(kind) for _ in range(rounds) for kind in KINDS]

    def close(self) -> None:
        self.mcp.close()


def _running(proc: subprocess.Popen[str]) -> bool:
    """Whether ``proc`` still runs, without reaping it (its CPU time is read when it is)."""
    try:
        return os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None
    except ChildProcessError:
        return False


def during(prober: Prober, proc: subprocess.Popen[str], interval: float, first_after: float = 1.0,
           first_kind: int = 0) -> list[dict[str, Any]]:
    """Start a probe every ``interval`` seconds (kinds in turn from ``first_kind``, each on its
    own thread) until ``proc`` exits; returns every probe started while it ran, with its start
    time. A repeated short write goes on with the next kind, so that every kind is sampled."""
    results: list[dict[str, Any]] = []
    threads: list[threading.Thread] = []
    started = time.perf_counter()
    number = first_kind
    time.sleep(first_after)
    while _running(proc):
        kind = KINDS[number % len(KINDS)]
        number += 1
        at = time.perf_counter() - started

        def run(kind: str = kind, at: float = at) -> None:
            results.append({**prober.probe(kind), "at_s": round(at, 2)})

        thread = threading.Thread(target=run)
        thread.start()
        threads.append(thread)
        deadline = time.perf_counter() + interval
        while _running(proc) and time.perf_counter() < deadline:
            time.sleep(0.05)
    for thread in threads:
        thread.join(900)
    return sorted(results, key=lambda r: r["at_s"])


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def summarise(idle: list[dict[str, Any]], probes: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for kind in KINDS:
        base = [r["ms"] for r in idle if r["kind"] == kind and not r["error"]]
        mine = [r for r in probes if r["kind"] == kind]
        times = [r["ms"] for r in mine]
        entry: dict[str, Any] = {"n": len(mine), "failures": sum(1 for r in mine if r["error"]),
                                 "idle_median_ms": round(statistics.median(base), 1) if base else None}
        if times:
            entry.update(median_ms=round(statistics.median(times), 1), p95_ms=round(_p(times, 0.95), 1),
                         max_ms=max(times))
            waits = [r["lock_wait_ms"] for r in mine if r.get("lock_wait_ms") is not None]
            if waits:
                entry["lock_wait_p95_ms"] = round(_p(waits, 0.95), 1)
                entry["lock_wait_max_ms"] = max(waits)
            if base:
                entry["p95_above_idle_ms"] = round(_p(times, 0.95) - statistics.median(base), 1)
        out[kind] = entry
    return out


def write_templated(path: Path, lines: int = 6000) -> Path:
    """The issue's file: a JSONL of similar lines, one candidate per user line (3,000 for
    6,000 lines). Near-duplicates of one kind make each draft's dedup slow (a write
    transaction of the import holds the lock 0.1-0.5 s), as in the report."""
    with open(path, "w", encoding="utf-8") as out:
        for i in range(lines // 2):
            out.write(json.dumps({"role": "user", "content": f"We decided to keep the build on version {i} because"
                                  " the upgrade broke the exports."}) + "\n")
            out.write(json.dumps({"role": "assistant", "content": "Understood, noted."}) + "\n")
    return path


def _lock_stats(path: Path, pid: int) -> dict[str, Any]:
    if not path.exists():
        return {}
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    mine = [r for r in rows if r.get("pid") == pid]
    return {k: v for k, v in mine[-1].items() if k != "pid"} if mine else {}


def scenario(code: Path, folder: Path, name: str, command: Callable[[Path], list[str]], *,
             settings: dict[str, Any] | None = None, interval: float, rounds: int, idle_rounds: int,
             min_probes: int, turns_of: Callable[[Path], int], max_rounds: int = 16) -> dict[str, Any]:
    """``rounds`` writes with probes (more, up to ``max_rounds``, until ``min_probes`` probes
    ran during them) and one without, each on a freshly seeded store."""
    template = folder / f"{name}-seeded.db"
    pending = seed(code, template, settings=settings)
    report: dict[str, Any] = {"scenario": name, "interval_s": interval, "load_average_at_start": _load()}

    def fresh(label: str) -> Path:
        db = folder / f"{name}-{label}.db"
        for suffix in ("", "-wal", "-shm"):
            if Path(f"{db}{suffix}").exists():
                Path(f"{db}{suffix}").unlink()
        shutil.copy(template, db)
        return db

    def timed(db: Path, prober: Prober | None, first_kind: int = 0) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        stats = folder / f"{db.name}.lockstats"
        errors = folder / f"{db.name}.stderr"
        started = time.perf_counter()
        with open(errors, "w") as err_file:  # files, not pipes: a full pipe would stall the writer
            proc = subprocess.Popen(command(db), env=env_for(code, MADOHUB_LOCK_STATS=str(stats)), cwd=code,
                                    stdout=subprocess.DEVNULL, stderr=err_file, text=True)
            probes = during(prober, proc, interval, first_kind=first_kind) if prober is not None else []
            _pid, status, usage = os.wait4(proc.pid, 0)  # its CPU time too: the machine is shared
            proc.returncode = os.waitstatus_to_exitcode(status)
        seconds = time.perf_counter() - started
        cpu = usage.ru_utime + usage.ru_stime
        err = errors.read_text(errors="replace")
        turns = turns_of(db)
        run = {"seconds": round(seconds, 1), "turns": turns, "turns_per_s": round(turns / seconds, 1),
               "cpu_seconds": round(cpu, 1), "turns_per_cpu_s": round(turns / cpu, 1) if cpu else None,
               "exit": proc.returncode, "error": err.strip().splitlines()[-1][:300] if proc.returncode and err.strip()
               else None, "lock": _lock_stats(stats, proc.pid), "load_average": _load()}
        return run, probes

    baseline, _ = timed(fresh("alone"), None)
    report["without_probes"] = baseline
    runs: list[dict[str, Any]] = []
    probes: list[dict[str, Any]] = []
    idle: list[dict[str, Any]] = []
    for number in range(max(rounds, max_rounds)):
        if number >= rounds and len(probes) >= min_probes:
            break
        db = fresh(f"probed{number}")
        prober = Prober(code, db, pending)
        try:
            idle += prober.idle(idle_rounds)
            run, found = timed(db, prober, first_kind=len(probes))
        finally:
            prober.close()
        runs.append(run)
        probes += [{**p, "round": number} for p in found]
    report["with_probes"] = runs
    with_s = statistics.median(r["turns_per_s"] for r in runs)
    report["throughput_drop_pct"] = round(100 * (1 - with_s / baseline["turns_per_s"]), 1) if baseline["turns_per_s"] else None
    # The part of the write's time spent waiting for the probes' writes or letting them go
    # first (what taking turns costs it), against its whole time: the rest of any drop is
    # CPU taken by the probes and by the other programs of a shared machine.
    report["write_waited_for_others_pct"] = round(statistics.median(
        100 * (r["lock"].get("waited_ms") or 0) / 1000 / r["seconds"] for r in runs), 2) if runs else None
    report["probes_during"] = len(probes)
    report["probe_failures"] = sum(1 for p in probes if p["error"])
    report["by_kind"] = summarise(idle, probes)
    report["idle"] = idle
    report["probes"] = probes
    report["load_average_at_end"] = _load()
    return report


def _load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]
