"""The command-line contract, run in-process through ``main(argv)`` (tests/cli_runner.py);
tests/test_cli_contract.py runs the same contract as a real subprocess like scripts and agents do."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from cli_runner import CliResult, invoke

from madohub_memory.cli import build_parser


def run(db: Path, *args: str, check: bool = True) -> CliResult:
    proc = invoke(*args, env={**os.environ, "MADOHUB_DB": str(db)})
    if check:
        assert proc.returncode == 0, proc.stderr
    return proc


def all_commands() -> list[list[str]]:
    """Every command and sub-command path, found by walking the real parser."""
    import argparse

    paths: list[list[str]] = []

    def walk(parser: argparse.ArgumentParser, prefix: list[str]) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    paths.append([*prefix, name])
                    walk(sub, [*prefix, name])

    walk(build_parser(), [])
    return paths


@pytest.mark.parametrize("command", all_commands(), ids=" ".join)
def test_every_command_has_help(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    from madohub_memory.cli import main

    with pytest.raises(SystemExit) as exit_info:
        main([*command, "--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: madohub-memory " + " ".join(command))


def test_contract_commands_exist() -> None:
    names = {" ".join(c) for c in all_commands()}
    for required in ["add", "remember", "pending", "approve", "reject", "memories", "memory edit",
                     "memory delete", "memory pin", "settings get", "settings set", "sweep", "export", "import"]:
        assert required in names


def test_leaf_commands_take_db_and_json() -> None:
    import argparse

    parser = build_parser()
    for command in all_commands():
        sub = parser
        for name in command:
            action = next(a for a in sub._actions if isinstance(a, argparse._SubParsersAction))
            sub = action.choices[name]
        if any(isinstance(a, argparse._SubParsersAction) for a in sub._actions):
            continue
        options = {o for a in sub._actions for o in a.option_strings}
        assert {"--db", "--json"} <= options, command


def test_review_round_trip_with_json_output(db_path: Path) -> None:
    added = json.loads(run(db_path, "remember", "我们决定用 PostgreSQL，因为需要事务", "--kind", "decision",
                           "--namespace", "workspace:shop", "--confidence", "0.7", "--turn", "turn-1", "--json").stdout)
    assert added["outcome"] == "new"
    pending = json.loads(run(db_path, "pending", "--json").stdout)
    assert [p["content"] for p in pending] == ["我们决定用 PostgreSQL，因为需要事务"]
    row = pending[0]
    for field in ["id", "content", "kind", "namespace", "source", "confidence", "seen_count", "created_at", "turn_ids"]:
        assert field in row
    assert row["turn_ids"] == ["turn-1"] and row["source"] == "remember"
    approved = json.loads(run(db_path, "approve", str(row["id"]), "--content", "项目使用 PostgreSQL（需要事务）", "--json").stdout)
    memories = json.loads(run(db_path, "memories", "--namespace", "workspace:shop", "--json").stdout)
    assert [m["id"] for m in memories] == [approved["memory_id"]]
    assert memories[0]["content"] == "项目使用 PostgreSQL（需要事务）"
    run(db_path, "memory", "pin", str(approved["memory_id"]))
    run(db_path, "memory", "edit", str(approved["memory_id"]), "--kind", "fact")
    shown = json.loads(run(db_path, "memory", "show", str(approved["memory_id"]), "--json").stdout)
    assert shown["pinned"] is True and shown["kind"] == "fact"
    run(db_path, "memory", "delete", str(approved["memory_id"]))
    assert json.loads(run(db_path, "memories", "--json").stdout) == []
    run(db_path, "undo")
    assert len(json.loads(run(db_path, "memories", "--json").stdout)) == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["add", "text", "--kind", "opinion"], "Unknown kind"),
        (["add", "text", "--kind", "fact", "--namespace", "persona:"], "Malformed namespace"),
        (["add", "text", "--kind", "fact", "--namespace", "project:x"], "Malformed namespace"),
        (["add", "   ", "--kind", "fact"], "Content is empty"),
        (["add", "x" * 10_001, "--kind", "fact"], "more than the limit"),
        (["approve", "42"], "No candidate with id 42"),
        (["reject", "42"], "No candidate with id 42"),
        (["memory", "edit", "42", "--content", "x"], "No memory with id 42"),
        (["remember", "x", "--kind", "fact", "--confidence", "2"], "between 0 and 1"),
        (["settings", "set", "auto_approve.min_seen", "many"], "not a whole number"),
        (["settings", "get", "no.such.key"], "Unknown setting"),
        (["sweep", "--now", "yesterday"], "not an ISO-8601"),
    ],
)
def test_bad_input_is_one_sentence_on_stderr_and_nothing_is_written(db_path: Path, args: list[str], message: str) -> None:
    run(db_path, "add", "An existing fact", "--kind", "fact")
    before = run(db_path, "export", str(db_path.with_suffix(".before.jsonl")))
    assert before.returncode == 0
    proc = run(db_path, *args, check=False)
    assert proc.returncode == 1
    assert message in proc.stderr
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    run(db_path, "export", str(db_path.with_suffix(".after.jsonl")))
    assert db_path.with_suffix(".before.jsonl").read_text() == db_path.with_suffix(".after.jsonl").read_text()


def test_sweep_with_injected_time_archives_stale_candidates(db_path: Path) -> None:
    run(db_path, "add", "Something to review", "--kind", "event")
    report = json.loads(run(db_path, "sweep", "--now", "2099-01-01T00:00:00Z", "--json").stdout)
    assert len(report["archived"]) == 1
    assert json.loads(run(db_path, "pending", "--json").stdout) == []
