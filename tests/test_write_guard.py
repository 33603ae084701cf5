"""The store's one choke point: every write through a connection masks its free text, and
deleted text does not stay in the file.

Issue 25: secrets reached the recall log, decision memory and the file's bytes because each
sink relied on its own write function remembering to mask. The guard
(``store/write_guard.py``) masks the free-text columns of any INSERT or UPDATE, also one
written straight to ``store.execute``; ``secure_delete`` zeroes what a DELETE or an
overwrite frees.
"""

from __future__ import annotations

import json
import random
import string
from pathlib import Path

import pytest

from madohub_memory.core.types import CandidateDraft
from madohub_memory.services import Services
from madohub_memory.store import write_guard

_R = random.Random(25)
KEY = "/" + "".join(_R.choice(string.ascii_letters + string.digits + "+/") for _ in range(38)) + "Q"
TOKEN = "ghp_" + "".join(_R.choice(string.ascii_letters + string.digits) for _ in range(36))


def stored(svc: Services, sql: str) -> str:
    return json.dumps([list(r) for r in svc.store.query(sql)], ensure_ascii=False)


@pytest.mark.both_backends
def test_a_write_that_forgets_to_mask_is_masked_by_the_guard(svc: Services) -> None:
    cid = svc.review.submit(CandidateDraft("CI reads keys from the vault", "fact", source="remember")).candidate_id
    with svc.store.transaction():  # a store function that forgot redact_row would write like this
        svc.store.execute("UPDATE candidates SET content = ? WHERE id = ?",
                          (f"aws_secret_access_key = {KEY}", cid))
        svc.store.conn.executemany(
            "INSERT INTO recall_log (at, source, query, namespace, memory_ids, token_estimate)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            [("2026-11-01T00:00:00Z", "cli", f"deploy with {TOKEN}", None, "[]", 0)],
        )
    text = stored(svc, "SELECT content FROM candidates") + stored(svc, "SELECT query FROM recall_log")
    assert KEY not in text and TOKEN not in text
    assert text.count("[REDACTED]") == 2


@pytest.mark.both_backends
def test_structural_values_are_left_as_they_are(svc: Services) -> None:
    """Ids and keys are looked up by their exact value: the guard masks free text only."""
    with svc.store.transaction():
        svc.store.execute("INSERT INTO jobs (name, running_by) VALUES (?, ?)", ("bench", TOKEN))
    assert svc.store.scalar("SELECT running_by FROM jobs WHERE name = 'bench'") == TOKEN


def test_the_guard_reads_which_column_each_value_fills() -> None:
    plan = write_guard.plan(
        "INSERT OR IGNORE INTO turns (id, conversation_id, seq, role, content, created_at, meta,"
        " extract_state, extract_mode, segment) VALUES (:id, :conversation_id, :seq, :role, :content,"
        " :created_at, :meta, :extract_state, :extract_mode, :segment)")
    assert plan is not None and plan[2]["content"] == "content" and plan[2]["id"] == "id"
    plan = write_guard.plan("UPDATE working_memory SET task = ?, task_started_at = ?, updated_at = ? WHERE workspace = ?")
    assert plan == ("working_memory", {0: "task", 1: "task_started_at", 2: "updated_at"}, {})
    assert write_guard.plan("SELECT content FROM candidates WHERE id = ?") is None
    assert write_guard.plan("UPDATE embeddings SET vector = ? WHERE entity = ?") is None  # no free text there
    masked = write_guard.guard("UPDATE working_memory SET task = ?, updated_at = ? WHERE workspace = ?",
                               (f"rotate {TOKEN}", "2026-11-01", f"shop{TOKEN}"))
    assert masked[0] == "rotate [REDACTED]" and masked[2] == f"shop{TOKEN}"


def test_every_write_the_program_makes_is_read_by_the_guard(svc: Services, tmp_path: Path) -> None:
    """A statement the guard cannot read is masked whole (the safe side) but named here, so
    that its structural values are not masked by accident."""
    transcript = tmp_path / "chat.jsonl"
    transcript.write_text("\n".join(json.dumps(t) for t in [
        {"role": "user", "content": "We always run make test before merging."},
        {"role": "assistant", "content": "Noted."},
    ]) + "\n", encoding="utf-8")
    svc.ingest.ingest_paths([str(transcript)], format="jsonl")
    cid = svc.review.submit(CandidateDraft("Deploys need the ops VPN", "fact", source="remember")).candidate_id
    svc.review.approve(cid, content="Deploys to staging need the ops VPN")
    svc.working.update("shop", "task", "ship the release")
    svc.working.update("shop", "add_decision", "Keep SSR", reason="SEO")
    svc.decisions.record("Which tier?", ["S", "M"], "M", session="s1", context={"phase": "plan"})
    svc.recall.search("staging VPN", k=3, source="cli")
    svc.settings.set("recall.k", 7)
    svc.transfer.export(tmp_path / "out.jsonl")
    assert not write_guard.UNREAD, write_guard.UNREAD


def test_deleted_text_is_zeroed_in_the_file(svc: Services, db_path: Path) -> None:
    """``secure_delete``: a row deleted (or text overwritten) leaves no bytes behind in the
    database file once the WAL is checkpointed, and the WAL is cut back when it restarts."""
    marker = "Quokka-Marmalade-Zeppelin-4417"
    assert svc.store.scalar("PRAGMA secure_delete") == 1
    assert svc.store.scalar("PRAGMA journal_size_limit") > 0
    with svc.store.transaction():
        for i in range(40):
            svc.store.execute(
                "INSERT INTO recall_log (at, source, query, namespace, memory_ids, token_estimate)"
                " VALUES (?, 'cli', ?, NULL, '[]', 0)", (f"2026-11-01T00:00:{i:02d}Z", f"{marker} {i}"))
    svc.store.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    assert marker.encode() in db_path.read_bytes()
    with svc.store.transaction():
        svc.store.execute("DELETE FROM recall_log")
    svc.store.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    raw = b"".join(p.read_bytes() for p in db_path.parent.glob(db_path.name + "*"))
    assert marker.encode() not in raw
