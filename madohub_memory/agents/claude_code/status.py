"""Is the Claude Code integration installed, and does it work? (for ``doctor``)

Installed: our hooks in the user's settings (or the project's, for the folder ``doctor``
runs in) on every event ``setup claude-code`` puts them on, and the ``madohub`` MCP server
registered. Working: each hook command still runs (it is started with an event it ignores
and must exit 0), the MCP server answers an MCP handshake and lists its tools, and the last
line the hook wrote to ``hook.log`` is not an error. Each finding is one line with
``ok`` True (fine), False (broken: what to do is in the detail) or None (not set up).
Nothing here changes a file.
"""

from __future__ import annotations

import json
import os
import queue
import re
import shlex
import shutil
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

from madohub_memory.agents import config_files
from madohub_memory.agents.claude_code.setup import (
    HOOK_EVENTS,
    MCP_NAME,
    disabled_warning,
    hooks_disabled_in,
    is_our_hook,
    is_our_server,
    mcp_config_path,
    settings_path,
)
from madohub_memory.agents.config_files import shown_path
from madohub_memory.core.errors import UserError

PROBE_TIMEOUT = 60.0  # a cold start of the hook or the MCP server on a loaded machine
PROBE_EVENT = {"hook_event_name": "MadohubDoctorCheck"}
_LOG_LINE = re.compile(r"^(\S+)\s+(.*)$")


def _check(check: str, ok: bool | None, detail: str) -> dict[str, Any]:
    return {"check": check, "ok": ok, "detail": detail}


def _our_hooks(path: Path) -> tuple[dict[str, str], str | None]:
    """``{event: command}`` of our hooks in a settings file, or the sentence why it cannot be read."""
    try:
        settings, _ = config_files.read_json_object(path)
    except UserError as exc:
        return {}, str(exc)
    hooks = settings.get("hooks")
    found: dict[str, str] = {}
    if isinstance(hooks, dict):
        for event, groups in hooks.items():
            for group in groups if isinstance(groups, list) else []:
                for hook in group.get("hooks", []) if isinstance(group, dict) else []:
                    if isinstance(hook, dict) and is_our_hook(hook.get("command")):
                        found.setdefault(event, hook["command"])
    return found, None


def hook_checks(project: str | None = None, probe: bool = True) -> list[dict[str, Any]]:
    files = [settings_path(None)]
    if project is not None and settings_path(project).resolve() != files[0].resolve():
        files.append(settings_path(project))  # (in the home folder, the project's file is the user's)
    checks = []
    commands: set[str] = set()
    for path in files:
        if not path.exists():
            continue
        found, problem = _our_hooks(path)
        if problem:
            checks.append(_check("Claude Code hooks", False, problem))
            continue
        if not found:
            continue
        missing = [e for e in HOOK_EVENTS if e not in found]
        detail = f"{', '.join(e for e in HOOK_EVENTS if e in found)} in {shown_path(path)}"
        if missing:
            checks.append(_check("Claude Code hooks", False, f"{detail}; missing {', '.join(missing)} "
                                 "(run `madohub-memory setup claude-code` again)"))
        else:
            checks.append(_check("Claude Code hooks", True, detail))
        commands.update(found.values())
    if not checks:
        return [_check("Claude Code hooks", None, "not set up (`madohub-memory setup claude-code`)")]
    disabled = disabled_warning(hooks_disabled_in(project))
    if disabled:
        checks.append(_check("Claude Code hooks run", False, disabled))
    for command in sorted(commands):
        checks.append(_probe_hook(command) if probe else _check("Claude Code hook command", None, command))
    return checks


def _probe_hook(command: str) -> dict[str, Any]:
    try:
        program = shlex.split(command)[0]
    except (ValueError, IndexError):
        return _check("Claude Code hook command", False, f"`{command}` cannot be read as a command")
    if shutil.which(program) is None:
        return _check("Claude Code hook command", False, f"{program} is not there any more: run "
                      "`madohub-memory setup claude-code` again from the installed program")
    try:
        done = subprocess.run(command, shell=True, input=json.dumps(PROBE_EVENT).encode(), capture_output=True,
                              timeout=PROBE_TIMEOUT)
    except subprocess.TimeoutExpired:
        return _check("Claude Code hook command", False, f"`{command}` did not finish within {PROBE_TIMEOUT:g} s")
    if done.returncode != 0:
        tail = (done.stderr.decode("utf-8", "replace").strip().splitlines() or [f"exit status {done.returncode}"])[-1]
        return _check("Claude Code hook command", False, f"`{command}` failed: {tail[:200]}")
    return _check("Claude Code hook command", True, f"`{command}` runs")


def mcp_checks(project: str | None = None, probe: bool = True) -> list[dict[str, Any]]:
    checks = []
    for path in [mcp_config_path(None)] + ([mcp_config_path(project)] if project is not None else []):
        if not path.exists():
            continue
        try:
            config, _ = config_files.read_json_object(path)
        except UserError as exc:
            checks.append(_check("Claude Code MCP server", False, str(exc)))
            continue
        servers = config.get("mcpServers")
        entry = servers.get(MCP_NAME) if isinstance(servers, dict) else None
        if entry is None:
            continue
        if not is_our_server(entry):
            checks.append(_check("Claude Code MCP server", False, f"{MCP_NAME} in {shown_path(path)} runs "
                                 f"`{entry.get('command') if isinstance(entry, dict) else entry}`, not madohub-memory"))
            continue
        command = [str(entry["command"]), *[str(a) for a in entry.get("args") or []]]
        where = f"{MCP_NAME} in {shown_path(path)}"
        if not probe:
            checks.append(_check("Claude Code MCP server", True, f"{where}: {shlex.join(command)}"))
            continue
        env = entry.get("env") if isinstance(entry.get("env"), dict) else {}
        tools, problem = probe_mcp(command, {str(k): str(v) for k, v in env.items()})
        if problem:
            checks.append(_check("Claude Code MCP server", False, f"{where}: {problem}"))
        else:
            checks.append(_check("Claude Code MCP server", True, f"{where} answers with {len(tools)} tools "
                                 f"({', '.join(sorted(tools)[:4])}, …)"))
    return checks or [_check("Claude Code MCP server", None, "not registered (`madohub-memory setup claude-code`)")]


def probe_mcp(command: list[str], env: dict[str, str] | None = None) -> tuple[list[str], str | None]:
    """Start the server, do the MCP handshake and list the tools; ``(names, None)`` or ``([], why)``.

    Each request waits for its answer before the next is sent, and stdin is closed only after
    the tool list came back: a server that stops reading at end of input may drop a request
    still in flight, which would look like a broken server on a slow machine."""
    if shutil.which(command[0]) is None:
        return [], f"{command[0]} is not there any more"
    try:
        process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   env={**os.environ, **(env or {})})
    except OSError as exc:
        return [], f"cannot start: {exc.strerror or exc}"
    replies: queue.Queue[bytes] = queue.Queue()
    errors: list[bytes] = []
    assert process.stdin is not None and process.stdout is not None and process.stderr is not None
    stdout, stderr = process.stdout, process.stderr

    def read_replies() -> None:
        for line in stdout:
            replies.put(line)

    threading.Thread(target=read_replies, daemon=True).start()
    threading.Thread(target=lambda: errors.extend(stderr), daemon=True).start()
    deadline = time.monotonic() + PROBE_TIMEOUT

    stdin = process.stdin

    def send(message: dict[str, Any]) -> None:
        stdin.write((json.dumps(message) + "\n").encode())
        stdin.flush()

    def answer(request_id: int) -> dict[str, Any] | None:
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = replies.get(timeout=min(left, 0.5))
            except queue.Empty:
                if process.poll() is not None and replies.empty():
                    break  # it exited without answering
                continue
            try:
                reply = json.loads(line)
            except ValueError:
                continue
            if isinstance(reply, dict) and reply.get("id") == request_id:
                return reply
        return None

    try:
        send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "madohub-memory doctor", "version": "1"}}})
        listed = None
        if answer(1) is not None:
            send({"jsonrpc": "2.0", "method": "notifications/initialized"})
            send({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}})
            listed = answer(2)
    except OSError:  # it stopped before reading: its stderr says why
        listed = None
    finally:
        try:
            stdin.close()
            process.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            process.kill()
            process.wait()
    if listed is not None and isinstance(listed.get("result"), dict):
        return [str(t.get("name")) for t in listed["result"].get("tools", []) if isinstance(t, dict)], None
    if time.monotonic() >= deadline:
        return [], f"no answer within {PROBE_TIMEOUT:g} s"
    tail = (b"".join(errors).decode("utf-8", "replace").strip().splitlines() or ["no reply to the handshake"])[-1]
    return [], tail[:200]


def log_check(log: Path) -> dict[str, Any]:
    """The hook's last line in ``hook.log``: when it last ran and whether that was an error."""
    try:
        with open(log, "rb") as handle:
            handle.seek(max(0, os.path.getsize(log) - 8192))
            tail = handle.read().decode("utf-8", "replace").splitlines()
    except OSError:
        return _check("Claude Code hook log", None, f"{shown_path(log)}: no hook has run yet")
    lines = [line for line in tail if _LOG_LINE.match(line) and line[:4].isdigit()]
    if not lines:
        return _check("Claude Code hook log", None, f"{shown_path(log)}: no hook has run yet")
    stamp, message = _LOG_LINE.match(lines[-1]).groups()  # type: ignore[union-attr]
    if message.startswith("error:"):
        return _check("Claude Code hook log", False, f"the last hook run ({stamp}) failed: {message[6:].strip()[:200]}"
                      f" (more in {shown_path(log)})")
    return _check("Claude Code hook log", True, f"last hook run {stamp}: {message[:120]}")


def plugin_enabled() -> str | None:
    """The id of our Claude Code plugin when the user's settings enable it (``madohub-memory@…``)."""
    try:
        settings, _ = config_files.read_json_object(settings_path(None))
    except UserError:
        return None
    enabled = settings.get("enabledPlugins")
    if isinstance(enabled, dict):
        for plugin, on in enabled.items():
            if str(plugin).startswith("madohub-memory@") and on is True:
                return str(plugin)
    return None


def status(project: str | None = None, log: Path | None = None, probe: bool = True) -> list[dict[str, Any]]:
    """Every finding about the integration (see the module docstring)."""
    checks = hook_checks(project, probe) + mcp_checks(project, probe)
    plugin = plugin_enabled()
    if plugin is not None:
        hooks_too = any(c["check"] == "Claude Code hooks" and c["ok"] is not None for c in checks)
        checks = [c for c in checks if c["ok"] is not None]  # "not set up" is no news beside the plugin
        checks.insert(0, _check("Claude Code plugin", not hooks_too, f"{plugin} is enabled" + (
            "; setup's hooks are installed too, so every event runs twice: remove one "
            "(`madohub-memory setup claude-code --uninstall`)" if hooks_too else "")))
    installed = any(c["ok"] is not None for c in checks)
    if installed and log is not None:
        checks.append(log_check(log))
    return checks
