"""An index for undo: finding the newest undoable batch of an actor must not scan history.

Agents and extraction write far more history rows than people; without this index the
dashboard's Ctrl+Z read every row back to the last human change (16 ms at 30,000 rows).
"""

from __future__ import annotations

import sqlite3

VERSION = 8
NAME = "history_undo_index"


def apply(conn: sqlite3.Connection) -> None:
    conn.execute(
        "CREATE INDEX IF NOT EXISTS history_undoable ON history(actor, id)"
        " WHERE undone = 0 AND action != 'undo'"
    )
