"""An index for the session-start context: a namespace's memories of some kinds, most used first.

Without it every section of the context walked all memories of the namespace through
``memories_by_namespace`` and read each row to check its kind and pin (100 ms for a
workspace of 3,300 memories and a persona of 33,000 on a busy two-core machine).
"""

from __future__ import annotations

import sqlite3

VERSION = 11
NAME = "session_context_index"


def apply(conn: sqlite3.Connection) -> None:
    conn.execute(
        "CREATE INDEX IF NOT EXISTS memories_context ON memories(namespace, status, pinned, kind, hit_count)"
    )
