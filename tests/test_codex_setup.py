"""``setup codex [--uninstall]`` on real files: nothing of the person's config is lost, a second
run changes no byte, uninstall gives the file back as it was, bad files are refused untouched.
(The round trip with the real Codex CLI reading the result is in test_codex_client.py.)"""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path

import pytest
from cli_runner import invoke

PERSONAL = """\
# Codex settings (mine)
model = "gpt-5-codex"   # the default model
approval_policy = "on-request"
notify = [
  "notify-send",  # a desktop bubble
  "Codex done",
]

[features]
web_search = true

# tools I use every day
[mcp_servers.github]
command = "github-mcp"
args = ["--readonly"]
env = { GITHUB_HOST = "github.example" }

[[profiles.fast]]
model = "o4-mini"

[[profiles.fast]]
model = "o3"

[model_providers.local]
base_url = "http://127.0.0.1:11434/v1"
wire_api = "responses"
"""


@pytest.fixture
def home(tmp_path: Path) -> Path:
    folder = tmp_path / "codex-home"
    folder.mkdir()
    return folder


def setup(home: Path, db: Path, *extra: str) -> tuple[int, str, str]:
    env = {**os.environ, "CODEX_HOME": str(home), "HOME": str(home.parent / "nobody")}
    done = invoke("--db", str(db), "setup", "codex", *extra, env=env)
    return done.returncode, done.stdout, done.stderr


def test_install_keeps_every_entry_reruns_byte_identical_and_uninstalls_exactly(home: Path, tmp_path: Path) -> None:
    config = home / "config.toml"
    config.write_text(PERSONAL, encoding="utf-8")
    (home / "AGENTS.md").write_text("# My rules\nAnswer in English.\n", encoding="utf-8")
    db = tmp_path / "memory.db"

    code, out, err = setup(home, db)
    assert code == 0, err
    assert "added MCP server [mcp_servers.madohub]" in out and "yours still runs, after ours" in out
    assert "added the remember guide" in out and "backup:" in out
    text = config.read_text(encoding="utf-8")
    data = tomllib.loads(text)
    # every entry of the person's, comments and all, is still there
    for line in PERSONAL.splitlines():
        if not line.startswith(("notify", '  "', "]")):
            assert line in text.splitlines(), line
    assert data["mcp_servers"]["github"] == {"command": "github-mcp", "args": ["--readonly"],
                                             "env": {"GITHUB_HOST": "github.example"}}
    assert [p["model"] for p in data["profiles"]["fast"]] == ["o4-mini", "o3"]
    server = data["mcp_servers"]["madohub"]
    assert server["args"][-3:] == ["mcp", "--db", str(db)] and server["startup_timeout_sec"] == 30
    assert data["notify"][-6:] == ["codex-notify", "--db", str(db), "--then", "notify-send", "Codex done"]
    guide = (home / "AGENTS.md").read_text(encoding="utf-8")
    assert guide.startswith("# My rules\nAnswer in English.\n") and "call the `remember` tool" in guide
    assert "persona:default" in guide
    backups = sorted(home.glob("config.toml.madohub-*.bak"))
    assert [b.read_text(encoding="utf-8") for b in backups] == [PERSONAL]

    installed = config.read_bytes(), (home / "AGENTS.md").read_bytes()
    code, out, _ = setup(home, db)
    assert code == 0 and out.startswith("Codex is already set up; nothing changed.")
    assert (config.read_bytes(), (home / "AGENTS.md").read_bytes()) == installed
    assert len(list(home.glob("*.bak"))) == 2  # no backup when nothing changes

    code, out, _ = setup(home, db, "--uninstall")
    assert code == 0 and "restored notify (yours, as it was)" in out
    assert config.read_text(encoding="utf-8") == PERSONAL
    assert (home / "AGENTS.md").read_text(encoding="utf-8") == "# My rules\nAnswer in English.\n"
    code, out, _ = setup(home, db, "--uninstall")
    assert code == 0 and "nothing changed" in out and config.read_text(encoding="utf-8") == PERSONAL


def test_files_without_a_final_newline_come_back_byte_for_byte(home: Path, tmp_path: Path) -> None:
    """The blocks go on lines of their own, so setup ends the person's last line; uninstall
    takes that newline back out (an editor that never writes one leaves such files)."""
    config, guide = home / "config.toml", home / "AGENTS.md"
    original = PERSONAL.rstrip("\n").encode(), b"# My rules\nAnswer in English."
    config.write_bytes(original[0])
    guide.write_bytes(original[1])
    code, _, err = setup(home, tmp_path / "memory.db")
    assert code == 0, err
    assert b"English.\n<!-- >>> madohub-memory" in guide.read_bytes()
    code, _, err = setup(home, tmp_path / "memory.db", "--uninstall")
    assert code == 0, err
    assert (config.read_bytes(), guide.read_bytes()) == original


def test_a_fresh_codex_home_and_json_output(home: Path, tmp_path: Path) -> None:
    env = {**os.environ, "CODEX_HOME": str(home / "new"), "HOME": str(tmp_path / "nobody")}
    done = invoke("--db", str(tmp_path / "m.db"), "--json", "setup", "codex", env=env)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["changed"] and report["backups"] == [] and report["codex_home"] == str(home / "new")
    assert {(c["action"], Path(c["file"]).name) for c in report["changes"]} == {
        ("added", "config.toml"), ("added", "AGENTS.md")}
    config = home / "new" / "config.toml"
    assert oct(config.stat().st_mode & 0o777) == "0o600"
    assert set(tomllib.loads(config.read_text(encoding="utf-8"))) == {"notify", "mcp_servers"}
    done = invoke("--db", str(tmp_path / "m.db"), "setup", "codex", "--uninstall", env=env)
    assert done.returncode == 0
    assert config.read_text(encoding="utf-8") == "" and not (home / "new" / "AGENTS.md").exists()


def test_an_existing_madohub_server_is_kept_or_refused(home: Path, tmp_path: Path) -> None:
    config = home / "config.toml"
    mine = '[mcp_servers.madohub]\ncommand = "madohub-memory"\nargs = ["mcp", "--db", "/srv/m.db"]\n'
    config.write_text(mine, encoding="utf-8")
    code, out, _ = setup(home, tmp_path / "m.db")
    assert code == 0 and "your own MCP server [mcp_servers.madohub] (it already runs madohub-memory)" in out
    assert config.read_text(encoding="utf-8").endswith(mine)  # the notify block goes above it
    setup(home, tmp_path / "m.db", "--uninstall")
    assert config.read_text(encoding="utf-8") == mine  # it was yours: it stays

    other = '[mcp_servers.madohub]\ncommand = "something-else"\n'
    config.write_text(other, encoding="utf-8")
    code, _, err = setup(home, tmp_path / "m.db")
    assert code == 1 and err.count("\n") == 1
    assert 'already has an MCP server named "madohub"' in err and "Nothing was changed." in err
    assert config.read_text(encoding="utf-8") == other and not (home / "AGENTS.md").exists()


@pytest.mark.parametrize("broken", [
    'model = "o3\n',                                   # an unterminated string
    "[mcp_servers.a]\ncommand = 1\n[mcp_servers.a]\n",  # a table defined twice
    "notify = [\n",                                     # cut off
    b"model = '\xff'\n",                                # not UTF-8
])
def test_a_malformed_config_is_refused_untouched(home: Path, tmp_path: Path, broken: str | bytes) -> None:
    config = home / "config.toml"
    data = broken.encode() if isinstance(broken, str) else broken
    config.write_bytes(data)
    for extra in ((), ("--uninstall",)):
        code, out, err = setup(home, tmp_path / "m.db", *extra)
        assert code == 1 and out == "" and err.count("\n") == 1, err
        assert str(config) in err and "Nothing was changed." in err
        assert config.read_bytes() == data
    assert sorted(p.name for p in home.iterdir()) == ["config.toml"]


def test_the_override_file_codex_reads_instead_gets_the_guide(home: Path, tmp_path: Path) -> None:
    (home / "AGENTS.md").write_text("ignored while an override exists\n", encoding="utf-8")
    (home / "AGENTS.override.md").write_text("Temporary rules.\n", encoding="utf-8")
    setup(home, tmp_path / "m.db")
    assert "remember" in (home / "AGENTS.override.md").read_text(encoding="utf-8")
    assert (home / "AGENTS.md").read_text(encoding="utf-8") == "ignored while an override exists\n"
    setup(home, tmp_path / "m.db", "--uninstall")
    assert (home / "AGENTS.override.md").read_text(encoding="utf-8") == "Temporary rules.\n"


def test_doctor_reports_the_integration(home: Path, tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    env = {**os.environ, "CODEX_HOME": str(home), "HOME": str(tmp_path / "nobody")}
    invoke("--db", str(db), "add", "The API uses snake_case keys", "--kind", "fact", env=env)
    done = invoke("--db", str(db), "doctor", env=env)
    assert done.returncode == 0 and "codex: not set up" in done.stdout
    setup(home, db)
    done = invoke("--db", str(db), "--json", "doctor", env=env)
    codex = json.loads(done.stdout)["integrations"]["codex"]
    assert (codex["mcp"], codex["notify"], codex["guide"]) == ("installed", "installed", str(home / "AGENTS.md"))
    (home / "config.toml").write_text("broken = [\n", encoding="utf-8")
    done = invoke("--db", str(db), "doctor", env=env)
    assert done.returncode == 0 and "warn  codex:" in done.stdout and "not valid TOML" in done.stdout
