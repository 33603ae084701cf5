"""A secret reaches no sink: every place that stores or writes text masks it.

Sinks: turns, conversation titles, candidates, memories, history, the keyword index,
working memory (text and reasons), decisions (question, options, answer), the recall log,
job errors, ``hook.log``, the program's log records, exports and imports, settings — and
the database file itself. The schema test keeps it so: every text column is either masked
or declared structural in ``store/redaction.py``.
"""

from __future__ import annotations

import json
import logging
import os
import random
import sqlite3
import string
import subprocess
import sys
from pathlib import Path

import pytest

from madohub_memory.core.errors import ValidationError
from madohub_memory.core.types import CandidateDraft
from madohub_memory.services import Services

# generated, not a real key: a GitHub-style token and a password in the formats that leaked
TOKEN = "ghp_" + "".join("aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1eF3hJ5"[i] for i in range(36))
PASSWORD = "Quartz71#Lm9x"
SECRET_TEXT = f"PGPASSWORD={PASSWORD} psql -h db; my token is {TOKEN}"


def everything(svc: Services, sql: str) -> str:
    return json.dumps([list(r) for r in svc.store.query(sql)], ensure_ascii=False)


def write_past_the_guard(svc: Services, sql: str, params: tuple[object, ...]) -> None:
    """A write as an older version made it: straight to SQLite, past the write guard."""
    sqlite3.Connection.execute(svc.store.conn, sql, params)


def assert_masked(text: str) -> None:
    assert TOKEN not in text and PASSWORD not in text
    assert "[REDACTED]" in text


def test_working_memory_text_and_reason(svc: Services) -> None:
    svc.working.update("shop", "task", f"Rotate the DB password ({SECRET_TEXT})")
    svc.working.update("shop", "add_decision", f"Use {TOKEN} for CI", reason=f"because {SECRET_TEXT}")
    svc.working.update("shop", "add_constraint", f"never print the password {PASSWORD}")
    shown = json.dumps(svc.working.show("shop"), ensure_ascii=False) + svc.working.render("shop")
    stored = everything(svc, "SELECT task FROM working_memory") + everything(svc, "SELECT text, reason FROM working_items")
    for text in (shown, stored):
        assert_masked(text)
    # the same constraint again is found (the lookup is masked too), not added twice
    svc.working.update("shop", "add_constraint", f"never print the password {PASSWORD}")
    assert len(svc.working.show("shop")["constraints"]) == 1


def test_decision_question_options_and_answer(svc: Services) -> None:
    record = svc.decisions.record(f"Which key for staging? {SECRET_TEXT}", [f"use {TOKEN}", "ask ops"],
                                  f"use {TOKEN}", session="s1", context={"note": SECRET_TEXT})
    assert record["inserted"]
    stored = everything(svc, "SELECT question, user_choice, all_options, static_default, context FROM decisions")
    assert_masked(stored)


def test_conversation_titles_and_turns(svc: Services, tmp_path: Path) -> None:
    export = tmp_path / "conversations.json"
    export.write_text(json.dumps([{
        "id": "c1", "title": f"deploy with {SECRET_TEXT}", "create_time": 1760000000, "current_node": "b",
        "mapping": {
            "a": {"id": "a", "message": None, "parent": None, "children": ["b"]},
            "b": {"id": "b", "parent": "a", "children": [], "message": {
                "id": "m", "author": {"role": "user"}, "create_time": 1760000000,
                "content": {"content_type": "text", "parts": [f"keep this: {SECRET_TEXT}"]}}},
        },
    }]), encoding="utf-8")
    svc.ingest.ingest_paths([str(export)], format="chatgpt")
    assert_masked(everything(svc, "SELECT title FROM conversations"))
    assert_masked(everything(svc, "SELECT content FROM turns"))


def test_candidates_memories_history_and_keyword_index(svc: Services) -> None:
    result = svc.review.submit(CandidateDraft(f"CI uses {SECRET_TEXT}", "fact", source="remember"))
    svc.review.approve(result.candidate_id, content=f"CI reads the token {TOKEN} from the vault")
    for sql in ("SELECT content FROM candidates", "SELECT content FROM memories",
                "SELECT before, after FROM history", "SELECT * FROM memory_fts"):
        assert TOKEN not in everything(svc, sql) and PASSWORD not in everything(svc, sql)


def test_recall_log_query(svc: Services) -> None:
    svc.review.approve(svc.review.add_manual("Staging deploys need the ops VPN", "fact").candidate_id)
    svc.recall.search(f"how do I deploy with {SECRET_TEXT}", k=3, source="cli")
    assert_masked(everything(svc, "SELECT query FROM recall_log"))
    assert_masked(json.dumps(svc.recall.recent_log(), ensure_ascii=False))


def test_a_long_recall_query_is_masked_before_it_is_cut(svc: Services) -> None:
    query = "x " * 240 + f"token {TOKEN}"  # the token straddles the 500-character cut
    svc.recall.search(query, k=1, source="cli")
    stored = everything(svc, "SELECT query FROM recall_log")
    assert TOKEN[:12] not in stored


def test_job_errors(svc: Services) -> None:
    from madohub_memory.store import jobs as job_rows

    job_rows.finish(svc.store, "drain", "me", now=svc.clock.now_iso(), next_run=None, processed=0,
                    error=f"RuntimeError: login failed for {SECRET_TEXT}", duration_ms=3)
    assert_masked(everything(svc, "SELECT last_error FROM jobs"))


def test_log_records_are_masked_for_any_handler(svc: Services, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO):
        logging.getLogger("madohub_memory.test").warning("LLM reply was not JSON: %r", SECRET_TEXT)
        try:
            raise ValueError(f"cannot parse {SECRET_TEXT}")
        except ValueError:
            logging.getLogger("madohub_memory.test").exception("extraction failed")
    text = caplog.text
    assert TOKEN not in text and PASSWORD not in text and "[REDACTED]" in text


def test_hook_log(db_path: Path, tmp_path: Path) -> None:
    log = tmp_path / "hook.log"
    env = {**os.environ, "MADOHUB_DB": str(db_path), "MADOHUB_HOOK_LOG": str(log)}
    payload = json.dumps({"hook_event_name": "Stop", "transcript_path": f"/no/such/{SECRET_TEXT}.jsonl"})
    done = subprocess.run([sys.executable, "-m", "madohub_memory", "hook"], input=payload.encode(),
                          capture_output=True, env=env, timeout=120)
    assert done.returncode == 0
    assert_masked(log.read_text(encoding="utf-8"))


def test_export_and_import(svc: Services, tmp_path: Path) -> None:
    svc.review.submit(CandidateDraft(f"CI uses {SECRET_TEXT}", "fact", source="remember"))
    out = tmp_path / "export.jsonl"
    svc.transfer.export(out)
    assert_masked(out.read_text(encoding="utf-8"))
    # an export written by an older version (or by hand) with a secret in it is masked on import
    foreign = tmp_path / "old.jsonl"
    lines = out.read_text(encoding="utf-8").splitlines()
    lines = [line.replace("[REDACTED]", PASSWORD) if '"candidates"' in line else line for line in lines]
    foreign.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with Services.open(tmp_path / "other.db") as other:
        other.transfer.import_file(foreign)
        assert PASSWORD not in everything(other, "SELECT content FROM candidates")


def test_rows_stored_by_an_older_version_are_masked_in_exports(svc: Services, tmp_path: Path) -> None:
    svc.review.submit(CandidateDraft("CI uses the vault", "fact", source="remember"))
    with svc.store.transaction():  # as an older scanner left it
        write_past_the_guard(svc, "UPDATE candidates SET content = ?", (f"CI uses {SECRET_TEXT}",))
    out = tmp_path / "export.jsonl"
    svc.transfer.export(out)
    assert_masked(out.read_text(encoding="utf-8"))


def test_settings_refuse_a_secret(svc: Services) -> None:
    with pytest.raises(ValidationError, match="secret"):
        svc.settings.set("extraction.llm.base_url", f"https://bot:{PASSWORD}@llm.internal/v1")
    assert svc.settings.get("extraction.llm.base_url") != f"https://bot:{PASSWORD}@llm.internal/v1"


def test_database_file_never_holds_the_secret(svc: Services, db_path: Path, tmp_path: Path) -> None:
    transcript = tmp_path / "chat.jsonl"
    transcript.write_text(json.dumps({"role": "user", "content": f"Remember: {SECRET_TEXT}"}) + "\n", encoding="utf-8")
    svc.ingest.ingest_paths([str(transcript)], format="jsonl")
    svc.working.update("shop", "add_decision", "Keep the vault", reason=SECRET_TEXT)
    svc.decisions.record(f"Which? {SECRET_TEXT}", ["a", "b"], "a")
    raw = b"".join(p.read_bytes() for p in db_path.parent.glob(db_path.name + "*"))
    assert TOKEN.encode() not in raw and PASSWORD.encode() not in raw


def test_every_text_column_is_masked_or_declared_structural(svc: Services) -> None:
    from madohub_memory.store.redaction import FREE_TEXT, STRUCTURAL

    undecided = []
    for (table,) in svc.store.query("SELECT name FROM sqlite_master WHERE type = 'table'"):
        if table.startswith(("sqlite_", "memory_fts")):
            continue  # SQLite internals; the keyword index is derived from memories
        for row in svc.store.query(f"PRAGMA table_info({table})"):
            column, kind = row[1], (row[2] or "").upper()
            if kind in ("TEXT", "") and column not in FREE_TEXT.get(table, {}) and column not in STRUCTURAL.get(table, set()):
                undecided.append(f"{table}.{column}")
    assert undecided == [], "decide in store/redaction.py whether these columns hold free text"


def test_scrub_masks_what_an_older_version_stored(svc: Services, db_path: Path, tmp_path: Path) -> None:
    from madohub_memory.cli import main

    cid = svc.review.submit(CandidateDraft("CI uses the vault", "fact", source="remember")).candidate_id
    svc.review.approve(cid)
    svc.working.update("shop", "task", "rotate keys")
    with svc.store.transaction():  # as an older scanner left them
        write_past_the_guard(svc, "UPDATE memories SET content = ?", (f"CI uses {SECRET_TEXT}",))
        write_past_the_guard(svc, "UPDATE working_memory SET task = ?", (f"rotate {TOKEN}",))
    assert TOKEN in everything(svc, "SELECT * FROM memory_fts")
    svc.close()
    assert main(["scrub", "--db", str(db_path), "--json"]) == 0
    with Services.open(db_path) as again:
        for sql in ("SELECT content FROM memories", "SELECT * FROM memory_fts", "SELECT task FROM working_memory"):
            assert TOKEN not in everything(again, sql) and PASSWORD not in everything(again, sql)
        assert again.recall.search("vault", k=1, source="cli")  # the index still answers
    raw = b"".join(p.read_bytes() for p in db_path.parent.glob(db_path.name + "*"))
    assert TOKEN.encode() not in raw and PASSWORD.encode() not in raw


def test_history_snapshots_mask_free_text_and_unknown_fields_but_keep_structural_ones(svc: Services) -> None:
    """History masks a snapshot by its table's columns: free text and any field it does not
    know are masked, ids, hashes and timestamps are kept as they are (and are not scanned)."""
    from madohub_memory.store import history

    with svc.store.transaction():
        history.record(
            svc.store, entity="candidate", entity_id=1, action="edit", actor="human", at="2026-11-01T09:00:00Z",
            before=None, batch="b1",
            after={"id": 1, "content": SECRET_TEXT, "fingerprint": "0123456789abcdef0123", "note": TOKEN,
                   "created_at": "2026-11-01T09:00:00.000Z", "confidence": 0.5},
        )
    [after] = [json.loads(r[0]) for r in svc.store.query("SELECT after FROM history")]
    assert_masked(after["content"])
    assert after["note"] == "[REDACTED]"
    assert after["fingerprint"] == "0123456789abcdef0123" and after["created_at"] == "2026-11-01T09:00:00.000Z"
    assert after["confidence"] == 0.5


# -- issue 25: what reached a sink on main ------------------------------------------------------

_R25 = random.Random(25)
AWS_SLASH = "/" + "".join(_R25.choice(string.ascii_letters + string.digits + "+/") for _ in range(38)) + "Q7"
KEY_BODY = "".join(_R25.choice(string.ascii_letters + string.digits + "+/") for _ in range(64))
KEY_ID = "".join(_R25.choice("0123456789abcdef") for _ in range(40))


@pytest.mark.parametrize("query", [
    f"export AWS_SECRET_ACCESS_KEY={AWS_SLASH}",
    f"the secret access key for the backup bucket is {AWS_SLASH} and it expires in May",
    f'{{"AccessKey": {{"UserName": "ci", "Status": "Active", "SecretAccessKey": "{AWS_SLASH}"}}}}',
])
def test_recall_log_holds_no_cloud_secret_key(svc: Services, query: str) -> None:
    svc.recall.search(query, k=3, source="mcp")
    assert AWS_SLASH not in everything(svc, "SELECT query FROM recall_log")
    assert AWS_SLASH not in json.dumps(svc.recall.recent_log())


def test_decision_question_with_a_service_account_key(svc: Services, tmp_path: Path) -> None:
    """An AskUserQuestion whose question carries a JSON key file: captured from the transcript,
    stored and exported masked."""
    key = json.dumps({"type": "service_account", "project_id": "shop-prod", "private_key_id": KEY_ID,
                      "private_key": f"{KEY_BODY}\n{KEY_BODY[::-1]}\n", "client_email": "ci@shop-prod.iam.gserviceaccount.com"})
    question = f"Which credentials should the deploy job use? {key}"
    session = tmp_path / "session.jsonl"
    ask = {"type": "assistant", "sessionId": "s1", "uuid": "a1", "timestamp": "2026-10-30T10:00:00.000Z",
           "cwd": "/home/u/projects/shop", "message": {"role": "assistant", "content": [
               {"type": "tool_use", "id": "t1", "name": "AskUserQuestion", "input": {"questions": [
                   {"question": question, "header": "Key", "multiSelect": False,
                    "options": [{"label": "This one"}, {"label": "Ask ops"}]}]}}]}}
    answer = {"type": "user", "sessionId": "s1", "uuid": "r1", "timestamp": "2026-10-30T10:01:00.000Z",
              "toolUseResult": {"questions": [], "answers": {question: "This one"}},
              "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}]}}
    session.write_text(json.dumps(ask) + "\n" + json.dumps(answer) + "\n", encoding="utf-8")
    assert svc.decisions.capture_transcript(session) == 1
    out = tmp_path / "export.jsonl"
    svc.transfer.export(out)
    for text in (everything(svc, "SELECT question, all_options, context FROM decisions"), out.read_text(encoding="utf-8")):
        assert KEY_ID not in text and KEY_BODY not in text and KEY_BODY[::-1] not in text


def test_hook_log_holds_no_token_after_an_escaped_newline(db_path: Path, tmp_path: Path) -> None:
    log = tmp_path / "hook.log"
    env = {**os.environ, "MADOHUB_DB": str(db_path), "MADOHUB_HOOK_LOG": str(log)}
    payload = json.dumps({"hook_event_name": "Stop", "transcript_path": f"/tmp/prompt\n{TOKEN}\n.jsonl"})
    done = subprocess.run([sys.executable, "-m", "madohub_memory", "hook"], input=payload.encode(),
                          capture_output=True, env=env, timeout=120)
    assert done.returncode == 0
    logged = log.read_text(encoding="utf-8")
    assert "error:" in logged and TOKEN not in logged and TOKEN[4:20] not in logged


def test_a_password_given_in_the_next_hook_turn_is_masked(db_path: Path, tmp_path: Path) -> None:
    """The assistant asks in one Stop, the user answers in the next: the answer is masked by
    the turn before it, which is already stored."""
    from test_ingest_helpers import SESSION, cc_assistant, cc_user, text, write_jsonl

    password = "Cobalt36#" + "".join(_R25.choice(string.ascii_letters) for _ in range(4))
    transcript = tmp_path / "session.jsonl"
    first = [cc_user("u1", "connect to the staging database"),
             cc_assistant("a1", "m1", [text("What is the staging database password?")], parent="u1")]
    write_jsonl(transcript, first)
    env = {**os.environ, "MADOHUB_DB": str(db_path), "MADOHUB_HOOK_LOG": str(tmp_path / "hook.log"),
           "MADOHUB_HOOK_INLINE": "1"}
    for records in (first, [*first, cc_user("u2", password, parent="a1"),
                            cc_assistant("a2", "m2", [text(f"Thanks, using {password} now.")], parent="u2")]):
        write_jsonl(transcript, records)
        payload = json.dumps({"hook_event_name": "Stop", "session_id": SESSION, "transcript_path": str(transcript)})
        subprocess.run([sys.executable, "-m", "madohub_memory", "hook"], input=payload.encode(),
                       capture_output=True, env=env, timeout=120, check=True)
    with Services.open(db_path) as svc:
        stored = everything(svc, "SELECT content FROM turns") + everything(svc, "SELECT content FROM candidates")
        assert svc.store.scalar("SELECT COUNT(*) FROM turns") == 4
    assert password not in stored
    raw = b"".join(p.read_bytes() for p in db_path.parent.glob(db_path.name + "*"))
    assert password.encode() not in raw
