"""The user's folder -> project mapping (setting ``workspace.map``) reaches every place that
turns a working directory into a ``workspace:``: the reader, decision capture and the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_runner import CliResult, invoke
from test_ingest_helpers import SESSION, cc_assistant, cc_user, text, write_jsonl

from madohub_memory.core.errors import ValidationError
from madohub_memory.services import Services

CLIENT_CWD = "/home/ana/clients/acme-2024/backend"


def _cli(db: Path, *args: str) -> CliResult:
    return invoke(*args, "--db", str(db))


def _session(path: Path, cwd: str) -> Path:
    records = [cc_user("u1", "We use pnpm, not npm, in this project."),
               cc_assistant("a1", "m1", [text("Understood, pnpm from now on.")])]
    for record in records:
        record["cwd"] = cwd
    return write_jsonl(path / f"{SESSION}.jsonl", records)


def test_settings_set_accepts_prefix_project_pairs_and_rejects_bad_ones(db_path: Path) -> None:
    done = _cli(db_path, "settings", "set", "workspace.map", "~/clients/acme-2024=acme, /srv/legacy=billing")
    assert done.returncode == 0, done.stderr
    assert "~/clients/acme-2024=acme" in done.stdout
    got = json.loads(_cli(db_path, "settings", "get", "workspace.map", "--json").stdout)
    assert got["value"] == {"~/clients/acme-2024": "acme", "/srv/legacy": "billing"}
    for bad, message in [("clients/acme=acme", "absolute path"), ("/srv/legacy", "prefix=project"),
                         ("/srv/legacy=", "needs a project name")]:
        done = _cli(db_path, "settings", "set", "workspace.map", bad)
        assert done.returncode != 0 and message in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1
    got = json.loads(_cli(db_path, "settings", "get", "workspace.map", "--json").stdout)
    assert got["value"] == {"~/clients/acme-2024": "acme", "/srv/legacy": "billing"}  # nothing half-written


def test_json_object_form_and_empty_value(svc: Services) -> None:
    assert svc.settings.set("workspace.map", '{"/home/ana/clients/acme-2024": "acme"}') == {
        "/home/ana/clients/acme-2024": "acme"}
    assert svc.settings.set("workspace.map", "") == {}
    with pytest.raises(ValidationError, match="not valid JSON"):
        svc.settings.set("workspace.map", "{oops")


def test_ingest_puts_a_mapped_folder_in_its_project(svc: Services, tmp_path: Path) -> None:
    svc.settings.set("workspace.map", "/home/ana/clients/acme-2024=acme")
    svc.ingest.ingest_paths([str(_session(tmp_path / "a", CLIENT_CWD))], extract=False)
    [namespace] = [r[0] for r in svc.store.query("SELECT namespace FROM conversations")]
    assert namespace == "workspace:acme"


def test_without_a_mapping_the_folder_name_is_the_fallback(svc: Services, tmp_path: Path) -> None:
    svc.ingest.ingest_paths([str(_session(tmp_path / "a", CLIENT_CWD))], extract=False)
    [namespace] = [r[0] for r in svc.store.query("SELECT namespace FROM conversations")]
    assert namespace == "workspace:backend"


def test_decision_capture_uses_the_mapping(svc: Services, tmp_path: Path) -> None:
    svc.settings.set("workspace.map", "/home/ana/clients/acme-2024=acme")
    ask = cc_assistant("a1", "m1", [{"type": "tool_use", "id": "toolu_1", "name": "AskUserQuestion", "input": {
        "questions": [{"question": "Which database?", "header": "DB", "multiSelect": False,
                       "options": [{"label": "Postgres"}, {"label": "SQLite"}]}]}}])
    answer = cc_user("u2", "")
    answer["message"]["content"] = [{"type": "tool_result", "tool_use_id": "toolu_1",
                                     "content": 'User has answered your questions: "Which database?"="Postgres".'}]
    answer["toolUseResult"] = {"questions": [], "answers": {"Which database?": "Postgres"}}
    for record in (ask, answer):
        record["cwd"] = CLIENT_CWD
    path = write_jsonl(tmp_path / "s.jsonl", [ask, answer])
    assert svc.decisions.capture_transcript(path) == 1
    [context] = [json.loads(r[0]) for r in svc.store.query("SELECT context FROM decisions")]
    assert context == {"workspace": "acme"}
