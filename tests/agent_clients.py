"""The real coding-agent clients (Claude Code, Codex CLI) for end-to-end tests.

They come from npm at the versions pinned in ``package.json``/``package-lock.json``
(``make agent-clients``, part of ``make test``) and run offline against a scripted model
server on 127.0.0.1 that the test starts. On a developer's machine without Node or without
the clients, the tests that need them skip with one sentence; CI sets
``MADOHUB_REQUIRE_AGENT_CLIENTS=1`` (``.ci/run``) so that a missing client fails instead.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[1]
# package name on npm -> the command it installs
CLIENTS = {"claude": "@anthropic-ai/claude-code", "codex": "@openai/codex"}


def client_path(command: str) -> Path | None:
    """``node_modules/.bin/<command>`` of this checkout (``$MADOHUB_<COMMAND>_BIN`` first), or None."""
    override = os.environ.get(f"MADOHUB_{command.upper()}_BIN")
    if override:
        return Path(override) if Path(override).is_file() else None
    candidate = REPOSITORY / "node_modules" / ".bin" / command
    return candidate if candidate.exists() else None


def require_client(command: str) -> Path:
    """The client's path; skips the test (or fails it in CI) when it is not installed."""
    found = client_path(command)
    if found is not None and shutil.which("node") is not None:  # codex's launcher is a node script
        return found
    reason = (f"the real {CLIENTS.get(command, command)} client is not installed "
              f"(run `make agent-clients`, which needs Node.js and npm)")
    if os.environ.get("MADOHUB_REQUIRE_AGENT_CLIENTS", "") not in ("", "0"):
        pytest.fail(reason)
    pytest.skip(reason)
