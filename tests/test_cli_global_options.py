"""``--db`` and ``--json`` before or after the command, as with ``git -C`` (issue 11)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from madohub_memory import __version__
from madohub_memory.cli import main
from madohub_memory.services import Services


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "MADOHUB_DB"}
    return subprocess.run([sys.executable, "-m", "madohub_memory", *args], capture_output=True, text=True,
                          env=env, timeout=120)


def test_db_and_json_before_the_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "before.db"
    assert main(["--db", str(db), "add", "The API uses snake_case JSON keys", "--kind", "fact"]) == 0
    capsys.readouterr()
    assert main(["--db", str(db), "--json", "pending"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["content"] for r in rows] == ["The API uses snake_case JSON keys"]


def test_after_the_command_still_works_and_wins(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first, second = tmp_path / "first.db", tmp_path / "second.db"
    assert main(["--db", str(first), "add", "Deploys happen on Fridays", "--kind", "event", "--db", str(second)]) == 0
    capsys.readouterr()
    assert not first.exists()
    with Services.open(second) as svc:
        assert [c.content for c in svc.review.pending()] == ["Deploys happen on Fridays"]
    assert main(["pending", "--db", str(second), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["kind"] == "event"


def test_ingest_with_db_first_as_the_readme_shows(tmp_path: Path) -> None:
    """The exact call that failed with "invalid choice: 'FILE'" before."""
    chat = tmp_path / "chat.jsonl"
    chat.write_text(json.dumps({"role": "user", "content": "I always use pnpm, never npm."}) + "\n"
                    + json.dumps({"role": "assistant", "content": "Noted: pnpm."}) + "\n", encoding="utf-8")
    db = tmp_path / "memory.db"
    done = run_cli("--db", str(db), "ingest", str(chat))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["turns"]["new"] == 2
    assert db.exists()


def test_version_and_a_missing_value(tmp_path: Path) -> None:
    done = run_cli("--version")
    assert done.returncode == 0 and done.stdout.strip() == f"madohub-memory {__version__}"
    done = run_cli("--db")
    assert done.returncode == 2 and "--db: expected one argument" in done.stderr


@pytest.mark.parametrize("argv", [
    ["--db", "x.db", "--json", "pending", "--kind", "fact"],
    ["remember", "Use pnpm", "--kind", "preference", "--db", "x.db"],
    ["memory", "pin", "3"],
    ["export", "out.jsonl", "--json"],
    ["--db=x.db", "turn", "abc"],
    ["decisions", "stats"],
])
def test_parsing_with_one_module_equals_the_whole_command_line(argv: list[str]) -> None:
    """Only the command's module is imported at start-up; the result is the same as with all."""
    from madohub_memory.cli import build_parser, command_name, module_for, parse

    module = module_for(command_name(argv) or "")
    assert module is not None
    quick, full = vars(parse(argv)), vars(build_parser().parse_args(argv))
    assert quick.keys() == full.keys()
    assert {k: v for k, v in quick.items() if k != "handler"} == {k: v for k, v in full.items() if k != "handler"}
    assert quick["handler"].__qualname__ == full["handler"].__qualname__


def test_help_and_unknown_commands_use_the_whole_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["no-such-command"])
    assert "invalid choice: 'no-such-command' (choose from 'add'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "recall" in out and "desktop" in out
