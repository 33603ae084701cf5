"""Extraction quality on coding sessions: the offline extractor against the hand-labelled gold.

The headline is **leave-one-project-out** (``lopo``): for each dev project, the learned
selector (:mod:`madohub_memory.extraction.selector`) is trained on the *other* projects
(``bench/_selector_training.py``, threshold chosen inside them) and the project's files are
imported with it. The figure says how extraction does for a project it never saw; the
per-project figures and their average are reported, with the smallest must-recall. The
``shipped`` section imports everything with the shipped selector (trained on all
projects, so in-sample there).

Every run goes through the real services: ``Services.open``, ``ingest.ingest_paths``, a
full ``ingest.drain`` (as ``worker --once`` does) with the offline backend, semantic dedup
on. Pending candidates are matched to the gold items of their conversation by keyword
groups (``bench/_gold_match.py``); ChatGPT candidates count only when they come from one of
the 20 labelled conversations (``bench/gold/chatgpt_selection.json``).

Reported per project and overall: must-recall, all-recall, candidate precision (candidates
matching some gold item / all counted candidates), kind and namespace agreement.
``--show missed,unmatched,matched`` (or ``--verbose``) adds the lists of the LOPO run.
Projects, the log of which project each change was made against, and how to read the
figures: ``bench/README.md``.

Usage: ``python bench/extraction_coding.py --json [--data DIR] [--mode lopo|shipped|both]
[--show missed,unmatched] [--verbose] [--no-semantic-dedup]``.
Skips with a message when the dev data is absent.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import replace
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
from _selector_training import labelled_units, project_of, record_passes, train

from madohub_memory.extraction.offline import OfflineExtractor
from madohub_memory.extraction.selector import Selector, from_dict
from madohub_memory.services import Services
from madohub_memory.services.queue import QueueService

# ../shared/eval/dev next to the checkout (a worktree sits one level deeper than main)
DEFAULT_DATA = next((p / "shared" / "eval" / "dev" for p in Path(__file__).resolve().parents[1:4]
                     if (p / "shared" / "eval" / "dev").is_dir()),
                    Path(__file__).resolve().parents[2] / "shared" / "eval" / "dev")
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


def project_files(data: Path, items: list[dict[str, Any]]) -> dict[str, list[Path]]:
    """Each project's files to import (its labelled main sessions; subagent files are found
    by the importer), in gold order."""
    out: dict[str, list[Path]] = {}
    for rel in dict.fromkeys(i["file"] for i in items):
        if "/subagents/" in rel:
            continue
        out.setdefault(project_of(rel), []).append(data / rel)
    return out


def sessions_of(data: Path, items: list[dict[str, Any]]) -> dict[str, str]:
    """Claude Code session id -> gold file."""
    sessions: dict[str, str] = {}
    for rel in dict.fromkeys(i["file"] for i in items):
        if rel == CHATGPT_FILE or "/subagents/" in rel:
            continue
        sid = session_id(data / rel)
        if sid:
            sessions[sid] = rel
    return sessions


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


def import_with(paths: Sequence[Path], selector: Selector | None, semantic_dedup: bool, sessions: dict[str, str],
                chatgpt_ids: set[str]) -> tuple[list[Candidate], dict[str, Any]]:
    """Import ``paths`` into a fresh database with the offline extractor (``selector``: the
    shipped one when ``None``) and return the scored candidates and the import summary."""
    with tempfile.TemporaryDirectory(prefix="madohub-bench-") as tmp, Services.open(Path(tmp) / "bench.db") as svc:
        svc.settings.set("extraction.backend", "offline")
        if not semantic_dedup:
            svc.settings.set("dedup.semantic", False)
        svc.ingest._extractor = OfflineExtractor(selector=selector)  # the extractor under test
        svc.ingest._built_from = None
        summary = svc.ingest.ingest_paths([str(p) for p in paths])
        svc.ingest.drain()
        return collect(svc, sessions, chatgpt_ids), summary


def _figures(result: dict[str, Any]) -> dict[str, Any]:
    keys = ("gold_must", "must_recall", "all_recall", "candidates", "useful_candidates", "precision",
            "kind_agreement", "namespace_agreement")
    return {k: result.get(k) for k in keys}


def _average(per_project: dict[str, dict[str, Any]]) -> dict[str, Any]:
    scored = {p: f for p, f in per_project.items() if f["gold_must"]}
    musts = [f["must_recall"] for f in scored.values() if f["must_recall"] is not None]
    precisions = [f["precision"] if f["precision"] is not None else 0.0 for f in scored.values()]
    return {
        "projects": len(scored),
        "must_recall": round(sum(musts) / len(musts), 4) if musts else None,
        "precision": round(sum(precisions) / len(precisions), 4) if precisions else None,
        "lowest_must_recall": min(((f["must_recall"], p) for p, f in scored.items()), default=None),
    }


def run(data: Path, show: tuple[str, ...], semantic_dedup: bool, mode: str) -> dict[str, Any]:
    items = load_gold(GOLD_FILE)
    chatgpt_ids = set(load_chatgpt_selection())
    files = project_files(data, items)
    sessions = sessions_of(data, items)
    gold_by_project = {p: [i for i in items if project_of(i["file"]) == p] for p in files}
    started = time.perf_counter()
    result: dict[str, Any] = {"backend": "offline", "semantic_dedup": semantic_dedup}
    if mode in ("lopo", "both"):
        rows = {p: labelled_units(p, record_passes(paths), gold_by_project[p]) for p, paths in files.items()}
        per_project: dict[str, dict[str, Any]] = {}
        all_candidates: list[Candidate] = []
        for project, paths in files.items():
            fold = from_dict(train({p: r for p, r in rows.items() if p != project}))
            candidates, _ = import_with(paths, fold, semantic_dedup, sessions, chatgpt_ids)
            per_project[project] = _figures(report(match_all(gold_by_project[project], candidates)))
            # each fold has its own database: number its candidates after the earlier folds'
            all_candidates += [replace(c, id=len(all_candidates) + n) for n, c in enumerate(candidates, start=1)]
        pooled = report(match_all(items, all_candidates), show=show)
        result["lopo"] = {"average": _average(per_project), "per_project": per_project,
                          "pooled": {k: v for k, v in pooled.items() if k not in ("per_file",)}}
    if mode in ("shipped", "both"):
        paths = [p for project in files for p in files[project]]
        candidates, summary = import_with(paths, None, semantic_dedup, sessions, chatgpt_ids)
        shipped = report(match_all(items, candidates), show=show if mode == "shipped" else ())
        shipped["per_project"] = {
            p: _figures(report(match_all(gold_by_project[p], [c for c in candidates
                                                                if project_of(c.file) == p]))) for p in files}
        shipped["ingest"] = {
            "files": len(summary["files"]), "conversations": summary["conversations"],
            "turns": summary["turns"]["new"], "errors": len(summary["errors"]),
            "candidates_all_conversations": summary["candidates"],
        }
        result["shipped"] = shipped
    result["seconds"] = round(time.perf_counter() - started, 1)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the eval/dev folder")
    parser.add_argument("--mode", choices=("lopo", "shipped", "both"), default="both",
                        help="leave-one-project-out, the shipped selector, or both (default)")
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
    print_report(run(args.data, show, not args.no_semantic_dedup, args.mode), args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
