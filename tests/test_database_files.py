"""The database file: private permissions, an application id, foreign and newer files
refused untouched, read commands that never create one, a read-only file that answers
reads, an integrity check after an unclean shutdown, a full disk named as such, and
backup / restore / doctor."""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import textwrap
from contextlib import closing
from pathlib import Path

import pytest
from cli_runner import CliResult, invoke

from madohub_memory.core.errors import UserError
from madohub_memory.services import Services
from madohub_memory.store import Store

APPLICATION_ID = 0x4D484D4D  # "MHMM" (store/open_checks.py)

ROOT = Path(__file__).resolve().parents[1]


def _cli(db: Path, *args: str, **kwargs) -> CliResult:
    return invoke(*args, "--db", str(db), cwd=ROOT, **kwargs)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_files_and_folders_are_private(tmp_path: Path) -> None:
    db = tmp_path / "new" / "data" / "memory.db"
    with Services.open(db) as svc:
        svc.review.add_manual("The user likes green tea", "preference")
        assert _mode(db) == 0o600
        assert _mode(Path(f"{db}-wal")) == 0o600 and _mode(Path(f"{db}-shm")) == 0o600
        svc.transfer.export(tmp_path / "out.jsonl")
        backup = svc.backup.create()
    assert _mode(db.parent) == 0o700 and _mode(db.parent.parent) == 0o700
    assert _mode(tmp_path / "out.jsonl") == 0o600
    assert _mode(backup.path) == 0o600 and _mode(backup.path.parent) == 0o700


def test_an_older_world_readable_database_is_made_private(db_path: Path) -> None:
    Services.open(db_path).close()
    os.chmod(db_path, 0o644)
    Services.open(db_path).close()
    assert _mode(db_path) == 0o600


def test_the_database_carries_an_application_id(db_path: Path) -> None:
    Services.open(db_path).close()
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID


def test_another_programs_sqlite_file_is_refused_and_left_untouched(tmp_path: Path) -> None:
    other = tmp_path / "places.sqlite"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE moz_places (id INTEGER PRIMARY KEY, url TEXT)")
    conn.execute("INSERT INTO moz_places (url) VALUES ('https://example.org')")
    conn.commit()
    conn.close()
    before = _digest(other)
    run = _cli(other, "add", "x", "--kind", "fact")
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert "another program's SQLite database" in run.stderr
    assert _digest(other) == before and not Path(f"{other}-wal").exists()
    with sqlite3.connect(other) as conn:
        assert {r[0] for r in conn.execute("SELECT name FROM sqlite_master")} == {"moz_places"}


def test_a_newer_schema_is_refused_with_one_sentence(db_path: Path) -> None:
    Services.open(db_path).close()
    with closing(sqlite3.connect(db_path)) as conn, conn:
        conn.execute("INSERT INTO schema_migrations VALUES (999, 'from the future', 'now')")
    before = _digest(db_path)
    with pytest.raises(UserError, match=r"newer MadoHub Memory .*schema version 999"):
        Store(db_path)
    run = _cli(db_path, "pending")
    assert run.returncode == 1 and "newer MadoHub Memory" in run.stderr and "Traceback" not in run.stderr
    assert _digest(db_path) == before


@pytest.mark.parametrize("command", [["pending"], ["memories"], ["recall", "tea"], ["settings", "list"],
                                     ["export", "out.jsonl"], ["doctor"]])
def test_read_commands_never_create_a_database(tmp_path: Path, command: list[str]) -> None:
    missing = tmp_path / "typo" / "memroy.db"
    run = invoke(*command, "--db", str(missing), cwd=tmp_path)
    assert run.returncode == 1 and "There is no database at" in run.stderr
    assert not (tmp_path / "typo").exists()


READ_ONLY_CHECK = textwrap.dedent("""
    import sys
    from madohub_memory.core.errors import UserError
    from madohub_memory.services import Services
    with Services.open(sys.argv[1], create=False) as svc:
        assert svc.store.readonly
        hits = svc.recall.search("which tea does the user like?")
        print("hits", [h.content for h in hits])
        try:
            svc.review.add_manual("x", "fact")
        except UserError as exc:
            print("write refused:", exc)
""")


def _as_read_only(folder: Path, db: Path) -> subprocess.CompletedProcess[str]:
    """Run READ_ONLY_CHECK where the database cannot be written: a read-only bind mount
    (root ignores file modes), else the file and folder without write permission."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if os.geteuid() == 0:
        if not shutil.which("unshare"):
            pytest.skip("needs unshare to mount the folder read-only")
        script = (f'mount --bind "{folder}" "{folder}" && mount -o remount,bind,ro "{folder}" && '
                  f'exec "{sys.executable}" -c "$CHECK" "{db}"')
        run = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True,
                             env={**env, "CHECK": READ_ONLY_CHECK}, timeout=300)
        if "mount:" in run.stderr and run.returncode != 0:
            pytest.skip(f"cannot mount read-only here: {run.stderr.strip()[:200]}")
        return run
    os.chmod(db, 0o400)
    os.chmod(folder, 0o500)
    try:
        return subprocess.run([sys.executable, "-c", READ_ONLY_CHECK, str(db)], capture_output=True, text=True,
                              env=env, timeout=300)
    finally:
        os.chmod(folder, 0o700)


def test_a_read_only_database_answers_recall_and_refuses_writes(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    db = folder / "memory.db"
    with Services.open(db) as svc:
        svc.review.approve(svc.review.add_manual("The user likes green tea", "preference").candidate_id)
        svc.recall.search("warm up the index", record=False)  # embeddings are stored
        logged = len(svc.recall.recent_log(100))
    run = _as_read_only(folder, db)
    assert run.returncode == 0, run.stderr
    assert "hits ['The user likes green tea']" in run.stdout
    assert "write refused: The database" in run.stdout and "is read-only" in run.stdout
    with Services.open(db) as svc:
        assert len(svc.recall.recent_log(100)) == logged  # recall without logging


def _damage_after_unclean_shutdown(db: Path) -> None:
    """Fill a database, leave it as a killed process would (WAL not checkpointed), and
    overwrite one page of its main file."""
    with Services.open(db) as svc:
        for i in range(300):
            svc.review.add_manual(f"Filler fact number {i} about service {i} on port {9000 + i}", "fact")
    code = textwrap.dedent("""
        import os, sys
        from madohub_memory.services import Services
        svc = Services.open(sys.argv[1])
        svc.review.add_manual("Written just before the crash", "fact")
        os._exit(9)
    """)
    subprocess.run([sys.executable, "-c", code, str(db)], cwd=ROOT, timeout=120, check=False)
    assert Path(f"{db}-wal").stat().st_size > 0
    page = 4096
    with db.open("r+b") as handle:
        for number in (3, 10, 20, 30, 40, 50):
            handle.seek(page * number)
            handle.write(os.urandom(page))


def test_an_unclean_shutdown_is_followed_by_an_integrity_check(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    _damage_after_unclean_shutdown(db)
    run = _cli(db, "add", "A fact written after the damage", "--kind", "fact")
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert "is damaged" in run.stderr and "doctor" in run.stderr
    again = _cli(db, "pending")  # the finding is kept until doctor passes or a restore
    assert again.returncode == 1 and "is damaged" in again.stderr
    doctor = _cli(db, "doctor")
    assert doctor.returncode == 1 and "FAIL  integrity" in doctor.stdout


def test_backup_restore_and_doctor_bring_a_damaged_database_back(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    with Services.open(db) as svc:
        svc.review.add_manual("The user likes green tea", "preference")
        backup = svc.backup.create()
    _damage_after_unclean_shutdown(db)
    assert _cli(db, "pending").returncode == 1
    run = _cli(db, "restore", str(backup.path))
    assert run.returncode == 0, run.stderr
    doctor = _cli(db, "doctor")
    assert doctor.returncode == 0, doctor.stdout
    pending = _cli(db, "pending", "--json")
    assert "The user likes green tea" in pending.stdout and "Filler" not in pending.stdout


def test_restore_refuses_a_file_that_is_not_a_sound_backup(db_path: Path, tmp_path: Path) -> None:
    Services.open(db_path).close()
    bogus = tmp_path / "notes.db"
    bogus.write_text("not a database at all" * 100)
    run = _cli(db_path, "restore", str(bogus))
    assert run.returncode == 1 and "not a MadoHub Memory database" in run.stderr


def test_the_daily_backup_runs_once_a_day_and_keeps_the_newest(svc: Services) -> None:
    import time

    svc.settings.set("backup.keep", 2)
    assert svc.backup.daily() == 1
    assert svc.backup.daily() == 0  # the newest is minutes old
    folder = svc.backup.folder()
    for name in ("memory-20200101T000000Z.db", "memory-20200102T000000Z.db"):
        shutil.copy(svc.backup.list()[0].path, folder / name)
    assert svc.backup.daily(now=time.time() + 2 * 86400) == 1
    kept = [b.path.name for b in svc.backup.list()]
    assert len(kept) == 2 and "memory-20200101T000000Z.db" not in kept


def test_a_full_disk_is_named_as_such(svc: Services) -> None:
    pages = svc.store.query_one("PRAGMA page_count")[0]
    svc.store.execute(f"PRAGMA max_page_count = {pages}")  # SQLite's own "disk is full"
    with pytest.raises(UserError, match="is full"):
        for i in range(2000):
            svc.review.add_manual(f"Fact {i}: " + "padding " * 50, "fact")


def test_a_full_disk_at_open_is_not_called_a_foreign_file(tmp_path: Path) -> None:
    if os.geteuid() != 0 or not shutil.which("unshare"):
        pytest.skip("needs root and unshare to mount a tiny file system")
    db = tmp_path / "memory.db"
    with Services.open(db) as svc:
        svc.review.add_manual("seed", "fact")
    mount = tmp_path / "tiny"
    mount.mkdir()
    script = (f'mount -t tmpfs -o size=600k tmpfs "{mount}" && cp "{db}" "{mount}/memory.db" && '
              f'(dd if=/dev/zero of="{mount}/fill" bs=4k 2>/dev/null; true) && '
              f'"{sys.executable}" -m madohub_memory add "one more fact" --kind fact --db "{mount}/memory.db"')
    run = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True, cwd=ROOT,
                         timeout=300)
    if "mount:" in run.stderr:
        pytest.skip(f"cannot mount here: {run.stderr.strip()[:200]}")
    assert run.returncode == 1, run.stdout
    assert "is full" in run.stderr and "not a MadoHub Memory database" not in run.stderr
    assert "Traceback" not in run.stderr


def test_a_failed_migration_is_one_sentence(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from madohub_memory.store import migrations

    Services.open(db_path).close()
    real = migrations.all_migrations

    def broken(conn: sqlite3.Connection) -> None:
        conn.execute("ALTER TABLE no_such_table ADD COLUMN x")

    version = max(m.version for m in real())
    monkeypatch.setattr(migrations, "all_migrations", lambda: [*real(), migrations.Migration(version + 1, "broken", broken)])
    with pytest.raises(UserError) as caught:
        Store(db_path)
    assert "failed" in str(caught.value) and "stays at version" in str(caught.value)
