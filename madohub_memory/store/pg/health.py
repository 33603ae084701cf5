"""``doctor`` on a PostgreSQL server: the connection, the schema, the keyword index, stuck claims.

The file checks of SQLite (integrity, permissions, backups) are the server's business; what
is ours to check is that the schema is the one this program knows, that the keyword index has
caught up with the memories, and that no extraction claim is held by a process that is gone.
"""

from __future__ import annotations

from typing import Any

from madohub_memory.store.database import Store
from madohub_memory.store.liveness import is_alive
from madohub_memory.store.pg import keyword, schema


def check(store: Store) -> dict[str, Any]:
    checks: list[dict[str, Any]] = []
    row = store.query_one(
        "SELECT current_setting('server_version'), current_user, current_database(),"
        " (SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid())"
    )
    assert row is not None
    checks.append({"check": "server", "ok": True,
                   "detail": f"PostgreSQL {row[0]}, database {row[2]} as {row[1]}"
                             + (", TLS" if row[3] else ", no TLS (local socket or sslmode=disable)")})
    version = int(store.scalar("SELECT COALESCE(MAX(version), 0) FROM schema_migrations"))
    checks.append({"check": "schema", "ok": version == schema.VERSION,
                   "detail": f"version {version}" + (", read-only role" if store.readonly else "")})
    keyword.catch_up(store)
    missing = int(store.scalar(
        "SELECT count(*) FROM memories m WHERE NOT EXISTS (SELECT 1 FROM memory_fts f WHERE f.memory_id = m.id)"
    ))
    queued = int(store.scalar("SELECT count(*) FROM fts_pending"))
    checks.append({"check": "keyword index", "ok": missing == 0 or store.readonly,
                   "detail": "ok" if missing == 0 else f"{missing} memories not indexed ({queued} queued)"})
    owners = [r[0] for r in store.query(
        "SELECT DISTINCT claimed_by FROM turns WHERE extract_state = 'claimed' AND claimed_by IS NOT NULL")]
    dead = [o for o in owners if is_alive(o) is False]
    checks.append({"check": "extraction claims", "ok": True,
                   "detail": f"{len(dead)} held by processes that are gone (the next drain takes them over)"
                   if dead else "none stuck"})
    ok = all(c["ok"] for c in checks if c["check"] in ("schema", "keyword index"))
    return {"database": str(store.path), "ok": ok, "checks": checks}
