"""Readers: what each transcript format turns into (turn ids, roles, what is kept or skipped)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_ingest_helpers import (
    SESSION,
    cc_assistant,
    cc_boundary,
    cc_compact_summary,
    cc_queue,
    cc_user,
    locomo_sample,
    small_session,
    text,
    write_jsonl,
)

from madohub_memory.core.errors import UserError
from madohub_memory.ingest import detect_format, expand_paths, read_file
from madohub_memory.ingest.passes import build_passes


def _turns(path: Path, fmt: str = "auto"):
    fmt = detect_format(str(path)) if fmt == "auto" else fmt
    result = read_file(str(path), fmt)
    return result, [t for c in result.conversations for t in c.turns]


def test_claude_code_keeps_prompts_queued_prompts_replies_and_compact_tools(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / f"{SESSION}.jsonl", small_session())
    result, turns = _turns(path)
    assert result.format == "claude-code" and not result.errors
    conv = result.conversations[0]
    assert conv.id == f"cc:{SESSION}" and conv.namespace == "workspace:demo-app"
    by_id = {t.id: t for t in turns}
    assert by_id["u1"].role == "user" and by_id["u1"].content == "I prefer pnpm over npm for this repo."
    # one API response split over three lines is one assistant turn (id of its first line with
    # content), thinking dropped, the tool call in compact form
    assert by_id["a2"].content == "Noted, switching to pnpm.\n[tool Bash] pnpm install"
    assert "a1" not in by_id and "a3" not in by_id
    assert by_id["r1"].role == "tool" and by_id["r1"].content == "[tool result] Done in 2s"
    queued = [t for t in turns if t.meta.get("queued")]
    assert [t.content for t in queued] == ["also I prefer tabs over spaces"]
    assert queued[0].role == "user" and queued[0].id.startswith(f"cc:{SESSION}:q")
    # progress, snapshots, meta, unknown records and task notifications are not turns
    assert not any(t.id.startswith("p-") or t.id in ("meta1", "zz", "s1") for t in turns)
    echo = by_id["u2"]
    assert echo.role == "system" and echo.extract is False
    assert [t.role for t in turns] == ["user", "assistant", "tool", "user", "system", "assistant"]


def test_claude_code_compaction_marks_segments_and_never_treats_summary_as_user(tmp_path: Path) -> None:
    records = [
        cc_user("u1", "I prefer short commit messages."),
        cc_assistant("a1", "m1", [text("OK.")], "u1"),
        cc_boundary("b1", "a1"),
        cc_compact_summary("sum1", "b1"),
        cc_user("u2", "I prefer squash merges."),
    ]
    result, turns = _turns(write_jsonl(tmp_path / "s.jsonl", records))
    assert result.conversations[0].boundaries == 1 and result.state["segment"] == 1
    assert [(t.id, t.segment) for t in turns] == [("u1", 0), ("a1", 0), ("sum1", 1), ("u2", 1)]
    summary = next(t for t in turns if t.id == "sum1")
    # model-written, so never a user turn; still extracted (its named sections are the
    # session's best record of errors, fixes and rules)
    assert summary.role == "system" and summary.extract is True and summary.meta["compact_summary"]


def test_subagent_file_is_linked_to_its_parent_session(tmp_path: Path) -> None:
    record = cc_user("s-u1", "Find the hook docs", agentId="a881341", isSidechain=True)
    path = write_jsonl(tmp_path / SESSION / "subagents" / "agent-a881341.jsonl", [record])
    result, turns = _turns(path)
    conv = result.conversations[0]
    assert conv.id == f"cc:{SESSION}:agent-a881341" and conv.parent_id == f"cc:{SESSION}"
    assert turns[0].extract is False  # subagent prompts are written by the agent, not the person


def test_a_session_opening_with_a_sidechain_warmup_is_still_the_main_session(tmp_path: Path) -> None:
    """CLI 2.0.x opens a session with a sidechain "Warmup" exchange and writes Task subagents
    into the session file as sidechain records: the session stays the session, only the
    sidechain turns are kept out of extraction."""
    records = [
        cc_user("w1", "Warmup", isSidechain=True),
        cc_assistant("w2", "m0", [text("Ready to help.")], "w1") | {"isSidechain": True},
        cc_user("u1", "Never commit with --no-verify; fix what the hook finds.", "w2"),
        cc_user("s1", "Review the Gmail client for production readiness.", "u1", isSidechain=True),
        cc_assistant("s2", "m1", [text("I prefer strict types here.")], "s1") | {"isSidechain": True},
        cc_assistant("a1", "m2", [text("Understood.")], "u1"),
    ]
    result, turns = _turns(write_jsonl(tmp_path / f"{SESSION}.jsonl", records))
    conv = result.conversations[0]
    assert conv.id == f"cc:{SESSION}" and conv.parent_id is None
    assert [(t.id, t.extract) for t in turns] == [
        ("w1", False), ("w2", False), ("u1", True), ("s1", False), ("s2", False), ("a1", True)]


def test_old_style_agent_file_beside_the_session_is_a_subagent(tmp_path: Path) -> None:
    record = cc_user("x1", "Warmup", agentId="a1b2c3", isSidechain=True)
    result, turns = _turns(write_jsonl(tmp_path / "agent-a1b2c3.jsonl", [record]))
    assert result.conversations[0].parent_id == f"cc:{SESSION}" and turns[0].extract is False


def test_a_prompt_enqueued_again_and_again_is_one_turn(tmp_path: Path) -> None:
    """CLI 2.0.76 wrote a waiting prompt as a user record, then re-enqueued it 1,308 times."""
    prompt = 'Whoops, keep going. I\'ve removed the "*" from the relevant gitignore'
    records = [cc_user("u1", prompt)]
    for _ in range(50):
        records += [cc_queue(prompt), cc_queue("", operation="dequeue")]
    records += [cc_queue("<agent-notification>\n<agent-id>a3</agent-id>\n<status>completed</status>\n"
                         "</agent-notification>"),
                cc_queue("also, use pnpm here"), cc_user("u2", prompt)]
    result, turns = _turns(write_jsonl(tmp_path / f"{SESSION}.jsonl", records))
    assert not result.errors
    assert [(t.content, t.extract) for t in turns if t.role == "user"] == [
        (prompt, True), ("also, use pnpm here", True), (prompt, False)]
    assert len(result.state["recent_prompts"]) == 2


def test_slash_command_arguments_are_the_persons_words_and_the_expansion_is_not(tmp_path: Path) -> None:
    echo = ("<command-message>implement is running…</command-message>\n<command-name>/implement</command-name>\n"
            "<command-args>T037. For API keys, don't put placeholders in the code.</command-args>")
    expansion = {"type": "text", "text": "The user input can be provided directly by the agent.\n\n"
                 "User input:\n\nT037.\n\n1. Run `check-prerequisites.sh` from repo root."}
    records = [
        cc_user("c0", "<command-name>/clear</command-name>\n<command-message>clear</command-message>\n"
                "<command-args></command-args>"),
        cc_user("c1", echo, "c0"),
        {**cc_user("c2", "", "c1"), "message": {"role": "user", "content": [expansion]}},
        cc_user("h1", "<user-prompt-submit-hook>IMPORTANT REMINDER: run tsc</user-prompt-submit-hook>", "c2"),
    ]
    _, turns = _turns(write_jsonl(tmp_path / f"{SESSION}.jsonl", records))
    assert [(t.id, t.role, t.extract) for t in turns] == [
        ("c0", "system", False), ("c1", "user", True), ("c2", "system", False), ("h1", "system", False)]
    assert turns[1].content == "T037. For API keys, don't put placeholders in the code."
    assert turns[1].meta["command"] == "implement"


def test_title_records_anywhere_and_a_title_only_file(tmp_path: Path) -> None:
    """``summary`` records (CLI 2.0.x) name a branch; they are titles, never turns."""
    records = [cc_user("u1", "Why is CI red?"),
               {"type": "summary", "summary": "Fixing the build", "leafUuid": "u1"}]
    result, turns = _turns(write_jsonl(tmp_path / f"{SESSION}.jsonl", records))
    assert result.conversations[0].title == "Fixing the build" and [t.id for t in turns] == ["u1"]
    only = write_jsonl(tmp_path / "4762e53b.jsonl", [{"type": "summary", "summary": "Git recovery",
                                                       "leafUuid": "ea98"}])
    result, turns = _turns(only)
    assert result.format == "claude-code" and not result.errors and turns == []


def test_chatgpt_follows_the_active_branch_only(tmp_path: Path) -> None:
    def node(node_id, parent, children, role=None, body=None, recipient="all"):
        message = None
        if role:
            message = {"id": node_id, "author": {"role": role}, "create_time": 1685000000.5,
                       "content": {"content_type": "text", "parts": [body]}, "recipient": recipient,
                       "metadata": {}}
        return {"id": node_id, "parent": parent, "children": children, "message": message}

    mapping = {
        "root": node("root", None, ["sys"]),
        "sys": node("sys", "root", ["q"], "system", ""),
        "q": node("q", "sys", ["old", "new"], "user", "I prefer metric units."),
        "old": node("old", "q", [], "assistant", "first draft answer"),
        "new": node("new", "q", ["call"], "assistant", "regenerated answer"),
        "call": node("call", "new", [], "assistant", "search('x')", recipient="browser"),
    }
    export = [{"id": "conv-1", "title": "Units", "create_time": 1685000000.0, "mapping": mapping,
               "current_node": "call"},
              {"id": "broken", "mapping": "nope"}]
    path = tmp_path / "conversations.json"
    path.write_text(json.dumps(export))
    result, turns = _turns(path)
    assert result.format == "chatgpt"
    assert [(t.id, t.role, t.content) for t in turns] == [
        ("chatgpt:q", "user", "I prefer metric units."), ("chatgpt:new", "assistant", "regenerated answer"),
    ]
    assert turns[0].created_at == "2023-05-25T07:33:20.500Z"
    assert len(result.errors) == 1 and "conversation #2" in result.errors[0].message


def test_plain_jsonl_roles_ids_and_per_line_errors(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    path.write_text(
        '{"role": "user", "content": "I prefer dark mode.", "timestamp": "2026-01-01T10:00:00Z"}\n'
        '{"role": "assistant", "content": [{"type": "text", "text": "Got it."}]}\n'
        '{"role": "wizard", "content": "?"}\n'
        "not json\n"
        '{"role": "user", "content": "split", "conversation_id": "other", "id": "t9"}\n'
    )
    result, turns = _turns(path)
    assert result.format == "jsonl"
    assert [(e.line, e.message.split(" ")[0]) for e in result.errors] == [(3, "role"), (4, "not")]
    first = result.conversations[0]
    ids = [t.id for t in first.turns]  # keyed by content and position, not by path or line
    assert len(set(ids)) == 2 and all(i.startswith(f"{first.id}:") and ":L" not in i for i in ids)
    assert first.turns[0].created_at == "2026-01-01T10:00:00Z" and first.turns[1].content == "Got it."
    assert result.conversations[1].turns[0].id == "jsonl:other:t9"
    assert len(turns) == 3


def test_locomo_adapter_keeps_speakers_and_dia_ids(tmp_path: Path) -> None:
    path = tmp_path / "locomo.json"
    path.write_text(json.dumps(locomo_sample()))
    result, turns = _turns(path)
    assert result.format == "locomo"
    assert [t.id for t in turns] == ["locomo:conv-x:D1:1", "locomo:conv-x:D1:2", "locomo:conv-x:D2:1"]
    assert all(t.role == "user" for t in turns)
    assert turns[1].meta["speaker"] == "Bob" and turns[1].content.endswith("[image: a photo of a trail]")
    assert turns[0].created_at == "2023-05-08T13:56:00.000Z"
    rows = [{"id": t.id, "conversation_id": "c", "role": t.role, "content": t.content,
             "meta": t.meta, "extract_mode": "turn", "segment": 0} for t in turns]
    passes = list(build_passes(rows))
    assert [len(p.turns) for p in passes] == [1, 1, 1]  # each utterance is its own exchange
    assert passes[1].turns[0].speaker == "Bob"


def test_longmemeval_adapter_stores_shared_sessions_once(tmp_path: Path) -> None:
    session = [{"role": "user", "content": "I prefer aisle seats."}, {"role": "assistant", "content": "Noted."}]
    data = [{"question_id": f"q{i}", "haystack_sessions": [session], "haystack_session_ids": ["s-1"],
             "haystack_dates": ["2023/04/25 (Tue) 04:07"]} for i in range(2)]
    path = tmp_path / "lme.json"
    path.write_text(json.dumps(data))
    result, turns = _turns(path)
    assert result.format == "longmemeval" and len(result.conversations) == 1
    assert [t.id for t in turns] == ["lme:s-1:0", "lme:s-1:1"]
    assert turns[0].created_at == "2023-04-25T04:07:00.000Z"


def test_exchanges_and_compaction_spans(tmp_path: Path) -> None:
    def row(i, role, mode="turn", segment=0):
        return {"id": f"t{i}", "conversation_id": "c", "role": role, "content": "x", "meta": "{}",
                "extract_mode": mode, "segment": segment, "namespace": "workspace:w"}

    rows = [row(0, "user", "compaction"), row(1, "assistant", "compaction"), row(2, "user", segment=1),
            row(3, "assistant", segment=1), row(4, "tool", segment=1), row(5, "user", segment=1)]
    passes = list(build_passes(rows))
    assert [(p.mode, [t.id for t in p.turns]) for p in passes] == [
        ("compaction", ["t0", "t1"]), ("turn", ["t2", "t3", "t4"]), ("turn", ["t5"]),
    ]
    assert passes[0].namespace == "workspace:w"


def test_detection_errors_are_one_clear_sentence(tmp_path: Path) -> None:
    array = tmp_path / "array.jsonl"
    array.write_text('[{"role": "user", "content": "hi"}]\n')
    with pytest.raises(UserError, match="JSON array"):
        detect_format(str(array))
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    with pytest.raises(UserError, match="empty"):
        detect_format(str(empty))
    other = tmp_path / "other.json"
    other.write_text('{"hello": 1}')
    with pytest.raises(UserError, match="unknown layout"):
        detect_format(str(other))
    (tmp_path / "nothing").mkdir()
    files, errors = expand_paths([str(tmp_path / "nothing"), str(tmp_path / "missing.jsonl")])
    assert files == [] and [e.message for e in errors] == [
        "directory contains no transcript files (.jsonl or .json)", "file not found"]


@pytest.mark.eval
def test_real_dev_samples_read_cleanly(eval_dev: Path) -> None:
    main = eval_dev / "claude_code" / "258c7280-ae70-4798-800f-63464d01a85d.jsonl"
    result, turns = _turns(main)
    assert not result.errors and result.conversations[0].boundaries == 1
    prompts = [t.content for t in turns if t.role == "user"]
    assert prompts == ["Implement spotter-gqc", "check again", "new beads for the epic were added. tackle them",
                       "did you push?"]
    summaries = [t for t in turns if t.meta.get("compact_summary")]
    assert len(summaries) == 1 and summaries[0].role == "system"
    assert not any(t.content.startswith("This session is being continued") for t in turns if t.role == "user")
    chat, chat_turns = _turns(eval_dev / "chatgpt_conversations_dev.json")
    assert chat.format == "chatgpt" and not chat.errors and len(chat.conversations) > 50
    assert {t.role for t in chat_turns} <= {"user", "assistant", "system"}
    locomo, locomo_turns = _turns(eval_dev / "locomo_dev.json")
    assert locomo.format == "locomo" and len(locomo_turns) > 2500
    assert len({t.id for t in locomo_turns}) == len(locomo_turns)


def test_byte_order_mark_and_leading_title_records(tmp_path: Path) -> None:
    path = tmp_path / "bom.jsonl"
    title = {"type": "summary", "summary": "Fixing the build", "leafUuid": "u1"}
    body = json.dumps(title) + "\n" + json.dumps(cc_user("u1", "Why is CI red?")) + "\n"
    path.write_bytes(b"\xef\xbb\xbf" + body.encode())
    result, turns = _turns(path)
    assert result.format == "claude-code" and not result.errors
    assert result.conversations[0].title == "Fixing the build" and [t.id for t in turns] == ["u1"]
    export = tmp_path / "conversations.json"
    export.write_bytes(b"\xef\xbb\xbf" + json.dumps(locomo_sample()).encode())
    assert detect_format(str(export)) == "locomo"


def test_a_re_enqueued_prompt_is_recognised_after_the_file_grows(tmp_path: Path) -> None:
    """The prompts already read travel with the read state (as short hashes), so a copy
    enqueued after an incremental read is not a new turn either."""
    from test_ingest_helpers import append_jsonl

    prompt = "keep going through all subtasks without asking"
    path = write_jsonl(tmp_path / f"{SESSION}.jsonl", [cc_user("u1", prompt)])
    first = read_file(str(path), "claude-code")
    append_jsonl(path, [cc_queue(prompt), cc_queue("a new prompt typed while busy")])
    second = read_file(str(path), "claude-code", first.end_offset, first.end_line, first.state)
    assert [t.content for c in second.conversations for t in c.turns] == ["a new prompt typed while busy"]
    assert all(len(key) == 16 for key in second.state["recent_prompts"])
