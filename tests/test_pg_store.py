"""The PostgreSQL backend on a real server: what differs from SQLite behaves as SQLite does.

The service suites run on both backends (modules marked ``both_backends``); here are the parts
only the server backend has: the SQL rewrite, transactions and the write lock across two
connections, live-view polling, ids given explicitly, the keyword index fed outside SQL,
refusing another program's database, addresses with passwords, and the CLI end to end.
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from madohub_memory.cli import main
from madohub_memory.core.clock import Clock
from madohub_memory.core.errors import DatabaseBusyError, ForeignDatabaseError, StorageError
from madohub_memory.services import Services
from madohub_memory.store import migrations, open_store
from madohub_memory.store.pg import dialect, dsn, schema


def test_sqlite_idioms_are_rewritten_once_for_postgresql() -> None:
    text, returning = dialect.translate("INSERT OR IGNORE INTO jobs (name) VALUES (?)")
    assert text.endswith("VALUES (%s) ON CONFLICT DO NOTHING") and not returning
    text, returning = dialect.translate("INSERT INTO history (entity) VALUES (?)")
    assert text.endswith("RETURNING id") and returning
    text, _ = dialect.translate(
        "SELECT a FROM t WHERE a IS NOT ? AND b IS ? AND c IS NOT NULL AND d LIKE '%x?' ESCAPE '\\'"
        " ORDER BY last_hit_at DESC, id, content COLLATE NOCASE"
    )
    assert "a IS DISTINCT FROM" in text and "b IS NOT DISTINCT FROM %s" in text and "c IS NOT NULL" in text
    assert "d ILIKE '%%x?'" in text  # a ? inside a string is text, not a parameter
    assert "last_hit_at DESC NULLS LAST, id, lower(content)" in text  # SQLite's NULL order
    assert dialect.translate("SELECT MIN(t.rowid) FROM turns t WHERE +t.seq > :n")[0] == \
        "SELECT MIN(t.mh_rowid) FROM turns t WHERE t.seq > %(n)s"
    with pytest.raises(dialect.UnsupportedSql):
        dialect.translate("PRAGMA table_info(x)")


def test_the_postgresql_schema_follows_every_sqlite_migration() -> None:
    """A new SQLite migration needs its counterpart in store/pg/schema.py (and VERSION raised)."""
    assert max(m.version for m in migrations.all_migrations()) == schema.VERSION


def test_rows_look_like_sqlite_rows_and_ids_follow_explicit_inserts(pg_dsn: str) -> None:
    store = open_store(pg_dsn)
    try:
        with store.transaction():
            first = store.execute(
                "INSERT INTO recall_log (at, source, query, memory_ids, token_estimate) VALUES (?, ?, ?, ?, ?)",
                ("2026-11-01", "cli", "q", "[]", 3),
            ).lastrowid
            store.execute("INSERT INTO recall_log (id, at, source, query, memory_ids, token_estimate)"
                          " VALUES (?, ?, ?, ?, ?, ?)", (40, "2026-11-01", "cli", "q", "[]", 3))
            after = store.execute(
                "INSERT INTO recall_log (at, source, query, memory_ids, token_estimate) VALUES (?, ?, ?, ?, ?)",
                ("2026-11-02", "cli", "q", "[]", 3),
            ).lastrowid
        assert (first, after) == (1, 41)  # as SQLite's AUTOINCREMENT: never an id handed out before
        row = store.query_one("SELECT id, query, token_estimate FROM recall_log WHERE id = ?", ("41",))
        assert row is not None and row[0] == row["id"] == 41 and row["QUERY"] == "q"
        assert dict(row) == {"id": 41, "query": "q", "token_estimate": 3}
        ident, text, tokens = row
        assert (ident, text, tokens) == (41, "q", 3)
        assert store.scalar("SELECT SUM(token_estimate) FROM recall_log") == 9  # an int, not a Decimal
    finally:
        store.close()


def test_a_failed_transaction_leaves_nothing_and_nesting_joins_the_outer_one(pg_dsn: str) -> None:
    store = open_store(pg_dsn)
    try:
        with pytest.raises(RuntimeError), store.transaction():
            store.execute("INSERT INTO settings (key, value, updated_at) VALUES ('a', '1', 'now')")
            with store.transaction():
                store.execute("INSERT INTO settings (key, value, updated_at) VALUES ('b', '1', 'now')")
            raise RuntimeError("boom")
        assert store.scalar("SELECT count(*) FROM settings") == 0
        with store.transaction():  # the connection is usable after the rollback
            store.execute("INSERT INTO settings (key, value, updated_at) VALUES ('a', '1', 'now')")
        assert store.scalar("SELECT count(*) FROM settings") == 1
    finally:
        store.close()


def test_a_writer_waits_for_another_and_gives_up_with_one_sentence(pg_dsn: str) -> None:
    first, second = open_store(pg_dsn), open_store(pg_dsn)
    try:
        with first.transaction():
            first.execute("INSERT INTO settings (key, value, updated_at) VALUES ('a', '1', 'now')")
            # the second writer is another thread (one thread waiting for a write lock it
            # holds through another connection is what core/lock_order.py forbids)
            outcome: list[BaseException | float] = []

            def blocked() -> None:
                started = time.monotonic()
                try:
                    with second.transaction(wait_s=0.3):
                        pass
                except DatabaseBusyError as exc:
                    outcome.extend([exc, time.monotonic() - started])

            attempt = threading.Thread(target=blocked)
            attempt.start()
            attempt.join(10)
            assert len(outcome) == 2 and "busy" in str(outcome[0]), outcome
            assert 0.25 < float(outcome[1]) < 3  # type: ignore[arg-type]
        done = threading.Event()

        def write() -> None:
            with second.transaction():
                second.execute("UPDATE settings SET value = '2' WHERE key = 'a'")
            done.set()

        with first.transaction():
            thread = threading.Thread(target=write)
            thread.start()
            time.sleep(0.2)
            assert not done.is_set()  # one writer at a time, as SQLite's BEGIN IMMEDIATE
        thread.join(5)
        assert done.is_set() and first.scalar("SELECT value FROM settings WHERE key = 'a'") == "2"
    finally:
        first.close()
        second.close()


def test_data_version_changes_for_another_connections_commit_only(pg_dsn: str) -> None:
    watcher, writer = open_store(pg_dsn), open_store(pg_dsn)
    try:
        seen = watcher.data_version()
        with watcher.transaction():
            watcher.execute("INSERT INTO settings (key, value, updated_at) VALUES ('own', '1', 'now')")
        assert watcher.data_version() == seen  # its own change: no reload
        before = writer.data_version()
        with writer.transaction():
            writer.execute("INSERT INTO settings (key, value, updated_at) VALUES ('other', '1', 'now')")
            writer.execute("UPDATE settings SET value = '2' WHERE key = 'other'")
            assert watcher.data_version() == seen  # not before the commit
        assert watcher.data_version() != seen and writer.data_version() == before
    finally:
        watcher.close()
        writer.close()


def test_chinese_and_english_keyword_recall_with_bm25_order(pg_dsn: str, clock: Clock) -> None:
    with Services.open(pg_dsn, clock) as svc:
        for text in ("我喜欢喝咖啡，不喜欢喝茶", "部署之前先跑数据库迁移", "Deploys run the database migrations first",
                     "The café serves coffee, coffee and more coffee"):
            svc.review.approve(svc.review.add_manual(text, "fact").candidate_id)
        hits = svc.recall.search("咖啡", mode="keyword", k=3, record=False)
        assert [h.content for h in hits][:1] == ["我喜欢喝咖啡，不喜欢喝茶"]
        assert [h.content for h in svc.recall.search("数据库迁移", mode="keyword", k=1, record=False)] == \
            ["部署之前先跑数据库迁移"]
        hits = svc.recall.search("migration cafe coffee", mode="keyword", k=3, record=False)  # stems, diacritics
        assert {h.content for h in hits} >= {"Deploys run the database migrations first",
                                             "The café serves coffee, coffee and more coffee"}
        memory = svc.recall.search("咖啡", mode="keyword", k=1, record=False)[0]
        svc.memories.edit(memory.id, content="我现在只喝绿茶")  # an edit reindexes (through the queue)
        assert svc.recall.search("咖啡", mode="keyword", k=3, record=False) == []
        assert [h.id for h in svc.recall.search("绿茶", mode="keyword", k=1, record=False)] == [memory.id]
        svc.memories.edit(memory.id, namespace="workspace:tea")  # the postings follow namespace and status
        assert svc.recall.search("绿茶", "workspace:shop", mode="keyword", k=1, record=False,
                                 include_persona=False) == []
        assert [h.id for h in svc.recall.search("绿茶", "workspace:tea", mode="keyword", k=1, record=False)] == \
            [memory.id]
        svc.memories.set_status(memory.id, "deprecated")
        assert svc.recall.search("绿茶", mode="keyword", k=1, record=False) == []


def test_another_programs_database_is_refused_untouched(pg_cluster: Any) -> None:
    target = pg_cluster.create_database("foreign_app")
    import psycopg

    with psycopg.connect(target, autocommit=True) as conn:
        conn.execute("CREATE TABLE orders (id int)")
    try:
        with pytest.raises(ForeignDatabaseError, match="another program's tables"):
            open_store(target)
        with psycopg.connect(target, autocommit=True) as conn:
            names = {r[0] for r in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")}
        assert names == {"orders"}
    finally:
        pg_cluster.drop_database("foreign_app")


def test_a_read_command_on_an_empty_database_creates_nothing(pg_cluster: Any, capsys: pytest.CaptureFixture[str]) -> None:
    target = pg_cluster.create_database("empty_db")
    try:
        assert main(["pending", "--db", target]) == 1
        assert "no MadoHub Memory data" in capsys.readouterr().err
        with pytest.raises(StorageError):
            open_store(target, create=False)
    finally:
        pg_cluster.drop_database("empty_db")


def test_passwords_stay_off_the_command_line_and_out_of_messages(capsys: pytest.CaptureFixture[str]) -> None:
    secret = "postgresql://wei:s3cret-Pa55@db.example:5432/team?sslmode=verify-full"
    assert dsn.redact(secret) == "postgresql://wei:***@db.example:5432/team?sslmode=verify-full"
    assert dsn.redact("host=db password='a b' user=wei") == "host=db password=*** user=wei"
    assert main(["pending", "--db", secret]) == 1
    err = capsys.readouterr().err
    assert "PGPASSFILE" in err and "s3cret" not in err and "wei:***@" in err
    # an unreachable server: one sentence naming it, password masked (from $MADOHUB_DB it is allowed)
    with pytest.raises(StorageError, match=r"Cannot connect .*wei:\*\*\*@127\.0\.0\.1") as caught:
        open_store("postgresql://wei:s3cret@127.0.0.1:1/team?connect_timeout=2")
    assert "s3cret" not in str(caught.value)


def test_the_cli_end_to_end_on_a_server_in_chinese(pg_dsn: str, capsys: pytest.CaptureFixture[str]) -> None:
    def run(*args: str) -> Any:
        assert main([*args, "--db", pg_dsn, "--json"]) == 0, capsys.readouterr().err
        return json.loads(capsys.readouterr().out)

    made = run("remember", "这个项目用 pnpm，不用 npm", "--kind", "preference", "--namespace", "workspace:shop")
    assert [c["id"] for c in run("pending")] == [made["candidate_id"]]
    run("approve", str(made["candidate_id"]))
    assert run("pending") == []
    hits = run("recall", "pnpm 还是 npm", "--namespace", "workspace:shop")
    assert hits and hits[0]["content"] == "这个项目用 pnpm，不用 npm"
    report = run("doctor")
    assert report["ok"] and {c["check"] for c in report["checks"]} >= {"server", "schema", "keyword index"}
    assert main(["backup", "--db", pg_dsn]) == 1
    assert "pg_dump" in capsys.readouterr().err


def test_the_database_address_can_come_from_the_environment(
    pg_dsn: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path,
) -> None:
    monkeypatch.setenv("MADOHUB_DB", pg_dsn)
    assert main(["add", "Builds run on the ARM runners", "--kind", "fact", "--json"]) == 0
    capsys.readouterr()
    with Services.open(pg_dsn) as svc:
        assert [c.content for c in svc.review.pending()] == ["Builds run on the ARM runners"]
    assert not list(tmp_path.iterdir())  # no file was created for an address


def test_scrub_masks_old_secrets_and_the_keyword_index_follows(
    pg_dsn: str, clock: Clock, monkeypatch: pytest.MonkeyPatch,
) -> None:
    from test_secret_sinks import PASSWORD, TOKEN

    with Services.open(pg_dsn, clock) as svc:
        svc.review.approve(svc.review.add_manual("CI uses the vault", "fact").candidate_id)
        # as an older version left it: past today's write guard (store/write_guard.py)
        with monkeypatch.context() as patch, svc.store.transaction():
            patch.setattr("madohub_memory.store.pg.store.guard", lambda sql, params: params)
            svc.store.execute("UPDATE memories SET content = ?", (f"CI uses the vault with {TOKEN}",))
        assert svc.recall.search(TOKEN, mode="keyword", k=1, record=False)
    assert main(["scrub", "--db", pg_dsn, "--json"]) == 0
    with Services.open(pg_dsn, clock) as svc:
        assert TOKEN not in str(svc.store.scalar("SELECT content FROM memories"))
        assert svc.recall.search(TOKEN, mode="keyword", k=1, record=False) == []
        assert svc.recall.search("vault", mode="keyword", k=1, record=False)
        assert PASSWORD not in str(svc.store.query("SELECT tsv::text FROM memory_fts"))


def test_a_libpq_service_name_and_tls_options_reach_the_driver(
    pg_dsn: str, pg_cluster: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """``--db service=team`` reads host, database and user from the service file (where a
    password may live too); ``sslmode`` in an address goes to libpq unchanged."""
    database = pg_dsn.split("?")[0].rsplit("/", 1)[1]
    services = tmp_path / "pg_service.conf"
    services.write_text(f"[team]\nhost={pg_cluster.socket_dir}\nport={pg_cluster.port}\ndbname={database}\n"
                        "user=madohub\n")
    monkeypatch.setenv("PGSERVICEFILE", str(services))
    assert main(["add", "Staging deploys need a ticket", "--kind", "fact", "--db", "service=team"]) == 0
    capsys.readouterr()
    with Services.open(pg_dsn) as svc:
        assert [c.content for c in svc.review.pending()] == ["Staging deploys need a ticket"]
    store = open_store(pg_dsn + "&sslmode=verify-full")  # a unix socket carries no TLS; libpq accepts it
    try:
        assert "sslmode=verify-full" in store.raw.info.dsn
    finally:
        store.close()


def test_a_role_that_may_only_read_recalls_without_writing(pg_dsn: str, clock: Clock) -> None:
    """The server's permissions decide: a reader's store is read-only, recall answers without
    counting hits, and a change is one sentence."""
    with Services.open(pg_dsn, clock) as svc:
        svc.review.approve(svc.review.add_manual("Releases are cut on Tuesdays", "fact").candidate_id)
        svc.store.execute("DO $$ BEGIN CREATE ROLE mh_reader LOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$")
        svc.store.execute("GRANT SELECT ON ALL TABLES IN SCHEMA public TO mh_reader")
    reader = pg_dsn.replace("postgresql://madohub@", "postgresql://mh_reader@")
    with Services.open(reader, clock) as svc:
        assert svc.store.readonly
        assert [h.content for h in svc.recall.search("releases tuesday", k=1)] == ["Releases are cut on Tuesdays"]
        with pytest.raises(StorageError, match="read-only"):
            svc.review.add_manual("Staging deploys need a ticket", "fact")
    with Services.open(pg_dsn, clock) as svc:
        assert svc.store.scalar("SELECT count(*) FROM recall_log") == 0
        assert svc.store.scalar("SELECT count(*) FROM candidates") == 1


def test_on_a_server_the_database_role_is_the_person(pg_dsn: str, clock: Clock, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MADOHUB_USER", raising=False)
    with Services.open(pg_dsn, clock) as svc:
        role = svc.store.scalar("SELECT current_user")
        svc.settings.set("user.name", "everyone")  # one setting on a shared server would name everyone
        cid = svc.review.add_manual("Staging runs on k3s", "fact", "workspace:shop").candidate_id
        mid = svc.review.approve(cid)
        assert svc.memories.get(mid).approved_by == role
        assert {r["person"] for r in svc.changelog.changes(memory_id=mid)} == {role}


def test_a_database_of_an_earlier_version_is_brought_up_to_date(pg_dsn: str, clock: Clock) -> None:
    import psycopg

    with psycopg.connect(pg_dsn, autocommit=True) as conn, conn.transaction():  # as schema 12 left it
        conn.execute(b"DROP TABLE transfer_state")
        conn.execute(b"DROP TABLE work_progress")
        for column in ("history.person", "memories.approved_by", "memories.edited_by", "memories.edited_at",
                       "candidates.decided_by", "jobs.counts"):
            table, name = column.split(".")
            conn.execute(f"ALTER TABLE {table} DROP COLUMN {name}".encode())
        conn.execute(b"DELETE FROM schema_migrations")
        conn.execute(b"INSERT INTO schema_migrations (version, name, applied_at) VALUES (12, 'baseline', 'x')")
    with Services.open(pg_dsn, clock, person="wei") as svc:
        assert svc.store.scalar("SELECT MAX(version) FROM schema_migrations") == schema.VERSION
        mid = svc.review.approve(svc.review.add_manual("Use pnpm", "preference").candidate_id)
        assert svc.memories.get(mid).approved_by == "wei"
        assert {"transfer_state", "work_progress"} <= svc.store.tables()
        svc.jobs.run_now("sweep")  # m0015: what the sweep did, per action
        assert next(j for j in svc.jobs.status() if j["name"] == "sweep")["counts"] is not None
