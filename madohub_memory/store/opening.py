"""One entry point for opening the store: a file path gives SQLite, a server address PostgreSQL.

Every front end (CLI, MCP server, workers, hook, dashboard) opens its database through
:func:`open_store` (via ``Services.open``), so ``--db`` and ``$MADOHUB_DB`` accept either.
"""

from __future__ import annotations

import os

from madohub_memory.core.errors import StorageError
from madohub_memory.core.locations import is_dsn, redact
from madohub_memory.store.database import Store


def open_store(
    target: str | os.PathLike[str], *, migrate_schema: bool = True, create: bool = True, check: bool = True,
) -> Store:
    """The database at ``target``: a SQLite file, or a PostgreSQL server (``postgresql://…``,
    ``postgres://…``, ``service=NAME``)."""
    if is_dsn(target):
        try:
            from madohub_memory.store.pg.store import PgStore
        except ImportError:
            raise StorageError(
                "{path} is a PostgreSQL server, and its driver is not installed: pip install"
                " 'madohub-memory[postgres]'.", path=redact(os.fspath(target)),
            ) from None
        return PgStore(os.fspath(target), migrate_schema=migrate_schema, create=create, check=check)
    return Store(target, migrate_schema=migrate_schema, create=create, check=check)
