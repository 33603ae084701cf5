"""Which project a working directory belongs to, with the user's folder mapping applied.

Every place that turns a cwd into a ``workspace:`` (the transcript reader, the hook,
decision capture) goes through here or passes the same ``workspace.map`` setting, so a
mapping set in the dashboard or with ``settings set workspace.map`` applies everywhere.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from madohub_memory.ingest.workspace import is_project_folder, project_name

if TYPE_CHECKING:
    from madohub_memory.services import Services


def resolver(svc: Services) -> Callable[[str], str | None]:
    """A cwd -> project name function that reads the mapping setting once."""
    mapping = dict(svc.settings.get("workspace.map") or {})
    return lambda cwd: project_name(cwd, mapping)


def project_for(svc: Services, cwd: str) -> str | None:
    """The project name of ``cwd`` (mapping, then repository, then folder name)."""
    return resolver(svc)(cwd)


def namespace_for(svc: Services, cwd: str) -> str | None:
    """``workspace:<project>`` for ``cwd``, or None for an empty or root path."""
    name = project_for(svc, cwd)
    return f"workspace:{name}" if name else None


def project_namespace(svc: Services | None, cwd: str) -> str | None:
    """``workspace:<project>`` for a folder that is a project (mapped, or inside a repository);
    None for any other folder, where the folder name would be a guess. Without ``svc`` (no
    database yet) the user's mapping is not known and only a repository counts."""
    mapping = dict(svc.settings.get("workspace.map") or {}) if svc is not None else {}
    if not is_project_folder(cwd, mapping):
        return None
    name = project_name(cwd, mapping)
    return f"workspace:{name}" if name else None
