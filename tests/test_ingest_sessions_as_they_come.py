"""Claude Code sessions as they come: newer record types, working folders on Windows, macOS,
UNC shares, relative or missing, a session run from the home folder, IDE envelopes, and
workflow subagent folders with empty files. Fixtures are written here."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_ingest_helpers import SESSION, cc_assistant, cc_tool_result, cc_user, text, tool_use, write_jsonl

from madohub_memory.agents.claude_code.transcript import read_claude_code
from madohub_memory.ingest.workspace import project_from_paths, project_name, workspace_namespace
from madohub_memory.services import Services


def at(cwd: Any, record: dict[str, Any]) -> dict[str, Any]:
    record = dict(record)
    if cwd is None:
        record.pop("cwd", None)
    else:
        record["cwd"] = cwd
    return record


@pytest.mark.parametrize(("cwd", "project"), [
    (r"c:\Users\ana\Documents\dev\shop", "shop"),
    (r"C:\Users\ana\Documents\dev\shop\backend", "backend"),
    (r"D:\work\shop-worktrees\feature-x", "shop"),
    (r"\\fileserver\projects\shop", "shop"),
    ("c:/Users/ana/dev/api", "api"),
    ("/Users/ana/personal/weave", "weave"),
    ("shop", "shop"),
    ("./shop", "shop"),
    ("../work/api", "api"),
])
def test_working_folders_from_other_machines_name_their_project(cwd: str, project: str) -> None:
    assert project_name(cwd) == project


@pytest.mark.parametrize("cwd", [r"C:\Users\ana", "/Users/ana", "/home/ana", "~", ".", r"\\fileserver\projects", "/"])
def test_a_home_folder_a_bare_share_or_a_root_is_no_project(cwd: str) -> None:
    assert workspace_namespace(cwd) is None


def test_a_windows_mapping_applies_case_insensitively() -> None:
    assert project_name(r"C:\Users\Ana\Clients\Acme\api", {r"c:\users\ana\clients\acme": "acme"}) == "acme"


def test_the_folder_a_home_session_worked_in_is_found_from_the_files_it_touched() -> None:
    touched = ["/home/ana/bhav/src/app.ts", "/home/ana/bhav/anchor/lib.rs", "/home/ana/.claude/skills/x.md", "/tmp/t"]
    assert project_from_paths(touched, "/home/ana") == "/home/ana/bhav"
    assert project_from_paths([r"C:\Users\ana\shop\a.py", r"C:\Users\ana\shop\b.py"], None) == r"C:\Users\ana\shop"
    assert project_from_paths(["/home/ana/notes.md"], "/home/ana") is None


def _session(tmp_path: Path, records: list[dict[str, Any]]) -> Any:
    return read_claude_code(str(write_jsonl(tmp_path / f"{SESSION}.jsonl", records)))


def test_namespace_is_the_first_folder_that_names_a_project_or_the_one_above_it(tmp_path: Path) -> None:
    records = [
        {"type": "queue-operation", "operation": "dequeue", "timestamp": "2026-01-01T00:00:00Z", "sessionId": SESSION},
        at(None, cc_user("u0", "hello")),
        at("/Users/ana", cc_user("u1", "start")),
        at("/Users/ana/dev/shop/backend", cc_user("u2", "build it")),
        at("/Users/ana/dev/shop", cc_user("u3", "and the frontend")),
        at("/Users/ana/dev/shop/backend", cc_user("u4", "again")),
    ]
    [conv] = _session(tmp_path, records).conversations
    assert conv.namespace == "workspace:shop"


@pytest.mark.parametrize(("cwd", "namespace"), [
    (r"c:\Users\ana\Documents\dev\shop", "workspace:shop"),
    (r"\\fileserver\projects\shop", "workspace:shop"),
    ("shop", "workspace:shop"),
    (None, "workspace:bhav"),  # no folder recorded: the one its tools worked in
    ("/home/ana", "workspace:bhav"),  # run from the home folder: the same
])
def test_a_sessions_namespace_wherever_it_ran(tmp_path: Path, cwd: str | None, namespace: str) -> None:
    edit = tool_use("t1", "Edit", {"file_path": "/home/ana/bhav/src/app.ts"})
    records = [at(cwd, cc_user("u1", "fix the app")), at(cwd, cc_assistant("a1", "m1", [edit], "u1")),
               at(cwd, cc_tool_result("r1", "t1", "The file has been updated successfully."))]
    if cwd and cwd != "/home/ana":
        records = [at(cwd, r) for r in records[:1]]
    [conv] = _session(tmp_path, records).conversations
    assert conv.namespace == namespace


def test_newer_record_types(tmp_path: Path) -> None:
    records = [
        {"type": "mode", "mode": "normal", "sessionId": SESSION},
        {"type": "permission-mode", "permissionMode": "default", "sessionId": SESSION},
        {"type": "ai-title", "aiTitle": "Build the checkout", "sessionId": SESSION},
        cc_user("u1", "build the checkout"),
        {"type": "last-prompt", "lastPrompt": "build the checkout", "sessionId": SESSION},
        {"type": "attachment", "uuid": "at1", "sessionId": SESSION, "cwd": "/home/ana/projects/demo-app",
         "timestamp": "2026-01-01T00:00:01Z",
         "attachment": {"type": "queued_command", "prompt": "no wait, keep the old API", "commandMode": "prompt",
                        "origin": {"kind": "human"}}},
        {"type": "attachment", "uuid": "at2", "sessionId": SESSION,
         "attachment": {"type": "queued_command", "prompt": "<task-notification>done</task-notification>"}},
        {"type": "attachment", "uuid": "at3", "sessionId": SESSION,
         "attachment": {"type": "file", "filename": "/x/y.py", "content": {"type": "text"}}},
        {"type": "system", "subtype": "away_summary", "uuid": "rc1", "sessionId": SESSION,
         "content": "Goal: ship the checkout. Status: payments work, refunds next. (disable recaps in /config)"},
        {"type": "custom-title", "customTitle": "Checkout", "sessionId": SESSION},
        {"type": "ai-title", "aiTitle": "A later machine title", "sessionId": SESSION},
        {"type": "agent-name", "agentName": "reviewer", "sessionId": SESSION},
    ]
    result = _session(tmp_path, records)
    assert not result.errors
    [conv] = result.conversations
    assert conv.title == "Checkout"  # a title the person set wins over the machine's
    turns = {t.id: t for t in conv.turns}
    assert turns["at1"].role == "user" and turns["at1"].content == "no wait, keep the old API"
    assert "at2" not in turns and "at3" not in turns
    assert turns["rc1"].role == "system" and turns["rc1"].meta.get("recap")
    assert turns["rc1"].content == "Goal: ship the checkout. Status: payments work, refunds next."
    assert sum(t.role == "user" for t in conv.turns) == 2  # the last-prompt copy is not read again


def test_ide_envelopes_are_not_the_users_words(tmp_path: Path) -> None:
    opened = text("<ide_opened_file>The user opened the file /x/plan.md in the IDE.</ide_opened_file>")
    record = cc_user("u1", "")
    record["message"] = {"role": "user", "content": [opened, text("read plan.md and plan the plugin")]}
    [conv] = _session(tmp_path, [record]).conversations
    assert [t.content for t in conv.turns] == ["read plan.md and plan the plugin"]


def test_empty_subagent_files_are_skipped_quietly(svc: Services, tmp_path: Path) -> None:
    session = write_jsonl(tmp_path / f"{SESSION}.jsonl", [cc_user("u1", "run the workflow")])
    agents = tmp_path / SESSION / "subagents"
    agents.mkdir(parents=True)
    (agents / "agent-a1.jsonl").write_text("")
    (agents / "agent-a2.jsonl").write_text("\n\n")
    write_jsonl(agents / "agent-a3.jsonl", [cc_user("s1", "subagent work")])
    result = svc.ingest.ingest_paths([str(session)])
    assert result["status"] == "ok" and result["errors"] == [] and result["warnings"] == []
    skipped = [f for f in result["files"] if f.get("skipped")]
    assert {Path(f["path"]).name for f in skipped} == {"agent-a1.jsonl", "agent-a2.jsonl"}
    # a whole folder of them, walked: the same
    assert svc.ingest.ingest_paths([str(agents)])["errors"] == []
