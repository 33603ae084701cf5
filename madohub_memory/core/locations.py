"""Where a store lives, said safely: a file path or a ``postgresql://`` DSN.

A store's location is printed in messages, logs and the dashboard; a DSN may carry a
password (``postgresql://wei:secret@db.lan/memory``), so every place that shows a location
goes through :func:`display_location`, which masks it. Pure string work: nothing here
touches the file system or the network (a DSN is not a path to stat).
"""

from __future__ import annotations

import os
import re
from pathlib import PurePath

DSN_SCHEMES = ("postgresql://", "postgres://")
_URL = re.compile(r"^(postgres|postgresql)://", re.IGNORECASE)
_SERVICE = re.compile(r"^\s*service\s*=\s*\S+", re.IGNORECASE)
_USERINFO_PASSWORD = re.compile(r"(?P<head>(?:postgres|postgresql)://[^:/@\s]*):(?P<secret>[^@\s]*)@", re.IGNORECASE)
_PARAM_PASSWORD = re.compile(r"(?P<head>\bpassword\s*=\s*)(?P<secret>'(?:[^'\\]|\\.)*'|[^\s&]+)", re.IGNORECASE)
_LABEL_UNSAFE = re.compile(r"[^a-z0-9_-]+")


def is_dsn(location: str | os.PathLike[str]) -> bool:
    """True for a PostgreSQL server address (``postgresql://…``, ``postgres://…``, libpq's
    ``service=NAME``), False for a database file path."""
    text = os.fspath(location)
    return bool(_URL.match(text.strip()) or _SERVICE.match(text))


def redact(text: str) -> str:
    """``text`` with every password of a PostgreSQL address in it replaced by ``***``."""
    text = _USERINFO_PASSWORD.sub(lambda m: f"{m.group('head')}:***@", text)
    return _PARAM_PASSWORD.sub(lambda m: f"{m.group('head')}***", text)


def display_location(location: str | os.PathLike[str] | None) -> str:
    """``location`` fit to print: a password in a URL (``user:password@``) or in a
    ``password=`` parameter becomes ``***``; a path is returned as it is."""
    return "" if location is None else redact(os.fspath(location))


def location_label(location: str | os.PathLike[str]) -> str:
    """A short name for a store, for ids such as ``team:12``: a file's stem
    (``/srv/team.db`` -> ``team``), a DSN's database name (``postgresql://db.lan/shop`` ->
    ``shop``), else its host. Lower case letters, digits, ``_`` and ``-`` only."""
    text = os.fspath(location).strip()
    if _SERVICE.match(text):
        name = text.split("=", 1)[1].split()[0]
    elif is_dsn(text):
        rest = text.split("://", 1)[1].split("?", 1)[0]
        host, _, database = rest.rpartition("@")[2].partition("/")
        name = database or host.split(":", 1)[0] or "server"
    else:
        name = PurePath(text).stem or "store"
    label = _LABEL_UNSAFE.sub("-", name.lower()).strip("-")
    return label or "store"
