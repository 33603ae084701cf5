"""SQL behind the dashboard's Approved list (ids by filter and sort, rows by id).

Like the Pending queue, the list holds only ids; rows are fetched by id when painted, so
100,000 memories never pass through Python as whole rows.
"""

from __future__ import annotations

from typing import Any

from madohub_memory.store.database import Store
from madohub_memory.store.rows import by_ids

# Column key -> ORDER BY expression; ``id`` breaks ties for a stable order. Never-recalled
# memories sort as the oldest recall.
MEMORY_SORTS: dict[str, str] = {
    "content": "m.content COLLATE NOCASE",
    "kind": "m.kind",
    "namespace": "m.namespace",
    "pinned": "m.pinned",
    "hit_count": "m.hit_count",
    "last_hit_at": "COALESCE(m.last_hit_at, '')",
    "created_at": "m.created_at",
    "auto": "m.id",
    # when it left the list: its newest archive by a person or by the decay (archived lists)
    "archived_at": "(SELECT MAX(h.id) FROM history h WHERE h.entity = 'memory' AND h.entity_id = CAST(m.id AS TEXT)"
                   " AND h.action IN ('archive', 'evict', 'archived'))",
}
STATUSES = ("active", "archived")  # what the Approved list can show

ROW_SQL = (
    "SELECT m.id, m.candidate_id, m.content, m.kind, m.namespace, m.pinned, m.hit_count,"
    " m.last_hit_at, m.weight, m.created_at, m.updated_at, m.approved_by, m.edited_by, m.edited_at,"
    " (SELECT s.turn_id FROM candidate_sightings s WHERE s.candidate_id = m.candidate_id"
    "  AND s.turn_id IS NOT NULL ORDER BY s.id LIMIT 1) AS first_turn,"
    " EXISTS (SELECT 1 FROM history h WHERE h.entity = 'memory' AND h.entity_id = CAST(m.id AS TEXT)"
    "  AND h.action = 'create' AND h.actor = 'auto') AS auto"
    " FROM memories m"
)


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def memory_ids(
    store: Store, *, text: str | None = None, namespace: str | None = None,
    sort: str = "namespace", descending: bool = False, status: str = "active",
) -> list[int]:
    """Ids of the memories with ``status`` (active or archived) matching the filter, in display order."""
    clauses = ["m.status = ?"]
    params: list[Any] = [status]
    if namespace:
        clauses.append("m.namespace = ?")
        params.append(namespace)
    if text:
        clauses.append("(m.content LIKE ? ESCAPE '\\' OR m.namespace LIKE ? ESCAPE '\\')")
        params += [f"%{_escape(text)}%", f"%{_escape(text)}%"]
    expr = MEMORY_SORTS.get(sort, "m.namespace")
    direction = "DESC" if descending else "ASC"
    order = f"{expr} {direction}, m.pinned DESC, m.id DESC" if sort == "namespace" else f"{expr} {direction}, m.id {direction}"
    sql = f"SELECT m.id FROM memories m WHERE {' AND '.join(clauses)} ORDER BY {order}"
    return [r[0] for r in store.conn.execute(sql, params)]


def memory_rows(store: Store, ids: list[int]) -> dict[int, dict[str, Any]]:
    """Rows for the Approved list (whole text, first originating turn, auto-approved mark)."""
    return by_ids(store, ROW_SQL, "m.id", ids)


def count(store: Store, status: str = "active") -> int:
    """How many memories have ``status`` (active by default)."""
    row = store.query_one("SELECT COUNT(*) FROM memories WHERE status = ?", (status,))
    return int(row[0]) if row else 0


def namespace_counts(store: Store, status: str = "active") -> list[tuple[str, int]]:
    rows = store.query(
        "SELECT namespace, COUNT(*) FROM memories WHERE status = ? GROUP BY namespace ORDER BY namespace", (status,)
    )
    return [(r[0], int(r[1])) for r in rows]


def statuses(store: Store, ids: list[int]) -> dict[int, str]:
    """The status of each memory of ``ids`` that still exists."""
    out: dict[int, str] = {}
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        rows = store.query(f"SELECT id, status FROM memories WHERE id IN ({', '.join('?' * len(chunk))})", chunk)
        out.update((int(r[0]), str(r[1])) for r in rows)
    return out


def insert_bulk_memories(store: Store, rows: list[dict[str, Any]]) -> None:
    """Insert many active memories in one transaction (benchmarks only; real memories come
    from ``services.review.approve``)."""
    with store.transaction():
        store.conn.executemany(
            "INSERT INTO memories (content, kind, namespace, fingerprint, hit_count, last_hit_at,"
            " created_at, updated_at) VALUES (:content, :kind, :namespace, :fingerprint, :hit_count,"
            " :last_hit_at, :created_at, :updated_at)",
            rows,
        )
