"""Finding transcript files under the given paths and telling their format apart.

``.json`` files are whole documents (ChatGPT export, LoCoMo, LongMemEval); other files are
sniffed line by line (Claude Code envelope, Codex rollout, or plain ``{role, content}``). A file that
cannot be read as any of them is a per-file error, never a crash.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterable
from typing import Any

from madohub_memory.agents.claude_code.transcript import looks_like_claude_code, read_claude_code
from madohub_memory.agents.codex.rollout import looks_like_codex, read_codex
from madohub_memory.core.errors import UserError
from madohub_memory.ingest import benchmarks, chatgpt
from madohub_memory.ingest.jsonl import looks_like_plain, read_plain_jsonl
from madohub_memory.ingest.lines import first_json_char, peek_json_lines
from madohub_memory.ingest.model import LineError, ReadResult
from madohub_memory.ingest.sanitize import MAX_DEPTH, Rejected, parse_document

FORMATS = ("auto", "claude-code", "codex", "chatgpt", "jsonl", "locomo", "longmemeval")
LINE_FORMATS = ("claude-code", "codex", "jsonl")  # formats read incrementally from a byte offset
_SUFFIXES = (".jsonl", ".json", ".ndjson")


def validate_format(name: str) -> str:
    value = (name or "auto").strip().lower().replace("_", "-")
    aliases = {"claude": "claude-code", "claudecode": "claude-code", "lme": "longmemeval", "codex-cli": "codex",
               "openai-codex": "codex"}
    value = aliases.get(value, value)
    if value not in FORMATS:
        raise UserError(
            "Unknown format {name!r}: use one of {choices}.", name=name, choices=', '.join(FORMATS),
        )
    return value


def expand_paths(paths: Iterable[str]) -> tuple[list[str], list[LineError]]:
    """Files to read (directories walked for .jsonl/.json files) and per-path errors."""
    files: list[str] = []
    errors: list[LineError] = []
    for raw in paths:
        path = os.path.expanduser(str(raw))
        if os.path.isdir(path):
            found = []
            for root, dirs, names in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                # A session file before its subagents so the parent exists first.
                for name in sorted(names):
                    if not name.lower().endswith(_SUFFIXES):
                        continue
                    full = os.path.join(root, name)
                    if _is_regular(full):
                        found.append(full)
                    else:  # a pipe would block the import forever, a device never ends
                        errors.append(LineError(full, None, "not a regular file (a pipe, a device or a socket); skipped"))
            if not found:
                errors.append(LineError(path, None, "directory contains no transcript files (.jsonl or .json)"))
            files.extend(found)
        elif os.path.isfile(path):
            files.append(path)
        elif os.path.exists(path):
            errors.append(LineError(path, None, "not a regular file"))
        else:
            errors.append(LineError(path, None, "file not found"))
    return files, errors


def _json_array(path: str) -> bool:
    """A file that starts with ``[`` and has no line that is a JSON object: one JSON array
    (a JSONL file whose first line is a broken array still has objects on its other lines)."""
    return not any(isinstance(r, dict) for r in peek_json_lines(path))


def _is_regular(path: str) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def _load_json(path: str) -> Any:
    try:
        with open(path, encoding="utf-8-sig") as handle:
            text = handle.read()
        return parse_document(text)  # a field nested too deep is dropped, the rest kept
    except UnicodeDecodeError as exc:
        raise UserError("not valid UTF-8 (byte {start})", start=exc.start) from None
    except json.JSONDecodeError as exc:
        raise UserError("not valid JSON at line {lineno} ({msg})", lineno=exc.lineno, msg=exc.msg) from None
    except RecursionError:  # not reached (parse_document cuts what is too deep): a guard
        raise UserError("JSON nested more than {depth} levels deep", depth=MAX_DEPTH) from None


def detect_format(path: str) -> str:
    """The format of one file; raises :class:`UserError` (one sentence) when unknown."""
    first = first_json_char(path)
    if not first:
        raise UserError("file is empty")
    if path.lower().endswith(".json") or (first == "[" and _json_array(path)):
        if path.lower().endswith(".jsonl") and first == "[":
            raise UserError("contains a JSON array, but JSONL (one JSON object per line) was expected")
        return _json_format(_load_json(path))
    # A field of the wrong type (a "type" that is a list) must not break the sniffing.
    records = [r for r in peek_json_lines(path) if isinstance(r, dict) and isinstance(r.get("type", ""), str)]
    if looks_like_claude_code(records):
        return "claude-code"
    if looks_like_codex(records):
        return "codex"
    if looks_like_plain(records):
        return "jsonl"
    if first == "{" and not records:
        raise UserError("no line is a valid JSON object")
    raise UserError("not a known transcript format (Claude Code session, Codex rollout, ChatGPT export or "
                    "{role, content} JSONL)")


def _usable(data: Any) -> Any:
    """The elements format checks look at: those that were not rejected while cleaning."""
    return [x for x in data if not isinstance(x, Rejected)] if isinstance(data, list) else data


def _json_format(data: Any) -> str:
    data = _usable(data)
    if chatgpt.looks_like_chatgpt(data):
        return "chatgpt"
    if benchmarks.looks_like_locomo(data):
        return "locomo"
    if benchmarks.looks_like_longmemeval(data):
        return "longmemeval"
    if isinstance(data, list):
        raise UserError("is a JSON array of unknown records, not a ChatGPT export or JSONL transcript")
    raise UserError("is a JSON document of unknown layout")


def read_file(
    path: str, fmt: str, start_offset: int = 0, start_line: int = 0, state: dict[str, Any] | None = None,
    workspace_map: dict[str, str] | None = None,
) -> ReadResult:
    """Read one file in a known format (not ``auto``); raises :class:`UserError` for file-level errors."""
    if fmt in LINE_FORMATS:
        if first_json_char(path) == "[" and _json_array(path):
            raise UserError("contains a JSON array, but JSONL (one JSON object per line) was expected")
        if fmt == "claude-code":
            return read_claude_code(path, start_offset, start_line, state, workspace_map)
        if fmt == "codex":
            return read_codex(path, start_offset, start_line, state, workspace_map)
        return read_plain_jsonl(path, start_offset, start_line, state)
    data = _load_json(path)
    parse = {"chatgpt": chatgpt.parse_chatgpt, "locomo": benchmarks.parse_locomo,
             "longmemeval": benchmarks.parse_longmemeval}[fmt]
    checks = {"chatgpt": chatgpt.looks_like_chatgpt, "locomo": benchmarks.looks_like_locomo,
              "longmemeval": benchmarks.looks_like_longmemeval}
    if not checks[fmt](_usable(data)):
        raise UserError("is not a {fmt} file", fmt=fmt)
    return parse(path, data)
