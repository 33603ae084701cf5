"""Where the database lives when no ``--db`` is given (every front end asks here)."""

from __future__ import annotations

import os
from pathlib import Path


def is_server_address(text: str) -> bool:
    """A PostgreSQL server address (``postgresql://``, ``postgres://``, ``service=``), not a file."""
    head = text.lstrip().lower()
    return head.startswith(("postgresql://", "postgres://", "service="))


def as_database(target: str | os.PathLike[str]) -> str | Path:
    """``target`` as a path, or as the string it is when it names a PostgreSQL server."""
    text = os.fspath(target)
    return text if is_server_address(text) else Path(target)


def default_database() -> str | Path:
    """What to open when no ``--db`` is given: ``$MADOHUB_DB`` as written when it names a
    PostgreSQL server (``Path`` would fold its ``//``), else :func:`default_db_path`."""
    env = os.environ.get("MADOHUB_DB")
    if env and is_server_address(env):
        return env
    return default_db_path()


def default_db_path() -> Path:
    """The database file: ``$MADOHUB_DB`` or ``<user data dir>/madohub-memory/memory.db``
    (also where side files such as the hook's log go when ``$MADOHUB_DB`` names a server)."""
    env = os.environ.get("MADOHUB_DB")
    if env and not is_server_address(env):
        return Path(env).expanduser()
    import platformdirs  # only when the variable is unset (start-up time of the hook)

    return Path(platformdirs.user_data_dir("madohub-memory", appauthor=False)) / "memory.db"
