"""Who is writing, as the storage backend knows it: the hook for a backend's default person.

A change is recorded with the person who made it (``history.person``). When no name is
configured (``$MADOHUB_USER``, the ``user.name`` setting), the backend says who it is:
a local SQLite file belongs to the OS account that opened it, so its default is the login
name; a server backend names the database role it is connected as. A backend's store
class supplies its own answer by defining ``default_person()`` (the PostgreSQL store:
``SELECT current_user``); :func:`default_person` asks it first.
"""

from __future__ import annotations

from typing import Any

MAX_PERSON_CHARS = 64


def clean_person(value: Any) -> str | None:
    """A name as it is stored: one line, trimmed, at most 64 characters; ``None`` for nothing."""
    if value is None:
        return None
    text = " ".join(str(value).split())[:MAX_PERSON_CHARS].strip()
    return text or None


def os_login() -> str | None:
    """The OS login name, or ``None`` where there is none (a container without a passwd
    entry makes ``getpass.getuser`` raise)."""
    import getpass

    try:
        return clean_person(getpass.getuser())
    except Exception:  # KeyError, OSError, ImportError (pwd) on odd systems
        return None


def backend_names_person(store: Any) -> bool:
    """True when the backend itself knows who is connected (a server's database role)."""
    return callable(getattr(store, "default_person", None))


def default_person(store: Any) -> str | None:
    """The person a change is recorded for when none is configured: the backend's own
    answer (its ``default_person()``: the database role on a server), else the OS login."""
    own = getattr(store, "default_person", None)
    if callable(own):
        return clean_person(own())
    return os_login()
