"""Background job status, shown in the dashboard and by ``madohub-memory worker --once``.

One row per job name: last run, next run, counts, last error, and who runs it now
(``running_by``/``running_since``), so two worker processes (dashboard + daemon) can see
each other. Turn claims themselves live on the turns (m0002).
"""

from __future__ import annotations

import sqlite3

VERSION = 6
NAME = "jobs"

SCHEMA = """
CREATE TABLE jobs (
    name TEXT PRIMARY KEY,
    last_run TEXT,
    next_run TEXT,
    processed INTEGER NOT NULL DEFAULT 0,
    total_processed INTEGER NOT NULL DEFAULT 0,
    runs INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    last_error_at TEXT,
    last_duration_ms INTEGER,
    running_by TEXT,
    running_since TEXT
);
"""


def apply(conn: sqlite3.Connection) -> None:
    for statement in SCHEMA.split(";\n"):
        if statement.strip():
            conn.execute(statement)
