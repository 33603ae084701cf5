"""The PostgreSQL schema: the SQLite schema after its latest migration, in PostgreSQL's terms.

One DDL set, applied to an empty database in one transaction, with its own version row in
``schema_migrations`` (the same version numbers as the SQLite migrations, so ``doctor``
and the version check read alike). A SQLite migration after this needs its counterpart
here twice: in the DDL set (new databases) and in :data:`UPGRADES` (databases created by an
earlier version); ``tests/test_pg_store.py`` fails until :data:`VERSION` follows.

What differs from SQLite, and why:

- Generated ids: a sequence default plus a trigger that moves the sequence past an id given
  explicitly (undo and import restore rows with their ids; SQLite's AUTOINCREMENT never
  hands such an id out again, neither does this).
- ``mh_rowid`` on ``turns`` and ``decisions``: SQLite's implicit insertion order, which the
  store reads as ``rowid`` (:mod:`.dialect` rewrites the name; rows hide the column).
- The keyword index (``memory_fts``: the tsvector and token count of each memory, and
  ``memory_terms``: one row per lexeme and memory with its frequency, BM25's postings,
  carrying the memory's status and namespace so a search reads postings only) is
  written by the store, not by a trigger: PostgreSQL cannot call the Chinese segmenter.
  A trigger queues changed memories in ``fts_pending``; :mod:`.keyword` catches up.
- ``mh_data_version``: one counter every committing writer bumps (once per transaction),
  read by live views instead of SQLite's ``PRAGMA data_version``.
- Indexes on columns that may be NULL are built NULLS FIRST, SQLite's NULL order, which
  the rewritten ORDER BY clauses ask for.
"""

from __future__ import annotations

from madohub_memory.store.pg.dialect import NOT_NULL_COLUMNS

VERSION = 16
NAME = "postgresql baseline (SQLite migrations 1-16)"

_KINDS = "('preference','fact','decision','pattern','postmortem','event')"
_NAMESPACE_OK = (
    "((namespace LIKE 'persona:_%' OR namespace LIKE 'workspace:_%')"
    " AND namespace = btrim(namespace, ' ') AND substr(namespace, strpos(namespace, ':') + 1) ="
    " btrim(substr(namespace, strpos(namespace, ':') + 1), ' '))"
)
_ID = "id BIGINT PRIMARY KEY DEFAULT nextval('{table}_id_seq')"

_TRANSFER_STATE = """source_id TEXT NOT NULL, table_name TEXT NOT NULL, last_key TEXT,
        copied BIGINT NOT NULL DEFAULT 0, done BIGINT NOT NULL DEFAULT 0 CHECK (done IN (0, 1)),
        source TEXT NOT NULL DEFAULT '', updated_at TEXT NOT NULL, PRIMARY KEY (source_id, table_name)"""

_WORK_PROGRESS = """owner TEXT PRIMARY KEY, work TEXT NOT NULL,
        done BIGINT NOT NULL DEFAULT 0, total BIGINT NOT NULL DEFAULT 0, detail TEXT NOT NULL DEFAULT '{}',
        started_at TEXT NOT NULL, updated_at TEXT NOT NULL"""

# version -> what brings a database of the version before it up to it (SQLite's m00NN files)
UPGRADES: dict[int, list[str]] = {
    13: [  # m0013_people: who made each change
        "ALTER TABLE history ADD COLUMN person TEXT",
        "ALTER TABLE memories ADD COLUMN approved_by TEXT",
        "ALTER TABLE memories ADD COLUMN edited_by TEXT",
        "ALTER TABLE memories ADD COLUMN edited_at TEXT",
        "ALTER TABLE candidates ADD COLUMN decided_by TEXT",
    ],
    14: [  # m0014_transfer_state: where a transfer into this database stands
        f"CREATE TABLE transfer_state ({_TRANSFER_STATE})",
        "CREATE TRIGGER transfer_state_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON transfer_state"
        " FOR EACH STATEMENT EXECUTE FUNCTION mh_bump_version()",
    ],
    15: [  # m0015_job_counts: what a job's last run did, per action
        "ALTER TABLE jobs ADD COLUMN counts TEXT",
    ],
    16: [  # m0016_work_progress: how far each running import or extraction has come
        f"CREATE TABLE work_progress ({_WORK_PROGRESS})",
        "CREATE TRIGGER work_progress_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON work_progress"
        " FOR EACH STATEMENT EXECUTE FUNCTION mh_bump_version()",
    ],
}

FUNCTIONS = [
    # SQLite's instr() and trim() (spaces only), which store queries use as they are.
    "CREATE OR REPLACE FUNCTION instr(text, text) RETURNS integer LANGUAGE sql IMMUTABLE AS"
    " 'SELECT strpos($1, $2)'",
    """CREATE OR REPLACE FUNCTION mh_follow_id() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF NEW.id > coalesce(pg_sequence_last_value(TG_ARGV[0]::regclass), 0) THEN
            PERFORM setval(TG_ARGV[0]::regclass, NEW.id);
        END IF;
        RETURN NEW;
    END $$""",
    """CREATE OR REPLACE FUNCTION mh_bump_version() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        UPDATE mh_data_version SET n = n + 1, xid = txid_current()
         WHERE xid IS DISTINCT FROM txid_current();
        RETURN NULL;
    END $$""",
    """CREATE OR REPLACE FUNCTION mh_memory_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP = 'DELETE' THEN
            INSERT INTO fts_pending (memory_id) VALUES (OLD.id) ON CONFLICT DO NOTHING;
            DELETE FROM embeddings WHERE entity = 'memory' AND entity_id = OLD.id;
            INSERT INTO embedding_changes (entity, entity_id) VALUES ('memory', OLD.id);
            RETURN OLD;
        END IF;
        IF TG_OP = 'INSERT' OR NEW.content IS DISTINCT FROM OLD.content THEN
            INSERT INTO fts_pending (memory_id) VALUES (NEW.id) ON CONFLICT DO NOTHING;
        ELSIF NEW.status IS DISTINCT FROM OLD.status OR NEW.namespace IS DISTINCT FROM OLD.namespace THEN
            UPDATE memory_terms SET status = NEW.status, namespace = NEW.namespace WHERE memory_id = NEW.id;
        END IF;
        IF TG_OP = 'INSERT' OR NEW.content IS DISTINCT FROM OLD.content OR NEW.status IS DISTINCT FROM OLD.status
           OR NEW.namespace IS DISTINCT FROM OLD.namespace OR NEW.kind IS DISTINCT FROM OLD.kind
           OR NEW.fingerprint IS DISTINCT FROM OLD.fingerprint THEN
            INSERT INTO embedding_changes (entity, entity_id) VALUES ('memory', NEW.id);
        END IF;
        RETURN NEW;
    END $$""",
    """CREATE OR REPLACE FUNCTION mh_candidate_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP = 'DELETE' THEN
            DELETE FROM embeddings WHERE entity = 'candidate' AND entity_id = OLD.id;
            INSERT INTO embedding_changes (entity, entity_id) VALUES ('candidate', OLD.id);
            RETURN OLD;
        END IF;
        IF TG_OP = 'INSERT' OR NEW.content IS DISTINCT FROM OLD.content
           OR NEW.namespace IS DISTINCT FROM OLD.namespace OR NEW.kind IS DISTINCT FROM OLD.kind
           OR NEW.fingerprint IS DISTINCT FROM OLD.fingerprint THEN
            INSERT INTO embedding_changes (entity, entity_id) VALUES ('candidate', NEW.id);
        END IF;
        RETURN NEW;
    END $$""",
]

TABLES = {
    "schema_migrations": "version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL",
    "conversations": """id TEXT PRIMARY KEY, format TEXT NOT NULL, source_path TEXT, title TEXT,
        parent_id TEXT REFERENCES conversations(id), namespace TEXT, started_at TEXT,
        meta TEXT NOT NULL DEFAULT '{}'""",
    "turns": """id TEXT PRIMARY KEY, conversation_id TEXT NOT NULL REFERENCES conversations(id),
        seq BIGINT NOT NULL, role TEXT NOT NULL CHECK (role IN ('user','assistant','tool','system')),
        content TEXT NOT NULL, created_at TEXT, meta TEXT NOT NULL DEFAULT '{}',
        extract_state TEXT NOT NULL DEFAULT 'done'
            CHECK (extract_state IN ('pending','claimed','done','skipped','failed')),
        extract_mode TEXT NOT NULL DEFAULT 'turn' CHECK (extract_mode IN ('turn','compaction')),
        segment BIGINT NOT NULL DEFAULT 0, claimed_by TEXT, claimed_at TEXT, extracted_at TEXT,
        mh_rowid BIGINT GENERATED ALWAYS AS IDENTITY""",
    "candidates": f"""{_ID.format(table="candidates")},
        content TEXT NOT NULL CHECK (length(btrim(content, ' ')) > 0 AND length(content) <= 10000),
        kind TEXT NOT NULL CHECK (kind IN {_KINDS}),
        namespace TEXT NOT NULL CHECK {_NAMESPACE_OK},
        source TEXT NOT NULL CHECK (source IN ('remember','turn','compaction','manual')),
        confidence DOUBLE PRECISION NOT NULL CHECK (confidence >= 0 AND confidence <= 1),
        seen_count BIGINT NOT NULL DEFAULT 1 CHECK (seen_count >= 1),
        status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','approved','rejected','archived')),
        flags TEXT NOT NULL DEFAULT '', fingerprint TEXT NOT NULL, memory_id BIGINT,
        created_at TEXT NOT NULL, updated_at TEXT NOT NULL, decided_by TEXT""",
    "candidate_sightings": f"""{_ID.format(table="candidate_sightings")},
        candidate_id BIGINT NOT NULL REFERENCES candidates(id) ON DELETE CASCADE, turn_id TEXT,
        source TEXT NOT NULL CHECK (source IN ('remember','turn','compaction','manual')),
        confidence DOUBLE PRECISION NOT NULL CHECK (confidence >= 0 AND confidence <= 1),
        actor TEXT NOT NULL CHECK (actor IN ('human','auto','agent')), seen_at TEXT NOT NULL,
        session TEXT, source_key TEXT""",
    "memories": f"""{_ID.format(table="memories")}, candidate_id BIGINT REFERENCES candidates(id),
        content TEXT NOT NULL CHECK (length(btrim(content, ' ')) > 0 AND length(content) <= 10000),
        kind TEXT NOT NULL CHECK (kind IN {_KINDS}),
        namespace TEXT NOT NULL CHECK {_NAMESPACE_OK}, fingerprint TEXT NOT NULL,
        pinned BIGINT NOT NULL DEFAULT 0 CHECK (pinned IN (0, 1)),
        weight DOUBLE PRECISION NOT NULL DEFAULT 1.0 CHECK (weight >= 0),
        hit_count BIGINT NOT NULL DEFAULT 0, last_hit_at TEXT, reinforced_count BIGINT NOT NULL DEFAULT 0,
        status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active','deprecated','archived')),
        created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
        approved_by TEXT, edited_by TEXT, edited_at TEXT""",
    "history": f"""{_ID.format(table="history")},
        entity TEXT NOT NULL CHECK (entity IN ('candidate','memory','setting')), entity_id TEXT NOT NULL,
        action TEXT NOT NULL, actor TEXT NOT NULL CHECK (actor IN ('human','auto','agent')),
        at TEXT NOT NULL, before TEXT, after TEXT, batch TEXT NOT NULL, undone BIGINT NOT NULL DEFAULT 0,
        origin TEXT NOT NULL DEFAULT '', person TEXT""",
    "settings": "key TEXT PRIMARY KEY, value TEXT NOT NULL, updated_at TEXT NOT NULL",
    "ingest_files": """path TEXT PRIMARY KEY, format TEXT NOT NULL, size BIGINT NOT NULL DEFAULT 0,
        mtime DOUBLE PRECISION, head_hash TEXT, end_offset BIGINT NOT NULL DEFAULT 0,
        end_line BIGINT NOT NULL DEFAULT 0, turns BIGINT NOT NULL DEFAULT 0,
        state TEXT NOT NULL DEFAULT '{}', updated_at TEXT NOT NULL""",
    "recall_log": f"""{_ID.format(table="recall_log")}, at TEXT NOT NULL, source TEXT NOT NULL,
        query TEXT NOT NULL, namespace TEXT, memory_ids TEXT NOT NULL, token_estimate BIGINT NOT NULL""",
    "recall_state": "key TEXT PRIMARY KEY, value TEXT NOT NULL",
    "working_memory": """workspace TEXT PRIMARY KEY CHECK (workspace LIKE 'workspace:_%'), task TEXT,
        task_started_at TEXT, updated_at TEXT NOT NULL""",
    "working_items": f"""{_ID.format(table="working_items")},
        workspace TEXT NOT NULL REFERENCES working_memory(workspace) ON DELETE CASCADE,
        item TEXT NOT NULL CHECK (item IN ('decision','constraint','pending','file','rejected')),
        text TEXT NOT NULL CHECK (length(btrim(text, ' ')) > 0 AND length(text) <= 10000), reason TEXT,
        status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open','resolved')),
        created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
        CHECK (item NOT IN ('decision','rejected') OR length(btrim(coalesce(reason, ''), ' ')) > 0)""",
    "decisions": """decision_id TEXT PRIMARY KEY, timestamp TEXT NOT NULL, point_key TEXT NOT NULL,
        question TEXT NOT NULL CHECK (length(btrim(question, ' ')) > 0),
        user_choice TEXT NOT NULL CHECK (length(btrim(user_choice, ' ')) > 0),
        all_options TEXT NOT NULL, static_default TEXT, context TEXT NOT NULL DEFAULT '{}', session TEXT,
        transient BIGINT NOT NULL DEFAULT 0 CHECK (transient IN (0, 1)),
        source TEXT NOT NULL DEFAULT 'api' CHECK (source IN ('api','cli','mcp','transcript','hook')),
        source_ref TEXT UNIQUE, mh_rowid BIGINT GENERATED ALWAYS AS IDENTITY""",
    "decision_proposals": """point_key TEXT NOT NULL, choice TEXT NOT NULL, candidate_id BIGINT,
        proposed_at TEXT NOT NULL, PRIMARY KEY (point_key, choice)""",
    "decision_state": "key TEXT PRIMARY KEY, value TEXT NOT NULL",
    "jobs": """name TEXT PRIMARY KEY, last_run TEXT, next_run TEXT, processed BIGINT NOT NULL DEFAULT 0,
        total_processed BIGINT NOT NULL DEFAULT 0, runs BIGINT NOT NULL DEFAULT 0, last_error TEXT,
        last_error_at TEXT, last_duration_ms BIGINT, running_by TEXT, running_since TEXT, counts TEXT""",
    "embeddings": """entity TEXT NOT NULL CHECK (entity IN ('memory', 'candidate')), entity_id BIGINT NOT NULL,
        model TEXT NOT NULL, fingerprint TEXT NOT NULL, vector BYTEA NOT NULL,
        PRIMARY KEY (entity, entity_id, model)""",
    "embedding_changes": "seq BIGSERIAL PRIMARY KEY, entity TEXT NOT NULL, entity_id BIGINT NOT NULL",
    "transfer_state": _TRANSFER_STATE,
    "work_progress": _WORK_PROGRESS,
    # PostgreSQL only: the keyword index, its queue and its statistics (BM25), the live-view counter.
    "memory_fts": "memory_id BIGINT PRIMARY KEY, tsv TSVECTOR NOT NULL, len INTEGER NOT NULL",
    "memory_terms": """lexeme TEXT NOT NULL, memory_id BIGINT NOT NULL, tf INTEGER NOT NULL, len INTEGER NOT NULL,
        status TEXT NOT NULL, namespace TEXT NOT NULL,
        PRIMARY KEY (lexeme, memory_id) INCLUDE (tf, len, status, namespace)""",
    "fts_pending": "memory_id BIGINT PRIMARY KEY",
    "fts_stats": "one INTEGER PRIMARY KEY CHECK (one = 1), docs BIGINT NOT NULL, total_len BIGINT NOT NULL",
    "mh_data_version": "one INTEGER PRIMARY KEY CHECK (one = 1), n BIGINT NOT NULL, xid BIGINT",
}

# name -> (table, columns, WHERE or "")
INDEXES = {
    "turns_by_conversation": ("turns", "conversation_id, seq", ""),
    "turns_by_extract_state": ("turns", "extract_state, conversation_id, seq", ""),
    "turns_by_rowid": ("turns", "mh_rowid", ""),
    "candidates_dedup": ("candidates", "fingerprint, namespace, kind", ""),
    "candidates_by_status": ("candidates", "status, created_at", ""),
    "candidates_by_update": ("candidates", "status, updated_at", ""),
    "sightings_by_candidate": ("candidate_sightings", "candidate_id", ""),
    "sightings_by_turn": ("candidate_sightings", "turn_id", ""),
    "sightings_by_source": ("candidate_sightings", "candidate_id, source_key", ""),
    "memories_dedup": ("memories", "fingerprint, namespace, kind", ""),
    "memories_by_namespace": ("memories", "namespace, status", ""),
    "memories_recall_recent": ("memories", "created_at", ""),
    "memories_recall_used": ("memories", "last_hit_at", ""),
    "memories_recall_pinned": ("memories", "pinned", "pinned = 1"),
    "memories_context": ("memories", "namespace, status, pinned, kind, hit_count", ""),
    "history_by_entity": ("history", "entity, entity_id", ""),
    "history_by_batch": ("history", "batch", ""),
    "history_undoable": ("history", "actor, id", "undone = 0 AND action != 'undo'"),
    "history_undoable_by_origin": (
        "history", "origin, id", "undone = 0 AND action != 'undo' AND actor = 'human' AND entity != 'setting'"),
    "recall_log_by_at": ("recall_log", "at", ""),
    "working_items_by_workspace": ("working_items", "workspace, item, status", ""),
    "decisions_by_point": ("decisions", "point_key, timestamp", ""),
    "decisions_by_session": ("decisions", "session, timestamp", ""),
    "decisions_transient": ("decisions", "transient, timestamp", ""),
    "decisions_by_rowid": ("decisions", "mh_rowid", ""),
}

ID_SEQUENCES = ("candidates", "candidate_sightings", "memories", "history", "recall_log", "working_items")


def _index(name: str, table: str, columns: str, where: str) -> str:
    cols = ", ".join(
        c.strip() if c.strip() in NOT_NULL_COLUMNS else f"{c.strip()} NULLS FIRST" for c in columns.split(",")
    )
    return f"CREATE INDEX {name} ON {table} ({cols})" + (f" WHERE {where}" if where else "")


def statements() -> list[str]:
    """Every statement that turns an empty database into the current schema, in order."""
    out = [f"CREATE SEQUENCE {t}_id_seq" for t in ID_SEQUENCES]
    out += FUNCTIONS
    out += [f"CREATE TABLE {name} ({body})" for name, body in TABLES.items()]
    out += [_index(name, *spec) for name, spec in INDEXES.items()]
    out += ["CREATE INDEX memory_terms_by_memory ON memory_terms (memory_id)"]
    out += [
        f"CREATE TRIGGER {t}_follow_id BEFORE INSERT ON {t} FOR EACH ROW EXECUTE FUNCTION"
        f" mh_follow_id('{t}_id_seq')" for t in ID_SEQUENCES
    ]
    out += [
        "CREATE TRIGGER memories_changed AFTER INSERT OR UPDATE OR DELETE ON memories"
        " FOR EACH ROW EXECUTE FUNCTION mh_memory_changed()",
        "CREATE TRIGGER candidates_changed AFTER INSERT OR UPDATE OR DELETE ON candidates"
        " FOR EACH ROW EXECUTE FUNCTION mh_candidate_changed()",
    ]
    watched = [t for t in TABLES if t not in ("mh_data_version", "fts_pending", "fts_stats", "memory_fts", "memory_terms",
                                               "embedding_changes", "schema_migrations")]
    out += [
        f"CREATE TRIGGER {t}_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON {t}"
        " FOR EACH STATEMENT EXECUTE FUNCTION mh_bump_version()" for t in watched
    ]
    out += [
        "INSERT INTO mh_data_version (one, n) VALUES (1, 0)",
        "INSERT INTO fts_stats (one, docs, total_len) VALUES (1, 0, 0)",
    ]
    return out


def reset_statements(index_id: str) -> list[str]:
    """Statements that empty a database of this schema back to its just-created state
    (ids from 1 again): the tests' clean database per test, without a CREATE DATABASE (~1 s)."""
    tables = ", ".join(t for t in TABLES if t != "schema_migrations")
    out = [f"TRUNCATE {tables} RESTART IDENTITY"]
    out += [f"ALTER SEQUENCE {t}_id_seq RESTART" for t in ID_SEQUENCES]
    out += [s for s in statements() if s.startswith("INSERT INTO")]
    out += [f"INSERT INTO recall_state (key, value) VALUES ('index_id', '{index_id}')"]
    return out
