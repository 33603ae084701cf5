"""``setup codex``: connect the Codex CLI to memory, and take it out again exactly.

Three additions, each a marked block (:mod:`.config_files`) so that uninstalling removes
exactly it and a second setup changes nothing:

1. ``[mcp_servers.madohub]`` in ``$CODEX_HOME/config.toml`` (``~/.codex``): the MCP server,
   so the agent can ``remember``, ``recall`` and read the session context.
2. ``notify`` in the same file: Codex runs it after every finished turn with a JSON
   argument (thread id, turn id, cwd); ``madohub-memory codex-notify`` imports the session's
   new lines and has them extracted in the background. A ``notify`` the person already had
   keeps running: it is called after ours (``--then …``), and uninstall puts it back as it
   was, byte for byte (its original text is kept in the block as comments). Codex 0.171 also
   has hooks, but a command hook runs only after the person trusts it in the TUI (``/hooks``);
   ``notify`` needs no such step, so that is what setup uses.
3. The remember guide (:mod:`madohub_memory.agents.guide`) in ``$CODEX_HOME/AGENTS.md`` (or
   ``AGENTS.override.md`` when that one exists: Codex then reads only it), which Codex puts
   in front of every session.

The rest of the config is never re-serialised: blocks are inserted as text, the result is
parsed again and must hold every entry the file held before, else nothing is written. A
config that is not valid TOML is refused with one sentence and left untouched. Every
changed file is copied beside itself first.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomlkit

from madohub_memory.agents.config_files import (
    Block,
    backup,
    insert_at,
    read_text,
    without_added_newline,
    write_atomic,
)
from madohub_memory.agents.guide import remember_guide, shell_command
from madohub_memory.core.errors import UserError

MCP_NAME = "madohub"
NOTIFY_COMMAND = "codex-notify"
STARTUP_TIMEOUT_SEC = 30
_SETUP = "added by `madohub-memory setup codex`; `setup codex --uninstall` removes it"
MCP_BLOCK = Block(f"# >>> madohub-memory: MCP server ({_SETUP})", "# <<< madohub-memory: MCP server")
NOTIFY_BLOCK = Block(f"# >>> madohub-memory: import each finished turn ({_SETUP})", "# <<< madohub-memory: notify")
GUIDE_BLOCK = Block(f"<!-- >>> madohub-memory: when to call remember ({_SETUP}) -->",
                    "<!-- <<< madohub-memory: remember guide -->")
_KEPT = "# madohub-memory: your notify (runs after ours; uninstall restores it): "


def codex_home() -> Path:
    """``$CODEX_HOME``, else ``~/.codex`` (where Codex keeps config.toml and sessions/)."""
    env = os.environ.get("CODEX_HOME", "").strip()
    return Path(env).expanduser() if env else Path.home() / ".codex"


def program() -> list[str]:
    """How Codex should start this program: the ``madohub-memory`` on PATH (absolute, since
    Codex may run with another PATH), else this interpreter with ``-m madohub_memory``."""
    found = shutil.which("madohub-memory")
    if found:
        return [str(Path(found).absolute())]
    return [sys.executable, "-m", "madohub_memory"]


@dataclass(frozen=True)
class Change:
    path: Path
    action: str  # added, updated, removed, restored, kept
    what: str

    def line(self) -> str:
        return f"{self.path}: {self.action} {self.what}"

    def to_dict(self) -> dict[str, str]:
        return {"file": str(self.path), "action": self.action, "what": self.what}


@dataclass
class SetupReport:
    changes: list[Change] = field(default_factory=list)
    backups: list[Path] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return any(c.action != "kept" for c in self.changes)


def _parse(text: str, path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UserError("{path} is not valid TOML ({reason}); fix it or move it aside, then run setup codex "
                        "again. Nothing was changed.", path=str(path), reason=str(exc)) from None


def _toml(value: Any) -> str:
    return str(tomlkit.item(value).as_string())


def _runs_us(entry: Any) -> bool:
    """A config entry (an MCP server, a notify list) that starts this program."""
    if isinstance(entry, dict):
        words = [entry.get("command"), *(entry.get("args") or [])]
    elif isinstance(entry, list):
        words = list(entry)
    else:
        return False
    text = " ".join(str(w) for w in words if isinstance(w, str))
    return "madohub-memory" in text or "madohub_memory" in text


def _top_level_end(text: str) -> int:
    """Where the last top-level key ends: the start of the first table header, moved up over
    the comments and blank lines that introduce it (they belong to the header)."""
    lines = text.splitlines(keepends=True)
    offset = 0
    header_line = len(lines)
    for index, line in enumerate(lines):
        if line.lstrip().startswith("["):
            try:
                tomllib.loads(text[:offset])  # not inside a multi-line string or array
            except tomllib.TOMLDecodeError:
                pass
            else:
                header_line = index
                break
        offset += len(line)
    index = header_line
    while index > 0 and (not lines[index - 1].strip() or lines[index - 1].lstrip().startswith("#")):
        index -= 1
    return sum(len(line) for line in lines[:index])


def _key_span(text: str, key: str) -> tuple[int, int] | None:
    """The lines of a top-level ``key = value`` (a value may span lines), found by parsing."""
    lines = text.splitlines(keepends=True)
    offset = 0
    limit = _top_level_end(text) if "[" in text else len(text)
    for index, line in enumerate(lines):
        if offset >= limit:
            return None
        name, equals, _ = line.partition("=")
        if equals and name.strip().strip("\"'") == key:
            end = offset
            for following in lines[index:]:
                end += len(following)
                try:
                    if key in tomllib.loads(text[offset:end]):
                        return offset, end
                except tomllib.TOMLDecodeError:
                    continue
            return None
        offset += len(line)
    return None


def _without(data: dict[str, Any], *, mcp: bool, notify: bool) -> dict[str, Any]:
    """The parsed config without what setup owns (to check that nothing else changed)."""
    data = dict(data)
    if notify:
        data.pop("notify", None)
    if mcp and isinstance(data.get("mcp_servers"), dict):
        servers = {k: v for k, v in data["mcp_servers"].items() if k != MCP_NAME}
        if servers:
            data["mcp_servers"] = servers
        else:
            data.pop("mcp_servers")
    return data


class CodexSetup:
    """Install or uninstall the Codex integration under one ``CODEX_HOME``."""

    def __init__(self, home: Path | None = None, *, db: str | None = None, command: list[str] | None = None,
                 persona: str | None = None) -> None:
        self.home = home or codex_home()
        self.config = self.home / "config.toml"
        self.db = db
        self.command = command or program()
        self.persona = persona

    # -- what setup writes ---------------------------------------------------------------

    def _db_args(self) -> list[str]:
        return ["--db", self.db] if self.db else []

    def mcp_body(self) -> str:
        return (f"[mcp_servers.{MCP_NAME}]\n"
                f"command = {_toml(self.command[0])}\n"
                f"args = {_toml([*self.command[1:], 'mcp', *self._db_args()])}\n"
                f"startup_timeout_sec = {STARTUP_TIMEOUT_SEC}\n")

    def notify_value(self, previous: list[str] | None) -> list[str]:
        chained = ["--then", *previous] if previous else []
        return [*self.command, NOTIFY_COMMAND, *self._db_args(), *chained]

    def guide_text(self) -> str:
        guide = remember_guide(persona=self.persona or "default",
                               command=shell_command(self.db, shlex.join([*self.command, "remember"])))
        return ("## Long-term memory (MadoHub)\n"
                "Use the `madohub` MCP tools. `<repo>` below is the name of the git repository you work in.\n"
                f"{guide}\n")

    def guide_file(self) -> Path:
        override = self.home / "AGENTS.override.md"
        if override.is_file() and override.stat().st_size > 0:
            return override  # Codex reads only the override when there is one
        return self.home / "AGENTS.md"

    # -- install -------------------------------------------------------------------------

    def install(self) -> SetupReport:
        report = SetupReport()
        text = self._config_text()
        before = _parse(text, self.config)
        new_text = self._install_mcp(text, before, report)
        new_text = self._install_notify(new_text, before, report)
        if new_text != text:
            self._check_kept(before, new_text)
            self._write(self.config, new_text, report)
        self._install_guide(report)
        return report

    def _config_text(self) -> str:
        try:
            return read_text(self.config) or ""
        except ValueError as exc:
            raise UserError("{path} is {reason}; fix it, then run setup codex again. Nothing was changed.",
                            path=str(self.config), reason=str(exc)) from None

    def _install_mcp(self, text: str, data: dict[str, Any], report: SetupReport) -> str:
        desired = self.mcp_body()
        what = f"MCP server [mcp_servers.{MCP_NAME}] ({' '.join([*self.command, 'mcp', *self._db_args()])})"
        current = MCP_BLOCK.body(text)
        if current is not None:
            if current == desired:
                report.changes.append(Change(self.config, "kept", what))
                return text
            span = MCP_BLOCK.span(text)
            assert span is not None
            report.changes.append(Change(self.config, "updated", what))
            return text[: span[0]] + MCP_BLOCK.wrap(desired) + text[span[1]:]
        servers = data.get("mcp_servers")
        if servers is not None and not isinstance(servers, dict):
            raise UserError("{path} sets mcp_servers to something other than a table; nothing was changed.",
                            path=str(self.config))
        entry = (servers or {}).get(MCP_NAME)
        if entry is not None:
            if _runs_us(entry):
                report.changes.append(Change(self.config, "kept", f"your own MCP server [mcp_servers.{MCP_NAME}] "
                                             "(it already runs madohub-memory)"))
                return text
            raise UserError("{path} already has an MCP server named \"{name}\" that runs {command!r}; rename or "
                            "remove it, then run setup codex again. Nothing was changed.",
                            path=str(self.config), name=MCP_NAME, command=str(entry.get("command", "?"))
                            if isinstance(entry, dict) else "?")
        report.changes.append(Change(self.config, "added", what))
        return insert_at(text, len(text), MCP_BLOCK.wrap(desired))

    def _install_notify(self, text: str, data: dict[str, Any], report: SetupReport) -> str:
        current = NOTIFY_BLOCK.body(text)
        if current is not None:
            kept = [line[len(_KEPT):] for line in current.splitlines() if line.startswith(_KEPT)]
            previous = _parse("".join(f"{line}\n" for line in kept), self.config).get("notify") if kept else None
            desired = self._notify_body(previous, kept)
            value = self.notify_value(previous)
            if current == desired:
                report.changes.append(Change(self.config, "kept", f"notify = {_toml(value)}"))
                return text
            span = NOTIFY_BLOCK.span(text)
            assert span is not None
            report.changes.append(Change(self.config, "updated", f"notify = {_toml(value)}"))
            return text[: span[0]] + NOTIFY_BLOCK.wrap(desired) + text[span[1]:]
        existing = data.get("notify")
        if existing is None:
            value = self.notify_value(None)
            report.changes.append(Change(self.config, "added", f"notify = {_toml(value)} (imports each finished turn)"))
            return insert_at(text, _top_level_end(text), NOTIFY_BLOCK.wrap(self._notify_body(None, [])))
        if _runs_us(existing):
            report.changes.append(Change(self.config, "kept", "your own notify (it already runs madohub-memory)"))
            return text
        if not isinstance(existing, list) or not existing or not all(isinstance(w, str) for w in existing):
            raise UserError("{path} has a notify that is not a list of strings; fix it, then run setup codex "
                            "again. Nothing was changed.", path=str(self.config))
        span = _key_span(text, "notify")
        if span is None:
            raise UserError("could not find the notify line of {path} to chain it; nothing was changed.",
                            path=str(self.config))
        original = text[span[0]:span[1]]
        kept = original.rstrip("\n").split("\n")
        value = self.notify_value(existing)
        report.changes.append(Change(self.config, "updated", f"notify = {_toml(value)} (yours still runs, after ours)"))
        return text[: span[0]] + NOTIFY_BLOCK.wrap(self._notify_body(existing, kept)) + text[span[1]:]

    def _notify_body(self, previous: list[str] | None, kept_lines: list[str]) -> str:
        kept = "".join(f"{_KEPT}{line}\n" for line in kept_lines)
        return f"{kept}notify = {_toml(self.notify_value(previous))}\n"

    def _check_kept(self, before: dict[str, Any], new_text: str) -> None:
        """The new config must parse and hold everything it held (apart from setup's own keys)."""
        try:
            after = tomllib.loads(new_text)
        except tomllib.TOMLDecodeError as exc:
            raise UserError("{path} cannot take the madohub entries as written ({reason}); nothing was changed.",
                            path=str(self.config), reason=str(exc)) from None
        if _without(after, mcp=True, notify=True) != _without(before, mcp=True, notify=True):
            raise UserError("adding the madohub entries would change other entries of {path}; nothing was "
                            "changed.", path=str(self.config))

    def _install_guide(self, report: SetupReport) -> None:
        path = self.guide_file()
        try:
            text = read_text(path) or ""
        except ValueError as exc:
            raise UserError("{path} is {reason}; nothing was changed there.", path=str(path), reason=str(exc)) from None
        desired = self.guide_text()
        current = GUIDE_BLOCK.body(text)
        lines = desired.count("\n")
        if current == desired:
            report.changes.append(Change(path, "kept", f"the remember guide ({lines} lines)"))
            return
        if current is not None:
            span = GUIDE_BLOCK.span(text)
            assert span is not None
            new_text = text[: span[0]] + GUIDE_BLOCK.wrap(desired) + text[span[1]:]
            report.changes.append(Change(path, "updated", f"the remember guide ({lines} lines)"))
        else:
            new_text = insert_at(text, len(text), GUIDE_BLOCK.wrap(desired))
            report.changes.append(Change(path, "added", f"the remember guide ({lines} lines)"))
        self._write(path, new_text, report)

    # -- uninstall -----------------------------------------------------------------------

    def uninstall(self) -> SetupReport:
        report = SetupReport()
        text = self._config_text()
        if text:
            _parse(text, self.config)
        new_text = text
        if MCP_BLOCK.span(new_text) is not None:
            new_text = MCP_BLOCK.remove(new_text)
            report.changes.append(Change(self.config, "removed", f"MCP server [mcp_servers.{MCP_NAME}]"))
        body = NOTIFY_BLOCK.body(new_text)
        if body is not None:
            span = NOTIFY_BLOCK.span(new_text)
            assert span is not None
            kept = "".join(line[len(_KEPT):] + "\n" for line in body.splitlines() if line.startswith(_KEPT))
            new_text = new_text[: span[0]] + kept + new_text[span[1]:]
            report.changes.append(Change(self.config, "restored" if kept else "removed",
                                         f"notify{' (yours, as it was)' if kept else ''}"))
        if new_text != text:
            new_text = without_added_newline(self.config, new_text)
            try:
                tomllib.loads(new_text)
            except tomllib.TOMLDecodeError as exc:
                raise UserError("removing the madohub entries would leave {path} invalid ({reason}); nothing "
                                "was changed.", path=str(self.config), reason=str(exc)) from None
            self._write(self.config, new_text, report)
        for path in (self.home / "AGENTS.override.md", self.home / "AGENTS.md"):
            try:
                guide = read_text(path)
            except ValueError:
                continue
            if guide is None or GUIDE_BLOCK.span(guide) is None:
                continue
            remaining = without_added_newline(path, GUIDE_BLOCK.remove(guide))
            if remaining:
                self._write(path, remaining, report)
            else:  # the file held only the guide: setup created it
                backup_file = backup(path)
                if backup_file:
                    report.backups.append(backup_file)
                path.unlink()
            report.changes.append(Change(path, "removed", "the remember guide" + ("" if remaining else
                                                                                   " (and the file, now empty)")))
        return report

    def _write(self, path: Path, text: str, report: SetupReport) -> None:
        saved = backup(path)
        if saved is not None:
            report.backups.append(saved)
        write_atomic(path, text)

    # -- status (doctor) -----------------------------------------------------------------

    def status(self) -> dict[str, Any]:
        """What of the integration is in place, for ``doctor`` (never raises for a bad file)."""
        out: dict[str, Any] = {"codex_home": str(self.home), "config": str(self.config),
                               "mcp": "missing", "notify": "missing", "guide": None, "problem": None}
        try:
            text = read_text(self.config) or ""
            data = tomllib.loads(text)
        except (ValueError, tomllib.TOMLDecodeError) as exc:
            out["problem"] = f"{self.config} is not valid TOML ({exc})"
            return out
        entry = (data.get("mcp_servers") or {}).get(MCP_NAME) if isinstance(data.get("mcp_servers"), dict) else None
        if MCP_BLOCK.span(text) is not None:
            out["mcp"] = "installed"
        elif entry is not None:
            out["mcp"] = "yours" if _runs_us(entry) else "other"
        notify = data.get("notify")
        if NOTIFY_BLOCK.span(text) is not None:
            out["notify"] = "installed"
        elif notify is not None:
            out["notify"] = "yours" if _runs_us(notify) else "other"
        for path in (self.home / "AGENTS.override.md", self.home / "AGENTS.md"):
            try:
                guide = read_text(path)
            except ValueError:
                continue
            if guide is not None and GUIDE_BLOCK.span(guide) is not None:
                out["guide"] = str(path)
                break
        if out["guide"] and out["guide"] != str(self.guide_file()):
            out["problem"] = f"the remember guide is in {out['guide']}, but Codex reads {self.guide_file()}"
        out["sessions"] = str(self.home / "sessions")
        return out
