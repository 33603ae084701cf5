"""``ingest PATH...``: import transcripts and extract candidates; ``turn ID``: a turn in context.

Exit status of ``ingest``: 0 when everything was imported, 3 when some files or lines were
skipped (the summary lists them with file and line), 1 when nothing could be imported.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from madohub_memory.cli.output import emit, open_services
from madohub_memory.core.text import first_line

EXIT_PARTIAL = 3
_STATUS_EXIT = {"ok": 0, "partial": EXIT_PARTIAL, "failed": 1}


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "ingest", parents=[common], help="import transcripts (Claude Code, Codex, ChatGPT, JSONL) and extract candidates",
        description="Import transcripts and extract candidates. Prints a JSON summary. Exit status: 0 all "
                    "imported, 3 some files or lines skipped, 1 nothing imported.",
    )
    p.add_argument("paths", nargs="+", metavar="PATH", help="files or folders")
    p.add_argument("--format", default="auto", metavar="FMT",
                   help="auto (default), claude-code, codex, chatgpt, jsonl, locomo or longmemeval")
    p.add_argument("--namespace", metavar="NS", help="persona:<name> or workspace:<project> for every turn")
    p.add_argument("--no-extract", action="store_true", help="store turns only; the worker extracts later")
    p.set_defaults(handler=_ingest)

    p = sub.add_parser("turn", parents=[common], help="show a turn with the turns around it")
    p.add_argument("id", metavar="ID", help="turn id (as listed with a candidate or memory)")
    p.add_argument("--radius", type=int, default=3, metavar="N", help="turns before and after (default 3)")
    p.set_defaults(handler=_turn)


class _Bar:
    """A one-line progress bar on stderr (only used when stderr is a terminal)."""

    def __call__(self, event: dict[str, Any]) -> None:
        total = max(1, int(event["total"]))
        done = int(event["index"]) if event["file"] is None else int(event["index"]) - 1
        width = 24
        filled = int(width * done / total)
        name = first_line(str(event["file"] or "done"), 40)
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} files, "
                         f"{event['turns']} new turns  {name}\x1b[K")
        if event["file"] is None:
            sys.stderr.write("\n")
        sys.stderr.flush()


def _ingest(args: argparse.Namespace) -> int:
    progress = _Bar() if sys.stderr.isatty() else None
    with open_services(args) as svc:
        summary = svc.ingest.ingest_paths(
            args.paths, format=args.format, namespace=args.namespace, progress=progress,
            extract=not args.no_extract,
        )
    emit(args, summary)
    for error in summary["errors"][:20]:
        where = f"{error['file']}:{error['line']}" if error.get("line") else error["file"]
        print(f"madohub-memory: {where}: {error['message']}", file=sys.stderr)
    if len(summary["errors"]) > 20:
        print(f"madohub-memory: ... and {len(summary['errors']) - 20} more errors", file=sys.stderr)
    return _STATUS_EXIT[summary["status"]]


def _turn(args: argparse.Namespace) -> int:
    with open_services(args, create=False) as svc:
        data = svc.turns.context(args.id, radius=max(0, args.radius))
    conv = data["conversation"] or {}
    lines = [f"conversation {conv.get('id')}  {conv.get('title') or ''}  ({conv.get('format')},"
             f" {conv.get('namespace') or 'default namespace'})".rstrip()]
    for index, turn in enumerate(data["turns"]):
        marker = ">>" if index == data["focus"] else "  "
        stamp = f" {turn['created_at']}" if turn.get("created_at") else ""
        lines.append(f"{marker} [{turn['seq']}] {turn['role']}{stamp}  ({turn['id']})")
        body = turn["content"] if index == data["focus"] else first_line(turn["content"], 200)
        lines.extend(f"     {line}" for line in body.splitlines() or [""])
    emit(args, data, "\n".join(lines))
    return 0
