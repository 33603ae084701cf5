"""Builders for small transcript files and a small real extractor, shared by the ingest tests.

(No tests here; the module name only keeps it with the ingest tests.)
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from madohub_memory.core.settings_schema import SETTINGS
from madohub_memory.core.types import CandidateDraft
from madohub_memory.extraction.base import Mode, TurnView

SESSION = "11111111-2222-3333-4444-555555555555"
CWD = "/home/ana/projects/demo-app"


def write_jsonl(path: Path, records: Sequence[Any]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps(record) + "\n")
    return path


def append_jsonl(path: Path, records: Sequence[Any]) -> None:
    with open(path, "a", encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps(record) + "\n")


def _envelope(kind: str, uuid: str | None, parent: str | None, **extra: Any) -> dict[str, Any]:
    record: dict[str, Any] = {
        "type": kind, "parentUuid": parent, "isSidechain": False, "userType": "external", "cwd": CWD,
        "sessionId": SESSION, "version": "2.1.39", "gitBranch": "main",
        "timestamp": "2026-02-11T20:00:00.000Z",
    }
    if uuid:
        record["uuid"] = uuid
    record.update(extra)
    return record


def cc_user(uuid: str, text: str, parent: str | None = None, **extra: Any) -> dict[str, Any]:
    return _envelope("user", uuid, parent, message={"role": "user", "content": text}, **extra)


def cc_assistant(uuid: str, message_id: str, blocks: list[dict[str, Any]], parent: str | None = None) -> dict[str, Any]:
    message = {"id": message_id, "type": "message", "role": "assistant", "model": "claude-opus-4-6",
               "content": blocks, "stop_reason": None}
    return _envelope("assistant", uuid, parent, message=message, requestId="req_1")


def text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}


def tool_use(tool_id: str, name: str, data: dict[str, Any]) -> dict[str, Any]:
    return {"type": "tool_use", "id": tool_id, "name": name, "input": data}


def cc_tool_result(uuid: str, tool_id: str, output: str, is_error: bool = False) -> dict[str, Any]:
    block = {"type": "tool_result", "tool_use_id": tool_id, "content": output, "is_error": is_error}
    return _envelope("user", uuid, None, message={"role": "user", "content": [block]},
                     toolUseResult={"stdout": output})


def cc_progress(n: int) -> dict[str, Any]:
    return _envelope("progress", f"p-{n}", None, data={"type": "bash_progress", "output": "..."})


def cc_snapshot() -> dict[str, Any]:
    return {"type": "file-history-snapshot", "messageId": "m", "snapshot": {"trackedFileBackups": {}}}


def cc_queue(content: str, operation: str = "enqueue") -> dict[str, Any]:
    return {"type": "queue-operation", "operation": operation, "timestamp": "2026-02-11T20:05:00.000Z",
            "sessionId": SESSION, "content": content}


def cc_boundary(uuid: str, logical_parent: str) -> dict[str, Any]:
    return _envelope("system", uuid, None, subtype="compact_boundary", content="Conversation compacted",
                     logicalParentUuid=logical_parent, compactMetadata={"trigger": "auto", "preTokens": 1000})


def cc_compact_summary(uuid: str, parent: str) -> dict[str, Any]:
    summary = ("This session is being continued from a previous conversation. I prefer summaries that "
               "the user never typed.")
    return _envelope("user", uuid, parent, message={"role": "user", "content": summary},
                     isCompactSummary=True, isVisibleInTranscriptOnly=True)


def small_session() -> list[dict[str, Any]]:
    """A session with noise, a tool call, a queued prompt and one preference."""
    return [
        cc_snapshot(),
        cc_user("u1", "I prefer pnpm over npm for this repo."),
        cc_progress(1),
        cc_assistant("a1", "msg_1", [{"type": "thinking", "thinking": "hmm", "signature": "x"}], "u1"),
        cc_assistant("a2", "msg_1", [text("Noted, switching to pnpm.")], "a1"),
        cc_assistant("a3", "msg_1", [tool_use("toolu_1", "Bash", {"command": "pnpm install"})], "a2"),
        cc_progress(2),
        cc_tool_result("r1", "toolu_1", "Done in 2s"),
        cc_queue("<task-notification><task-id>x</task-id></task-notification>"),
        cc_queue("also I prefer tabs over spaces"),
        cc_queue("", operation="remove"),
        {"type": "brand-new-record", "uuid": "zz", "whatever": [1, 2]},
        _envelope("system", "s1", None, subtype="turn_duration", durationMs=10),
        cc_user("u2", "<command-name>/model</command-name>"),
        cc_user("meta1", "Caveat: local commands", isMeta=True),
        cc_assistant("a4", "msg_2", [text("Tabs it is.")], "u2"),
    ]


def locomo_sample() -> list[dict[str, Any]]:
    return [{
        "sample_id": "conv-x",
        "conversation": {
            "speaker_a": "Ann", "speaker_b": "Bob",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [
                {"speaker": "Ann", "dia_id": "D1:1", "text": "Hi Bob!"},
                {"speaker": "Bob", "dia_id": "D1:2", "text": "I prefer hiking to running.",
                 "blip_caption": "a photo of a trail"},
            ],
            "session_2_date_time": "10:00 am on 9 May, 2023",
            "session_2": [{"speaker": "Ann", "dia_id": "D2:1", "text": "I prefer tea."}],
        },
        "observation": {}, "qa": [],
    }]


def disable_semantic_dedup(svc: Any) -> None:
    """Fingerprint dedup only: these tests are about ingestion, not the embedding model."""
    if "dedup.semantic" in SETTINGS:
        svc.settings.set("dedup.semantic", False)


class PreferenceExtractor:
    """A small real extractor: every "I prefer X" sentence in a user turn becomes a preference.

    It records each call (mode and turn ids) so tests can see exactly what was extracted how.
    """

    name = "test-preferences"
    _PATTERN = re.compile(r"\bI prefer ([^.!?\n]+)", re.I)

    def __init__(self) -> None:
        self.calls: list[tuple[str, list[str]]] = []

    def extract(
        self, turns: Sequence[TurnView], *, mode: Mode = "turn", namespace: str | None = None
    ) -> list[CandidateDraft]:
        self.calls.append((mode, [t.id for t in turns]))
        drafts = []
        for turn in turns:
            if turn.role != "user":
                continue
            for match in self._PATTERN.finditer(turn.content):
                drafts.append(CandidateDraft(
                    f"User prefers {match.group(1).strip()}.", "preference", namespace,
                    source=mode, confidence=0.7, turn_ids=(turn.id,),
                ))
        return drafts

    def seen_ids(self) -> list[str]:
        return [turn_id for _, ids in self.calls for turn_id in ids]
