"""Extraction through Claude Code's headless mode, for people with Claude Code but no API key.

Runs ``claude -p --output-format json`` with our system prompt (``--system-prompt``) and
the masked transcript on stdin (never on the command line, where other users could see
it), with no tools (``--tools ""``), no MCP servers (``--strict-mcp-config``), one turn,
and ``--no-session-persistence`` so the extraction run is not saved as a session that
the transcript watcher would import again. It runs in a scratch folder (no project's
CLAUDE.md is read) with ``MADOHUB_HOOK_DISABLE=1`` so our own hook ignores it.

The reply is one JSON object: ``{"type": "result", "subtype": "success", "is_error":
false, "result": "<the model's text>", "usage": {...}, "total_cost_usd": ...}``; an
array of messages (with ``--verbose``) is accepted too, its last ``result`` element read.
Failures: a timeout kills the process group and is retried; ``is_error`` with a rate or
usage limit is retried, or pauses extraction until the reset time Claude names; a
missing program, a CLI too old for these flags, or a missing login postpone extraction
with the sentence that says what to do.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from madohub_memory.extraction.limits import ExtractionPostponed, RetryableError
from madohub_memory.extraction.model_backend import ModelExtractor

HOOK_DISABLE_ENV = "MADOHUB_HOOK_DISABLE"
_LIMIT = re.compile(r"(?i)\b429\b|rate.?limit|usage limit|overloaded|too many requests|\b529\b")
_RESET = re.compile(r"\|(\d{10})\b")  # "Claude AI usage limit reached|1760000000"
_LOGIN = re.compile(r"(?i)not logged in|please run /login|invalid api key|authentication|unauthori[sz]ed")
_UNKNOWN_OPTION = re.compile(r"(?i)unknown option\s+'?(--?[\w-]+)")


def scratch_dir() -> str:
    """A folder without a CLAUDE.md or project settings for the headless runs."""
    path = Path(tempfile.gettempdir()) / "madohub-claude-extractor"
    path.mkdir(parents=True, exist_ok=True)
    return str(path)


class ClaudeCodeExtractor(ModelExtractor):
    """Candidates from ``claude -p``, validated item by item like the HTTP backend."""

    name = "claude-code"
    where = "Claude Code"

    def __init__(
        self, executable: str = "claude", model: str = "", timeout: float = 180.0,
        workdir: str | None = None, **options: Any,
    ) -> None:
        super().__init__(**options)
        self.executable = executable or "claude"
        self.model = model.strip()
        self.timeout = timeout
        self.workdir = workdir

    def command(self, program: str, system: str) -> list[str]:
        args = [program, "-p", "--output-format", "json", "--system-prompt", system, "--max-turns", "1",
                "--tools", "", "--strict-mcp-config", "--no-session-persistence"]
        if self.model:
            args += ["--model", self.model]
        return args

    def _complete(self, system: str, user: str) -> tuple[str, int | None]:
        program = shutil.which(os.path.expanduser(self.executable))
        if program is None:
            raise ExtractionPostponed(
                "Claude Code was not found ({executable!r}): install it, or set "
                "extraction.claude.executable to its full path.", executable=self.executable,
            )
        env = {**os.environ, HOOK_DISABLE_ENV: "1"}
        process = subprocess.Popen(
            self.command(program, system), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            cwd=self.workdir or scratch_dir(), env=env, start_new_session=os.name == "posix",
        )
        try:
            out, err = process.communicate(user.encode("utf-8"), timeout=self.timeout)
        except subprocess.TimeoutExpired:
            _kill(process)
            raise RetryableError(f"no reply within {self.timeout:g} s") from None
        return self._read(process.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), program)

    def _read(self, code: int, out: str, err: str, program: str) -> tuple[str, int | None]:
        result = _result_object(out)
        if result is None:
            detail = (err.strip() or out.strip()).splitlines()[-1:] or [f"exit status {code}"]
            message = detail[0][:300]
            option = _UNKNOWN_OPTION.search(err)
            if option:
                raise ExtractionPostponed(
                    "Claude Code at {program} is too old for headless extraction (it does not know {option}): "
                    "run `claude update`.", program=program, option=option.group(1),
                )
            if _LOGIN.search(err + out):
                raise ExtractionPostponed("Claude Code is not logged in: run `claude` once and log in.")
            if _LIMIT.search(err + out):
                raise RetryableError(f"rate limited: {message}", _reset_seconds(err + out))
            raise RetryableError(f"exit status {code}: {message}")
        text = result.get("result")
        if result.get("is_error") or code != 0:
            message = str(text or result.get("subtype") or f"exit status {code}")[:300]
            if _LOGIN.search(message):
                raise ExtractionPostponed("Claude Code is not logged in: run `claude` once and log in.")
            if _LIMIT.search(message):
                raise RetryableError(f"rate limited: {message}", _reset_seconds(message))
            if result.get("subtype") == "error_max_turns":
                return "", _tokens(result)  # tried to use a tool: an unreadable reply, asked again
            raise RetryableError(message)
        return (text if isinstance(text, str) else ""), _tokens(result)


def _result_object(out: str) -> dict[str, Any] | None:
    text = out.strip()
    if not text:
        return None
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        data = None
        for line in reversed(text.splitlines()):  # stream-style output: the last result line
            try:
                candidate = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(candidate, dict) and candidate.get("type") == "result":
                data = candidate
                break
    if isinstance(data, list):
        data = next((d for d in reversed(data) if isinstance(d, dict) and d.get("type") == "result"), None)
    return data if isinstance(data, dict) and ("result" in data or "is_error" in data) else None


def _tokens(result: dict[str, Any]) -> int | None:
    usage = result.get("usage")
    if not isinstance(usage, dict):
        return None
    keys = ("input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")
    values = [usage.get(k) for k in keys]
    numbers = [v for v in values if isinstance(v, int) and not isinstance(v, bool)]
    return sum(numbers) if numbers else None


def _reset_seconds(text: str) -> float | None:
    match = _RESET.search(text)
    return max(0.0, int(match.group(1)) - time.time()) if match else None


def _kill(process: subprocess.Popen[bytes]) -> None:
    try:
        if os.name == "posix":
            os.killpg(process.pid, signal.SIGKILL)
        else:
            process.kill()
    except (ProcessLookupError, PermissionError):
        pass
    try:
        process.communicate(timeout=5)
    except subprocess.TimeoutExpired:
        pass
