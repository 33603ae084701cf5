"""Reading JSONL robustly: byte offsets, bounded line length, per-line errors.

A file is read from a byte offset so that a file that has grown since the last import is
read only from where the previous read stopped. A last line without a newline that does
not parse is reported as incomplete and not consumed (it is retried once the writer
finishes it). Lines longer than :data:`MAX_LINE_BYTES` are skipped with an error without
ever being held in memory whole.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from madohub_memory.ingest.model import LineError, ReadResult
from madohub_memory.ingest.sanitize import MAX_DEPTH, parse_json

MAX_LINE_BYTES = 8 * 1024 * 1024
INCOMPLETE_LINE = "incomplete last line"
_CHUNK = 1024 * 1024


@dataclass
class JsonLine:
    """One line: ``value`` when it parsed, else ``error``; ``end`` is the offset after it."""

    number: int
    value: Any
    error: str | None
    end: int


def iter_json_lines(path: str, start_offset: int = 0, start_line: int = 0) -> Iterator[JsonLine]:
    """Yield every non-blank line after ``start_offset`` (line numbers are 1-based)."""
    number = start_line
    with open(path, "rb") as handle:
        handle.seek(start_offset)
        offset = start_offset
        while True:
            raw = handle.readline(MAX_LINE_BYTES)
            if not raw:
                return
            number += 1
            if not raw.endswith(b"\n") and len(raw) >= MAX_LINE_BYTES:
                skipped = len(raw)
                while True:
                    chunk = handle.readline(_CHUNK)
                    skipped += len(chunk)
                    if not chunk or chunk.endswith(b"\n"):
                        break
                offset += skipped
                yield JsonLine(
                    number, None,
                    f"line is {skipped / 1e6:.1f} MB, over the {MAX_LINE_BYTES // 2**20} MiB limit; skipped",
                    offset,
                )
                continue
            complete = raw.endswith(b"\n")
            stripped = raw.strip()
            if not stripped:
                offset += len(raw)
                continue
            try:
                text = stripped.decode("utf-8").lstrip("\ufeff")
            except UnicodeDecodeError as exc:
                offset += len(raw)
                yield JsonLine(number, None, f"not valid UTF-8 (byte {exc.start})", offset)
                continue
            try:
                value = parse_json(text)  # a field nested too deep is dropped, the line kept
            except json.JSONDecodeError as exc:
                if not complete:
                    # A half-written last line: report it but do not move past it.
                    yield JsonLine(number, None, f"{INCOMPLETE_LINE} (no newline, not valid JSON)", offset)
                    return
                offset += len(raw)
                yield JsonLine(number, None, f"not valid JSON ({exc.msg})", offset)
                continue
            except (RecursionError, ValueError) as exc:
                offset += len(raw)
                reason = str(exc) if isinstance(exc, ValueError) else f"nested more than {MAX_DEPTH} levels deep"
                yield JsonLine(number, None, f"{reason}; skipped", offset)
                continue
            offset += len(raw)
            yield JsonLine(number, value, None, offset)


def first_json_char(path: str) -> str:
    """The first non-whitespace character of a file ('' when empty), for format sniffing."""
    with open(path, "rb") as handle:
        while True:
            chunk = handle.read(4096)
            if not chunk:
                return ""
            stripped = chunk.lstrip().removeprefix(b"\xef\xbb\xbf").lstrip()
            if stripped:
                return chr(stripped[0]) if stripped[0] < 128 else "?"


def peek_json_lines(path: str, limit: int = 20) -> list[Any]:
    """Parse the first few lines that are valid JSON objects (for format detection)."""
    found: list[Any] = []
    for line in iter_json_lines(path):
        if line.value is not None:
            found.append(line.value)
        if len(found) >= limit or line.number >= limit * 3:
            break
    return found


def read_records(result: ReadResult, start_offset: int, start_line: int,
                 record: Callable[[dict[str, Any], int], None]) -> None:
    """Feed every JSON-object line of ``result.path`` after ``start_offset`` to ``record``
    (value, line number), collecting per-line errors and where the next read starts. A
    malformed record costs its line, never the file."""
    path = result.path
    result.end_offset, result.end_line = start_offset, start_line
    for line in iter_json_lines(path, start_offset, start_line):
        result.lines_read += 1
        if line.error is not None:
            result.errors.append(LineError(path, line.number, line.error))
        elif not isinstance(line.value, dict):
            result.errors.append(LineError(path, line.number, "not a JSON object"))
        else:
            try:
                record(line.value, line.number)
            except Exception as exc:
                result.errors.append(LineError(path, line.number, f"unreadable record ({exc})"))
        if line.end != result.end_offset:
            result.end_offset, result.end_line = line.end, line.number
