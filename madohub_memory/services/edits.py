"""Validating a person's edit of a candidate or memory (content, kind, namespace).

Edited text goes through the same cleaning and secret masking as a new candidate, so an
edit can never bring a secret into memory.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from madohub_memory.core.text import fingerprint, validate_content
from madohub_memory.core.vocab import validate_kind, validate_namespace

if TYPE_CHECKING:
    from madohub_memory.services import Services


def masked_content(text: str) -> str:
    """Cleaned, length-checked text with secrets masked."""
    from madohub_memory.extraction.flags import scan  # loaded to write text, not to list it

    return validate_content(scan(validate_content(text))[0])


def edit_values(
    svc: Services, content: str | None, kind: str | None, namespace: str | None
) -> dict[str, Any]:
    """The column values an edit changes (content also changes the fingerprint)."""
    values: dict[str, Any] = {}
    if content is not None:
        values["content"] = masked_content(content)
        values["fingerprint"] = fingerprint(values["content"])
    if kind:
        values["kind"] = validate_kind(kind)
    if namespace:
        values["namespace"] = validate_namespace(namespace, svc.settings.get("persona"))
        stays_in_store(svc, values["namespace"])
    return values


def stays_in_store(svc: Services, namespace: str) -> None:
    """With a store map, an edit keeps an entry in the store that holds its namespace."""
    if svc.mapped or svc.has_store_map():
        from madohub_memory.services.stores import keep_in_store

        keep_in_store(svc, namespace)
