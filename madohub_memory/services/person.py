"""The person behind this process's changes (``history.person``, "approved by wei").

Kept apart from ``Services.origin``, the actor *instance* (one window, the CLI, one MCP
session) that undo is scoped to: one person may run several instances, and on a shared
server several people write to one database.

Resolution, first that gives a name:

1. the name passed to ``Services`` (tests, embedding programs);
2. ``$MADOHUB_USER`` (one process or one machine, like ``GIT_AUTHOR_NAME``);
3. the ``user.name`` setting, for a local file only: settings live in the database, so on
   a shared server that setting would name everyone;
4. the backend's default (:func:`madohub_memory.store.identity.default_person`): the OS login
   for a local file, the database role on a server.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from madohub_memory.store.identity import backend_names_person, clean_person, default_person

if TYPE_CHECKING:
    from madohub_memory.services import Services

ENV = "MADOHUB_USER"


def resolve_person(svc: Services) -> str | None:
    """Who is making changes through ``svc`` now (``None`` when nothing names anyone)."""
    if svc.person_override:
        return svc.person_override
    configured = clean_person(os.environ.get(ENV))
    if configured:
        return configured
    if not backend_names_person(svc.store):
        configured = clean_person(svc.settings.get("user.name"))
        if configured:
            return configured
    return default_person(svc.store)
