"""Transcript readers: Claude Code sessions, ChatGPT exports, plain JSONL, benchmark layouts.

Readers are pure parsing (no database): they turn a file into :class:`ParsedConversation`
objects whose turns carry stable ids derived from the source (record uuid, node id, or
file + line), plus per-line errors. :mod:`madohub_memory.services.ingest` stores them.
"""

from __future__ import annotations

from typing import Any

from madohub_memory.ingest.model import LineError, ParsedConversation, ParsedTurn, ReadResult

# The format detector reads through the agents' session readers, which themselves use this
# package's parsing helpers (``ingest.sanitize``): importing it eagerly here would make
# ``import madohub_memory.agents.codex.rollout`` (first) meet a half-initialised module.
_DETECT_NAMES = frozenset({"FORMATS", "detect_format", "expand_paths", "read_file"})


def __getattr__(name: str) -> Any:
    if name in _DETECT_NAMES:
        from madohub_memory.ingest import detect

        return getattr(detect, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "FORMATS",
    "LineError",
    "ParsedConversation",
    "ParsedTurn",
    "ReadResult",
    "detect_format",
    "expand_paths",
    "read_file",
]
