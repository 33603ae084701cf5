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
"""

from __future__ import annotations

import atexit
import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

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

    def __init__(self, base: Path | None = None) -> None:
        self.bin = bin_dir()
        self.user = _service_user()
        self.base = Path(tempfile.mkdtemp(prefix="madohub-pg-", dir=base))
        self.base.chmod(0o711)  # the server user must reach its folders inside
        self.data = self.base / "data"
        self.socket_dir = self.base / "socket"
        self.log = self.base / "server.log"
        self.port = 5432
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
        options = (f"-k {self.socket_dir} -p {self.port} -c listen_addresses='' -c fsync=off"
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
