"""``setup claude-code``: our hooks in Claude Code's settings and our MCP server registered.

What it changes, and nothing else:

- ``hooks`` of ``~/.claude/settings.json`` (``$CLAUDE_CONFIG_DIR`` honoured), or of
  ``DIR/.claude/settings.json`` with ``--project``: one matcher group per event in
  :data:`HOOK_EVENTS` running ``madohub-memory hook``. The user's other hooks, on these
  events or others, and every other setting stay as they are. An entry of ours is known by
  its command (the ``madohub-memory`` program, or ``python -m madohub_memory``, with
  ``hook``), so an older one (README style, another path, another ``--db``) is updated in
  place rather than added twice.
- the MCP server ``madohub`` (``madohub-memory mcp``): with ``claude mcp add`` when the CLI
  is on PATH (user scope, or project scope: ``DIR/.mcp.json``), else the documented JSON
  entry written into that same file. A server named ``madohub`` running something else is
  left alone, with a warning.

Every file goes through :mod:`madohub_memory.agents.config_files` (refused untouched when
malformed or read-only, backed up first, written atomically, not written when nothing
changes). ``uninstall`` removes exactly our entries; when what is left equals a backup, that
backup's bytes are put back, so the user's file returns as it was, formatting included.

Why the program's full path: hooks run from whatever shell starts Claude Code (a desktop
launcher's PATH may lack ``~/.local/bin``); the full path of the ``madohub-memory`` that ran
the set-up always resolves, and ``doctor`` checks that it still does.
"""

from __future__ import annotations

import copy
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from madohub_memory.agents import config_files
from madohub_memory.agents.config_files import shown_path
from madohub_memory.core.errors import UserError

HOOK_EVENTS = ("SessionStart", "Stop", "PreCompact", "PostCompact")
MCP_NAME = "madohub"
CLAUDE_TIMEOUT = 120.0  # seconds for one `claude mcp ...` (a node start on a loaded machine)


# -- where things are --------------------------------------------------------------------------


def config_dir() -> Path:
    """Claude Code's configuration folder: ``$CLAUDE_CONFIG_DIR``, else ``~/.claude``."""
    return Path(os.environ.get("CLAUDE_CONFIG_DIR") or Path.home() / ".claude").expanduser()


def settings_path(project: str | None = None) -> Path:
    if project is not None:
        return Path(project).expanduser().absolute() / ".claude" / "settings.json"
    return config_dir() / "settings.json"


def _check_project(project: str | None) -> None:
    """A mistyped ``--project`` is one sentence, not a new folder holding our files."""
    if project is not None and not Path(project).expanduser().is_dir():
        raise UserError("There is no folder {project}: give the project's folder with --project (or run this in "
                        "it); nothing was changed.", project=project)


def hooks_disabled_in(project: str | None = None) -> list[Path]:
    """The settings files (the user's; the project's and its ``settings.local.json``) that set
    ``disableAllHooks``: Claude Code then runs no hook at all, ours included."""
    files = [settings_path(None)]
    if project is not None:
        files += [settings_path(project), settings_path(project).with_name("settings.local.json")]
    found = []
    for path in files:
        try:
            settings, _ = config_files.read_json_object(path)
        except UserError:
            continue  # said elsewhere (setup refuses it, doctor reports it)
        if settings.get("disableAllHooks") is True and path not in found:
            found.append(path)
    return found


def disabled_warning(paths: list[Path]) -> str | None:
    if not paths:
        return None
    return (f"disableAllHooks is true in {', '.join(shown_path(p) for p in paths)}: Claude Code runs no hook, "
            "ours included; set it to false for memory to work")


def mcp_config_path(project: str | None = None) -> Path:
    """Where Claude Code keeps the MCP servers of that scope (``claude mcp add`` writes there)."""
    if project is not None:
        return Path(project).expanduser().absolute() / ".mcp.json"
    configured = os.environ.get("CLAUDE_CONFIG_DIR")
    return (Path(configured).expanduser() if configured else Path.home()) / ".claude.json"


def program() -> list[str]:
    """The command that runs this ``madohub-memory`` (a full path; see the module docstring)."""
    if getattr(sys, "frozen", False):  # the desktop bundle
        return [sys.executable]
    argv0 = sys.argv[0] if sys.argv else ""
    if os.path.basename(argv0) == "madohub-memory" and os.path.isfile(argv0):
        return [os.path.abspath(argv0)]
    beside = Path(sys.executable).parent / "madohub-memory"
    if beside.is_file():
        return [str(beside)]
    found = shutil.which("madohub-memory")
    return [found] if found else [sys.executable, "-m", "madohub_memory"]


def _db_args(db: str | None) -> list[str]:
    if not db:
        return []
    from madohub_memory.store.database import refuse_url

    refuse_url(db)  # a password never goes into a settings file
    return ["--db", db if "://" in db or db.lstrip().lower().startswith("service=")
            else str(Path(db).expanduser().absolute())]


def hook_command(db: str | None = None) -> str:
    return shlex.join([*program(), "hook", *_db_args(db)])


def mcp_entry(db: str | None = None) -> dict[str, Any]:
    command = program()
    return {"type": "stdio", "command": command[0], "args": [*command[1:], "mcp", *_db_args(db)], "env": {}}


def _runs_us(parts: list[str], subcommand: str) -> bool:
    for i, part in enumerate(parts):
        if os.path.basename(part) in ("madohub-memory", "madohub-memory.exe") or (
                part == "madohub_memory" and i and parts[i - 1] == "-m"):
            return subcommand in parts[i + 1:]
    return False


def is_our_hook(command: object) -> bool:
    if not isinstance(command, str):
        return False
    try:
        return _runs_us(shlex.split(command), "hook")
    except ValueError:
        return False


def is_our_server(entry: object) -> bool:
    if not isinstance(entry, dict) or not isinstance(entry.get("command"), str):
        return False
    args = entry.get("args")
    args = args if isinstance(args, list) else []
    return _runs_us([entry["command"], *[str(a) for a in args]], "mcp")


# -- hooks in settings.json (pure: a dict in, a dict out) --------------------------------------


def _groups(hooks: dict[str, Any], event: str, path: Path) -> list[Any]:
    groups = hooks.get(event)
    if groups is None:
        return []
    if not isinstance(groups, list) or not all(
            isinstance(g, dict) and isinstance(g.get("hooks", []), list) for g in groups):
        raise UserError("{path} has a hooks entry for {event} in a form this version does not understand "
                        "(expected a list of {{\"hooks\": [...]}} groups); nothing was changed.",
                        path=shown_path(path), event=event)
    return groups


def _hooks_of(settings: dict[str, Any], path: Path) -> dict[str, Any] | None:
    hooks = settings.get("hooks")
    if hooks is not None and not isinstance(hooks, dict):
        raise UserError("{path} has a \"hooks\" value this version does not understand (expected an object of "
                        "events); nothing was changed.", path=shown_path(path))
    return hooks


def merge_hooks(settings: dict[str, Any], command: str, path: Path) -> tuple[dict[str, Any], list[str]]:
    """``settings`` with our hook on every event of :data:`HOOK_EVENTS`, and what changed."""
    new = copy.deepcopy(settings)
    hooks = _hooks_of(new, path)
    for event in HOOK_EVENTS:  # every event is checked before anything is changed
        _groups(hooks or {}, event, path)
    if hooks is None:
        hooks = new["hooks"] = {}
    changes: list[str] = []
    for event in HOOK_EVENTS:
        if hooks.get(event) is None:
            hooks[event] = []
        groups = hooks[event]
        ours = [(g, h) for g in groups for h in g.get("hooks", []) if isinstance(h, dict) and is_our_hook(h.get("command"))]
        if not ours:
            groups.append({"hooks": [{"type": "command", "command": command}]})
            changes.append(f"hooks.{event}: added `{command}`")
            continue
        _group, hook = ours[0]
        if hook.get("command") != command or hook.get("type") != "command":
            changes.append(f"hooks.{event}: `{hook.get('command')}` -> `{command}`")
            hook["type"], hook["command"] = "command", command
        for extra_group, extra in ours[1:]:
            extra_group["hooks"].remove(extra)
            changes.append(f"hooks.{event}: removed a second copy `{extra.get('command')}`")
        emptied = {id(g) for g, _ in ours[1:] if not g.get("hooks")}
        if emptied:
            hooks[event] = [g for g in groups if id(g) not in emptied]
    return new, changes


def strip_hooks(settings: dict[str, Any], path: Path) -> tuple[dict[str, Any], list[str]]:
    """``settings`` without any hook of ours (on any event), and what was removed. Groups,
    events and ``hooks`` that only our entries filled go too. An event in a form this version
    does not know (a newer CLI's, another tool's) holds none of ours: it is left as it is,
    so that what ``install`` accepted can always be taken out again."""
    new = copy.deepcopy(settings)
    hooks = _hooks_of(new, path)
    if not hooks:
        return new, []
    changes: list[str] = []
    for event in list(hooks):
        try:
            groups = _groups(hooks, event, path)
        except UserError:
            continue
        kept_groups = []
        touched = False
        for group in groups:
            entries = group.get("hooks", [])
            mine = [h for h in entries if isinstance(h, dict) and is_our_hook(h.get("command"))]
            if not mine:
                kept_groups.append(group)
                continue
            touched = True
            changes += [f"hooks.{event}: removed `{h.get('command')}`" for h in mine]
            group["hooks"] = [h for h in entries if all(h is not m for m in mine)]
            if group["hooks"]:
                kept_groups.append(group)
        if touched:
            if kept_groups:
                hooks[event] = kept_groups
            else:
                del hooks[event]
    if changes and not hooks:
        del new["hooks"]
    return new, changes


# -- the MCP server ----------------------------------------------------------------------------


def _servers(config: dict[str, Any], path: Path) -> dict[str, Any]:
    servers = config.get("mcpServers", {})
    if not isinstance(servers, dict):
        raise UserError("{path} has an \"mcpServers\" value this version does not understand (expected an "
                        "object); nothing was changed.", path=shown_path(path))
    return servers


def _claude() -> str | None:
    return shutil.which("claude")


def _run_claude(claude: str, args: list[str], cwd: Path) -> None:
    try:
        done = subprocess.run([claude, *args], cwd=cwd, capture_output=True, text=True, timeout=CLAUDE_TIMEOUT,
                              stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise UserError("`claude {command}` did not finish ({reason}); register the MCP server yourself: "
                        "claude mcp add madohub -- madohub-memory mcp.", command=" ".join(args[:2]),
                        reason=exc) from None
    if done.returncode != 0:
        detail = (done.stderr.strip() or done.stdout.strip()).splitlines()[-1:] or [f"exit status {done.returncode}"]
        raise UserError("`claude {command}` failed: {detail}", command=" ".join(args[:2]), detail=detail[0][:300])


def register_mcp(project: str | None, db: str | None) -> dict[str, Any]:
    """Register (or update) our MCP server; returns what happened."""
    path = mcp_config_path(project)
    config, _ = config_files.read_json_object(path)
    servers = _servers(config, path)
    wanted = mcp_entry(db)
    existing = servers.get(MCP_NAME)
    report: dict[str, Any] = {"file": str(path), "scope": "project" if project is not None else "user"}
    if existing is not None and not is_our_server(existing):
        return {**report, "status": "left", "warning": f"an MCP server named {MCP_NAME} already runs "
                f"`{existing.get('command') if isinstance(existing, dict) else existing}`; it was left as it is"}
    if isinstance(existing, dict) and (existing.get("command"), existing.get("args", [])) == (
            wanted["command"], wanted["args"]):
        return {**report, "status": "unchanged"}
    status = "updated" if existing is not None else "added"
    claude = _claude()
    cwd = path.parent
    if claude is not None:
        scope = report["scope"]
        if existing is not None:
            _run_claude(claude, ["mcp", "remove", "--scope", scope, MCP_NAME], cwd)
        _run_claude(claude, ["mcp", "add", "--scope", scope, MCP_NAME, "--", wanted["command"], *wanted["args"]], cwd)
        return {**report, "status": status, "how": "claude mcp add", "command": shlex.join([wanted["command"], *wanted["args"]])}
    config_files.check_writable(path)
    new = copy.deepcopy(config)
    new.setdefault("mcpServers", {})[MCP_NAME] = wanted
    saved = config_files.backup(config_files.real_file(path))
    config_files.write_file(path, config_files.dump_json(new))
    return {**report, "status": status, "how": "file", "backup": str(saved) if saved else None,
            "command": shlex.join([wanted["command"], *wanted["args"]])}


def unregister_mcp(project: str | None) -> dict[str, Any]:
    path = mcp_config_path(project)
    config, _ = config_files.read_json_object(path)
    servers = _servers(config, path)
    existing = servers.get(MCP_NAME)
    report: dict[str, Any] = {"file": str(path), "scope": "project" if project is not None else "user"}
    if existing is None:
        return {**report, "status": "absent"}
    if not is_our_server(existing):
        return {**report, "status": "left", "warning": f"the MCP server named {MCP_NAME} is not ours; left as it is"}
    claude = _claude()
    if claude is not None:
        _run_claude(claude, ["mcp", "remove", "--scope", report["scope"], MCP_NAME], path.parent)
        return {**report, "status": "removed", "how": "claude mcp remove"}
    new = copy.deepcopy(config)
    del new["mcpServers"][MCP_NAME]
    if not new["mcpServers"]:
        del new["mcpServers"]
    _write_back(path, new)
    return {**report, "status": "removed", "how": "file"}


# -- the whole set-up --------------------------------------------------------------------------


def _write_back(path: Path, new: dict[str, Any]) -> dict[str, Any]:
    """Write what a removal left: the user's own bytes when a backup holds exactly that; the
    file removed when it is empty and no backup says it existed before us."""
    config_files.check_writable(path)
    original = config_files.original_bytes(path, new)
    had_backups = bool(config_files.backups(path))
    saved = config_files.backup(config_files.real_file(path))
    if original is not None:
        config_files.write_file(path, original)
        return {"backup": str(saved) if saved else None, "restored": True}
    if not new and not had_backups:
        path.unlink()
        return {"backup": str(saved) if saved else None, "removed_file": True}
    config_files.write_file(path, config_files.dump_json(new))
    return {"backup": str(saved) if saved else None}


def install(project: str | None = None, db: str | None = None) -> dict[str, Any]:
    """Merge our hooks into the settings file and register the MCP server; returns a report
    (``changes``: one line per change; ``backup``; ``mcp``)."""
    _check_project(project)
    path = settings_path(project)
    settings, _ = config_files.read_json_object(path)
    command = hook_command(db)
    new, changes = merge_hooks(settings, command, path)
    config_files.read_json_object(mcp_config_path(project))  # refuse a malformed one before any change
    report: dict[str, Any] = {"settings": str(path), "hook_command": command, "changes": changes, "backup": None}
    if changes:
        config_files.check_writable(path)
        saved = config_files.backup(config_files.real_file(path))
        report["backup"] = str(saved) if saved else None
        config_files.write_file(path, config_files.dump_json(new))
    report["mcp"] = _mcp_step(register_mcp, project, db)
    warning = disabled_warning(hooks_disabled_in(project))
    if warning:
        report["warning"] = warning
    return report


def _mcp_step(step: Any, *args: Any) -> dict[str, Any]:
    """The MCP part after the settings were written: its failure is reported beside the
    settings' changes (which stand on their own), not instead of them."""
    try:
        return dict(step(*args))
    except UserError as exc:
        return {"status": "failed", "error": str(exc)}


def uninstall(project: str | None = None) -> dict[str, Any]:
    """Remove our hooks (restoring the user's own bytes when possible) and our MCP server."""
    _check_project(project)
    path = settings_path(project)
    settings, _ = config_files.read_json_object(path)
    new, changes = strip_hooks(settings, path)
    config_files.read_json_object(mcp_config_path(project))
    report: dict[str, Any] = {"settings": str(path), "changes": changes, "backup": None}
    if changes:
        report.update(_write_back(path, new))
    report["mcp"] = _mcp_step(unregister_mcp, project)
    return report
