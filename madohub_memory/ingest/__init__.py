"""Transcript readers: Claude Code sessions, ChatGPT exports, plain JSONL, benchmark layouts.

Readers are pure parsing (no database): they turn a file into :class:`ParsedConversation`
objects whose turns carry stable ids derived from the source (record uuid, node id, or
file + line), plus per-line errors. :mod:`madohub_memory.services.ingest` stores them.
"""

from madohub_memory.ingest.detect import FORMATS, detect_format, expand_paths, read_file
from madohub_memory.ingest.model import LineError, ParsedConversation, ParsedTurn, ReadResult

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
