"""One vector cache: table ``embeddings`` and change feed ``embedding_changes``.

Recall (``memory_embeddings``, float32, fed by ``recall_changes``) and semantic dedup
(``dedup_embeddings``, float16, following history) kept two copies of one derived thing;
a memory's vector was stored twice. From here one row per (entity, id, model) holds a
float32 vector with the fingerprint of the text it encodes, and one trigger-fed feed
tells every in-process view (recall's matrix, dedup's groups, the nearest-memory view)
what changed, whoever wrote it. The stored vectors move over (dedup's float16 ones are
widened; where both tables held a memory, recall's float32 vector is kept).
"""

from __future__ import annotations

import sqlite3

VERSION = 12
NAME = "vector_cache"

_FEED = "INSERT INTO embedding_changes (entity, entity_id) VALUES ('{entity}', {ref}.id);"

SCHEMA = [
    """CREATE TABLE embeddings (
        entity TEXT NOT NULL CHECK (entity IN ('memory', 'candidate')),
        entity_id INTEGER NOT NULL,
        model TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        vector BLOB NOT NULL,
        PRIMARY KEY (entity, entity_id, model)
    )""",
    """CREATE TABLE embedding_changes (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        entity TEXT NOT NULL,
        entity_id INTEGER NOT NULL
    )""",
]

# Migration 4's memory triggers, rewritten for the new feed and table (the keyword index
# part is unchanged), and the same for candidates.
TRIGGERS = [
    "CREATE TRIGGER memories_recall_ai AFTER INSERT ON memories BEGIN"
    " INSERT INTO memory_fts (rowid, text) VALUES (new.id, mh_fts_text(new.content)); "
    + _FEED.format(entity="memory", ref="new") + " END",
    "CREATE TRIGGER memories_recall_ad AFTER DELETE ON memories BEGIN"
    " DELETE FROM memory_fts WHERE rowid = old.id;"
    " DELETE FROM embeddings WHERE entity = 'memory' AND entity_id = old.id; "
    + _FEED.format(entity="memory", ref="old") + " END",
    "CREATE TRIGGER memories_recall_au AFTER UPDATE OF content, status, namespace, kind, fingerprint"
    " ON memories WHEN new.content IS NOT old.content OR new.status IS NOT old.status"
    " OR new.namespace IS NOT old.namespace OR new.kind IS NOT old.kind"
    " OR new.fingerprint IS NOT old.fingerprint BEGIN "
    + _FEED.format(entity="memory", ref="new") + " END",
    "CREATE TRIGGER candidates_vectors_ai AFTER INSERT ON candidates BEGIN "
    + _FEED.format(entity="candidate", ref="new") + " END",
    "CREATE TRIGGER candidates_vectors_ad AFTER DELETE ON candidates BEGIN"
    " DELETE FROM embeddings WHERE entity = 'candidate' AND entity_id = old.id; "
    + _FEED.format(entity="candidate", ref="old") + " END",
    "CREATE TRIGGER candidates_vectors_au AFTER UPDATE OF content, namespace, kind, fingerprint"
    " ON candidates WHEN new.content IS NOT old.content OR new.namespace IS NOT old.namespace"
    " OR new.kind IS NOT old.kind OR new.fingerprint IS NOT old.fingerprint BEGIN "
    + _FEED.format(entity="candidate", ref="new") + " END",
]


def _widen(blob: bytes) -> bytes:
    """A float16 vector (dedup's old codec) as float32 (the one codec now)."""
    import numpy as np

    return np.frombuffer(blob, dtype=np.float16).astype(np.float32).tobytes()


def apply(conn: sqlite3.Connection) -> None:
    for statement in SCHEMA:
        conn.execute(statement)
    conn.execute(
        "INSERT INTO embeddings (entity, entity_id, model, fingerprint, vector)"
        " SELECT 'memory', memory_id, model, fingerprint, vector FROM memory_embeddings"
    )
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "dedup_embeddings" in tables:  # semantic dedup created it at run time before migration 3
        old = conn.execute("SELECT entity, entity_id, model, fingerprint, vector FROM dedup_embeddings")
        while batch := old.fetchmany(1000):
            conn.executemany(
                "INSERT OR IGNORE INTO embeddings (entity, entity_id, model, fingerprint, vector)"
                " VALUES (?, ?, ?, ?, ?)",
                [(r[0], r[1], r[2], r[3], _widen(r[4])) for r in batch],
            )
    for trigger in ("memories_recall_ai", "memories_recall_ad", "memories_recall_au"):
        conn.execute(f"DROP TRIGGER IF EXISTS {trigger}")
    for statement in TRIGGERS:
        conn.execute(statement)
    for table in ("memory_embeddings", "dedup_embeddings", "recall_changes"):
        conn.execute(f"DROP TABLE IF EXISTS {table}")
