"""Shared fixtures: a fresh database file per test (a copy of a template migrated once per
run), a settable clock, the dev evaluation data, and the Hypothesis profiles. The CLI run
in-process is tests/cli_runner.py.

Hypothesis profiles: ``dev`` (the default: a few examples per property, for the edit-test
loop) and ``ci`` (the thorough one; chosen by ``MADOHUB_HYPOTHESIS_PROFILE=ci``, which
``.ci/run`` sets, or by ``CI`` being set). A test sets ``max_examples`` itself only to cap a
costly property at the same count in both.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# The dashboard keeps window state and the interface language in QSettings and the default
# database under the user data dir: tests get their own, never the person's running them.
_SANDBOX = tempfile.mkdtemp(prefix="madohub-tests-")
os.environ["XDG_CONFIG_HOME"] = os.path.join(_SANDBOX, "config")
os.environ["XDG_DATA_HOME"] = os.path.join(_SANDBOX, "data")
os.environ.pop("MADOHUB_DB", None)
# Every lock taken against the documented order raises (madohub_memory/core/lock_order.py),
# in this process and in the CLIs, hooks and servers the tests start.
os.environ["MADOHUB_CHECK_LOCKS"] = "1"

from madohub_memory.core.clock import Clock  # noqa: E402 (after the environment is set)
from madohub_memory.services import Services  # noqa: E402

settings.register_profile("dev", max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow],
                          print_blob=True)
settings.load_profile(os.environ.get("MADOHUB_HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev"))

# ../shared/eval/dev next to the repository (or next to the folder holding a git worktree)
SHARED_EVAL_DEV = next(
    (p / "shared" / "eval" / "dev" for p in Path(__file__).resolve().parents[1:4]
     if (p / "shared" / "eval" / "dev").is_dir()),
    Path(__file__).resolve().parents[2] / "shared" / "eval" / "dev",
)


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """``sqlite`` (the default), or ``postgresql`` in modules marked ``both_backends``."""
    return str(getattr(request, "param", "sqlite"))


@pytest.fixture
def db_path(tmp_path: Path, backend: str, request: pytest.FixtureRequest) -> Path:
    """The database of the test: a file path, or (PostgreSQL) a fresh database's address."""
    if backend == "postgresql":
        return request.getfixturevalue("pg_dsn")  # type: ignore[no-any-return]
    return tmp_path / "memory.db"


@pytest.fixture
def clock() -> Clock:
    return Clock("2026-11-01T09:00:00Z")


@pytest.fixture
def svc(db_path: Path, clock: Clock, backend: str, request: pytest.FixtureRequest) -> Iterator[Services]:
    if backend == "postgresql":
        services = Services.open(db_path, clock)
    else:
        services = Services.open(copy_template(request.getfixturevalue("migrated_template"), db_path), clock)
    yield services
    services.close()


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Tests in modules marked ``both_backends`` run on SQLite and on a real PostgreSQL server."""
    if "backend" in metafunc.fixturenames and metafunc.definition.get_closest_marker("both_backends"):
        metafunc.parametrize("backend", ["sqlite", "postgresql"], indirect=True)


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[object]:
    """A throwaway PostgreSQL server for this test process (one per xdist worker), with a
    template database holding the schema; stopped and removed at the end.

    Missing server binaries fail the PostgreSQL tests (CI installs them with
    scripts/install-system-deps.sh); ``MADOHUB_TEST_PG=skip`` skips them on a developer's machine."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
    from pg_cluster import PgCluster, PgUnavailable

    try:
        cluster = PgCluster().start()
    except PgUnavailable as exc:
        if os.environ.get("MADOHUB_TEST_PG") == "skip":
            pytest.skip(str(exc))
        pytest.fail(f"{exc} (MADOHUB_TEST_PG=skip skips the PostgreSQL tests)", pytrace=False)
    from madohub_memory.store import open_store

    open_store(cluster.create_database(PG_TEMPLATE)).close()
    yield cluster
    cluster.stop()


PG_TEMPLATE = "madohub_template"


@pytest.fixture(scope="session")
def pg_work_dsn(pg_cluster: Any) -> str:
    """This test process's database on the test server (a copy of the template, made once)."""
    return str(pg_cluster.create_database(f"work_{os.getpid()}", template=PG_TEMPLATE))


@pytest.fixture
def pg_dsn(pg_work_dsn: str) -> str:
    """An empty database on the test server, schema applied, ids from 1, its own index id: the
    process's database emptied (a CREATE DATABASE per test would cost a second)."""
    import psycopg

    from madohub_memory.store.pg.schema import reset_statements

    with psycopg.connect(pg_work_dsn, autocommit=True) as conn:
        conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"  # a leaked connection of a failed test
                     " WHERE datname = current_database() AND pid <> pg_backend_pid()")
        with conn.transaction():
            for statement in reset_statements(os.urandom(16).hex()):
                conn.execute(statement.encode())
    return pg_work_dsn


@pytest.fixture
def eval_dev() -> Path:
    if not SHARED_EVAL_DEV.is_dir():
        pytest.skip(f"evaluation data not found at {SHARED_EVAL_DEV}")
    return SHARED_EVAL_DEV


@pytest.fixture(scope="session")
def migrated_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database file with every migration applied, made once per run.

    Creating and migrating a file costs ~60 ms; a copy ~3 ms. The ``svc`` fixture and the
    property tests (hundreds of fresh files) start from copies; tests about creating,
    migrating or refusing a file open their own."""
    template = tmp_path_factory.mktemp("template") / "migrated.db"
    Services.open(template).close()
    assert not template.with_name(template.name + "-wal").exists()  # one self-contained file
    return template


def copy_template(template: Path, target: Path) -> Path:
    """``target``, a private copy of the migrated template with its own index id: process-wide
    caches are keyed by it, and two databases must never share one."""
    shutil.copyfile(template, target)
    target.chmod(0o600)
    with closing(sqlite3.connect(target)) as conn, conn:
        conn.execute("UPDATE recall_state SET value = ? WHERE key = 'index_id'", (os.urandom(16).hex(),))
    return target


@pytest.fixture(scope="session")
def fresh_db(migrated_template: Path) -> Callable[[Path], Path]:
    """``fresh_db(folder)``: a new database file in ``folder``, every migration applied."""
    return lambda folder: copy_template(migrated_template, folder / "m.db")
