"""Extraction: embeddings of candidates and memories for semantic dedup.

Derived data (recomputed lazily from the text, never exported): one vector per entity
(``candidate`` or ``memory``), id and embedding model, with the fingerprint of the text it
was computed from so an edited text is noticed and re-embedded.
"""

from __future__ import annotations

import sqlite3

VERSION = 3
NAME = "extraction"

SCHEMA = """
CREATE TABLE IF NOT EXISTS dedup_embeddings (
    entity TEXT NOT NULL CHECK (entity IN ('candidate', 'memory')),
    entity_id INTEGER NOT NULL,
    model TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    vector BLOB NOT NULL,
    PRIMARY KEY (entity, entity_id, model)
)
"""


def apply(conn: sqlite3.Connection) -> None:
    conn.execute(SCHEMA)
