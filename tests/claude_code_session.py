"""Running the real Claude Code CLI in a throwaway home against a scripted model server.

:class:`ClaudeHome` is one isolated user: ``HOME`` (so ``~/.claude/settings.json``,
``~/.claude.json`` and ``~/.claude/projects/`` are the test's own), a project folder that is
a repository (``workspace:shop``), the database, and the environment the CLI and our hook
run with (``ANTHROPIC_BASE_URL`` on 127.0.0.1, a dummy key, no auto-update, no telemetry).
The model cache stays the runner's (read-mostly; rebuilding it per test would cost seconds).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from agent_clients import REPOSITORY, require_client

from madohub_memory.services import Services

VENV_BIN = Path(sys.executable).parent
RUN_TIMEOUT = 300.0  # one CLI run: node start, hooks, MCP server start, on a loaded 2-core machine


class ClaudeHome:
    def __init__(self, root: Path, base_url: str) -> None:
        self.claude = str(require_client("claude"))
        self.root = root
        self.home = root / "home"
        self.project = self.home / "src" / "shop"
        (self.project / ".git").mkdir(parents=True)  # a repository: workspace:shop
        self.db = root / "memory.db"
        self.log = root / "hook.log"
        self.runs = 0
        cache = os.environ.get("MADOHUB_CACHE_DIR") or os.environ.get("XDG_CACHE_HOME") or str(
            Path.home() / ".cache")
        env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC", "CLAUDE", "MADOHUB"))}
        env.update(
            HOME=str(self.home), ANTHROPIC_BASE_URL=base_url, ANTHROPIC_API_KEY="sk-ant-test-not-a-key",
            DISABLE_AUTOUPDATER="1", DISABLE_TELEMETRY="1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
            PATH=os.pathsep.join([str(REPOSITORY / "node_modules" / ".bin"), str(VENV_BIN), "/usr/bin", "/bin"]),
            MADOHUB_HOOK_LOG=str(self.log),
            # Claude Code gives an MCP server 30 s to connect; a loaded test machine may need more
            MCP_TIMEOUT="180000",
        )
        if os.environ.get("MADOHUB_CACHE_DIR"):
            env["MADOHUB_CACHE_DIR"] = cache
        else:
            env["XDG_CACHE_HOME"] = cache
        self.env = env

    def madohub(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        done = subprocess.run([sys.executable, "-m", "madohub_memory", *args], capture_output=True, text=True,
                              env=self.env, cwd=self.project, timeout=RUN_TIMEOUT)
        if check and done.returncode != 0:
            raise AssertionError(f"madohub-memory {' '.join(args)} failed: {done.stderr}")
        return done

    def setup(self) -> subprocess.CompletedProcess[str]:
        return self.madohub("setup", "claude-code", "--db", str(self.db))

    def run(self, *args: str, inline: bool = False) -> dict[str, Any]:
        """``claude -p ... --output-format json`` in the project; its JSON result."""
        env = {**self.env, **({"MADOHUB_HOOK_INLINE": "1"} if inline else {})}
        self.runs += 1
        debug = self.root / f"claude-debug-{self.runs}.log"  # read back when a test fails (mcp_log)
        done = subprocess.run([self.claude, *args, "--output-format", "json", "--debug-file", str(debug)],
                              capture_output=True, text=True, env=env, cwd=self.project, timeout=RUN_TIMEOUT,
                              stdin=subprocess.DEVNULL)
        try:
            result: dict[str, Any] = json.loads(done.stdout)
        except json.JSONDecodeError:
            raise AssertionError(f"claude {' '.join(args)} exited {done.returncode}: {done.stdout[-800:]} "
                                 f"{done.stderr[-800:]}\nhook.log: {self.hook_log()}\n{self.mcp_log()}") from None
        assert done.returncode == 0 and not result.get("is_error"), (result, done.stderr[-800:], self.hook_log())
        return result

    def mcp_log(self) -> str:
        """What Claude Code's debug logs say about MCP servers (for a failing test's message)."""
        lines = []
        for log in sorted(self.root.glob("claude-debug-*.log")):
            lines += [f"{log.name}: {line}" for line in log.read_text(errors="replace").splitlines()
                      if "MCP server" in line or "[MCP]" in line]
        return "\n".join(lines[-40:]) or "(no MCP lines in the debug logs)"

    def transcript(self, session_id: str) -> Path:
        found = list((self.home / ".claude" / "projects").glob(f"*/{session_id}.jsonl"))
        assert len(found) == 1, f"no transcript for {session_id}"
        return found[0]

    def hook_log(self) -> str:
        return self.log.read_text(encoding="utf-8") if self.log.exists() else "(no hook.log)"

    def services(self) -> Services:
        return Services.open(self.db)

    def wait_until_extracted(self, timeout: float = 180.0) -> None:
        """The Stop hook hands extraction to a detached worker: wait until nothing is pending
        or claimed and no job runs (a condition polled with a deadline, not a fixed sleep)."""
        deadline = time.monotonic() + timeout
        while True:
            with self.services() as svc:
                states = svc.ingest.pending()
                running = any(job["running"] for job in svc.jobs.status())
            if not states.get("pending") and not states.get("claimed") and not running:
                return
            if time.monotonic() > deadline:
                raise AssertionError(f"extraction did not finish: {states}\n{self.hook_log()}")
            time.sleep(0.2)

    def dashboards(self) -> list[int]:
        """Dashboards running on this test's database (started by a slash command, detached)."""
        found = []
        for proc in Path("/proc").iterdir():
            if not proc.name.isdigit():
                continue
            try:
                command = (proc / "cmdline").read_bytes().split(b"\0")
                environ = (proc / "environ").read_bytes().split(b"\0")
            except OSError:
                continue
            if b"madohub_memory" in command and b"gui" in command and f"MADOHUB_DB={self.db}".encode() in environ:
                found.append(int(proc.name))
        return found

    def stop_dashboards(self) -> None:
        """End those dashboards, each by its id (only processes this test started)."""
        for pid in self.dashboards():
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
