"""Whose memory is whose on a shared server: row-level security and the reviewer role.

Why on the server: a person's ``persona:`` memory must stay theirs even against a client
that is not ours (psql, another program); only PostgreSQL can promise that. The rules,
set up once by the database's owner with ``madohub-memory server-setup``:

- ``workspace:`` rows are shared; ``persona:`` rows belong to the role that proposed them
  (``mh_owner``, ``current_user`` when inserted) and no other role sees them, so every
  person has their own ``persona:default``. A memory inherits its candidate's owner.
- Whatever repeats persona text carries the owner as ``mh_private_to`` (NULL: shared),
  kept by triggers: history rows (before/after), the keyword index (``memory_fts``,
  ``memory_terms``, ``fts_pending``) and the vectors (``embeddings``). Sightings are
  visible with their candidate. ``recall_log`` (the queries a person's agents asked) is
  private to the role that recalled; working memory is workspace-only and shared.
- Group roles: ``madohub_reviewer`` may approve, reject and edit any candidate and memory
  it sees; ``madohub_proposer`` may propose (new candidates, sightings, a repeat that
  widens a pending candidate) and read and recall, and decide on its own persona rows
  only (nobody else can see them to review them). A guard trigger refuses every other
  decision with :data:`REVIEWER_NEEDED`, which the store turns into one sentence; the
  settings of the review policy (auto-approve, archiving, decay) are the reviewers' too.
- Shared, not private: transcripts (``conversations``, ``turns``: a reviewer checks a shared
  candidate against the turn it came from, and any machine's worker may extract them),
  settings and decision memory.
- The database owner and superusers bypass row-level security (not ``FORCE``d: the
  administrator can see and repair everything); people log in as ordinary roles.

Every statement is idempotent: ``server-setup`` may run again after an upgrade. Nothing
here is part of the base schema (:mod:`.schema`): a database nobody set up behaves as before.
"""

from __future__ import annotations

from typing import Any

REVIEWER = "madohub_reviewer"
PROPOSER = "madohub_proposer"
REVIEWER_NEEDED = "madohub: the reviewer role is needed"
POLICY_NEEDED = "madohub: the reviewer role is needed for the review policy"
# Settings that decide what is approved or archived without a person: a proposer could
# otherwise turn auto-approve on and have a reviewer's worker approve its own proposals.
POLICY_KEYS = "(key LIKE 'auto\\_approve.%' OR key = 'archive_days' OR (key LIKE 'decay.%' AND key <> 'decay.last_run'))"

# Tables whose rows repeat persona text, and how their owner is found.
_OWNED = ("candidates", "memories")  # mh_owner: the proposing role
_PRIVATE_BY_MEMORY = ("memory_fts", "memory_terms", "fts_pending")  # mh_private_to from memories
_PRIVATE = ("history", "embeddings", *_PRIVATE_BY_MEMORY)

_PERSONA_ONLY_OWNER = "(namespace NOT LIKE 'persona:%' OR mh_owner = current_user)"
_PRIVATE_OK = "(mh_private_to IS NULL OR mh_private_to = current_user)"


def _role(name: str) -> str:
    return (f"DO $$ BEGIN CREATE ROLE {name} NOLOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$")


FUNCTIONS = [
    # May the current role decide on (approve, reject, edit, delete) a row of this namespace and owner?
    f"""CREATE OR REPLACE FUNCTION mh_may_decide(ns text, owner text) RETURNS boolean LANGUAGE sql STABLE AS $$
        SELECT coalesce(ns LIKE 'persona:%' AND owner = current_user, false)
            OR pg_has_role(current_user, '{REVIEWER}', 'MEMBER')
            OR NOT pg_has_role(current_user, '{PROPOSER}', 'MEMBER') $$""",
    f"""CREATE OR REPLACE FUNCTION mh_guard_candidate() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP = 'DELETE' THEN  -- a proposer may take back (undo) a proposal of its own still pending
            IF NOT (mh_may_decide(OLD.namespace, OLD.mh_owner)
                    OR (OLD.status = 'pending' AND OLD.mh_owner = current_user)) THEN
                RAISE EXCEPTION '{REVIEWER_NEEDED}' USING ERRCODE = 'insufficient_privilege';
            END IF;
            RETURN OLD;
        END IF;
        IF (NEW.status, NEW.kind, NEW.namespace, NEW.memory_id, NEW.decided_by, NEW.mh_owner)
               IS DISTINCT FROM (OLD.status, OLD.kind, OLD.namespace, OLD.memory_id, OLD.decided_by, OLD.mh_owner)
           OR (NEW.content IS DISTINCT FROM OLD.content AND OLD.status <> 'pending') THEN
            IF NOT (mh_may_decide(OLD.namespace, OLD.mh_owner) AND mh_may_decide(NEW.namespace, NEW.mh_owner)) THEN
                RAISE EXCEPTION '{REVIEWER_NEEDED}' USING ERRCODE = 'insufficient_privilege';
            END IF;
        END IF;
        RETURN NEW;
    END $$""",
    f"""CREATE OR REPLACE FUNCTION mh_guard_memory() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP = 'INSERT' THEN
            NEW.mh_owner := coalesce((SELECT c.mh_owner FROM candidates c WHERE c.id = NEW.candidate_id),
                                     NEW.mh_owner);
            IF NOT mh_may_decide(NEW.namespace, NEW.mh_owner) THEN
                RAISE EXCEPTION '{REVIEWER_NEEDED}' USING ERRCODE = 'insufficient_privilege';
            END IF;
            RETURN NEW;
        ELSIF TG_OP = 'DELETE' THEN
            IF NOT mh_may_decide(OLD.namespace, OLD.mh_owner) THEN
                RAISE EXCEPTION '{REVIEWER_NEEDED}' USING ERRCODE = 'insufficient_privilege';
            END IF;
            RETURN OLD;
        END IF;
        IF (NEW.content, NEW.kind, NEW.namespace, NEW.pinned, NEW.status, NEW.candidate_id, NEW.mh_owner)
               IS DISTINCT FROM (OLD.content, OLD.kind, OLD.namespace, OLD.pinned, OLD.status, OLD.candidate_id,
                                 OLD.mh_owner)
           AND NOT (mh_may_decide(OLD.namespace, OLD.mh_owner) AND mh_may_decide(NEW.namespace, NEW.mh_owner)) THEN
            RAISE EXCEPTION '{REVIEWER_NEEDED}' USING ERRCODE = 'insufficient_privilege';
        END IF;
        RETURN NEW;
    END $$""",
    f"""CREATE OR REPLACE FUNCTION mh_guard_policy() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
        k text := CASE WHEN TG_OP = 'DELETE' THEN OLD.key ELSE NEW.key END;
    BEGIN
        IF (SELECT {POLICY_KEYS} FROM (SELECT k AS key) s) AND NOT mh_may_decide('workspace:any', NULL) THEN
            RAISE EXCEPTION '{POLICY_NEEDED}' USING ERRCODE = 'insufficient_privilege';
        END IF;
        RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
    END $$""",
    # The owner of a memory's persona text, NULL when it is shared (or gone).
    """CREATE OR REPLACE FUNCTION mh_memory_private_to(memory bigint) RETURNS text LANGUAGE sql STABLE AS $$
        SELECT CASE WHEN m.namespace LIKE 'persona:%' THEN m.mh_owner END FROM memories m WHERE m.id = memory $$""",
    """CREATE OR REPLACE FUNCTION mh_candidate_private_to(candidate bigint) RETURNS text LANGUAGE sql STABLE AS $$
        SELECT CASE WHEN c.namespace LIKE 'persona:%' THEN c.mh_owner END FROM candidates c WHERE c.id = candidate $$""",
    """CREATE OR REPLACE FUNCTION mh_private_by_memory() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        NEW.mh_private_to := mh_memory_private_to(NEW.memory_id);
        RETURN NEW;
    END $$""",
    """CREATE OR REPLACE FUNCTION mh_private_embedding() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        NEW.mh_private_to := CASE NEW.entity WHEN 'memory' THEN mh_memory_private_to(NEW.entity_id)
                                             ELSE mh_candidate_private_to(NEW.entity_id) END;
        RETURN NEW;
    END $$""",
    # A history row is private when its entity is persona now, or its before/after text was.
    """CREATE OR REPLACE FUNCTION mh_private_history() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF NEW.entity IN ('candidate', 'memory') AND NEW.entity_id ~ '^[0-9]{1,18}$' THEN
            NEW.mh_private_to := CASE NEW.entity WHEN 'memory' THEN mh_memory_private_to(NEW.entity_id::bigint)
                                                 ELSE mh_candidate_private_to(NEW.entity_id::bigint) END;
        END IF;
        IF NEW.mh_private_to IS NULL AND (coalesce(NEW.before, '') ~ '"namespace": ?"persona:'
                                          OR coalesce(NEW.after, '') ~ '"namespace": ?"persona:') THEN
            NEW.mh_private_to := current_user;
        END IF;
        RETURN NEW;
    END $$""",
    # A memory or candidate moved between persona and workspace: its index rows and vectors follow.
    """CREATE OR REPLACE FUNCTION mh_private_follow() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
        private text := CASE WHEN NEW.namespace LIKE 'persona:%' THEN NEW.mh_owner END;
    BEGIN
        IF TG_TABLE_NAME = 'memories' THEN
            UPDATE memory_fts SET mh_private_to = private WHERE memory_id = NEW.id;
            UPDATE memory_terms SET mh_private_to = private WHERE memory_id = NEW.id;
            UPDATE embeddings SET mh_private_to = private WHERE entity = 'memory' AND entity_id = NEW.id;
        ELSE
            UPDATE embeddings SET mh_private_to = private WHERE entity = 'candidate' AND entity_id = NEW.id;
        END IF;
        RETURN NULL;
    END $$""",
]


_HISTORY_PRIVATE = (
    "UPDATE history SET mh_private_to = CASE WHEN entity = 'memory' AND entity_id ~ '^[0-9]{1,18}$'"
    " THEN mh_memory_private_to(entity_id::bigint) WHEN entity = 'candidate' AND entity_id ~ '^[0-9]{1,18}$'"
    " THEN mh_candidate_private_to(entity_id::bigint) END"
)


def _trigger(name: str, table: str, when: str, function: str) -> list[str]:
    return [f"DROP TRIGGER IF EXISTS {name} ON {table}",
            f"CREATE TRIGGER {name} {when} ON {table} FOR EACH ROW EXECUTE FUNCTION {function}()"]


def _policy(name: str, table: str, rule: str) -> list[str]:
    return [f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY",
            f"DROP POLICY IF EXISTS {name} ON {table}",
            f"CREATE POLICY {name} ON {table} USING {rule} WITH CHECK {rule}"]


def statements() -> list[str]:
    """Everything ``server-setup`` runs as the database's owner, in order (idempotent)."""
    out = [_role(REVIEWER), _role(PROPOSER)]
    out += [f"ALTER TABLE {t} ADD COLUMN IF NOT EXISTS mh_owner TEXT NOT NULL DEFAULT current_user" for t in _OWNED]
    out += ["ALTER TABLE recall_log ADD COLUMN IF NOT EXISTS mh_owner TEXT NOT NULL DEFAULT current_user"]
    out += [f"ALTER TABLE {t} ADD COLUMN IF NOT EXISTS mh_private_to TEXT" for t in _PRIVATE]
    out += FUNCTIONS
    out += _trigger("candidates_guard", "candidates", "BEFORE UPDATE OR DELETE", "mh_guard_candidate")
    out += _trigger("memories_guard", "memories", "BEFORE INSERT OR UPDATE OR DELETE", "mh_guard_memory")
    out += _trigger("settings_policy_guard", "settings", "BEFORE INSERT OR UPDATE OR DELETE", "mh_guard_policy")
    out += _trigger("history_private", "history", "BEFORE INSERT", "mh_private_history")
    out += _trigger("embeddings_private", "embeddings", "BEFORE INSERT OR UPDATE", "mh_private_embedding")
    out += [s for t in _PRIVATE_BY_MEMORY
            for s in _trigger(f"{t}_private", t, "BEFORE INSERT", "mh_private_by_memory")]
    out += _trigger("memories_private_follow", "memories", "AFTER UPDATE OF namespace, mh_owner", "mh_private_follow")
    out += _trigger("candidates_private_follow", "candidates", "AFTER UPDATE OF namespace, mh_owner",
                    "mh_private_follow")
    # Rows written before the set-up: private as they would have been made.
    out += [f"UPDATE {t} SET mh_private_to = mh_memory_private_to(memory_id)" for t in _PRIVATE_BY_MEMORY]
    out += ["UPDATE embeddings SET fingerprint = fingerprint", _HISTORY_PRIVATE]  # triggers set mh_private_to
    out += _policy("persona_owner", "candidates", _PERSONA_ONLY_OWNER)
    out += _policy("persona_owner", "memories", _PERSONA_ONLY_OWNER)
    out += _policy("with_candidate", "candidate_sightings",
                   "(EXISTS (SELECT 1 FROM candidates c WHERE c.id = candidate_id))")
    out += _policy("own_recalls", "recall_log", "(mh_owner = current_user)")
    out += [s for t in _PRIVATE for s in _policy("private_to", t, _PRIVATE_OK)]
    for group in (REVIEWER, PROPOSER):
        out += [
            f"GRANT USAGE ON SCHEMA public TO {group}",
            f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {group}",
            f"REVOKE INSERT, UPDATE, DELETE ON schema_migrations FROM {group}",
            f"GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO {group}",
            f"GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA public TO {group}",
            # tables a later upgrade adds (created by this same owner) are granted too
            f"ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO {group}",
            f"ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO {group}",
        ]
    return out


def assign_statements(reviewers: list[str], proposers: list[str]) -> list[str]:
    """Give existing login roles their group (a role is one or the other)."""
    out = []
    for role in reviewers:
        out += [f'REVOKE {PROPOSER} FROM "{role}"', f'GRANT {REVIEWER} TO "{role}"']
    for role in proposers:
        out += [f'REVOKE {REVIEWER} FROM "{role}"', f'GRANT {PROPOSER} TO "{role}"']
    return out


def hand_over_statements(role: str) -> list[str]:
    """Give the persona rows the set-up's own role holds (a database filled by ``transfer``
    before the set-up: every row then belongs to whoever ran it) to the person ``role``."""
    literal = "'" + role.replace("'", "''") + "'"
    out = [f"UPDATE {t} SET mh_owner = {literal} WHERE namespace LIKE 'persona:%' AND mh_owner = current_user"
           for t in _OWNED]
    return [*out, _HISTORY_PRIVATE]


def script(extra: list[str] | None = None) -> str:
    """The set-up (and ``extra`` statements) as one SQL script, for an administrator who runs it with psql."""
    return "BEGIN;\n" + "".join(s.rstrip() + ";\n" for s in statements() + (extra or [])) + "COMMIT;\n"


def apply(store: Any, reviewers: list[str], proposers: list[str], persona_owner: str | None = None) -> int:
    """Run the set-up (and the role assignments) in one transaction on ``store``, a
    :class:`~madohub_memory.store.pg.store.PgStore` opened by the database's owner; returns
    how many statements ran. A failure leaves the database as it was."""
    todo = statements() + assign_statements(reviewers, proposers)
    if persona_owner:
        todo += hand_over_statements(persona_owner)
    with store.transaction():
        for statement in todo:
            store.raw.execute(statement.encode())
    return len(todo)
