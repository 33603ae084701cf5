"""Recall: keyword index, embeddings, change feed, recall log, working memory, state.

Everything here is derived from ``memories`` or private to recall, so nothing is added
to ``memories`` itself (export and undo carry that table as it is). The keyword index is
kept in sync by triggers, so every writer (review, import, undo, a hand edit through
``Store``) updates it; the triggers call ``mh_fts_text`` (Chinese word segmentation),
which :func:`madohub_memory.store.fts_text.register_functions` defines on every connection
``Store`` opens.
"""

from __future__ import annotations

import os
import sqlite3

VERSION = 4
NAME = "recall"

_CHANGE = "INSERT INTO recall_changes (memory_id) VALUES ({ref}.id);"

SCHEMA = [
    "CREATE VIRTUAL TABLE memory_fts USING fts5("
    " text, tokenize = 'porter unicode61 remove_diacritics 2')",
    """CREATE TABLE memory_embeddings (
        memory_id INTEGER NOT NULL,
        model TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        vector BLOB NOT NULL,
        PRIMARY KEY (memory_id, model)
    )""",
    """CREATE TABLE recall_changes (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        memory_id INTEGER NOT NULL
    )""",
    """CREATE TABLE recall_log (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at TEXT NOT NULL,
        source TEXT NOT NULL,
        query TEXT NOT NULL,
        namespace TEXT,
        memory_ids TEXT NOT NULL,
        token_estimate INTEGER NOT NULL
    )""",
    "CREATE INDEX recall_log_by_at ON recall_log(at)",
    """CREATE TABLE recall_state (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    )""",
    """CREATE TABLE working_memory (
        workspace TEXT PRIMARY KEY CHECK (workspace GLOB 'workspace:?*'),
        task TEXT,
        task_started_at TEXT,
        updated_at TEXT NOT NULL
    )""",
    """CREATE TABLE working_items (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        workspace TEXT NOT NULL REFERENCES working_memory(workspace) ON DELETE CASCADE,
        item TEXT NOT NULL CHECK (item IN ('decision','constraint','pending','file','rejected')),
        text TEXT NOT NULL CHECK (length(trim(text)) > 0 AND length(text) <= 10000),
        reason TEXT,
        status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open','resolved')),
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        CHECK (item NOT IN ('decision','rejected') OR length(trim(coalesce(reason, ''))) > 0)
    )""",
    "CREATE INDEX working_items_by_workspace ON working_items(workspace, item, status)",
    # Indexes (not columns) on memories so the recent and pinned candidate pools of a
    # recall read a few rows instead of scanning every memory.
    "CREATE INDEX memories_recall_recent ON memories(created_at)",
    "CREATE INDEX memories_recall_used ON memories(last_hit_at)",
    "CREATE INDEX memories_recall_pinned ON memories(pinned) WHERE pinned = 1",
    # Keyword index and change feed follow memories through triggers.
    "CREATE TRIGGER memories_recall_ai AFTER INSERT ON memories BEGIN"
    " INSERT INTO memory_fts (rowid, text) VALUES (new.id, mh_fts_text(new.content)); "
    + _CHANGE.format(ref="new") + " END",
    "CREATE TRIGGER memories_recall_ad AFTER DELETE ON memories BEGIN"
    " DELETE FROM memory_fts WHERE rowid = old.id;"
    " DELETE FROM memory_embeddings WHERE memory_id = old.id; "
    + _CHANGE.format(ref="old") + " END",
    "CREATE TRIGGER memories_recall_au_content AFTER UPDATE OF content ON memories"
    " WHEN new.content IS NOT old.content BEGIN"
    " DELETE FROM memory_fts WHERE rowid = old.id;"
    " INSERT INTO memory_fts (rowid, text) VALUES (new.id, mh_fts_text(new.content)); END",
    "CREATE TRIGGER memories_recall_au AFTER UPDATE OF content, status, namespace, kind, fingerprint"
    " ON memories WHEN new.content IS NOT old.content OR new.status IS NOT old.status"
    " OR new.namespace IS NOT old.namespace OR new.kind IS NOT old.kind"
    " OR new.fingerprint IS NOT old.fingerprint BEGIN "
    + _CHANGE.format(ref="new") + " END",
]


def apply(conn: sqlite3.Connection) -> None:
    from madohub_memory.store.fts_text import register_functions

    register_functions(conn)
    for statement in SCHEMA:
        conn.execute(statement)
    conn.execute(
        "INSERT INTO memory_fts (rowid, text) SELECT id, mh_fts_text(content) FROM memories"
    )
    conn.execute(  # os.urandom, not uuid: every command imports this module, uuid costs ~10 ms
        "INSERT INTO recall_state (key, value) VALUES ('index_id', ?)", (os.urandom(16).hex(),)
    )
