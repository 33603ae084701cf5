"""Who made each change, as a person: ``history.person`` and the "approved by" columns.

``history.origin`` (m0010) names the actor *instance* (one window, the CLI, one MCP
session) and keeps undo per instance; ``person`` names the human behind it (a configured
name, the OS login, or on a server the database role), so a team's dashboard can say
"approved by wei". The memory and candidate columns repeat the person of the last
decision so the dashboard shows it without reading history: ``memories.approved_by``
(the person who approved it; empty for the auto-approve policy), ``memories.edited_by``
and ``edited_at`` (the last person who changed it by hand), ``candidates.decided_by``
(who approved, rejected or restored it). Rows written before this migration keep
``NULL``: the person is unknown.
"""

from __future__ import annotations

import sqlite3

VERSION = 13
NAME = "people"

SCHEMA = [
    "ALTER TABLE history ADD COLUMN person TEXT",
    "ALTER TABLE memories ADD COLUMN approved_by TEXT",
    "ALTER TABLE memories ADD COLUMN edited_by TEXT",
    "ALTER TABLE memories ADD COLUMN edited_at TEXT",
    "ALTER TABLE candidates ADD COLUMN decided_by TEXT",
]


def apply(conn: sqlite3.Connection) -> None:
    for statement in SCHEMA:
        conn.execute(statement)
