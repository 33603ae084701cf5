"""The command line as scripts and agents meet it: a real process, its exit code, its two
streams. The rest of the CLI tests call ``main(argv)`` in-process (tests/cli_runner.py);
these few keep what only a subprocess shows (the ``python -m`` start, the console script,
stdout and stderr as separate pipes). The hook's subprocess tests are in tests/test_hook.py,
the installed wheel's in tests/test_wheel.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_ingest_helpers import SESSION, small_session, write_jsonl

from madohub_memory import __version__


def run(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "madohub_memory", *args], capture_output=True, text=True,
                          env={**os.environ, "MADOHUB_DB": str(db)}, timeout=120)


def test_json_on_stdout_and_exit_0(db_path: Path) -> None:
    added = run(db_path, "remember", "我们决定用 PostgreSQL，因为需要事务", "--kind", "decision",
                "--namespace", "workspace:shop", "--json")
    assert added.returncode == 0, added.stderr
    assert json.loads(added.stdout)["outcome"] == "new"
    pending = run(db_path, "pending", "--json")
    assert [p["content"] for p in json.loads(pending.stdout)] == ["我们决定用 PostgreSQL，因为需要事务"]


def test_bad_input_is_one_sentence_on_stderr_exit_1_and_nothing_is_written(db_path: Path) -> None:
    assert run(db_path, "add", "An existing fact", "--kind", "fact").returncode == 0
    proc = run(db_path, "approve", "42")
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr == "madohub-memory: No candidate with id 42.\n"
    assert len(json.loads(run(db_path, "pending", "--json").stdout)) == 1


def test_some_lines_skipped_exit_3(db_path: Path, tmp_path: Path) -> None:
    good = write_jsonl(tmp_path / "in" / f"{SESSION}.jsonl", small_session())
    done = run(db_path, "ingest", str(good), str(tmp_path / "nope.jsonl"))
    assert done.returncode == 3
    assert json.loads(done.stdout)["turns"]["new"] == 6


def test_a_usage_error_exits_2(db_path: Path) -> None:
    done = run(db_path, "approve")
    assert done.returncode == 2 and done.stderr.startswith("usage: madohub-memory approve")


def test_the_console_script_answers_its_version() -> None:
    script = Path(sys.executable).with_name("madohub-memory")
    if not script.exists():
        pytest.skip(f"no console script next to {sys.executable} (not an installed environment)")
    done = subprocess.run([str(script), "--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == f"madohub-memory {__version__}"
