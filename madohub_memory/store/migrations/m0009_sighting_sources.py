"""Where each sighting of a candidate came from, so ``seen_count`` counts distinct sources.

``session`` is the conversation of the originating turn (extraction, or a ``remember``
that names a stored turn), else the session of the caller (one MCP server process, one
terminal session of the CLI). ``source_key`` is what makes two sightings the same
source: the turn when it is stored, else the session. A second sighting with a known
``source_key`` (the same agent session calling ``remember`` again, a re-extraction after a
crash) no longer raises ``seen_count``; auto-approve counts distinct sessions.

Rows from before this migration get the conversation and turn of their stored turn;
the others keep ``NULL`` and each counts as a source of its own, as they did.
"""

from __future__ import annotations

import sqlite3

VERSION = 9
NAME = "sighting_sources"


def apply(conn: sqlite3.Connection) -> None:
    conn.execute("ALTER TABLE candidate_sightings ADD COLUMN session TEXT")
    conn.execute("ALTER TABLE candidate_sightings ADD COLUMN source_key TEXT")
    conn.execute(
        "UPDATE candidate_sightings SET source_key = turn_id,"
        " session = (SELECT t.conversation_id FROM turns t WHERE t.id = candidate_sightings.turn_id)"
        " WHERE turn_id IN (SELECT id FROM turns)"
    )
    conn.execute("CREATE INDEX IF NOT EXISTS sightings_by_source ON candidate_sightings(candidate_id, source_key)")
