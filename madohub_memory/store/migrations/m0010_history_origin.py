"""Who made a change, as an instance: ``history.origin`` (one dashboard window, the CLI, one
MCP session, the workers).

Undo is per actor instance: Ctrl+Z in a window takes back that window's newest change and
never a decision the CLI, an agent or another window made meanwhile. ``actor`` (human, auto,
agent) says what kind of author it was; ``origin`` says which one. Rows written before this
migration keep an empty origin, which no front end claims. The partial index makes "the
newest undoable batch of this origin" one index probe however long the history grows.
"""

from __future__ import annotations

import sqlite3

VERSION = 10
NAME = "history_origin"


def apply(conn: sqlite3.Connection) -> None:
    conn.execute("ALTER TABLE history ADD COLUMN origin TEXT NOT NULL DEFAULT ''")
    conn.execute(
        "CREATE INDEX IF NOT EXISTS history_undoable_by_origin ON history(origin, id)"
        " WHERE undone = 0 AND action != 'undo' AND actor = 'human' AND entity != 'setting'"
    )
