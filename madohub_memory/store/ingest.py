"""Writers and queries for ingestion: conversations, turns, file read positions, turn claims.

Claims make extraction safe across processes: :func:`claim_pending` marks turns as held by
one worker inside a ``BEGIN IMMEDIATE`` transaction (on PostgreSQL, the write lock plus
``FOR UPDATE SKIP LOCKED``: :mod:`.pg.claims`), so a second worker (the dashboard and the
daemon at once, or workers on several machines) never gets the same turn. A claim whose process is gone
(:mod:`madohub_memory.store.liveness`) is taken over at once.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from madohub_memory.store.database import Store
from madohub_memory.store.redaction import redact_row, redact_turns

_CHUNK = 400  # SQLite host parameters per IN (...) list


def _chunks(items: Sequence[Any], size: int = _CHUNK) -> Iterable[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start:start + size]


def upsert_conversation(store: Store, row: dict[str, Any]) -> None:
    """Create a conversation, or fill in what an earlier (stub) row did not know."""
    row = redact_row("conversations", row)
    store.execute(
        "INSERT INTO conversations (id, format, source_path, title, parent_id, namespace, started_at, meta)"
        " VALUES (:id, :format, :source_path, :title, :parent_id, :namespace, :started_at, :meta)"
        " ON CONFLICT(id) DO UPDATE SET"
        "  format = excluded.format,"
        "  source_path = COALESCE(excluded.source_path, conversations.source_path),"
        "  title = COALESCE(excluded.title, conversations.title),"
        "  parent_id = COALESCE(excluded.parent_id, conversations.parent_id),"
        "  namespace = COALESCE(excluded.namespace, conversations.namespace),"
        "  started_at = COALESCE(conversations.started_at, excluded.started_at),"
        "  meta = CASE WHEN excluded.meta = '{}' THEN conversations.meta ELSE excluded.meta END",
        {**row, "meta": json.dumps(row.get("meta") or {}, ensure_ascii=False)},
    )


def ensure_conversation(store: Store, conversation_id: str, fmt: str) -> None:
    """A placeholder row (e.g. the parent session of a subagent file read first)."""
    store.execute(
        "INSERT OR IGNORE INTO conversations (id, format) VALUES (?, ?)", (conversation_id, fmt)
    )


def existing_turn_ids(store: Store, ids: Sequence[str]) -> set[str]:
    found: set[str] = set()
    for chunk in _chunks(list(ids)):
        marks = ",".join("?" * len(chunk))
        found.update(r[0] for r in store.query(f"SELECT id FROM turns WHERE id IN ({marks})", tuple(chunk)))
    return found


def next_seq(store: Store, conversation_id: str) -> int:
    row = store.query_one("SELECT MAX(seq) FROM turns WHERE conversation_id = ?", (conversation_id,))
    return 0 if row is None or row[0] is None else int(row[0]) + 1


def last_content(store: Store, conversation_id: str, before_seq: int | None = None) -> str | None:
    """The text of a conversation's last stored turn (before ``before_seq``): the context the
    next turns are masked in (a value given after "What is the password?")."""
    sql = "SELECT content FROM turns WHERE conversation_id = ?"
    params: tuple[Any, ...] = (conversation_id,)
    if before_seq is not None:
        sql += " AND seq < ?"
        params += (before_seq,)
    row = store.query_one(sql + " ORDER BY seq DESC LIMIT 1", params)
    return None if row is None else row[0]


def _masked_together(store: Store, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows with each conversation's turns masked together, in order, after its last stored
    turn (:func:`.redaction.redact_turns`); then every free-text column as usual."""
    groups: dict[str, list[int]] = {}
    for i, row in enumerate(rows):
        groups.setdefault(str(row.get("conversation_id")), []).append(i)
    out = list(rows)
    for conversation_id, indexes in groups.items():
        indexes.sort(key=lambda i: rows[i].get("seq") or 0)
        previous = last_content(store, conversation_id, rows[indexes[0]].get("seq"))
        masked = redact_turns([rows[i].get("content") or "" for i in indexes], previous)
        for i, content in zip(indexes, masked, strict=True):
            out[i] = redact_row("turns", {**rows[i], "content": content if rows[i].get("content") is not None else None})
    return out


def insert_turns(store: Store, rows: list[dict[str, Any]]) -> None:
    """Insert new turns in one statement batch (the caller holds the transaction)."""
    store.conn.executemany(
        "INSERT OR IGNORE INTO turns (id, conversation_id, seq, role, content, created_at, meta,"
        " extract_state, extract_mode, segment)"
        " VALUES (:id, :conversation_id, :seq, :role, :content, :created_at, :meta,"
        " :extract_state, :extract_mode, :segment)",
        [{**redacted, "meta": json.dumps(redacted.get("meta") or {}, ensure_ascii=False)}
         for redacted in _masked_together(store, rows)],
    )


def mark_compaction(store: Store, conversation_id: str, before_segment: int | None = None) -> int:
    """Send pending turns before a compaction boundary (or all pending ones) to the compaction pass."""
    sql = ("UPDATE turns SET extract_mode = 'compaction' WHERE conversation_id = ?"
           " AND extract_state IN ('pending', 'claimed') AND extract_mode = 'turn'")
    params: tuple[Any, ...] = (conversation_id,)
    if before_segment is not None:
        sql += " AND segment < ?"
        params += (before_segment,)
    return store.execute(sql, params).rowcount


def claim_owners(store: Store) -> list[str]:
    """Everyone holding turn claims now (to find claims whose process is gone)."""
    return [r[0] for r in store.query(
        "SELECT DISTINCT claimed_by FROM turns WHERE extract_state = 'claimed' AND claimed_by IS NOT NULL"
    )]


def pending_in(store: Store, conversation_ids: Sequence[str]) -> int:
    """Turns of these conversations still waiting for extraction (pending or claimed)."""
    total = 0
    for chunk in _chunks(list(conversation_ids)):
        row = store.query_one(
            f"SELECT COUNT(*) FROM turns WHERE extract_state IN ('pending', 'claimed')"
            f" AND conversation_id IN ({','.join('?' * len(chunk))})",
            tuple(chunk),
        )
        total += int(row[0]) if row else 0
    return total


def _orphaned(dead: Sequence[str], unknown: Sequence[str], stale_before: str, alias: str = "") -> tuple[str, list[Any]]:
    """SQL for a claim that may be taken over: its owner is gone, or cannot be checked from
    here and the claim is older than ``stale_before``."""
    parts: list[str] = []
    params: list[Any] = []
    if dead:
        parts.append(f"{alias}claimed_by IN ({','.join('?' * len(dead))})")
        params += list(dead)
    if unknown:
        parts.append(f"({alias}claimed_by IN ({','.join('?' * len(unknown))}) AND {alias}claimed_at < ?)")
        params += [*unknown, stale_before]
    if not parts:
        return "1 = 0", []  # false on both backends (PostgreSQL has no integer truth)
    return "(" + " OR ".join(parts) + ")", params


def claim_pending(
    store: Store,
    owner: str,
    now: str,
    stale_before: str,
    *,
    conversation_ids: Sequence[str] | None = None,
    max_turns: int = 1000,
    dead_owners: Sequence[str] = (),
    unknown_owners: Sequence[str] = (),
) -> list[dict[str, Any]]:
    """Claim whole conversations' pending turns (up to about ``max_turns``) for ``owner``.

    Whole conversations (or, for one longer than ``max_turns``, its oldest whole exchanges),
    so an exchange (a prompt and its reply) is never split between two workers. Claims of ``dead_owners`` (their process is gone) are taken over at once, those
    of ``unknown_owners`` (another host) once older than ``stale_before``; a live owner's
    claims are never taken, however long its extraction runs. Returns the claimed turns
    with their conversation's namespace, in order.
    """
    with store.transaction():
        orphan_sql, orphan_params = _orphaned(dead_owners, unknown_owners, stale_before, "t.")
        where = f"(t.extract_state = 'pending' OR (t.extract_state = 'claimed' AND {orphan_sql}))"
        params: list[Any] = list(orphan_params)
        if conversation_ids is not None:
            if not conversation_ids:
                return []
            where += f" AND t.conversation_id IN ({','.join('?' * len(conversation_ids))})"
            params += list(conversation_ids)
        counts = store.query(
            f"SELECT t.conversation_id, COUNT(*) AS n FROM turns t WHERE {where}"
            " GROUP BY t.conversation_id ORDER BY MIN(t.rowid) LIMIT 200",
            tuple(params),
        )
        chosen: list[str] = []
        total = 0
        for row in counts:
            if chosen and total + row["n"] > max_turns:
                break
            chosen.append(row["conversation_id"])
            total += row["n"]
        if not chosen:
            return []
        marks = ",".join("?" * len(chosen))
        orphan_sql, orphan_params = _orphaned(dead_owners, unknown_owners, stale_before)
        claim_where = (f"conversation_id IN ({marks}) AND (extract_state = 'pending'"
                       f" OR (extract_state = 'claimed' AND {orphan_sql}))")
        cut = _slice_end(store, where, params, chosen, counts[0]["n"], max_turns)
        if cut is not None:
            claim_where += " AND seq < ?"
        if store.backend == "postgresql":  # row locks, skipped rather than waited for
            from madohub_memory.store.pg.claims import claim_update

            update = claim_update(claim_where)
        else:
            update = f"UPDATE turns SET extract_state = 'claimed', claimed_by = ?, claimed_at = ? WHERE {claim_where}"
        store.execute(update, (owner, now, *chosen, *orphan_params, *(() if cut is None else (cut,))))
        rows = store.query(
            "SELECT t.id, t.conversation_id, t.seq, t.role, t.content, t.created_at, t.meta,"
            " t.extract_mode, t.segment, c.namespace FROM turns t JOIN conversations c"
            f" ON c.id = t.conversation_id WHERE t.conversation_id IN ({marks})"
            " AND t.extract_state = 'claimed' AND t.claimed_by = ? AND t.claimed_at = ?"
            " ORDER BY t.conversation_id, t.seq",
            (*chosen, owner, now),
        )
    return [dict(r) for r in rows]


def _slice_end(store: Store, where: str, params: list[Any], chosen: list[str], pending: int,
               max_turns: int) -> int | None:
    """For one conversation with more than ``max_turns`` pending turns (a 6,000-turn
    transcript): the seq of the first user turn after its first ``max_turns`` pending turns.

    A round then claims (and later finishes) about ``max_turns`` rows, never thousands in
    one write, and still whole exchanges: the cut is where a prompt starts.
    """
    if len(chosen) != 1 or pending <= max_turns:
        return None
    row = store.query_one(
        f"SELECT t.seq FROM turns t WHERE {where} AND t.conversation_id = ? ORDER BY t.seq LIMIT 1 OFFSET ?",
        (*params, chosen[0], max_turns),
    )
    if row is None:
        return None
    cut = store.query_one(
        "SELECT MIN(seq) FROM turns WHERE conversation_id = ? AND seq >= ? AND role = 'user'", (chosen[0], row[0]),
    )
    return None if cut is None or cut[0] is None else int(cut[0])


def finish_turns(store: Store, ids: Sequence[str], owner: str, state: str, now: str) -> int:
    """Mark claimed turns done (or failed); only the claim's owner can finish them."""
    changed = 0
    for chunk in _chunks(list(ids)):
        marks = ",".join("?" * len(chunk))
        changed += store.execute(
            f"UPDATE turns SET extract_state = ?, extracted_at = ?, claimed_by = NULL, claimed_at = NULL"
            f" WHERE id IN ({marks}) AND extract_state = 'claimed' AND claimed_by = ?",
            (state, now, *chunk, owner),
        ).rowcount
    return changed


def release_claims(store: Store, owner: str) -> int:
    """Give unfinished claims back (a worker stopping cleanly)."""
    return store.execute(
        "UPDATE turns SET extract_state = 'pending', claimed_by = NULL, claimed_at = NULL"
        " WHERE extract_state = 'claimed' AND claimed_by = ?",
        (owner,),
    ).rowcount


def count_by_state(store: Store) -> dict[str, int]:
    return {r[0]: r[1] for r in store.query("SELECT extract_state, COUNT(*) FROM turns GROUP BY extract_state")}


def last_exchange_ids(store: Store, conversation_id: str) -> list[str]:
    """The newest user turn of a conversation and everything after it."""
    row = store.query_one(
        "SELECT MAX(seq) FROM turns WHERE conversation_id = ? AND role = 'user'", (conversation_id,)
    )
    start = row[0] if row and row[0] is not None else 0
    return [r[0] for r in store.query(
        "SELECT id FROM turns WHERE conversation_id = ? AND seq >= ? ORDER BY seq", (conversation_id, start)
    )]


# -- file read positions ------------------------------------------------------------------


def get_file(store: Store, path: str) -> dict[str, Any] | None:
    row = store.query_one("SELECT * FROM ingest_files WHERE path = ?", (path,))
    if row is None:
        return None
    data = dict(row)
    data["state"] = json.loads(data["state"] or "{}")
    return data


def put_file(store: Store, row: dict[str, Any]) -> None:
    store.execute(
        "INSERT INTO ingest_files (path, format, size, mtime, head_hash, end_offset, end_line, turns, state,"
        " updated_at) VALUES (:path, :format, :size, :mtime, :head_hash, :end_offset, :end_line, :turns,"
        " :state, :updated_at) ON CONFLICT(path) DO UPDATE SET format = excluded.format,"
        " size = excluded.size, mtime = excluded.mtime, head_hash = excluded.head_hash,"
        " end_offset = excluded.end_offset, end_line = excluded.end_line, turns = excluded.turns,"
        " state = excluded.state, updated_at = excluded.updated_at",
        {**row, "state": json.dumps(row.get("state") or {})},
    )


def files(store: Store) -> list[dict[str, Any]]:
    return [dict(r) for r in store.query("SELECT * FROM ingest_files ORDER BY path")]
