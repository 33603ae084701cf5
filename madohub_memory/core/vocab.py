"""The closed vocabularies of DESIGN.md and their validators.

Nothing free-form is accepted for a kind, a source, a status or an actor; the store
repeats these rules as CHECK constraints so a bug elsewhere cannot slip a bad value in.
"""

from __future__ import annotations

from typing import Final

from madohub_memory.core.errors import ValidationError, shown
from madohub_memory.core.lazy_re import lazy_compile

KINDS: Final = ("preference", "fact", "decision", "pattern", "postmortem", "event")
SOURCES: Final = ("remember", "turn", "compaction", "manual")
CANDIDATE_STATUSES: Final = ("pending", "approved", "rejected", "archived")
MEMORY_STATUSES: Final = ("active", "deprecated", "archived")
ACTORS: Final = ("human", "auto", "agent")
FLAGS: Final = ("secret", "pii", "instruction")
ROLES: Final = ("user", "assistant", "tool", "system")

MAX_CONTENT_CHARS: Final = 10_000
DEFAULT_PERSONA: Final = "default"

_NAMESPACE_RE = lazy_compile(r"^(persona|workspace):(\S(?:.*\S)?)$")


def validate_kind(kind: str) -> str:
    """Return ``kind`` normalised to lower case, or raise with the list of allowed kinds."""
    value = (kind or "").strip().lower()
    if value not in KINDS:
        raise ValidationError(
            "Unknown kind {kind}: use one of {choices}.", kind=shown(kind), choices=', '.join(KINDS),
        )
    return value


def validate_source(source: str) -> str:
    if source not in SOURCES:
        raise ValidationError(
            "Unknown source {source}: use one of {choices}.",
            source=shown(source), choices=', '.join(SOURCES),
        )
    return source


def validate_actor(actor: str) -> str:
    if actor not in ACTORS:
        raise ValidationError(
            "Unknown actor {actor}: use one of {choices}.", actor=shown(actor), choices=', '.join(ACTORS),
        )
    return actor


def validate_namespace(namespace: str | None, persona: str = DEFAULT_PERSONA) -> str:
    """Return a valid namespace; ``None`` or empty means the active persona.

    Accepted forms are ``persona:<name>`` and ``workspace:<project>``, with a name that is
    not empty and has no leading or trailing whitespace.
    """
    if namespace is None or not namespace.strip():
        return f"persona:{persona}"
    value = namespace.strip()
    match = _NAMESPACE_RE.match(value)
    if not match or "\n" in value:
        raise ValidationError(
            "Malformed namespace {namespace}: use persona:<name> or workspace:<project>.",
            namespace=shown(namespace),
        )
    return value


def validate_confidence(confidence: float) -> float:
    try:
        value = float(confidence)
    except (TypeError, ValueError):
        raise ValidationError(
            "Confidence {confidence} is not a number between 0 and 1.", confidence=shown(confidence),
        ) from None
    if not 0.0 <= value <= 1.0:
        raise ValidationError(
            "Confidence {confidence} must be between 0 and 1.", confidence=shown(confidence),
        )
    return value


def validate_flags(flags: list[str] | tuple[str, ...] | set[str]) -> tuple[str, ...]:
    unknown = sorted(set(flags) - set(FLAGS))
    if unknown:
        raise ValidationError(
            "Unknown flag {flag}: use one of {choices}.", flag=shown(unknown[0]), choices=', '.join(FLAGS),
        )
    return tuple(f for f in FLAGS if f in flags)
