"""``madohub-memory ingest`` and ``turn`` as a user runs them, exit codes 0/3/1: in-process through
``main(argv)`` (tests/cli_runner.py); the progress bar on a terminal in a real subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_runner import CliResult, invoke
from test_ingest_helpers import SESSION, small_session, write_jsonl


def run(db: Path, *args: str, stdin: str | None = None) -> CliResult:
    return invoke(*args, env={**os.environ, "MADOHUB_DB": str(db)}, input=stdin)


@pytest.fixture
def good(tmp_path: Path) -> Path:
    return write_jsonl(tmp_path / "in" / f"{SESSION}.jsonl", small_session())


def test_ingest_prints_a_json_summary_and_exits_0(db_path: Path, good: Path) -> None:
    done = run(db_path, "ingest", str(good))
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["status"] == "ok" and summary["turns"] == {"new": 6, "known": 0}
    assert "\r" not in done.stderr  # no progress bar when stderr is not a terminal
    again = json.loads(run(db_path, "ingest", str(good), "--json").stdout)
    assert again["turns"] == {"new": 0, "known": 6}


def test_skipped_lines_exit_3_and_everything_valid_is_imported(db_path: Path, tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    with open(path, "wb") as handle:
        handle.write(b'{"role": "user", "content": "hello there"}\n')
        handle.write(b'{"role": "assistant", "content": "\xff\xfe broken"}\n')
        handle.write(b'{"role": "user", "content": "x' + b"y" * (50 * 1024 * 1024) + b'"}\n')
        handle.write(b'{"role": "assistant", "content": "still here"}\n')
        handle.write(b'{"role": "user", "content": "trunc')
    done = run(db_path, "ingest", str(path))
    assert done.returncode == 3, done.stderr
    summary = json.loads(done.stdout)
    assert summary["turns"]["new"] == 2 and summary["status"] == "partial"
    messages = {e["line"]: e["message"] for e in summary["errors"]}
    assert set(messages) == {2, 3, 5}
    assert "UTF-8" in messages[2] and "MiB limit" in messages[3] and "incomplete" in messages[5]
    assert f"{path}:3:" in done.stderr


@pytest.mark.parametrize(
    ("setup", "args", "needle"),
    [
        ("array", ["--format", "jsonl"], "JSON array"),
        ("array", [], "JSON array"),
        ("missing", [], "file not found"),
        ("emptydir", [], "no transcript files"),
    ],
)
def test_nothing_imported_exits_1(db_path: Path, tmp_path: Path, setup: str, args: list[str], needle: str) -> None:
    target = tmp_path / "input.jsonl"
    if setup == "array":
        target.write_text('[{"role": "user", "content": "hi"}]\n')
    elif setup == "emptydir":
        target = tmp_path / "empty"
        target.mkdir()
        (target / "notes.txt").write_text("not a transcript")
    done = run(db_path, "ingest", str(target), *args)
    assert done.returncode == 1, done.stdout
    summary = json.loads(done.stdout)
    assert summary["status"] == "failed" and needle in summary["errors"][0]["message"]
    assert needle in done.stderr


def test_unknown_format_is_one_clear_sentence(db_path: Path, good: Path) -> None:
    done = run(db_path, "ingest", str(good), "--format", "docx")
    assert done.returncode == 1
    assert done.stderr.strip() == (
        "madohub-memory: Unknown format 'docx': use one of auto, claude-code, codex, chatgpt, jsonl, locomo, longmemeval."
    )
    assert done.stdout == ""


def test_some_files_missing_exit_3(db_path: Path, good: Path, tmp_path: Path) -> None:
    done = run(db_path, "ingest", str(good), str(tmp_path / "nope.jsonl"))
    assert done.returncode == 3
    assert json.loads(done.stdout)["turns"]["new"] == 6


def test_turn_shows_the_turn_with_its_neighbours(db_path: Path, good: Path) -> None:
    assert run(db_path, "ingest", str(good)).returncode == 0
    done = run(db_path, "turn", "r1", "--radius", "1")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"conversation cc:{SESSION}")
    focus = [line for line in lines if line.startswith(">>")]
    assert len(focus) == 1 and "tool" in focus[0] and "(r1)" in focus[0]
    assert any("(a2)" in line for line in lines) and any("also I prefer tabs" in line for line in lines)
    data = json.loads(run(db_path, "turn", "r1", "--radius", "1", "--json").stdout)
    assert [t["id"] for t in data["turns"]][data["focus"]] == "r1" and len(data["turns"]) == 3
    missing = run(db_path, "turn", "no-such-turn")
    assert missing.returncode == 1 and "No turn with id 'no-such-turn'" in missing.stderr


def test_progress_bar_only_on_a_terminal(db_path: Path, good: Path) -> None:
    import pty

    master, slave = pty.openpty()
    env = {**os.environ, "MADOHUB_DB": str(db_path)}
    done = subprocess.run([sys.executable, "-m", "madohub_memory", "ingest", str(good)],
                          stdout=subprocess.PIPE, stderr=slave, env=env, timeout=180)
    os.close(slave)
    chunks = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(master)
    bar = b"".join(chunks).decode()
    assert done.returncode == 0
    assert "\r[" in bar and "1/1 files, 6 new turns" in bar
    assert json.loads(done.stdout)["status"] == "ok"  # stdout stays pure JSON
