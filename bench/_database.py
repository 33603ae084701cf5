"""Where a bench keeps its data: a file in a temporary folder (the default), a PostgreSQL
server given by address (``--db postgresql://…``, an empty database), or ``--db pg``: a
throwaway server started for the run (``scripts/pg_cluster.py``, as the tests do)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

HELP = "database: a file (default, temporary), a postgresql:// address of an empty database, or 'pg' for a throwaway server"


@contextmanager
def bench_database(choice: str | None, folder: Path, name: str) -> Iterator[str | Path]:
    if not choice:
        yield folder / name
        return
    if choice != "pg":
        yield choice
        return
    from pg_cluster import PgCluster

    with PgCluster() as cluster:
        yield cluster.create_database("bench")


def size_mb(svc: object, target: str | Path) -> float:
    """The database's size on disk in MB (a server database: ``pg_database_size``)."""
    if isinstance(target, Path):
        return round(target.stat().st_size / 1e6, 1)
    store = svc.store  # type: ignore[attr-defined]
    return round(int(store.scalar("SELECT pg_database_size(current_database())")) / 1e6, 1)
