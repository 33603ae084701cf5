"""The database file: pragmas, CHECK constraints, migrations with backup."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from madohub_memory.store import Store
from madohub_memory.store.migrations import all_migrations, current_version


def test_new_file_is_wal_with_busy_timeout_and_latest_schema(db_path: Path) -> None:
    with Store(db_path) as store:
        assert store.query_one("PRAGMA journal_mode")[0] == "wal"
        assert store.query_one("PRAGMA busy_timeout")[0] >= 5000
        assert current_version(store.conn) == max(m.version for m in all_migrations())
        tables = {r[0] for r in store.query("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"conversations", "turns", "candidates", "candidate_sightings", "memories", "history", "settings"} <= tables


@pytest.mark.parametrize(
    ("column", "value"),
    [("kind", "opinion"), ("namespace", "project:x"), ("namespace", "persona:"),
     ("namespace", "persona: padded"), ("source", "gossip"), ("confidence", 1.5), ("content", "   ")],
)
def test_check_constraints_reject_values_outside_the_vocabularies(db_path: Path, column: str, value: object) -> None:
    row = {"content": "c", "kind": "fact", "namespace": "persona:default", "source": "manual",
           "confidence": 0.5, "fingerprint": "f", "created_at": "t", "updated_at": "t"}
    row[column] = value
    with Store(db_path) as store, pytest.raises(sqlite3.IntegrityError):
        store.execute(
            f"INSERT INTO candidates ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})", list(row.values())
        )




def test_backup_is_written_before_a_pending_migration(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from madohub_memory.store import migrations

    with Store(db_path) as store:
        store.execute("INSERT INTO settings (key, value, updated_at) VALUES ('archive_days', '7', 't')")
        version = current_version(store.conn)

    extra = migrations.Migration(version + 1, "add_test_table", lambda c: c.execute("CREATE TABLE t_extra (x)"))
    real = migrations.all_migrations
    monkeypatch.setattr(migrations, "all_migrations", lambda: [*real(), extra])
    with Store(db_path) as store:
        assert current_version(store.conn) == version + 1
    backup = db_path.with_name(f"{db_path.name}.bak-v{version}")
    assert backup.exists()
    with sqlite3.connect(backup) as old:
        assert old.execute("SELECT value FROM settings WHERE key='archive_days'").fetchone() == ("7",)
        assert old.execute("SELECT name FROM sqlite_master WHERE name='t_extra'").fetchone() is None


def test_a_failing_migration_rolls_back_and_leaves_the_file_usable(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from madohub_memory.store import migrations

    with Store(db_path) as store:
        version = current_version(store.conn)

    def broken(conn: sqlite3.Connection) -> None:
        conn.execute("CREATE TABLE half_done (x)")
        raise RuntimeError("boom")

    real = migrations.all_migrations
    monkeypatch.setattr(migrations, "all_migrations", lambda: [*real(), migrations.Migration(version + 1, "broken", broken)])
    from madohub_memory.core.errors import StorageError

    with pytest.raises(StorageError, match=r"to schema version \d+ \(broken\) failed \(RuntimeError: boom\)"):
        Store(db_path)
    monkeypatch.setattr(migrations, "all_migrations", real)
    with Store(db_path) as store:
        assert current_version(store.conn) == version
        assert store.query_one("SELECT name FROM sqlite_master WHERE name='half_done'") is None


def test_a_file_that_is_not_sqlite_gives_a_clear_error(tmp_path: Path) -> None:
    from madohub_memory.core.errors import UserError

    bogus = tmp_path / "notes.txt"
    bogus.write_text("this is not a database" * 100)
    with pytest.raises(UserError, match="not a MadoHub Memory database"):
        Store(bogus)
