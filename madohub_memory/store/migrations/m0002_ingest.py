"""Ingestion state: per-turn extraction state and claims, and read positions of source files.

``turns.extract_state``: ``pending`` (waiting for extraction), ``claimed`` (a worker holds it:
``claimed_by``/``claimed_at``), ``done``, ``skipped`` (never extracted: compaction summaries,
subagent chatter, command echoes) or ``failed``. Rows that existed before this migration are
``done``. ``extract_mode`` is ``turn`` or ``compaction``; ``segment`` counts the compaction
boundaries before the turn in its conversation.

``ingest_files`` remembers where the last read of a growing JSONL file stopped (byte offset
and line number, guarded by the size and a hash of the file's first bytes), so a re-import
reads only the new lines.
"""

from __future__ import annotations

import sqlite3

VERSION = 2
NAME = "ingest"

SCHEMA = """
ALTER TABLE turns ADD COLUMN extract_state TEXT NOT NULL DEFAULT 'done'
    CHECK (extract_state IN ('pending','claimed','done','skipped','failed'));
ALTER TABLE turns ADD COLUMN extract_mode TEXT NOT NULL DEFAULT 'turn'
    CHECK (extract_mode IN ('turn','compaction'));
ALTER TABLE turns ADD COLUMN segment INTEGER NOT NULL DEFAULT 0;
ALTER TABLE turns ADD COLUMN claimed_by TEXT;
ALTER TABLE turns ADD COLUMN claimed_at TEXT;
ALTER TABLE turns ADD COLUMN extracted_at TEXT;
CREATE INDEX turns_by_extract_state ON turns(extract_state, conversation_id, seq);

CREATE TABLE ingest_files (
    path TEXT PRIMARY KEY,
    format TEXT NOT NULL,
    size INTEGER NOT NULL DEFAULT 0,
    mtime REAL,
    head_hash TEXT,
    end_offset INTEGER NOT NULL DEFAULT 0,
    end_line INTEGER NOT NULL DEFAULT 0,
    turns INTEGER NOT NULL DEFAULT 0,
    state TEXT NOT NULL DEFAULT '{}',
    updated_at TEXT NOT NULL
);
"""


def apply(conn: sqlite3.Connection) -> None:
    for statement in SCHEMA.split(";\n"):
        if statement.strip():
            conn.execute(statement)
