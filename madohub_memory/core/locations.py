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
_USERINFO = re.compile(r"^(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*://)(?P<user>[^:@/?#]*):(?P<password>[^@/?#]*)@")
_PASSWORD_PARAM = re.compile(r"(?i)(?P<key>[?&;\s]password=)(?P<value>[^&;\s]*)")
_LABEL_UNSAFE = re.compile(r"[^a-z0-9_-]+")


def is_dsn(location: str | os.PathLike[str]) -> bool:
    """True for a PostgreSQL connection string (``postgresql://…``), False for a path."""
    return os.fspath(location).strip().lower().startswith(DSN_SCHEMES)


def display_location(location: str | os.PathLike[str] | None) -> str:
    """``location`` fit to print: a password in a URL (``user:password@``) or in a
    ``password=`` parameter becomes ``***``; a path is returned as it is."""
    if location is None:
        return ""
    text = os.fspath(location)
    text = _USERINFO.sub(lambda m: f"{m['scheme']}{m['user']}:***@", text, count=1)
    return _PASSWORD_PARAM.sub(lambda m: f"{m['key']}***", text)


def location_label(location: str | os.PathLike[str]) -> str:
    """A short name for a store, for ids such as ``team:12``: a file's stem
    (``/srv/team.db`` -> ``team``), a DSN's database name (``postgresql://db.lan/shop`` ->
    ``shop``), else its host. Lower case letters, digits, ``_`` and ``-`` only."""
    text = os.fspath(location).strip()
    if is_dsn(text):
        rest = text.split("://", 1)[1].split("?", 1)[0]
        host, _, database = rest.rpartition("@")[2].partition("/")
        name = database or host.split(":", 1)[0] or "server"
    else:
        name = PurePath(text).stem or "store"
    label = _LABEL_UNSAFE.sub("-", name.lower()).strip("-")
    return label or "store"
