"""What a job's last run did, per action: ``jobs.counts`` (JSON text, or NULL).

``processed`` is one number; the sweep does several different things (archive stale
candidates, auto-approve, lower the weight of idle memories, archive or evict memories,
expire transient decisions), and the dashboard reports each of them ("lowered the weight
of 2,262 memories · archived 364") instead of one sum that hides what happened.
"""

from __future__ import annotations

import sqlite3

VERSION = 15
NAME = "job_counts"


def apply(conn: sqlite3.Connection) -> None:
    conn.execute("ALTER TABLE jobs ADD COLUMN counts TEXT")
