"""``setup claude-code``: settings merged, kept, backed up, idempotent, refused untouched when
unreadable, and undone byte for byte. Real processes on real files in a throwaway HOME
(the runs with the real ``claude`` CLI are in test_claude_code_e2e.py)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from madohub_memory.agents.claude_code.setup import HOOK_EVENTS, is_our_hook, is_our_server

VENV_BIN = Path(sys.executable).parent
THEIRS = {
    "model": "opus",
    "env": {"FOO": "bar"},
    "hooks": {
        "Stop": [{"hooks": [{"type": "command", "command": "notify-send 'done'", "timeout": 5}]}],
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "audit.sh",
                                                      "statusMessage": "auditing", "async": True}]}],
        "SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "echo hi"}]}],
    },
    "permissions": {"allow": ["Bash(git *)"]},
}


def run(home: Path, *args: str, path: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE", "MADOHUB", "ANTHROPIC"))}
    env.update(HOME=str(home), PATH=path or f"{VENV_BIN}:/usr/bin:/bin")
    return subprocess.run([sys.executable, "-m", "madohub_memory", "setup", "claude-code", *args], capture_output=True,
                          text=True, env=env, timeout=180, cwd=home)


def settings_file(home: Path) -> Path:
    return home / ".claude" / "settings.json"


def our_commands(settings: dict[str, Any]) -> dict[str, list[str]]:
    return {event: [h["command"] for g in groups for h in g["hooks"] if is_our_hook(h.get("command"))]
            for event, groups in settings.get("hooks", {}).items()}


def test_fresh_home_set_up_twice_then_undone(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    done = run(tmp_path, "--db", str(db))
    assert done.returncode == 0, done.stderr
    settings = json.loads(settings_file(tmp_path).read_text())
    commands = our_commands(settings)
    assert set(commands) == set(HOOK_EVENTS) and all(len(c) == 1 for c in commands.values())
    command = commands["Stop"][0]
    assert command == f"{VENV_BIN / 'madohub-memory'} hook --db {db}"
    for event in HOOK_EVENTS:
        assert f"hooks.{event}: added `{command}`" in done.stdout
    # without the claude CLI: the documented JSON entry, in the file claude mcp add would write
    server = json.loads((tmp_path / ".claude.json").read_text())["mcpServers"]["madohub"]
    assert server == {"type": "stdio", "command": str(VENV_BIN / "madohub-memory"), "args": ["mcp", "--db", str(db)],
                      "env": {}}
    assert "MCP server madohub: added in the file (the claude CLI is not on PATH)" in done.stdout
    assert stat.S_IMODE((tmp_path / ".claude.json").stat().st_mode) == 0o600
    once = {p: p.read_bytes() for p in (settings_file(tmp_path), tmp_path / ".claude.json")}
    again = run(tmp_path, "--db", str(db))
    assert again.returncode == 0 and "already set up; nothing changed" in again.stdout
    assert "already registered" in again.stdout
    assert {p: p.read_bytes() for p in once} == once  # byte-identical
    assert not list(tmp_path.glob(".claude/*.bak")) and not list(tmp_path.glob("*.bak"))  # nothing was there to keep
    undone = run(tmp_path, "--uninstall")
    assert undone.returncode == 0, undone.stderr
    assert "set-up had created it" in undone.stdout
    assert not settings_file(tmp_path).exists() and not (tmp_path / ".claude.json").exists()


def test_the_users_settings_are_kept_and_restored_byte_for_byte(tmp_path: Path) -> None:
    path = settings_file(tmp_path)
    path.parent.mkdir()
    original = json.dumps(THEIRS, indent=4).encode() + b"\n"  # their own formatting
    path.write_bytes(original)
    done = run(tmp_path)
    assert done.returncode == 0, done.stderr
    settings = json.loads(path.read_text())
    assert {k: v for k, v in settings.items() if k != "hooks"} == {k: v for k, v in THEIRS.items() if k != "hooks"}
    hooks = settings["hooks"]
    assert hooks["PreToolUse"] == THEIRS["hooks"]["PreToolUse"]  # fields of other CLI versions kept
    assert hooks["Stop"][0] == THEIRS["hooks"]["Stop"][0] and len(hooks["Stop"]) == 2
    assert hooks["SessionStart"][0] == THEIRS["hooks"]["SessionStart"][0]
    [backup] = list(path.parent.glob("settings.json.madohub-*.bak"))
    assert backup.read_bytes() == original and f"kept as ~/.claude/{backup.name}" in done.stdout
    undone = run(tmp_path, "--uninstall")
    assert undone.returncode == 0 and "restored byte for byte" in undone.stdout
    assert path.read_bytes() == original


def test_an_entry_of_another_form_beside_ours_does_not_block_uninstall(tmp_path: Path) -> None:
    """A newer CLI (or another tool) keeps something under ``hooks`` that is not a list of
    groups; set-up leaves it alone, and so must uninstall, or our hooks could never come out."""
    path = settings_file(tmp_path)
    path.parent.mkdir()
    original = json.dumps({"hooks": {"Notification": {"command": "notify-send hi"}, "disabled": False,
                                     "Stop": [{"hooks": [{"type": "command", "command": "echo bye"}]}]}}).encode()
    path.write_bytes(original)
    assert run(tmp_path).returncode == 0
    assert set(our_commands_where_known(json.loads(path.read_text()))) >= set(HOOK_EVENTS)
    undone = run(tmp_path, "--uninstall")
    assert undone.returncode == 0, undone.stderr
    assert path.read_bytes() == original


def our_commands_where_known(settings: dict[str, Any]) -> dict[str, list[str]]:
    return our_commands({"hooks": {e: g for e, g in settings["hooks"].items() if isinstance(g, list)}})


def test_an_older_entry_of_ours_is_updated_not_added_twice(tmp_path: Path) -> None:
    path = settings_file(tmp_path)
    path.parent.mkdir()
    readme_style = {"hooks": {
        "Stop": [{"hooks": [{"type": "command", "command": "madohub-memory hook"}]},
                 {"hooks": [{"type": "command", "command": "madohub-memory hook --db /old.db"}]}],
        "PreCompact": [{"hooks": [{"type": "command", "command": "python3 -m madohub_memory hook"},
                                  {"type": "command", "command": "their-own.sh"}]}],
    }}
    path.write_text(json.dumps(readme_style))
    done = run(tmp_path)
    assert done.returncode == 0, done.stderr
    commands = our_commands(json.loads(path.read_text()))
    assert all(len(c) == 1 for c in commands.values()) and set(commands) == set(HOOK_EVENTS)
    assert "hooks.Stop: `madohub-memory hook` -> " in done.stdout
    assert "removed a second copy `madohub-memory hook --db /old.db`" in done.stdout
    assert json.loads(path.read_text())["hooks"]["PreCompact"][0]["hooks"][1] == {"type": "command",
                                                                                  "command": "their-own.sh"}


@pytest.mark.parametrize(("content", "sentence"), [
    (b'{"hooks": {"Stop": []},,}', "is not valid JSON (line 1, column 24: Expecting property name"),
    (b'{\n  // my settings\n  "model": "opus"\n}', "has comments, which JSON does not allow (line 2)"),
    (b'["not", "an", "object"]', "holds a JSON array, not an object of settings"),
    (b'{"hooks": [{"Stop": "madohub-memory hook"}]}', 'has a "hooks" value this version does not understand'),
    (b'{"hooks": {"Stop": {"command": "x"}}}', "has a hooks entry for Stop in a form this version does not"),
    (b'{"model": "\xff\xfe"}', "is not UTF-8 text"),
])
def test_an_unreadable_settings_file_is_refused_untouched(tmp_path: Path, content: bytes, sentence: str) -> None:
    path = settings_file(tmp_path)
    path.parent.mkdir()
    path.write_bytes(content)
    for args in ((), ("--uninstall",)):
        done = run(tmp_path, *args)
        if args and "in a form" in sentence:  # holds none of ours: nothing to take out (a safe skip)
            assert done.returncode == 0 and "nothing" in done.stdout, done.stderr
        else:
            assert done.returncode == 1 and done.stdout == ""
            assert sentence in done.stderr and "nothing was changed" in done.stderr
            assert len(done.stderr.strip().splitlines()) == 1
        assert path.read_bytes() == content and sorted(p.name for p in path.parent.iterdir()) == ["settings.json"]
    assert not (tmp_path / ".claude.json").exists()


def test_a_read_only_settings_file_is_refused_untouched(tmp_path: Path) -> None:
    path = settings_file(tmp_path)
    path.parent.mkdir()
    path.write_text(json.dumps(THEIRS))
    path.chmod(0o444)
    done = run(tmp_path)
    assert done.returncode == 1 and "is read-only; make it writable (chmod u+w)" in done.stderr
    assert json.loads(path.read_text()) == THEIRS and not list(path.parent.glob("*.bak"))
    assert not (tmp_path / ".claude.json").exists()


def test_a_malformed_mcp_file_refuses_before_the_settings_change(tmp_path: Path) -> None:
    (tmp_path / ".claude.json").write_text("{oops")
    done = run(tmp_path)
    assert done.returncode == 1 and "/.claude.json is not valid JSON" in done.stderr
    assert not settings_file(tmp_path).exists()


def test_someone_elses_madohub_server_is_left_alone(tmp_path: Path) -> None:
    theirs = {"mcpServers": {"madohub": {"type": "stdio", "command": "docker", "args": ["run", "madohub/other"]}}}
    (tmp_path / ".claude.json").write_text(json.dumps(theirs))
    done = run(tmp_path)
    assert done.returncode == 0 and "already runs `docker`; it was left as it is" in done.stdout
    assert json.loads((tmp_path / ".claude.json").read_text()) == theirs
    assert not is_our_server(theirs["mcpServers"]["madohub"])


def test_project_settings_and_mcp_file(tmp_path: Path) -> None:
    project = tmp_path / "shop"
    project.mkdir()
    done = run(tmp_path, "--project", str(project))
    assert done.returncode == 0, done.stderr
    assert set(our_commands(json.loads((project / ".claude" / "settings.json").read_text()))) == set(HOOK_EVENTS)
    assert is_our_server(json.loads((project / ".mcp.json").read_text())["mcpServers"]["madohub"])
    assert not settings_file(tmp_path).exists()
    assert run(tmp_path, "--project", str(project), "--uninstall").returncode == 0
    assert not (project / ".claude" / "settings.json").exists() and not (project / ".mcp.json").exists()


def test_a_mistyped_project_folder_or_project_for_codex_is_one_sentence(tmp_path: Path) -> None:
    for args in (("--project", str(tmp_path / "shpo")), ("--project", str(tmp_path / "shpo"), "--uninstall")):
        done = run(tmp_path, *args)
        assert done.returncode == 1 and "There is no folder" in done.stderr and "nothing was changed" in done.stderr
        assert not (tmp_path / "shpo").exists() and not (tmp_path / ".claude.json").exists()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CODEX", "MADOHUB"))}
    env.update(HOME=str(tmp_path), PATH=f"{VENV_BIN}:/usr/bin:/bin")
    codex = subprocess.run([sys.executable, "-m", "madohub_memory", "setup", "codex", "--project"],
                           capture_output=True, text=True, env=env, timeout=180, cwd=tmp_path)
    assert codex.returncode == 1 and "--project is for claude-code" in codex.stderr
    assert not (tmp_path / ".codex").exists()


def test_a_password_in_db_never_reaches_a_settings_file(tmp_path: Path) -> None:
    done = run(tmp_path, "--db", "postgresql://wei:hunter2@db.example/team")
    assert done.returncode != 0 and "hunter2" not in done.stderr and not settings_file(tmp_path).exists()


def test_doctor_reports_the_integration(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE", "MADOHUB", "ANTHROPIC"))}
    env.update(HOME=str(tmp_path), PATH=f"{VENV_BIN}:/usr/bin:/bin")

    def doctor() -> dict[str, Any]:
        done = subprocess.run([sys.executable, "-m", "madohub_memory", "doctor", "--json", "--db", str(db)],
                              capture_output=True, text=True, env=env, timeout=240, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        checks: dict[str, Any] = {}
        for check in json.loads(done.stdout)["integrations"]["claude-code"]:
            checks.setdefault(check["check"], []).append(check)
        return {name: found[0] if len(found) == 1 else found for name, found in checks.items()}

    subprocess.run([sys.executable, "-m", "madohub_memory", "add", "Deploys go through make deploy.", "--kind", "fact",
                    "--db", str(db)], check=True, env=env, capture_output=True, timeout=120)
    before = doctor()
    assert before["Claude Code hooks"]["ok"] is None and "not set up" in before["Claude Code hooks"]["detail"]
    assert run(tmp_path, "--db", str(db)).returncode == 0
    after = doctor()
    assert after["Claude Code hooks"]["ok"] is True
    assert after["Claude Code hook command"]["ok"] is True
    assert after["Claude Code MCP server"]["ok"] is True and "answers with 8 tools" in after[
        "Claude Code MCP server"]["detail"]
    # a moved installation: the hook's program is gone
    settings = json.loads(settings_file(tmp_path).read_text())
    settings["hooks"]["Stop"][0]["hooks"][0]["command"] = "/gone/bin/madohub-memory hook"
    settings_file(tmp_path).write_text(json.dumps(settings))
    broken = doctor()
    gone, still = sorted(broken["Claude Code hook command"], key=lambda c: c["ok"])
    assert gone["ok"] is False and "/gone/bin/madohub-memory is not there any more" in gone["detail"]
    assert still["ok"] is True


def test_doctor_right_after_setup_before_any_session_reports_the_integration(tmp_path: Path) -> None:
    """The README's order: setup, then doctor. No session has created the database yet: that
    is said on one line and the integration is still checked (and nothing is created)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE", "MADOHUB", "ANTHROPIC", "XDG_DATA"))}
    env.update(HOME=str(tmp_path), PATH=f"{VENV_BIN}:/usr/bin:/bin")
    assert run(tmp_path).returncode == 0
    done = subprocess.run([sys.executable, "-m", "madohub_memory", "doctor"], capture_output=True, text=True,
                          env=env, timeout=240, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("--") and "database: none yet at ~/.local/share/madohub-memory/memory.db" in lines[0]
    assert any(line.startswith("ok") and "Claude Code hooks: SessionStart, Stop" in line for line in lines)
    assert any(line.startswith("ok") and "Claude Code MCP server: madohub" in line for line in lines)
    assert not (tmp_path / ".local" / "share" / "madohub-memory" / "memory.db").exists()
    # a --db naming a file that is not there is still one sentence and exit status 1, after the checks
    typo = subprocess.run([sys.executable, "-m", "madohub_memory", "doctor", "--db", str(tmp_path / "memroy.db")],
                          capture_output=True, text=True, env=env, timeout=240, cwd=tmp_path)
    assert typo.returncode == 1 and "There is no database at" in typo.stderr and "Claude Code hooks" in typo.stdout


def test_settings_kept_in_a_dotfiles_repository_stay_a_link(tmp_path: Path) -> None:
    dotfiles = tmp_path / "dotfiles" / "claude-settings.json"
    dotfiles.parent.mkdir()
    original = json.dumps(THEIRS, indent=4).encode()
    dotfiles.write_bytes(original)
    settings_file(tmp_path).parent.mkdir()
    settings_file(tmp_path).symlink_to(dotfiles)
    assert run(tmp_path).returncode == 0
    ours = our_commands(json.loads(dotfiles.read_text()))
    assert settings_file(tmp_path).is_symlink() and {event for event, found in ours.items() if found} == set(HOOK_EVENTS)
    assert [p.read_bytes() for p in dotfiles.parent.glob("*.bak")] == [original]
    assert run(tmp_path, "--uninstall").returncode == 0
    assert settings_file(tmp_path).is_symlink() and dotfiles.read_bytes() == original
