"""SQL behind the dashboard's lazy review queue.

The Pending table holds only candidate ids; rows are fetched by id in small pages when
the view paints them. Filtering and sorting happen here in SQL so 100,000 pending
candidates never pass through Python as whole rows.
"""

from __future__ import annotations

from typing import Any

from madohub_memory.store.database import Store
from madohub_memory.store.redaction import redact_row
from madohub_memory.store.rows import by_ids

# Column key -> SQL expression used for ORDER BY (id breaks ties for a stable order).
SORT_EXPRESSIONS: dict[str, str] = {
    "content": "content COLLATE NOCASE",
    "kind": "kind",
    "namespace": "namespace",
    "source": "source",
    "confidence": "confidence",
    "seen_count": "seen_count",
    "created_at": "created_at",
    "flags": "flags",
}

# The whole text (at most 10,000 characters): the dashboard shows and edits a candidate from
# this row the instant it is selected, before its provenance has loaded.
ROW_COLUMNS = (
    "id, content, kind, namespace, source, confidence,"
    " seen_count, flags, created_at, updated_at"
)


def _where(
    *,
    kind: str | None,
    namespace: str | None,
    source: str | None,
    min_confidence: float,
    text: str | None,
) -> tuple[str, list[Any]]:
    clauses = ["status = 'pending'"]
    params: list[Any] = []
    if kind:
        clauses.append("kind = ?")
        params.append(kind)
    if namespace:
        clauses.append("namespace = ?")
        params.append(namespace)
    if source:
        clauses.append("source = ?")
        params.append(source)
    if min_confidence > 0:
        clauses.append("confidence >= ?")
        params.append(min_confidence)
    if text:
        escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        clauses.append("content LIKE ? ESCAPE '\\'")
        params.append(f"%{escaped}%")
    return " AND ".join(clauses), params


def pending_ids(
    store: Store,
    *,
    kind: str | None = None,
    namespace: str | None = None,
    source: str | None = None,
    min_confidence: float = 0.0,
    text: str | None = None,
    sort: str = "created_at",
    descending: bool = False,
) -> list[int]:
    """Ids of the pending candidates matching the filter, in display order."""
    where, params = _where(
        kind=kind, namespace=namespace, source=source, min_confidence=min_confidence, text=text
    )
    expr = SORT_EXPRESSIONS.get(sort, "created_at")
    direction = "DESC" if descending else "ASC"
    sql = f"SELECT id FROM candidates WHERE {where} ORDER BY {expr} {direction}, id {direction}"
    return [r[0] for r in store.conn.execute(sql, params)]


def rows_by_ids(store: Store, ids: list[int]) -> dict[int, dict[str, Any]]:
    """Table rows for the given candidate ids."""
    return by_ids(store, f"SELECT {ROW_COLUMNS}, status FROM candidates", "id", ids)


def pending_count(store: Store) -> int:
    row = store.query_one("SELECT COUNT(*) FROM candidates WHERE status = 'pending'")
    return int(row[0]) if row else 0


def totals(store: Store) -> dict[str, int]:
    """How much is stored at all: an empty database gets the first-run page."""
    row = store.query_one(
        "SELECT (SELECT COUNT(*) FROM candidates), (SELECT COUNT(*) FROM memories),"
        " (SELECT COUNT(*) FROM turns)"
    )
    return {"candidates": row[0], "memories": row[1], "turns": row[2]} if row else {}


def pending_namespaces(store: Store) -> list[str]:
    rows = store.query(
        "SELECT namespace FROM candidates WHERE status = 'pending'"
        " UNION SELECT namespace FROM memories WHERE status = 'active' ORDER BY 1"
    )
    return [r[0] for r in rows]


def sightings_with_turns(store: Store, candidate_id: int) -> list[dict[str, Any]]:
    """Each sighting of a candidate with a snippet of its originating turn, if stored, and
    when that turn was said (``said_at``: an imported session may be months older than the
    sighting)."""
    rows = store.query(
        "SELECT s.turn_id, s.source, s.confidence, s.actor, s.seen_at, t.created_at AS said_at,"
        " t.role, substr(t.content, 1, 240) AS snippet, t.conversation_id"
        " FROM candidate_sightings s LEFT JOIN turns t ON t.id = s.turn_id"
        " WHERE s.candidate_id = ? ORDER BY s.id",
        (candidate_id,),
    )
    return [dict(r) for r in rows]


def active_memories(store: Store, text: str | None = None) -> list[dict[str, Any]]:
    """Active memories for the Approved tab, with the first originating turn of each."""
    sql = (
        "SELECT m.id, m.candidate_id, m.content, m.kind, m.namespace, m.pinned, m.hit_count,"
        " m.last_hit_at, m.weight, m.created_at, m.updated_at,"
        " (SELECT s.turn_id FROM candidate_sightings s WHERE s.candidate_id = m.candidate_id"
        "  AND s.turn_id IS NOT NULL ORDER BY s.id LIMIT 1) AS first_turn"
        " FROM memories m WHERE m.status = 'active'"
    )
    params: list[Any] = []
    if text:
        escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        sql += " AND (m.content LIKE ? ESCAPE '\\' OR m.namespace LIKE ? ESCAPE '\\')"
        params += [f"%{escaped}%", f"%{escaped}%"]
    sql += " ORDER BY m.namespace, m.pinned DESC, m.id DESC"
    return [dict(r) for r in store.query(sql, params)]


def insert_bulk_pending(store: Store, rows: list[dict[str, Any]]) -> None:
    """Insert many pending candidates in one transaction (benchmarks and load tests only;
    real candidates go through ``services.review.submit`` and its dedup)."""
    with store.transaction():
        store.conn.executemany(
            "INSERT INTO candidates (content, kind, namespace, source, confidence, seen_count, flags,"
            " fingerprint, created_at, updated_at) VALUES (:content, :kind, :namespace, :source,"
            " :confidence, :seen_count, :flags, :fingerprint, :created_at, :updated_at)",
            [redact_row("candidates", r) for r in rows],
        )
