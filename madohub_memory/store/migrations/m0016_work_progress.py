"""How far each long import or extraction now running has come, for every process to see.

One row per running piece of work, keyed by its owner (``host|pid|start|nonce``, as turn
claims are, :mod:`madohub_memory.store.liveness`): what it is (``import``, ``extract``; a
later loop adds its own word without a migration),
how many turns are done of how many, and a small JSON detail (the file, its place among the
files). The dashboard reads it to say in its status bar that an import runs in another
process (or in its own child) and how far it is. A row is removed when its work ends; one
whose process was killed is ignored by readers and removed by the next writer.
"""

from __future__ import annotations

import sqlite3

VERSION = 16
NAME = "work_progress"


def apply(conn: sqlite3.Connection) -> None:
    conn.execute(
        """CREATE TABLE work_progress (
            owner TEXT PRIMARY KEY,
            work TEXT NOT NULL,
            done INTEGER NOT NULL DEFAULT 0,
            total INTEGER NOT NULL DEFAULT 0,
            detail TEXT NOT NULL DEFAULT '{}',
            started_at TEXT NOT NULL,
            updated_at TEXT NOT NULL
        )"""
    )
