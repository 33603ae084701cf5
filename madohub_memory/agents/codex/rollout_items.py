"""The pieces of a Codex rollout record, in the form the Claude Code reader gives turns.

Why the same form: the offline extractor reads tool activity from the turn text (an
assistant turn lists its calls as ``[tool NAME] input`` lines; a ``tool`` turn holds
``[tool result] …`` or ``[tool error] …``), so a Codex session rendered this way goes
through the same extraction rules as a Claude Code session. Codex's shell tools
(``exec_command``, ``shell``, ``shell_command``, ``local_shell_call``, ``container.exec``)
all run a command line: they are written ``[tool shell] <command>``, the name the
extractor's command rules know. Tool output carries a header whose layout changed between
CLI versions (0.4x: a JSON object with ``metadata.exit_code``; 0.171: ``Process exited
with code N`` … ``Output:``); only the output and whether the command failed are kept.

Pure functions of the decoded JSON: no I/O.
"""

from __future__ import annotations

import json
import re
import shlex
from typing import Any

from madohub_memory.agents.remember_calls import queued_candidate
from madohub_memory.core.text import clean_text
from madohub_memory.ingest.sanitize import parse_json

TOOL_INPUT_CHARS = 200
TOOL_RESULT_CHARS = 300
ANSWER_CHARS = 2000
SHELL_TOOLS = frozenset({"exec_command", "shell", "shell_command", "container.exec", "local_shell", "unified_exec"})
_EXIT = re.compile(r"^(?:Process exited with code|Exit code:?)\s*(-?\d+)\s*$", re.M)
_OUTPUT_MARK = re.compile(r"^Output:\s*\n", re.M)
_HEADER_LINE = re.compile(
    r"^(?:Chunk ID|Wall time|Process exited with code|Process running with session ID|Original token count"
    r"|Exit code|Total output lines)\b.*$")
_PATCH_FILE = re.compile(r"^\*\*\* (?:Add|Update|Delete) File: (.+)$", re.M)
# A message Codex writes into the conversation itself, not typed by the person:
# <environment_context>, <user_instructions>, <turn_aborted>, <user_shell_command>, …
_ENVELOPE = re.compile(r"^\s*<([a-z][a-z0-9_-]*)(?:\s[^>]*)?>[\s\S]*</\1>\s*$")
_MACHINE_PREFIXES = ("# AGENTS.md instructions", "<INSTRUCTIONS>", "<environment_context>", "<user_instructions>",
                     "<permissions instructions>", "<skills_instructions>", "<collaboration_mode>")
# Prepended by Codex (0.171) to the summary of a local compaction; the summary follows it.
HANDOFF_PREFIX = re.compile(
    r"^Another language model started to solve this problem and produced a summary of its thinking process\."
    r"[\s\S]*?use the information in this summary to assist with your own analysis:\s*")


def short(text: str, limit: int) -> str:
    """``text`` on one line, cut to ``limit`` characters with an ellipsis."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def machine_text(text: str) -> bool:
    """Written by the CLI (context, instructions, notices), not by the person."""
    stripped = text.lstrip()
    return stripped.startswith(_MACHINE_PREFIXES) or bool(_ENVELOPE.match(text))


def typed_by_user(part: dict[str, Any], index: int, payload: dict[str, Any]) -> bool | None:
    """What the CLI says about who wrote a content part (0.171 ``content_item_metadata``):
    True for the person, False for the harness, None when the file does not say."""
    meta = payload.get("internal_chat_message_metadata_passthrough")
    items = meta.get("content_item_metadata") if isinstance(meta, dict) else None
    if not isinstance(items, list) or index >= len(items) or not isinstance(items[index], dict):
        return None
    provenance = items[index].get("provenance")
    kind = provenance.get("type") if isinstance(provenance, dict) else None
    return None if kind is None else kind == "user"


def message_texts(payload: dict[str, Any], *, user: bool) -> list[str]:
    """The text parts of a ``message`` item; for a user message only what the person typed."""
    content = payload.get("content")
    if isinstance(content, str):
        content = [{"type": "input_text", "text": content}]
    if not isinstance(content, list):
        return []
    texts: list[str] = []
    for index, part in enumerate(content):
        if not isinstance(part, dict) or not isinstance(part.get("text"), str):
            continue
        text = clean_text(part["text"]).strip()
        if not text:
            continue
        if user and (typed_by_user(part, index, payload) is False or machine_text(text)):
            continue
        texts.append(text)
    return texts


def _command_line(args: Any) -> str | None:
    """The command line of a shell call's arguments (``cmd`` string, or ``command`` list/string)."""
    if not isinstance(args, dict):
        return None
    cmd = args.get("cmd")
    if isinstance(cmd, str) and cmd.strip():
        return cmd
    command = args.get("command")
    if isinstance(command, str) and command.strip():
        return command
    if isinstance(command, list) and all(isinstance(c, str) for c in command) and command:
        # ["bash", "-lc", "npm test"]: the script is what was run
        if len(command) >= 3 and command[1] in ("-lc", "-c") and command[0].rsplit("/", 1)[-1] in (
                "bash", "sh", "zsh", "dash"):
            return str(command[2])
        return shlex.join(command)
    return None


def _arguments(raw: Any) -> Any:
    if isinstance(raw, str):
        try:
            return parse_json(raw)  # never a RecursionError: a field nested too deep is dropped
        except ValueError:
            return raw
    return raw


def _input_summary(args: Any) -> str:
    if isinstance(args, dict):
        for key in ("path", "file_path", "query", "url", "pattern", "content", "question", "prompt", "message",
                    "description"):
            value = args.get(key)
            if isinstance(value, str) and value.strip():
                return short(value, TOOL_INPUT_CHARS)
        questions = args.get("questions")
        if isinstance(questions, list) and questions and isinstance(questions[0], dict):
            first = questions[0].get("question")
            if isinstance(first, str):
                return short(first, TOOL_INPUT_CHARS)
    if isinstance(args, str):
        return short(args, TOOL_INPUT_CHARS)
    return short(json.dumps(args, ensure_ascii=False, default=str), TOOL_INPUT_CHARS) if args else ""


def tool_name(payload: dict[str, Any]) -> str:
    """The tool's name as the model called it; an MCP tool as ``mcp__server__tool``."""
    name = str(payload.get("name") or "tool")
    namespace = payload.get("namespace")
    if isinstance(namespace, str) and namespace:
        return f"{namespace.rstrip('_')}__{name}"
    return name


def call_line(payload: dict[str, Any]) -> str | None:
    """``[tool NAME] input`` for a call item (function, custom tool, local shell, web search)."""
    kind = payload.get("type")
    if kind == "local_shell_call":
        action = payload.get("action")
        command = _command_line(action) if isinstance(action, dict) else None
        return f"[tool shell] {short(command or '', TOOL_INPUT_CHARS)}".rstrip()
    if kind == "web_search_call":
        action = payload.get("action")
        query = action.get("query") if isinstance(action, dict) else None
        return f"[tool web_search] {short(query, TOOL_INPUT_CHARS) if isinstance(query, str) else ''}".rstrip()
    if kind not in ("function_call", "custom_tool_call", "tool_search_call"):
        return None
    name = tool_name(payload)
    if kind == "custom_tool_call":
        raw = payload.get("input")
        if name == "apply_patch" and isinstance(raw, str):
            files = _PATCH_FILE.findall(raw)
            return f"[tool apply_patch] {short(', '.join(files) or raw, TOOL_INPUT_CHARS)}".rstrip()
        return f"[tool {name}] {_input_summary(raw)}".rstrip()
    args = _arguments(payload.get("arguments"))
    if name in SHELL_TOOLS:
        return f"[tool shell] {short(_command_line(args) or '', TOOL_INPUT_CHARS)}".rstrip()
    if name == "apply_patch" and isinstance(args, dict) and isinstance(args.get("input"), str):
        files = _PATCH_FILE.findall(args["input"])
        return f"[tool apply_patch] {short(', '.join(files), TOOL_INPUT_CHARS)}".rstrip()
    return f"[tool {name}] {_input_summary(args)}".rstrip()


def _output_text(output: Any) -> tuple[str, bool]:
    """The text of a call's output and whether it says it failed (before header parsing)."""
    if isinstance(output, dict):  # {"content": …, "success": false}
        text, _ = _output_text(output.get("content") if "content" in output else output.get("output"))
        return text, output.get("success") is False
    if isinstance(output, list):  # content items (an MCP result, an image)
        return "\n".join(p["text"] for p in output if isinstance(p, dict) and isinstance(p.get("text"), str)), False
    if not isinstance(output, str):
        return "", False
    stripped = output.lstrip()
    if stripped.startswith("{") and '"output"' in stripped[:200]:  # 0.4x shell: {"output": …, "metadata": …}
        try:
            data = parse_json(stripped)
        except ValueError:
            return output, False
        if isinstance(data, dict) and isinstance(data.get("output"), str):
            meta = data.get("metadata")
            code = meta.get("exit_code") if isinstance(meta, dict) else None
            return data["output"], isinstance(code, int) and code != 0
    return output, False


def result_line(payload: dict[str, Any], *, answer: bool = False) -> str:
    """``[tool result] …`` or ``[tool error] …`` for a call's output item."""
    text, failed = _output_text(payload.get("output"))
    exit_code = _EXIT.search(text)
    if exit_code is not None and int(exit_code.group(1)) != 0:
        failed = True
    marker = _OUTPUT_MARK.search(text)
    if marker is not None and all(_HEADER_LINE.match(line) or not line.strip()
                                  for line in text[: marker.start()].splitlines()):
        text = text[marker.end():]
    body = clean_text(text)
    if failed and exit_code is not None:
        body = f"exit code {exit_code.group(1)}: {body}"
    label = "[tool error]" if failed else "[tool result]"
    return f"{label} {short(body, ANSWER_CHARS if answer else TOOL_RESULT_CHARS)}".rstrip()


def compaction_summary(message: Any) -> str:
    """The summary text of a ``compacted`` record (empty for a remote, encrypted compaction)."""
    if not isinstance(message, str):
        return ""
    return clean_text(HANDOFF_PREFIX.sub("", message, count=1)).strip()


def remember_call(payload: dict[str, Any]) -> str | None:
    """The ``content`` of a call of an MCP ``remember`` tool (ours: namespace ``mcp__madohub``,
    or ``mcp__madohub__remember`` in older CLIs), else None."""
    if payload.get("type") != "function_call" or not tool_name(payload).startswith("mcp__"):
        return None
    if not tool_name(payload).endswith("__remember"):
        return None
    args = _arguments(payload.get("arguments"))
    content = args.get("content") if isinstance(args, dict) else None
    return content if isinstance(content, str) and content.strip() else None


def remembered_candidate(payload: dict[str, Any]) -> int | None:
    """The candidate a ``remember`` call's output reports as queued in this database (not in
    a mapped team store): the JSON after Codex's ``Output:`` header."""
    text, failed = _output_text(payload.get("output"))
    if failed:
        return None
    marker = _OUTPUT_MARK.search(text)
    return queued_candidate(text[marker.end():] if marker else text)
