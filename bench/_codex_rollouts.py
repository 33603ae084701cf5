"""Codex rollout files made from the LoCoMo dev dialogues, for ``bench/ingest.py --codex``.

Why: the ingest target (500 turns/s) is for rollout files, and there is no large body of
real ones to measure on. The dialogues give realistic text; the layout is Codex CLI
0.171.0's, record for record as in tests/fixtures/codex (session_meta, turn_context, the
user message with its metadata, event_msg copies and token counts, the assistant message,
every fourth exchange a shell call and its output, failing or passing), so the reader
parses and skips as much as on a real session. One file per LoCoMo session, in the
``sessions/YYYY/MM/DD`` tree. Written to a temporary folder at run time: the data set's
text never enters the repository.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

from madohub_memory.ingest.benchmarks import locomo_time

CLI_VERSION = "0.171.0"


def _line(stamp: str, ordinal: int, kind: str, payload: dict[str, Any], **extra: Any) -> str:
    return json.dumps({"timestamp": stamp, "ordinal": ordinal, "type": kind, "payload": payload, **extra},
                      ensure_ascii=False, separators=(",", ":"))


def _session(sample: str, index: int, start: str, dialogue: list[dict[str, Any]], speaker_a: str) -> tuple[str, str]:
    session = str(uuid.uuid5(uuid.NAMESPACE_URL, f"locomo/{sample}/{index}"))
    cwd = f"/home/dev/src/{sample}"
    lines: list[str] = []
    ordinal = 0

    def add(kind: str, payload: dict[str, Any], **extra: Any) -> None:
        nonlocal ordinal
        lines.append(_line(start, ordinal, kind, payload, **extra))
        ordinal += 1

    add("session_meta", {"id": session, "session_id": session, "timestamp": start, "cwd": cwd,
                         "originator": "codex_cli_rs", "cli_version": CLI_VERSION, "source": "cli",
                         "model_provider": "openai", "base_instructions": {"text": "[built-in instructions]"}})
    turn = str(uuid.uuid4())
    for number, utterance in enumerate(dialogue):
        text = str(utterance.get("text") or "").strip()
        if not text:
            continue
        if utterance.get("speaker") == speaker_a:
            turn = str(uuid.uuid4())
            add("event_msg", {"type": "task_started", "turn_id": turn, "model_context_window": 258400})
            add("turn_context", {"turn_id": turn, "cwd": cwd, "approval_policy": "on-request", "model": "gpt-5"})
            add("response_item", {"type": "message", "id": f"msg_{uuid.uuid4()}", "role": "user",
                                  "content": [{"type": "input_text", "text": text}],
                                  "internal_chat_message_metadata_passthrough": {
                                      "turn_id": turn, "content_item_kinds": ["user.text"],
                                      "content_item_metadata": [{"provenance": {"type": "user"}}]}},
                metadata={"history_sequence": ordinal, "client_authored": False})
            add("event_msg", {"type": "item_completed", "turn_id": turn, "item": {
                "type": "UserMessage", "content": [{"type": "text", "text": text}]}})
            continue
        if number % 8 == 1:
            call = f"call_{uuid.uuid4().hex[:12]}"
            failing = number % 16 == 1
            add("response_item", {"type": "function_call", "name": "exec_command", "call_id": call,
                                  "arguments": json.dumps({"cmd": "pytest -q tests/"})})
            output = ("Chunk ID: 1\nWall time: 0.4 seconds\nProcess exited with code "
                      f"{1 if failing else 0}\nOutput:\n{'2 failed, 5 passed' if failing else '7 passed'}\n")
            add("response_item", {"type": "function_call_output", "call_id": call, "output": output})
        add("response_item", {"type": "message", "id": f"msg_{uuid.uuid4().hex}", "role": "assistant",
                              "content": [{"type": "output_text", "text": text}]},
            metadata={"history_sequence": ordinal, "client_authored": False})
        add("token_usage_record", {"turn_id": turn, "usage": {"input_tokens": 1000, "output_tokens": 50}})
        add("event_msg", {"type": "token_count", "info": {"total_token_usage": {"total_tokens": 1050}}})
        add("event_msg", {"type": "task_complete", "turn_id": turn, "last_agent_message": text[:80]})
    return session, "\n".join(lines) + "\n"


def write_rollouts(locomo: Path, folder: Path) -> int:
    """Write one rollout per LoCoMo session under ``folder/sessions``; returns the file count."""
    data = json.loads(locomo.read_text(encoding="utf-8"))
    files = 0
    for sample in data:
        conversation = sample.get("conversation") or {}
        speaker_a = conversation.get("speaker_a")
        index = 1
        while f"session_{index}" in conversation:
            start = locomo_time(conversation.get(f"session_{index}_date_time")) or "2023-05-08T13:56:00Z"
            session, text = _session(str(sample.get("sample_id", "conv")), index, start,
                                     conversation[f"session_{index}"], speaker_a)
            day = folder / "sessions" / start[:4] / start[5:7] / start[8:10]
            day.mkdir(parents=True, exist_ok=True)
            (day / f"rollout-{start[:19].replace(':', '-')}-{session}.jsonl").write_text(text, encoding="utf-8")
            files += 1
            index += 1
    return files
