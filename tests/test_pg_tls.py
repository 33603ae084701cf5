"""A team server reached the way a team reaches it: TCP on 127.0.0.1, TLS with
``sslmode=verify-full`` against a throwaway CA, a password role (``hostssl ... scram-sha-256``)
whose password lives in ``PGPASSFILE`` or a service file, never on a command line.

The server is a real one (``PgCluster(tls=True)``: scripts/pg_cluster.py, certificates by
scripts/pg_certs.py). Every test checks what a user would see: the session is encrypted, a
server whose certificate cannot be verified is one sentence, and the password shows up
nowhere (output, the hook's log, the arguments of a child process).
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest
from mcp import Client, StdioServerParameters

from madohub_memory.cli import main
from madohub_memory.services import Services
from madohub_memory.store.pg.schema import reset_statements

ROOT = Path(__file__).resolve().parents[1]
PASSWORD = "Tls-" + os.urandom(9).hex()  # distinctive: any trace of it in output is a leak
DATABASE = "team"


@dataclass
class TlsServer:
    cluster: Any
    dsn: str  # postgresql://wei@localhost:PORT/team?sslmode=verify-full&sslrootcert=CA (no password)
    passfile: Path
    other_ca: Path  # a CA that did not sign the server's certificate

    def with_password(self, dsn: str | None = None) -> str:
        """The address with the password in it, as a service account's ``$MADOHUB_DB`` may hold it."""
        return (dsn or self.dsn).replace("postgresql://wei@", f"postgresql://wei:{PASSWORD}@")


@pytest.fixture(scope="module")
def tls_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TlsServer]:
    """One TLS server per test process, with the role ``wei`` owning the database ``team``
    (schema created by wei over TLS). Missing binaries fail as in conftest's ``pg_cluster``."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from pg_certs import make_ca
    from pg_cluster import PgCluster, PgUnavailable

    try:
        cluster = PgCluster(tls=True).start()
    except PgUnavailable as exc:
        if os.environ.get("MADOHUB_TEST_PG") == "skip":
            pytest.skip(str(exc))
        pytest.fail(f"{exc} (MADOHUB_TEST_PG=skip skips the PostgreSQL tests)", pytrace=False)
    folder = tmp_path_factory.mktemp("tls-client")
    try:
        cluster.create_login("wei", PASSWORD)
        cluster.admin(f'CREATE DATABASE "{DATABASE}" OWNER wei')
        passfile = folder / "pgpass"
        passfile.write_text(f"*:{cluster.port}:*:wei:{PASSWORD}\n")
        passfile.chmod(0o600)  # libpq ignores a password file others can read
        server = TlsServer(cluster, cluster.tls_dsn(DATABASE, "wei"), passfile,
                           make_ca(folder / "other-ca", "Somebody else's CA").cert)
        Services.open(server.with_password()).close()  # the schema, made by its owner wei
        yield server
    finally:
        cluster.stop()


@pytest.fixture
def server(tls_server: TlsServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> TlsServer:
    """The TLS server with ``team`` emptied, ``PGPASSFILE`` set and the hook's log in tmp."""
    with psycopg.connect(tls_server.cluster.dsn(DATABASE), autocommit=True) as conn:  # superuser, socket
        conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                     " WHERE datname = current_database() AND pid <> pg_backend_pid()")
        with conn.transaction():
            for statement in reset_statements(os.urandom(16).hex()):
                conn.execute(statement.encode())
    monkeypatch.setenv("PGPASSFILE", str(tls_server.passfile))
    monkeypatch.setenv("MADOHUB_HOOK_LOG", str(tmp_path / "hook.log"))
    monkeypatch.delenv("MADOHUB_DB", raising=False)
    monkeypatch.delenv("PGSERVICEFILE", raising=False)
    return tls_server


def _encrypted(svc: Services) -> bool:
    return bool(svc.store.scalar("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()"))


def _cli(*args: str, env: dict[str, str] | None = None, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """The CLI in a process of its own, as a shell runs it."""
    return subprocess.run([sys.executable, "-m", "madohub_memory", *args], capture_output=True, text=True,
                          input=stdin, cwd=ROOT, env={**os.environ, **(env or {})}, timeout=120, check=False)


def test_the_cli_and_the_services_work_over_verified_tls_with_the_password_in_pgpassfile(
    server: TlsServer, capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    def run(*args: str) -> Any:
        assert main([*args, "--db", server.dsn, "--json"]) == 0, capsys.readouterr().err
        out = capsys.readouterr()
        assert PASSWORD not in out.out + out.err
        return json.loads(out.out)

    made = run("add", "Releases of the shop are tagged from main only", "--kind", "fact",
               "--namespace", "workspace:shop")
    assert [c["id"] for c in run("pending")] == [made["candidate_id"]]
    run("approve", str(made["candidate_id"]))
    hits = run("recall", "which branch are shop releases tagged from", "--namespace", "workspace:shop")
    assert hits and hits[0]["content"] == "Releases of the shop are tagged from main only"
    with Services.open(server.dsn) as svc:
        assert _encrypted(svc)
        assert str(svc.store.scalar("SELECT version FROM pg_stat_ssl WHERE pid = pg_backend_pid()")).startswith("TLS")
        assert svc.store.scalar("SELECT current_user") == "wei"
        assert [m.content for m in svc.memories.list(namespace="workspace:shop")] == [hits[0]["content"]]
    # without the password file: one sentence saying where the password goes
    empty = tmp_path / "empty-pgpass"
    empty.write_text("")
    empty.chmod(0o600)
    monkeypatch.setenv("PGPASSFILE", str(empty))
    assert main(["pending", "--db", server.dsn]) == 1
    err = capsys.readouterr().err
    assert "no password supplied" in err and "PGPASSFILE" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("case", ["another CA", "an IP address", "no TLS"])
def test_a_server_that_cannot_be_verified_is_refused_in_one_sentence(server: TlsServer, case: str) -> None:
    """Even with the password in the address ($MADOHUB_DB), the refusal never shows it."""
    address = {
        "another CA": server.dsn.split("&sslrootcert=")[0] + f"&sslrootcert={server.other_ca}",
        "an IP address": server.dsn.replace("@localhost:", "@127.0.0.1:"),
        "no TLS": server.dsn.split("?")[0] + "?sslmode=disable",
    }[case]
    done = _cli("pending", env={"MADOHUB_DB": server.with_password(address)})
    assert done.returncode != 0
    assert PASSWORD not in done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("madohub-memory: Cannot connect to the database server")
    assert "wei:***@" in lines[0]
    expected = {
        "another CA": "certificate verify failed (the server's certificate is not signed by the CA named in sslrootcert",
        "an IP address": 'does not match host name "127.0.0.1" (with sslmode=verify-full, connect with the host name',
        "no TLS": "no encryption (the server accepts only TLS connections",
    }[case]
    assert expected in lines[0]


def test_the_password_in_madohub_db_never_reaches_output_or_the_hook_log(server: TlsServer, tmp_path: Path) -> None:
    env = {"MADOHUB_DB": server.with_password(), "MADOHUB_LOG_LEVEL": "debug", "PGPASSFILE": "/nonexistent"}
    added = _cli("add", "The shop's staging database is restored every night", "--kind", "fact", env=env)
    doctor = _cli("doctor", "--json", env=env)
    pending = _cli("pending", env=env)
    for done in (added, doctor, pending):
        assert done.returncode == 0, done.stderr
        assert PASSWORD not in done.stdout + done.stderr
    assert "restored every night" in pending.stdout
    assert "wei:***@localhost" in doctor.stdout  # the server is named, its password masked
    # the hook: one exchange imported (its log written at info level), then a refused server
    from test_ingest_helpers import cc_assistant, cc_user, text

    transcript = tmp_path / "session.jsonl"
    transcript.write_text("".join(json.dumps(r) + "\n" for r in [
        cc_user("u1", "Always run the migrations before the seed"),
        cc_assistant("a1", "m1", [text("Noted: migrations first.")], "u1")]))
    event = json.dumps({"hook_event_name": "Stop", "session_id": "s1", "transcript_path": str(transcript)})
    hook_env = {**env, "MADOHUB_HOOK_LOG": str(tmp_path / "hook.log"), "MADOHUB_HOOK_INLINE": "1"}
    assert _cli("hook", env=hook_env, stdin=event).returncode == 0
    wrong_ca = server.with_password(server.dsn.split("&sslrootcert=")[0] + f"&sslrootcert={server.other_ca}")
    assert _cli("hook", env={**hook_env, "MADOHUB_DB": wrong_ca}, stdin=event).returncode == 0
    # a password in the hook's own --db is refused (it would be in the agent's settings and in ps)
    refused = _cli("--db", server.with_password(), "hook", env={**hook_env, "MADOHUB_DB": ""}, stdin=event)
    assert refused.returncode == 0 and PASSWORD not in refused.stdout + refused.stderr
    log = (tmp_path / "hook.log").read_text()
    assert "Stop: turns" in log and "certificate verify failed" in log and "Do not put a password in --db" in log
    assert PASSWORD not in log and "wei:***@localhost" in log
    with Services.open(server.dsn) as svc:
        assert svc.store.scalar("SELECT count(*) FROM turns") == 2  # the refused runs added nothing


def test_a_libpq_service_file_names_the_tls_server(
    server: TlsServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    services = tmp_path / "pg_service.conf"
    services.write_text(f"[team]\nhost=localhost\nport={server.cluster.port}\ndbname={DATABASE}\nuser=wei\n"
                        f"sslmode=verify-full\nsslrootcert={server.cluster.ca}\n")
    monkeypatch.setenv("PGSERVICEFILE", str(services))
    assert main(["add", "Hotfixes need a second reviewer", "--kind", "fact", "--db", "service=team"]) == 0
    assert main(["pending", "--db", "service=team", "--json"]) == 0
    out = capsys.readouterr().out
    assert "Hotfixes need a second reviewer" in out and PASSWORD not in out
    with Services.open("service=team") as svc:
        assert _encrypted(svc)
        assert "sslmode=verify-full" in svc.store.raw.info.dsn  # type: ignore[attr-defined]


@pytest.mark.qt_log_ignore("propagateSizeHints")
def test_the_dashboard_hands_a_password_address_to_its_import_child_in_the_environment(
    server: TlsServer, qtbot: Any, tmp_path: Path,
) -> None:
    """A dashboard started on ``$MADOHUB_DB`` with a password imports transcripts in a child
    process; the child's arguments (what ``ps`` shows) never hold that address."""
    from test_gui_helpers import open_window

    transcript = tmp_path / "session.jsonl"
    transcript.write_text("".join(json.dumps({"role": role, "content": f"{role} message {n} about the deploy"}) + "\n"
                                  for n in range(3) for role in ("user", "assistant")))
    with open_window(qtbot, server.with_password(), tmp_path) as win:  # type: ignore[arg-type]
        assert PASSWORD not in win.windowTitle()
        messages: list[str] = []
        win.statusBar().messageChanged.connect(messages.append)
        win.welcome.import_paths([str(transcript)])
        process = win.import_child.process
        assert process.waitForStarted(10_000)
        arguments = Path(f"/proc/{process.processId()}/cmdline").read_bytes().decode()
        assert "ingest" in arguments and PASSWORD not in arguments and "postgresql" not in arguments
        qtbot.waitUntil(lambda: any("Imported 6 new turns" in m for m in messages), timeout=60_000)
    with Services.open(server.dsn) as svc:
        assert _encrypted(svc) and svc.store.scalar("SELECT count(*) FROM turns") == 6


def test_an_agent_recalls_through_the_mcp_server_over_tls(server: TlsServer) -> None:
    with Services.open(server.dsn) as svc:
        svc.review.approve(svc.review.add_manual("The shop's payments go through Stripe, never PayPal", "fact",
                                                 "workspace:shop").candidate_id)
    params = StdioServerParameters(command=sys.executable, args=["-m", "madohub_memory", "mcp", "--db", server.dsn],
                                   cwd=str(ROOT), env={**os.environ, "PGPASSFILE": str(server.passfile)})

    async def go() -> Any:
        async with Client(params) as client:
            result = await client.call_tool("recall", {"query": "which payment provider does the shop use",
                                                       "namespace": "workspace:shop"})
            assert not result.is_error, result.content
            return result.structured_content

    found = asyncio.run(go())
    assert found["memories"][0]["content"].startswith("The shop's payments go through Stripe")
