"""Conversations, turns, candidates, sightings, memories, history and settings."""

from __future__ import annotations

import sqlite3

VERSION = 1
NAME = "foundation"

_KINDS = "('preference','fact','decision','pattern','postmortem','event')"
_NAMESPACE_OK = (
    "((namespace GLOB 'persona:?*' OR namespace GLOB 'workspace:?*')"
    " AND namespace = trim(namespace) AND substr(namespace, instr(namespace, ':') + 1) = "
    " trim(substr(namespace, instr(namespace, ':') + 1)))"
)

SCHEMA = f"""
CREATE TABLE conversations (
    id TEXT PRIMARY KEY,
    format TEXT NOT NULL,
    source_path TEXT,
    title TEXT,
    parent_id TEXT REFERENCES conversations(id),
    namespace TEXT,
    started_at TEXT,
    meta TEXT NOT NULL DEFAULT '{{}}'
);

CREATE TABLE turns (
    id TEXT PRIMARY KEY,
    conversation_id TEXT NOT NULL REFERENCES conversations(id),
    seq INTEGER NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('user','assistant','tool','system')),
    content TEXT NOT NULL,
    created_at TEXT,
    meta TEXT NOT NULL DEFAULT '{{}}'
);
CREATE INDEX turns_by_conversation ON turns(conversation_id, seq);

CREATE TABLE candidates (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    content TEXT NOT NULL CHECK (length(trim(content)) > 0 AND length(content) <= 10000),
    kind TEXT NOT NULL CHECK (kind IN {_KINDS}),
    namespace TEXT NOT NULL CHECK {_NAMESPACE_OK},
    source TEXT NOT NULL CHECK (source IN ('remember','turn','compaction','manual')),
    confidence REAL NOT NULL CHECK (confidence >= 0 AND confidence <= 1),
    seen_count INTEGER NOT NULL DEFAULT 1 CHECK (seen_count >= 1),
    status TEXT NOT NULL DEFAULT 'pending'
        CHECK (status IN ('pending','approved','rejected','archived')),
    flags TEXT NOT NULL DEFAULT '',
    fingerprint TEXT NOT NULL,
    memory_id INTEGER,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX candidates_dedup ON candidates(fingerprint, namespace, kind);
CREATE INDEX candidates_by_status ON candidates(status, created_at);
CREATE INDEX candidates_by_update ON candidates(status, updated_at);

CREATE TABLE candidate_sightings (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    candidate_id INTEGER NOT NULL REFERENCES candidates(id) ON DELETE CASCADE,
    turn_id TEXT,
    source TEXT NOT NULL CHECK (source IN ('remember','turn','compaction','manual')),
    confidence REAL NOT NULL CHECK (confidence >= 0 AND confidence <= 1),
    actor TEXT NOT NULL CHECK (actor IN ('human','auto','agent')),
    seen_at TEXT NOT NULL
);
CREATE INDEX sightings_by_candidate ON candidate_sightings(candidate_id);
CREATE INDEX sightings_by_turn ON candidate_sightings(turn_id);

CREATE TABLE memories (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    candidate_id INTEGER REFERENCES candidates(id),
    content TEXT NOT NULL CHECK (length(trim(content)) > 0 AND length(content) <= 10000),
    kind TEXT NOT NULL CHECK (kind IN {_KINDS}),
    namespace TEXT NOT NULL CHECK {_NAMESPACE_OK},
    fingerprint TEXT NOT NULL,
    pinned INTEGER NOT NULL DEFAULT 0 CHECK (pinned IN (0, 1)),
    weight REAL NOT NULL DEFAULT 1.0 CHECK (weight >= 0),
    hit_count INTEGER NOT NULL DEFAULT 0,
    last_hit_at TEXT,
    reinforced_count INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active','deprecated','archived')),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX memories_dedup ON memories(fingerprint, namespace, kind);
CREATE INDEX memories_by_namespace ON memories(namespace, status);

CREATE TABLE history (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    entity TEXT NOT NULL CHECK (entity IN ('candidate','memory','setting')),
    entity_id TEXT NOT NULL,
    action TEXT NOT NULL,
    actor TEXT NOT NULL CHECK (actor IN ('human','auto','agent')),
    at TEXT NOT NULL,
    before TEXT,
    after TEXT,
    batch TEXT NOT NULL,
    undone INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX history_by_entity ON history(entity, entity_id);
CREATE INDEX history_by_batch ON history(batch);

CREATE TABLE settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
"""


def apply(conn: sqlite3.Connection) -> None:
    for statement in SCHEMA.split(";\n"):
        if statement.strip():
            conn.execute(statement)
