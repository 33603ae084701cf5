"""``transfer`` to and from a real PostgreSQL server: everything arrives (ids, vectors, the
people, the id counters), a conversation whose parent sorts after it still arrives, a stopped
run resumes, and a copy back to a file is byte-identical to the original when exported."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_runner import invoke
from test_store_transfer import export_bytes, populate

from madohub_memory.core.clock import Clock
from madohub_memory.services import Services
from madohub_memory.services.store_copy import StoreCopy


def add_child_conversation(svc: Services) -> None:
    """A conversation continued from another whose id sorts after it (a batch of one row
    then holds the child before its parent exists on the server)."""
    with svc.store.transaction():
        svc.store.execute("INSERT INTO conversations (id, format, meta) VALUES ('zz-parent', 'jsonl', '{}')")
        svc.store.execute(
            "INSERT INTO conversations (id, format, meta, parent_id) VALUES ('aa-child', 'jsonl', '{}', 'zz-parent')"
        )


def test_a_file_goes_to_a_server_and_back_unchanged(svc, db_path: Path, tmp_path: Path, clock: Clock,
                                                       pg_dsn: str) -> None:
    populate(svc)
    add_child_conversation(svc)
    there = invoke("transfer", "--from", db_path, "--to", pg_dsn, "--batch", "1", "--json")
    assert there.returncode == 0, there.stderr
    report = json.loads(there.stdout)
    assert report["copied"]["turns"] == report["totals"]["turns"] and not report["differences"]
    with Services.open(pg_dsn, clock) as server:
        assert any(m.approved_by == "wei" for m in server.memories.list())
        hits = server.recall.search("pnpm never npm", None, 1, record=False)
        assert hits[0].content == "The shop uses pnpm (never npm)"  # the server's keyword index and vectors
        assert server.store.scalar("SELECT parent_id FROM conversations WHERE id = 'aa-child'") == "zz-parent"
    back = tmp_path / "back.db"
    result = invoke("transfer", "--from", pg_dsn, "--to", back, "--json")
    assert result.returncode == 0, result.stderr
    assert export_bytes(db_path, tmp_path / "a.jsonl") == export_bytes(back, tmp_path / "b.jsonl")
    again = invoke("transfer", "--from", db_path, "--to", pg_dsn)
    assert again.returncode == 0 and again.stdout.startswith("nothing to do:")
    with Services.open(pg_dsn, clock) as server:  # the server hands out the id the file would hand out next
        assert server.review.add_manual("Staging runs on k3s", "fact").candidate_id == \
            svc.review.add_manual("Staging runs on k3s", "fact").candidate_id


def test_a_stopped_transfer_to_a_server_resumes(svc, db_path: Path, tmp_path: Path, clock: Clock,
                                                 pg_dsn: str) -> None:
    populate(svc)

    def stop_mid_turns(table: str, copied: int) -> None:
        if table == "turns" and copied == 8:
            raise KeyboardInterrupt

    with Services.open(pg_dsn, clock) as dst:
        with pytest.raises(KeyboardInterrupt):
            StoreCopy(svc, dst, source_name=str(db_path), target_name="server", batch_rows=4,
                      after_batch=stop_mid_turns).run()
        assert dst.store.scalar("SELECT COUNT(*) FROM turns") == 8
        result = StoreCopy(svc, dst, source_name=str(db_path), target_name="server", batch_rows=4).run()
        assert result.resumed and result.copied["turns"] == result.totals["turns"] - 8
    assert export_bytes(db_path, tmp_path / "a.jsonl") == export_bytes(pg_dsn, tmp_path / "b.jsonl")
