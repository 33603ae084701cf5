"""Run the frozen one-folder app the way a person and an agent would, and report on it.

``make package`` runs this after PyInstaller. From the bundle's own binary (nothing of the
development environment on its path, user folders in a temporary home) it:

* renders the demo dashboard offscreen to PNG (``gui --demo --screenshot``), in English and Chinese,
  with the nearest approved memory answered by its helper process (the binary started again);
* answers ``--version`` (median of 5 cold starts);
* adds and approves memories, then ``recall`` finds the right one (first call builds the
  model cache; then the median of 5 cold starts), and ``remember`` dedups a paraphrase;
* serves MCP over stdio: a real client session lists the tools;
* runs the background worker daemon for a few seconds and stops it with SIGTERM;
* installs the desktop launcher for the bundle into a temporary XDG home (validated).

Prints the bundle's size and these times (JSON with ``--json``); exits 1 if a check failed.
Usage: ``python packaging/check_bundle.py dist/madohub-memory [--json]``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

MEMORIES = [
    "The user prefers pnpm over npm in every JavaScript project",
    "Deploys to production happen only on Tuesdays",
    "项目的数据库是 PostgreSQL 16",
]


class Bundle:
    def __init__(self, folder: Path, home: Path) -> None:
        self.binary = folder / "madohub-memory"
        self.home = home
        self.env = {k: v for k, v in os.environ.items()
                    if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "MADOHUB_DB", "MADOHUB_CACHE_DIR")}
        self.env.update(HOME=str(home), XDG_CACHE_HOME=str(home / "cache"), XDG_DATA_HOME=str(home / "data"),
                        XDG_CONFIG_HOME=str(home / "config"), QT_QPA_PLATFORM="offscreen",
                        PATH=os.environ.get("PATH", "/usr/bin:/bin"))
        self.db = home / "memory.db"

    def run(self, *args: str, stdin: bytes | None = None) -> tuple[subprocess.CompletedProcess[bytes], float]:
        started = time.perf_counter()
        done = subprocess.run([str(self.binary), *args], input=stdin, capture_output=True, env=self.env,
                              cwd=self.home, timeout=300)
        return done, time.perf_counter() - started

    def ok(self, *args: str) -> tuple[str, float]:
        done, seconds = self.run(*args)
        if done.returncode != 0:
            raise CheckFailed(f"{' '.join(args)} exited {done.returncode}: {done.stderr.decode()[-1500:]}")
        return done.stdout.decode(), seconds


class CheckFailed(Exception):
    pass


def folder_size(folder: Path) -> tuple[int, int]:
    files = [p for p in folder.rglob("*") if p.is_file() and not p.is_symlink()]
    return sum(p.stat().st_size for p in files), len(files)


def ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


def check_screenshots(bundle: Bundle, out: Path) -> dict[str, Any]:
    from PySide6.QtGui import QImage

    times = {}
    nearest = {}
    for lang in ("en", "zh_CN"):
        target = out / f"bundle-dashboard-{lang}.png"
        shown, seconds = bundle.ok("--json", "gui", "--demo", "--screenshot", str(target), "--tab", "pending",
                                   "--lang", lang)
        image = QImage(str(target))
        if (image.width(), image.height()) != (1280, 800):
            raise CheckFailed(f"the screenshot {target} is {image.width()}x{image.height()}, not 1280x800")
        # The nearest approved memory comes from a helper process (multiprocessing "spawn"):
        # in a frozen app that is the bundle's binary started again, which must answer.
        answer = json.loads(shown.splitlines()[-1])
        if not answer["nearest_settled"] or "not available" in answer["nearest"] or "不可用" in answer["nearest"]:
            raise CheckFailed(f"the nearest-memory helper did not answer in the bundle: {answer}")
        times[lang] = ms(seconds)
        nearest[lang] = answer["nearest"]
    return {"gui_screenshot_ms": times, "gui_nearest": nearest,
            "screenshots": [str(out / f"bundle-dashboard-{x}.png") for x in times]}


def check_recall(bundle: Bundle, runs: int) -> dict[str, Any]:
    db = str(bundle.db)
    for text in MEMORIES:
        added = json.loads(bundle.ok("--db", db, "--json", "add", text, "--kind", "fact")[0])
        bundle.ok("--db", db, "approve", str(added["candidate_id"]))
    query = ("recall", "which package manager should I use?", "-k", "3")
    out, first = bundle.ok("--db", db, "--json", *query)
    hits = json.loads(out)
    hits = hits.get("memories", hits) if isinstance(hits, dict) else hits
    if not hits or "pnpm" not in hits[0]["content"]:
        raise CheckFailed(f"recall did not put the pnpm memory first: {out[:500]}")
    cold = [bundle.ok("--db", db, *query)[1] for _ in range(runs)]
    outcomes = [json.loads(bundle.ok("--db", db, "--json", "remember", text, "--kind", "preference")[0])["outcome"]
                for text in ("The user likes dark mode in every editor", "User likes dark mode in all editors")]
    if outcomes != ["new", "seen_again"]:
        raise CheckFailed(f"remember did not dedup a paraphrase: {outcomes}")
    return {"recall_first_ms": ms(first), "recall_ms": ms(statistics.median(cold)), "remember_dedup": outcomes}


def check_mcp(bundle: Bundle) -> dict[str, Any]:
    from mcp import Client, StdioServerParameters

    params = StdioServerParameters(command=str(bundle.binary), args=["mcp", "--db", str(bundle.db)],
                                   env=bundle.env, cwd=str(bundle.home))

    async def tools() -> list[str]:
        async with Client(params) as client:
            return sorted(t.name for t in (await client.list_tools()).tools)

    started = time.perf_counter()
    names = asyncio.run(tools())
    seconds = time.perf_counter() - started
    if not {"remember", "recall", "list_memories"} <= set(names):
        raise CheckFailed(f"the MCP server lists {names}")
    return {"mcp_tools": names, "mcp_list_tools_ms": ms(seconds)}


def check_worker(bundle: Bundle, seconds: float = 6.0) -> dict[str, Any]:
    proc = subprocess.Popen([str(bundle.binary), "--db", str(bundle.db), "worker"], env=bundle.env,
                            cwd=bundle.home, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(seconds)
    if proc.poll() is not None:
        raise CheckFailed(f"the worker stopped by itself: {proc.stderr.read().decode()[-1500:]}")  # type: ignore[union-attr]
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    if proc.returncode != 0 or b"Traceback" in err:
        raise CheckFailed(f"the worker ended with {proc.returncode}: {err.decode()[-1500:]}")
    status = json.loads(bundle.ok("--db", str(bundle.db), "--json", "worker", "--once", "--job", "sweep")[0])
    return {"worker_daemon": "ran and stopped on SIGTERM", "worker_jobs": [j["name"] for j in status["jobs"]]}


def check_desktop(bundle: Bundle) -> dict[str, Any]:
    out = json.loads(bundle.ok("--json", "desktop", "install")[0])
    entry = bundle.home / "data" / "applications" / "io.madohub.Memory.desktop"
    if f"Exec={bundle.binary} gui" not in entry.read_text(encoding="utf-8"):
        raise CheckFailed("the installed launcher does not start the bundle")
    validator = shutil.which("desktop-file-validate")
    if validator:
        done = subprocess.run([validator, str(entry)], capture_output=True, text=True)
        if done.returncode != 0:
            raise CheckFailed(done.stdout)
    return {"desktop_install_files": len(out["installed"])}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="the one-folder bundle (dist/madohub-memory)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    folder = args.folder.resolve()
    size, files = folder_size(folder)
    report: dict[str, Any] = {"bundle": str(folder), "size_mb": round(size / 1e6, 1), "files": files}
    with tempfile.TemporaryDirectory(prefix="madohub-bundle-") as tmp:
        bundle = Bundle(folder, Path(tmp))
        try:
            version, _ = bundle.ok("--version")
            report["version"] = version.strip()
            report["version_ms"] = ms(statistics.median(bundle.ok("--version")[1] for _ in range(args.runs)))
            report.update(check_screenshots(bundle, folder.parent))
            report.update(check_recall(bundle, args.runs))
            report.update(check_mcp(bundle))
            report.update(check_worker(bundle))
            report.update(check_desktop(bundle))
            report["ok"] = True
        except (CheckFailed, subprocess.TimeoutExpired, OSError) as exc:
            report["ok"] = False
            report["failure"] = str(exc)
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        for key, value in report.items():
            print(f"{key}: {value}")
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
