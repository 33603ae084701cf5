"""A throwaway PostgreSQL server for the tests and the benches: initdb on a temporary data
directory, a unix socket in a temporary folder (no TCP port), stopped and removed at the end.

Why a real server: the store runs on SQLite and on PostgreSQL, and only a real server shows
what the second one does (types, locks, triggers). Debian's ``postgresql`` package (installed
by ``scripts/install-system-deps.sh``) puts the binaries in ``/usr/lib/postgresql/N/bin``;
``$MADOHUB_PG_BIN`` names another folder. The server refuses to run as root: as root, the
data folder is given to the ``postgres`` user (``nobody`` where there is none) and the
binaries run through ``runuser``. Durability is switched off (``fsync=off``): test data.

    with PgCluster() as cluster:
        dsn = cluster.create_database("t1")   # postgresql://madohub@/t1?host=/tmp/...

``PgCluster(tls=True)`` also listens on 127.0.0.1 on a free TCP port, the way a team's
server is reached: TLS on, with a throwaway CA and a certificate for ``localhost``
(``scripts/pg_certs.py``), and every TCP connection must be TLS and authenticate a
password (``hostssl ... scram-sha-256``); the superuser keeps the trusted unix socket.

    with PgCluster(tls=True) as cluster:
        cluster.create_login("wei", "s3cret")
        cluster.admin('CREATE DATABASE team OWNER wei')
        dsn = cluster.tls_dsn("team", "wei")  # postgresql://wei@localhost:PORT/team?sslmode=verify-full&...

``python scripts/pg_cluster.py --tls`` starts one for a bench or a look by hand, prints its
address and a ``PGPASSFILE`` for the role ``wei``, and stops on Ctrl-C or SIGTERM.
"""

from __future__ import annotations

import atexit
import glob
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import quote

SUPERUSER = "madohub"


class PgUnavailable(RuntimeError):
    """No PostgreSQL server binaries on this machine (one sentence saying how to get them)."""


def bin_dir() -> Path:
    """The folder holding ``initdb`` and ``pg_ctl`` (the newest Debian version wins)."""
    configured = os.environ.get("MADOHUB_PG_BIN")
    candidates = [configured] if configured else sorted(
        glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[-2]) if p.split("/")[-2].isdigit() else 0,
        reverse=True,
    )
    on_path = shutil.which("initdb")
    if on_path and not configured:
        candidates.append(str(Path(on_path).parent))
    for folder in candidates:
        if folder and (Path(folder) / "initdb").is_file() and (Path(folder) / "pg_ctl").is_file():
            return Path(folder)
    raise PgUnavailable(
        "No PostgreSQL server binaries (initdb, pg_ctl) found: run scripts/install-system-deps.sh"
        " (Debian package postgresql) or set MADOHUB_PG_BIN to their folder."
    )


def _service_user() -> str | None:
    """The unprivileged user the server runs as when we are root (None: run as ourselves)."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            pwd.getpwnam(name)
            return name
        except KeyError:
            continue
    raise PgUnavailable("Running as root and neither a 'postgres' nor a 'nobody' user exists to run the server as.")


class PgCluster:
    """One private server; :meth:`create_database` hands out fresh databases on it."""

    def __init__(self, base: Path | None = None, *, tls: bool = False) -> None:
        self.bin = bin_dir()
        self.tls = tls
        self.user = _service_user()
        self.base = Path(tempfile.mkdtemp(prefix="madohub-pg-", dir=base))
        self.base.chmod(0o711)  # the server user must reach its folders inside
        self.data = self.base / "data"
        self.socket_dir = self.base / "socket"
        self.log = self.base / "server.log"
        self.port = _free_port() if tls else 5432
        self.ca: Path | None = None  # with tls: the CA certificate a client names in sslrootcert
        self.started = False
        self._options = ""

    # -- life cycle -----------------------------------------------------------------------

    def _run(self, *args: str) -> None:
        command = [str(self.bin / args[0]), *args[1:]]
        if self.user:
            command = ["runuser", "-u", self.user, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise RuntimeError(f"{args[0]} failed ({done.returncode}): {done.stderr.strip()} {log}")

    def start(self) -> PgCluster:
        self.data.mkdir()
        self.socket_dir.mkdir()
        if self.user:
            entry = pwd.getpwnam(self.user)
            for path in (self.data, self.socket_dir):
                os.chown(path, entry.pw_uid, entry.pw_gid)
            self.log.touch()
            os.chown(self.log, entry.pw_uid, entry.pw_gid)
        self.data.chmod(0o700)
        self.socket_dir.chmod(0o755)
        # C collation with UTF-8: text sorts byte-wise, as SQLite's BINARY collation does.
        self._run("initdb", "-D", str(self.data), "-U", SUPERUSER, "-A", "trust", "-E", "UTF8",
                  "--no-locale", "--no-sync")
        listen = self._listen_with_tls() if self.tls else "-c listen_addresses=''"
        options = (f"-k {self.socket_dir} -p {self.port} {listen} -c fsync=off"
                   " -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
                   " -c shared_buffers=64MB")
        self._options = options
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "-t", "60", "start")
        self.started = True
        atexit.register(self.stop)
        return self

    def pause(self) -> None:
        """Shut the server down, data kept, as a restart or an outage does: every connection
        is ended (the tests of reconnecting clients); :meth:`resume` starts it again."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def resume(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", self._options, "-w", "-t", "60",
                  "start")

    def _listen_with_tls(self) -> str:
        """Certificates, pg_hba.conf and the server options of a TLS listener on 127.0.0.1."""
        here = str(Path(__file__).resolve().parent)
        if here not in sys.path:
            sys.path.insert(0, here)
        from pg_certs import OpensslUnavailable, make_ca, make_server_cert

        tls = self.base / "tls"
        try:
            ca = make_ca(tls / "ca", "MadoHub test CA")
            cert, key = make_server_cert(tls / "server", ca, "localhost")
        except OpensslUnavailable as exc:
            raise PgUnavailable(str(exc)) from None
        for folder in (tls, tls / "ca", tls / "server"):
            folder.chmod(0o755)  # the server user reads its certificate in there
        if self.user:
            entry = pwd.getpwnam(self.user)
            os.chown(key, entry.pw_uid, entry.pw_gid)  # the server refuses a key it does not own
        self.ca = ca.cert
        # The superuser keeps the trusted socket; over TCP only TLS with a password gets in.
        (self.data / "pg_hba.conf").write_text(
            "local all all trust\n"
            "hostssl all all 127.0.0.1/32 scram-sha-256\n"
            "hostssl all all ::1/128 scram-sha-256\n"
            "host all all 0.0.0.0/0 reject\n"
            "host all all ::/0 reject\n"
        )
        return (f"-c listen_addresses=127.0.0.1 -c ssl=on -c ssl_cert_file={cert} -c ssl_key_file={key}"
                " -c password_encryption=scram-sha-256")

    def stop(self) -> None:
        if self.started:
            self.started = False
            try:
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
            except RuntimeError:
                pass
        shutil.rmtree(self.base, ignore_errors=True)

    def __enter__(self) -> PgCluster:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- databases ------------------------------------------------------------------------

    def dsn(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@/{database}?host={self.socket_dir}&port={self.port}"

    def tls_dsn(self, database: str, user: str, host: str = "localhost", rootcert: Path | None = None) -> str:
        """The address a team member types: TCP, ``sslmode=verify-full``, no password in it."""
        ca = rootcert or self.ca
        if ca is None:
            raise RuntimeError("tls_dsn() needs a cluster started with tls=True")
        return (f"postgresql://{quote(user)}@{host}:{self.port}/{quote(database)}"
                f"?sslmode=verify-full&sslrootcert={quote(str(ca))}")

    def create_login(self, role: str, password: str) -> None:
        """A login role whose password is stored as a SCRAM verifier (never in clear)."""
        import psycopg
        from psycopg import sql

        with psycopg.connect(self.dsn("postgres"), autocommit=True) as conn:
            conn.execute("SET password_encryption = 'scram-sha-256'")
            conn.execute(sql.SQL("CREATE ROLE {} LOGIN PASSWORD {}").format(sql.Identifier(role), sql.Literal(password)))

    def admin(self, *statements: str) -> None:
        """Run statements outside a transaction (CREATE/DROP DATABASE) on the maintenance database."""
        import psycopg

        with psycopg.connect(self.dsn("postgres"), autocommit=True) as conn:
            for statement in statements:
                conn.execute(statement.encode())

    def create_database(self, name: str, template: str | None = None) -> str:
        """A new empty database (or a copy of ``template``), returned as a DSN."""
        suffix = f" TEMPLATE {template}" if template else ""
        self.admin(f'CREATE DATABASE "{name}"{suffix}')
        return self.dsn(name)

    def drop_database(self, name: str) -> None:
        self.admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _free_port() -> int:
    """A TCP port nobody listens on at 127.0.0.1 right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _serve_with_tls() -> None:
    """``--tls``: a TLS server with the role ``wei`` owning the database ``team``, until Ctrl-C
    or SIGTERM (a background job ignores Ctrl-C's SIGINT; both stop the server and remove it)."""
    import secrets
    import signal
    import time

    def interrupt(_signum: int, _frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)

    with PgCluster(tls=True) as cluster:
        password = secrets.token_urlsafe(18)
        cluster.create_login("wei", password)
        cluster.admin('CREATE DATABASE team OWNER wei')
        passfile = cluster.base / "pgpass"
        passfile.write_text(f"localhost:{cluster.port}:*:wei:{password}\n")
        passfile.chmod(0o600)
        print(f"export PGPASSFILE={passfile}")
        print(f"export DSN='{cluster.tls_dsn('team', 'wei')}'")
        print(f"# superuser over the socket: {cluster.dsn('team')}", flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    if sys.argv[1:] == ["--tls"]:
        _serve_with_tls()
    else:
        print("usage: python scripts/pg_cluster.py --tls", file=sys.stderr)
        sys.exit(2)
