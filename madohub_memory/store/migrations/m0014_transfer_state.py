"""Where a ``transfer`` into this database stands, so an interrupted one resumes.

One row per copied table of the source database (named by its ``index_id``): the key of
the last row copied, how many rows, and whether the table is done; the row ``*`` marks the
whole transfer finished. Each batch of rows and its progress row are written in one
transaction, so after a kill the next run continues exactly after the last batch that
committed: nothing is copied twice and nothing is skipped.
"""

from __future__ import annotations

import sqlite3

VERSION = 14
NAME = "transfer_state"


def apply(conn: sqlite3.Connection) -> None:
    conn.execute(
        """CREATE TABLE transfer_state (
            source_id TEXT NOT NULL,
            table_name TEXT NOT NULL,
            last_key TEXT,
            copied INTEGER NOT NULL DEFAULT 0,
            done INTEGER NOT NULL DEFAULT 0 CHECK (done IN (0, 1)),
            source TEXT NOT NULL DEFAULT '',
            updated_at TEXT NOT NULL,
            PRIMARY KEY (source_id, table_name)
        )"""
    )
