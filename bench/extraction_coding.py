"""Extraction quality on coding sessions: the offline extractor against the hand-labelled gold.

Every dev Claude Code session named in ``bench/gold/coding_sessions.jsonl`` (subagent files
are found by the importer) and the dev ChatGPT export are imported into a fresh temporary
database through the real services (``Services.open``, ``ingest.ingest_paths``, then a full
``ingest.drain`` as ``worker --once`` does), with the extraction backend set to ``offline``.
The pending candidates are matched to the gold items of their conversation by keyword groups
(``bench/_gold_match.py``); ChatGPT candidates count only when they come from one of the 20
labelled conversations (``bench/gold/chatgpt_selection.json``).

Reported: must-recall, all-recall, candidate precision (candidates matching some gold item /
all counted candidates), kind and namespace agreement over matched pairs, per source and per
file figures. ``--show missed,unmatched,matched`` (or ``--verbose`` for all three) adds the lists.

Usage: ``python bench/extraction_coding.py --json [--data DIR] [--show missed,unmatched]
[--verbose] [--no-semantic-dedup]``. Skips with a message when the dev data is absent.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import print_report
from _gold_match import (
    CHATGPT_FILE,
    GOLD_FILE,
    Candidate,
    conversation_key,
    load_chatgpt_selection,
    load_gold,
    match_all,
    report,
)

from madohub_memory.services import Services
from madohub_memory.services.queue import QueueService

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "eval" / "dev"
LISTS = ("missed", "unmatched", "matched")


def session_id(path: Path) -> str | None:
    """The ``sessionId`` of a Claude Code file (first record that has one)."""
    with path.open(encoding="utf-8", errors="replace") as handle:
        for line in handle:
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(record, dict) and record.get("sessionId"):
                return str(record["sessionId"])
    return None


def input_files(data: Path, items: list[dict[str, Any]]) -> tuple[list[Path], dict[str, str]]:
    """Files to import (each labelled main session, then the ChatGPT export) and session -> file."""
    paths: list[Path] = []
    sessions: dict[str, str] = {}
    for rel in dict.fromkeys(i["file"] for i in items):
        if rel == CHATGPT_FILE or "/subagents/" in rel:
            continue
        path = data / rel
        paths.append(path)
        sid = session_id(path)
        if sid:
            sessions[sid] = rel
    paths.append(data / CHATGPT_FILE)
    return paths, sessions


def collect(svc: Services, sessions: dict[str, str], chatgpt_ids: set[str]) -> list[Candidate]:
    """Pending candidates that come from a labelled conversation, with their conversations."""
    out: list[Candidate] = []
    queue = QueueService(svc)
    for cid in queue.ids():
        detail = queue.detail(cid)
        row = detail["candidate"]
        keys = tuple(dict.fromkeys(
            conversation_key(s["conversation_id"]) for s in detail["sightings"] if s.get("conversation_id")
        ))
        file = source = ""
        for key in keys:
            if key in sessions:
                file, source = sessions[key], "claude_code"
                break
            if key in chatgpt_ids:
                file, source = CHATGPT_FILE, "chatgpt"
                break
        if not source:
            continue  # an unlabelled ChatGPT conversation: not scored
        out.append(Candidate(id=int(row["id"]), content=row["content"], kind=row["kind"],
                             namespace=row["namespace"], conversations=keys, file=file, source=source))
    return out


def run(data: Path, show: tuple[str, ...], semantic_dedup: bool) -> dict[str, Any]:
    items = load_gold(GOLD_FILE)
    chatgpt_ids = set(load_chatgpt_selection())
    paths, sessions = input_files(data, items)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="madohub-bench-") as tmp, Services.open(Path(tmp) / "bench.db") as svc:
        svc.settings.set("extraction.backend", "offline")
        if not semantic_dedup:
            svc.settings.set("dedup.semantic", False)
        summary = svc.ingest.ingest_paths([str(p) for p in paths])
        svc.ingest.drain()
        candidates = collect(svc, sessions, chatgpt_ids)
    elapsed = time.perf_counter() - started
    result = report(match_all(items, candidates), show=show)
    result["ingest"] = {
        "files": len(summary["files"]), "conversations": summary["conversations"],
        "turns": summary["turns"]["new"], "errors": len(summary["errors"]),
        "candidates_all_conversations": summary["candidates"],
    }
    result["backend"] = "offline"
    result["semantic_dedup"] = semantic_dedup
    result["seconds"] = round(elapsed, 1)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the eval/dev folder")
    parser.add_argument("--show", default="", help=f"comma-separated lists to include: {', '.join(LISTS)}")
    parser.add_argument("--verbose", action="store_true", help="include every list")
    parser.add_argument("--no-semantic-dedup", action="store_true",
                        help="skip embedding-based dedup (faster; the default setting has it on)")
    args = parser.parse_args()
    show = LISTS if args.verbose else tuple(s.strip() for s in args.show.split(",") if s.strip())
    unknown = [s for s in show if s not in LISTS]
    if unknown:
        parser.error(f"unknown list {unknown[0]!r}: use {', '.join(LISTS)}")
    if not args.data.is_dir():
        print_report({"skipped": f"evaluation data not found at {args.data}"}, args.json)
        return 0
    print_report(run(args.data, show, not args.no_semantic_dedup), args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
