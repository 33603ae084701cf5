"""Running the real Codex CLI offline, in a home of its own, against tests/responses_server.py.

Each run gets its own ``HOME`` and ``CODEX_HOME`` (nothing of the person's ``~/.codex`` is
read or written), a project folder that is a repository (so its ``workspace:`` is the
folder's name) and a ``config.toml`` whose model provider is the scripted endpoint on
127.0.0.1. ``codex exec`` is run to completion (a generous timeout for a loaded machine);
``resume=True`` continues the last session in the same rollout file.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from responses_server import write_codex_config

CODEX_TIMEOUT_S = 300


@dataclass
class CodexHome:
    root: Path
    home: Path
    codex_home: Path
    project: Path
    env: dict[str, str]

    def sessions(self) -> Path:
        return self.codex_home / "sessions"

    def rollouts(self) -> list[Path]:
        return sorted(self.sessions().rglob("rollout-*.jsonl")) if self.sessions().is_dir() else []


def codex_home(root: Path, project: str = "shop") -> CodexHome:
    """A fresh HOME with ``.codex`` and a repository folder ``root/src/<project>``."""
    home = root / "home"
    codex = home / ".codex"
    folder = root / "src" / project
    (folder / ".git").mkdir(parents=True)
    codex.mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI", "CODEX", "MADOHUB_DB"))}
    env.update(HOME=str(home), CODEX_HOME=str(codex), SCRIPTED_API_KEY="sk-scripted-test", NO_COLOR="1",
               MADOHUB_HOOK_LOG=str(root / "hook.log"))
    # setup codex writes the madohub-memory it finds on PATH into config.toml: this checkout's
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    if not env.get("MADOHUB_CACHE_DIR") and not env.get("XDG_CACHE_HOME"):
        env["XDG_CACHE_HOME"] = str(Path.home() / ".cache")  # the embedding model's cache, built once per machine
    return CodexHome(root, home, codex, folder, env)


def configure(target: CodexHome, base_url: str, extra: str = "") -> Path:
    return write_codex_config(target.codex_home, base_url, extra)


def run_codex(binary: Path, target: CodexHome, prompt: str, *, resume: bool = False,
              overrides: tuple[str, ...] = (), timeout: float = CODEX_TIMEOUT_S) -> subprocess.CompletedProcess[str]:
    """``codex exec PROMPT`` (or ``codex exec resume --last PROMPT``) in the project folder."""
    command = [str(binary), "exec", "--skip-git-repo-check"]
    for override in overrides:
        command += ["-c", override]
    command += ["resume", "--last", prompt] if resume else [prompt]
    done = subprocess.run(command, cwd=target.project, env=target.env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=timeout, check=False)
    if done.returncode != 0:
        raise AssertionError(f"codex exec failed ({done.returncode}): {done.stderr[-3000:]}")
    return done
