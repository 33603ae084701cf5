"""Where the database lives when no ``--db`` is given (every front end asks here)."""

from __future__ import annotations

import os
from pathlib import Path


def default_db_path() -> Path:
    """``$MADOHUB_DB`` or ``<user data dir>/madohub-memory/memory.db``."""
    env = os.environ.get("MADOHUB_DB")
    if env:
        return Path(env).expanduser()
    import platformdirs  # only when the variable is unset (start-up time of the hook)

    return Path(platformdirs.user_data_dir("madohub-memory", appauthor=False)) / "memory.db"
