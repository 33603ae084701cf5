"""Keyboard triage under a real X display, keys typed by ``xdotool`` (the issue's reproduction).

Run it under Xvfb: ``xvfb-run -a -s "-screen 0 1400x900x24" python bench/gui_keys_x11.py --json``.
It starts ``madohub-memory gui`` as a separate process on a store with 79 pending
candidates and 3,000 approved memories, focuses the window, types a scripted review session
at human speed (100 and 150 ms between keys by default), waits until the database stops
changing, quits with Ctrl+Q, and compares every candidate's stored state with what the keys
meant for the candidate on screen (``_triage.simulate``). ``--python`` and ``--pythonpath``
run another checkout's code on the same script (to see the defects on the old code).

``--during-import N`` (issue 27): an ``ingest`` of an N-line JSONL of similar lines runs in
another process while the keys are typed (typing starts once its extraction is writing
candidates); a watcher reads the stored state every 50 ms, and each decision's time from its
key to its stored state is reported (``stored_within_s``: target every decision within 2 s).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _probes import write_templated
from _triage import Step, compare, queue_order, session, simulate, store_copy, stored_state

ASCII_TEXTS = [" (ok)", " checked", " v2", " - confirmed"]
XKEYS = {"A": "a", "X": "x", "Space": "space", "j": "j", "k": "k", "Ctrl+Z": "ctrl+z"}


def xdotool(*args: str, check: bool = True) -> str:
    out = subprocess.run(["xdotool", *args], capture_output=True, text=True, timeout=120)
    if check and out.returncode != 0:
        raise SystemExit(f"xdotool {' '.join(args)} failed: {out.stderr.strip()}")
    return out.stdout.strip()


def ascii_session(decisions: int, seed: int) -> list[Step]:
    steps = session(decisions, seed)
    for n, step in enumerate(steps):
        if step.key == "E":
            step.text = ASCII_TEXTS[n % len(ASCII_TEXTS)]
    return steps


def wait_quiet(db: Path, quiet_s: float = 3.0, limit_s: float = 120.0, ids: list[int] | None = None) -> None:
    """Until the stored state (of ``ids``, else of every candidate) has not changed for ``quiet_s`` seconds."""
    last, since, start = None, time.monotonic(), time.monotonic()
    while time.monotonic() - start < limit_s:
        state = stored_state(db)[0]
        if ids is not None:
            state = {cid: state[cid] for cid in ids}
        if state != last:
            last, since = state, time.monotonic()
        elif time.monotonic() - since >= quiet_s:
            return
        time.sleep(0.5)


class Watcher:
    """Reads the stored state of the queue's candidates every 50 ms from outside and keeps each
    change with its time: when was each decision stored."""

    def __init__(self, db: Path, ids: list[int]) -> None:
        self.db = db
        self.ids = ids
        self.changes: dict[int, list[tuple[float, str]]] = {cid: [] for cid in ids}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        conn = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True, timeout=30)
        marks = ",".join("?" * len(self.ids))
        last: dict[int, str] = {}
        try:
            while not self._stop.is_set():
                rows = conn.execute(f"SELECT id, status FROM candidates WHERE id IN ({marks})", self.ids).fetchall()
                now = time.monotonic()
                for cid, status in rows:
                    if last.get(cid) != status:
                        if cid in last:
                            self.changes[cid].append((now, status))
                        last[cid] = status
                time.sleep(0.05)
        finally:
            conn.close()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(10)

    def stored_after(self, cid: int, status: str, pressed: float) -> float | None:
        for at, value in self.changes[cid]:
            if at >= pressed - 0.02 and value == status:
                return at - pressed
        return None


def _start_import(db: Path, folder: Path, lines: int, python: str, env: dict[str, str],
                  pythonpath: str) -> subprocess.Popen[bytes]:
    """An ingest in another process; returns once its extraction writes candidates."""
    source = write_templated(folder / "similar.jsonl", lines)
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)
    before = conn.execute("SELECT COUNT(*) FROM candidates").fetchone()[0]
    proc = subprocess.Popen([python, "-m", "madohub_memory", "ingest", str(source), "--db", str(db), "--json"],
                            env={**env, "QT_QPA_PLATFORM": "offscreen"}, cwd=pythonpath,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and proc.poll() is None:
        if conn.execute("SELECT COUNT(*) FROM candidates").fetchone()[0] > before + 20:
            break
        time.sleep(0.2)
    conn.close()
    return proc


def run(interval_ms: int, pending: int, memories: int, decisions: int, python: str, pythonpath: str,
        quit_key: str, load_s: float, click: bool, import_lines: int = 0) -> dict[str, object]:
    folder = Path(tempfile.mkdtemp(prefix="madohub-x11-"))
    db = store_copy(folder, pending, memories)
    order, originals = queue_order(db)
    steps = ascii_session(decisions, seed=interval_ms)
    trace: list[tuple[int, int, str]] = []
    intended = simulate(order, originals, steps, trace)
    importer: subprocess.Popen[bytes] | None = None
    watcher: Watcher | None = None
    pressed: dict[int, float] = {}
    imported: dict[str, Any] = {}
    env = {**os.environ, "QT_QPA_PLATFORM": "xcb", "XDG_CONFIG_HOME": str(folder / "config"),
           "PYTHONPATH": pythonpath, "MADOHUB_DB": str(db)}
    env.pop("QT_QPA_PLATFORM_PLUGIN_PATH", None)
    # started from the checkout's folder: ``-m`` puts the working folder first on sys.path
    proc = subprocess.Popen([python, "-m", "madohub_memory", "gui", "--db", str(db), "--lang", "en"],
                            env=env, cwd=pythonpath, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wid = xdotool("search", "--sync", "--onlyvisible", "--name", "^MadoHub Memory$").splitlines()[0]
        time.sleep(load_s)  # the queue, its first rows and the first detail load
        xdotool("windowfocus", "--sync", wid)
        if click:  # as a person does when the list does not have the focus: click it, go to the top
            xdotool("mousemove", "--window", wid, "300", "140", "click", "1")
            time.sleep(0.5)
            xdotool("key", "ctrl+Home")
            time.sleep(1.0)
        # ``xdotool type`` takes every argument after it as text, so each E step is three
        # invocations; runs of plain keys go in one, with --delay between them. Each command
        # keeps the steps it presses and when, after its start (an E step: its Ctrl+Return).
        commands: list[tuple[list[str], list[tuple[int, int]]]] = []
        keys: list[str] = []
        marks: list[tuple[int, int]] = []
        for number, step in enumerate(steps):
            if step.key == "E":
                commands += [(["key", "--delay", str(interval_ms), *keys, "e"] if keys else ["key", "e"], marks),
                             (["type", "--delay", str(interval_ms), step.text], []),
                             (["key", "ctrl+Return"], [(number, 0)])]
                keys, marks = [], []
            else:
                marks.append((number, len(keys)))
                keys.append(XKEYS[step.key])
        if keys:
            commands.append((["key", "--delay", str(interval_ms), *keys], marks))
        if import_lines:
            importer = _start_import(db, folder, import_lines, python, env, pythonpath)
            watcher = Watcher(db, order)
        started = time.monotonic()
        for command, at in commands:
            begun = time.monotonic()
            for number, offset in at:
                pressed[number] = begun + offset * interval_ms / 1000
            xdotool(*command)
            time.sleep(interval_ms / 1000)
        typing_s = time.monotonic() - started
        if importer is not None:
            imported["running_when_typing_ended"] = importer.poll() is None
        if quit_key == "ctrl+q":
            xdotool("key", "ctrl+q")  # at once: decisions may still be queued
        elif quit_key == "kill":
            proc.kill()  # a crash: what was stored must be exact, the rest visibly still pending
        wait_quiet(db, ids=order if import_lines else None)
        if quit_key == "terminate":
            proc.terminate()
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()
        if importer is not None:  # stopped once the review is over (what it wrote stays)
            imported["running_when_dashboard_closed"] = importer.poll() is None
            if importer.poll() is None:
                importer.kill()
            imported["exit"] = importer.wait(30)
        if watcher is not None:
            watcher.stop()
    stderr = proc.stderr.read() if proc.stderr else ""
    if os.environ.get("MADOHUB_BENCH_STDERR"):  # the dashboard's whole stderr, to read after
        Path(os.environ["MADOHUB_BENCH_STDERR"]).write_text(stderr)
    stored, flagged = stored_state(db)
    result = compare(intended, stored, flagged)
    if watcher is not None:
        waits = [watcher.stored_after(cid, status, pressed[number]) for number, cid, status in trace]
        seen = [w for w in waits if w is not None]
        imported.update(lines=import_lines, decisions_and_undos=len(trace), not_seen_stored=waits.count(None),
                        stored_within_s={"median": round(statistics.median(seen), 2) if seen else None,
                                         "max": round(max(seen), 2) if seen else None,
                                         "over_2s": sum(1 for w in seen if w > 2.0)})
        result["during_import"] = imported
    shutil.rmtree(folder, ignore_errors=True)
    tracebacks = stderr.count("Traceback")
    # "not done" (still pending) is what a crash may leave; a decided candidate in another
    # state than the keys meant is never acceptable
    result["decided_wrong"] = int(result["wrong_state"]) - int(result["lost_decisions"])
    return {"interval_ms": interval_ms, "keys": intended.keys, "typing_s": round(typing_s, 1),
            "decided": sum(1 for s in intended.status.values() if s != "pending"),
            "exit_code": proc.returncode, "tracebacks": tracebacks,
            "stderr_tail": stderr.strip().splitlines()[-3:] if tracebacks else [], **result}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--intervals", default="100,150")
    parser.add_argument("--pending", type=int, default=79)
    parser.add_argument("--memories", type=int, default=3000)
    parser.add_argument("--decisions", type=int, default=50)
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--pythonpath", default=str(Path(__file__).resolve().parent.parent))
    parser.add_argument("--quit", default="ctrl+q", choices=["ctrl+q", "terminate", "kill"],
                        help="ctrl+q right after the last key; terminate once the database is quiet; "
                             "kill -9 right after the last key (a crash)")
    parser.add_argument("--load-seconds", type=float, default=6.0)
    parser.add_argument("--click", action="store_true",
                        help="click into the list and press Ctrl+Home before typing (when it lacks the focus)")
    parser.add_argument("--during-import", type=int, default=0, metavar="LINES",
                        help="type while another process imports a JSONL of LINES similar lines (issue 27)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not os.environ.get("DISPLAY"):
        raise SystemExit("No X display: run this under xvfb-run.")
    runs = [run(int(ms), args.pending, args.memories, args.decisions, args.python, args.pythonpath,
                args.quit, args.load_seconds, args.click, args.during_import) for ms in args.intervals.split(",")]
    report = {"store": {"pending": args.pending, "memories": args.memories}, "code": args.pythonpath,
              "load_average_1min": round(os.getloadavg()[0], 2), "runs": runs}
    print(json.dumps(report, ensure_ascii=False) if args.json else json.dumps(report, ensure_ascii=False, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
