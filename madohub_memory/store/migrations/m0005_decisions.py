"""Decision memory: one row per answer at a decision point, proposals, and the scan gate."""

from __future__ import annotations

import sqlite3

VERSION = 5
NAME = "decisions"

SCHEMA = """
CREATE TABLE decisions (
    decision_id TEXT PRIMARY KEY,
    timestamp TEXT NOT NULL,
    point_key TEXT NOT NULL,
    question TEXT NOT NULL CHECK (length(trim(question)) > 0),
    user_choice TEXT NOT NULL CHECK (length(trim(user_choice)) > 0),
    all_options TEXT NOT NULL,
    static_default TEXT,
    context TEXT NOT NULL DEFAULT '{}',
    session TEXT,
    transient INTEGER NOT NULL DEFAULT 0 CHECK (transient IN (0, 1)),
    source TEXT NOT NULL DEFAULT 'api' CHECK (source IN ('api','cli','mcp','transcript','hook')),
    source_ref TEXT UNIQUE
);
CREATE INDEX decisions_by_point ON decisions(point_key, timestamp);
CREATE INDEX decisions_by_session ON decisions(session, timestamp);
CREATE INDEX decisions_transient ON decisions(transient, timestamp);

CREATE TABLE decision_proposals (
    point_key TEXT NOT NULL,
    choice TEXT NOT NULL,
    candidate_id INTEGER,
    proposed_at TEXT NOT NULL,
    PRIMARY KEY (point_key, choice)
);

CREATE TABLE decision_state (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""


def apply(conn: sqlite3.Connection) -> None:
    for statement in SCHEMA.split(";\n"):
        if statement.strip():
            conn.execute(statement)
