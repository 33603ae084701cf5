"""Telling a server address from a file path, and printing one without its password.

Accepted server addresses: ``postgresql://`` and ``postgres://`` URLs, and libpq's
``service=NAME`` (a section of ``~/.pg_service.conf``, which can hold the host, the user and
``sslmode=verify-full``). Everything else is a file path. A password never belongs in an
address typed on a command line (shell history, ``ps``): it lives in ``PGPASSFILE``
(``~/.pgpass``) or the service file. Whatever is printed (errors, logs, ``doctor``, the
dashboard) goes through :func:`redact` first.

No psycopg import here: every command calls :func:`is_dsn` on its ``--db``.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, unquote, urlsplit

from madohub_memory.core.locations import is_dsn, redact

_URL = re.compile(r"^(postgres|postgresql)://", re.IGNORECASE)
_PARAM_PASSWORD = re.compile(r"\bpassword\s*=", re.IGNORECASE)

__all__ = ["database_name", "display_name", "has_password", "is_dsn", "redact"]  # one home: core.locations


def has_password(dsn: str) -> bool:
    """Whether the address itself carries a password (user:secret@ or password=...)."""
    if _URL.match(dsn):
        parts = urlsplit(dsn)
        if parts.password is not None:
            return True
        return any(k.lower() == "password" for k, _ in parse_qsl(parts.query, keep_blank_values=True))
    return _PARAM_PASSWORD.search(dsn) is not None


def display_name(dsn: str) -> str:
    """What the dashboard title and messages call the database: the address, password masked."""
    return redact(dsn.strip())


def database_name(dsn: str) -> str:
    """The database part of a URL (``postgresql://host/team`` -> ``team``), else the address."""
    if _URL.match(dsn):
        path = urlsplit(dsn).path.lstrip("/")
        return unquote(path) or redact(dsn)
    return redact(dsn)
