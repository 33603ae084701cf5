"""``madohub-memory doctor``: is the file sound, ours, private and not stuck?

Runs SQLite's full ``integrity_check``, the foreign-key check and the keyword index's own
check, reports the schema version, the file permissions (and tightens them), and claims
left by processes that are gone. When the file passes, a ``.damaged`` note from an earlier
failure is removed, so the database opens again.
"""

from __future__ import annotations

import sqlite3
import stat
from pathlib import Path
from typing import Any

from madohub_memory.store import open_checks
from madohub_memory.store.database import Store
from madohub_memory.store.files import tighten
from madohub_memory.store.liveness import is_alive


def _mode(path: Path) -> int | None:
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        return None


def check(store: Store) -> dict[str, Any]:
    if store.backend == "postgresql":
        from madohub_memory.store.pg.health import check as check_server

        return check_server(store)
    conn = store.conn
    checks: list[dict[str, Any]] = []

    problems = open_checks.integrity_problems(conn, limit=50)
    checks.append({"check": "integrity", "ok": not problems,
                   "detail": "ok" if not problems else "; ".join(problems[:5])})
    try:
        fk = conn.execute("PRAGMA foreign_key_check").fetchall()
        checks.append({"check": "foreign keys", "ok": not fk,
                       "detail": "ok" if not fk else f"{len(fk)} rows point at missing rows"})
    except sqlite3.DatabaseError as exc:
        checks.append({"check": "foreign keys", "ok": False, "detail": str(exc)})
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "memory_fts" in tables and not store.readonly:
        try:
            with store.transaction():
                conn.execute("INSERT INTO memory_fts(memory_fts) VALUES ('integrity-check')")
            checks.append({"check": "keyword index", "ok": True, "detail": "ok"})
        except Exception as exc:
            checks.append({"check": "keyword index", "ok": False,
                           "detail": f"{exc} (rebuild: INSERT INTO memory_fts(memory_fts) VALUES('rebuild'))"})
    version = open_checks.check_version(conn, store.path) if "schema_migrations" in tables else 0
    app = int(conn.execute("PRAGMA application_id").fetchone()[0])
    checks.append({"check": "schema", "ok": True,
                   "detail": f"version {version}, application id {app:#x}" + (", read-only" if store.readonly else "")})

    if str(store.path) != ":memory:":
        loose = []
        paths = [store.path, *open_checks.companions(store.path)]
        if store.path.parent.name == "madohub-memory":  # our own data folder, not a user's folder
            paths.append(store.path.parent)
        for path in paths:
            mode = _mode(path)
            if mode is not None and mode & 0o077:
                loose.append(f"{path.name} was {mode:o}")
                tighten(path)
        checks.append({"check": "permissions", "ok": not loose,
                       "detail": "owner only" if not loose else "set to owner only: " + ", ".join(loose)})

    try:
        owners = [r[0] for r in conn.execute(
            "SELECT DISTINCT claimed_by FROM turns WHERE extract_state = 'claimed'")] if "turns" in tables else []
    except sqlite3.DatabaseError:
        owners = []
    dead = [o for o in owners if is_alive(o) is False]
    checks.append({"check": "extraction claims", "ok": True,
                   "detail": f"{len(dead)} held by processes that are gone (the next drain takes them over)"
                   if dead else "none stuck"})

    ok = all(c["ok"] for c in checks if c["check"] in ("integrity", "foreign keys", "keyword index"))
    if ok and str(store.path) != ":memory:":
        open_checks.clear_damaged(store.path)
    elif not ok and str(store.path) != ":memory:":
        open_checks.mark_damaged(store.path, f"doctor: {problems[0] if problems else 'index check failed'}")
    return {"database": str(store.path), "ok": ok, "checks": checks}
