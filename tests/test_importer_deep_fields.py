"""A message that carries an irrelevant field nested thousands of levels deep is imported,
and only that field is dropped (issue 25), in every reader: plain JSONL, Claude Code
session files and ChatGPT exports. Nothing anywhere ends in a ``RecursionError``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from madohub_memory.services import Services

DEEP = "[" * 5000 + "]" * 5000


def _turns(svc: Services) -> list[str]:
    return [r[0] for r in svc.store.query("SELECT content FROM turns ORDER BY seq")]


def test_a_plain_jsonl_message_with_a_field_nested_5000_deep_is_kept(svc: Services, tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    path.write_text(
        '{"role": "user", "content": "Use uv for developing, never pip.", "debug": {"trace": ' + DEEP + "}}\n"
        '{"role": "assistant", "content": "Noted: uv only."}\n', encoding="utf-8")
    summary = svc.ingest.ingest_paths([str(path)], format="auto", extract=False)
    assert summary["errors"] == [], summary["errors"]
    assert summary["turns"]["new"] == 2
    assert _turns(svc) == ["Use uv for developing, never pip.", "Noted: uv only."]


def test_a_claude_code_record_with_a_deep_tool_input_keeps_its_prompt(svc: Services, tmp_path: Path) -> None:
    records = [
        '{"type": "user", "sessionId": "s1", "uuid": "u1", "cwd": "/home/a/shop", "timestamp": '
        '"2026-01-01T10:00:00Z", "toolUseResult": {"blob": ' + DEEP + '}, "message": {"role": "user", '
        '"content": "Always run make test before merging."}}',
        json.dumps({"type": "assistant", "sessionId": "s1", "uuid": "a1", "message": {
            "id": "m1", "content": [{"type": "text", "text": "Will do."}]}}),
    ]
    path = tmp_path / "session.jsonl"
    path.write_text("\n".join(records) + "\n", encoding="utf-8")
    summary = svc.ingest.ingest_paths([str(path)], format="claude-code", extract=False)
    assert summary["errors"] == [], summary["errors"]
    assert _turns(svc) == ["Always run make test before merging.", "Will do."]


def test_a_chatgpt_export_keeps_the_conversation_with_a_deep_metadata_field(svc: Services, tmp_path: Path) -> None:
    conversation = {"id": "c1", "title": "T", "create_time": 1700000000, "current_node": "n2", "mapping": {
        "n1": {"id": "n1", "parent": None, "children": ["n2"], "message": {
            "id": "m1", "author": {"role": "user"}, "create_time": 1700000001,
            "content": {"content_type": "text", "parts": ["I am vegetarian."]}, "metadata": "@DEEP@"}},
        "n2": {"id": "n2", "parent": "n1", "children": [], "message": {
            "id": "m2", "author": {"role": "assistant"}, "content": {"content_type": "text", "parts": ["Noted."]}}}}}
    path = tmp_path / "conversations.json"
    path.write_text(json.dumps([conversation]).replace('"@DEEP@"', DEEP), encoding="utf-8")
    summary = svc.ingest.ingest_paths([str(path)], format="auto", extract=False)
    assert summary["errors"] == [], summary["errors"]
    assert _turns(svc) == ["I am vegetarian.", "Noted."]


@pytest.mark.parametrize("depth", [150, 999, 5000, 50_000])
def test_the_field_is_dropped_whole_and_its_siblings_kept(depth: int) -> None:
    from madohub_memory.ingest.sanitize import parse_document, parse_json

    deep = "[" * depth + "]" * depth
    line = ('{"role": "user", "content": "a [ { in text", "x": {"y": ' + deep + '}, "list": [1, ' + deep
            + ', 3], "empty": []}')
    assert parse_json(line) == {"role": "user", "content": "a [ { in text", "list": [1, 3], "empty": []}
    assert parse_document("[" + line + ', {"id": 2}]') == [
        {"role": "user", "content": "a [ { in text", "list": [1, 3], "empty": []}, {"id": 2}]


def test_a_line_that_is_nothing_but_nesting_is_one_error_and_the_next_line_is_read(svc: Services,
                                                                                  tmp_path: Path) -> None:
    path = tmp_path / "bomb.jsonl"
    path.write_text(DEEP + '\n{"role": "user", "content": "after the bomb"}\n', encoding="utf-8")
    summary = svc.ingest.ingest_paths([str(path)], format="jsonl", extract=False)
    assert summary["turns"]["new"] == 1 and len(summary["errors"]) == 1
    assert _turns(svc) == ["after the bomb"]


def test_a_codex_rollout_with_deep_fields_imports_as_the_plain_one(svc: Services, tmp_path: Path) -> None:
    """A deep irrelevant field on a message record, and tool-call arguments (JSON inside a
    string) nested 5,000 deep: the same turns as without them, and no line lost."""
    fixture = next((Path(__file__).parent / "fixtures" / "codex").glob("rollout-*.jsonl"))
    lines = fixture.read_text(encoding="utf-8").splitlines()
    deep_lines = []
    for line in lines:
        record = json.loads(line)
        payload = record.get("payload") or {}
        if payload.get("type") == "message":
            line = line[:-1] + ', "debug": {"trace": ' + DEEP + "}}"
        elif payload.get("type") == "function_call":
            arguments = {**json.loads(payload["arguments"]), "blob": "@DEEP@"}
            payload["arguments"] = json.dumps(arguments).replace('"@DEEP@"', DEEP)
            line = json.dumps(record)
        deep_lines.append(line)
    folder = tmp_path / "sessions" / "2026" / "12" / "01"
    folder.mkdir(parents=True)
    plain, deep = folder / fixture.name, tmp_path / "deep" / fixture.name
    deep.parent.mkdir()
    plain.write_text("\n".join(lines) + "\n", encoding="utf-8")
    deep.write_text("\n".join(deep_lines) + "\n", encoding="utf-8")
    first = svc.ingest.ingest_paths([str(plain)], format="codex", extract=False)
    expected = _turns(svc)
    svc.store.execute("DELETE FROM turns")
    svc.store.execute("DELETE FROM conversations")
    svc.store.execute("DELETE FROM ingest_files")
    second = svc.ingest.ingest_paths([str(deep)], format="codex", extract=False)
    assert second["errors"] == first["errors"] == [], second["errors"]
    assert expected and _turns(svc) == expected
