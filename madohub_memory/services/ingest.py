"""Importing transcripts and running extraction over the new turns.

``ingest_paths`` reads files (format detected or given), stores conversations and turns
(one transaction per file, turn ids stable so a re-import adds only what is new, a grown
JSONL file is read only from where the last read stopped), then extracts candidates from
the new turns. Extraction goes through turn claims (:func:`store.ingest.claim_pending`), the
same path the background drain job uses, so the dashboard, the daemon, the hook and the CLI
never extract the same turn twice.
"""

from __future__ import annotations

import hashlib
import importlib.util
import logging
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from madohub_memory.core.clock import to_iso
from madohub_memory.core.errors import UserError
from madohub_memory.core.types import CandidateDraft
from madohub_memory.core.vocab import validate_namespace
from madohub_memory.ingest.detect import LINE_FORMATS, detect_format, expand_paths, read_file, validate_format
from madohub_memory.ingest.model import ReadResult
from madohub_memory.ingest.passes import build_passes
from madohub_memory.store import ingest as ingest_rows

if TYPE_CHECKING:
    from madohub_memory.extraction.base import Extractor
    from madohub_memory.services import Services

log = logging.getLogger(__name__)

CLAIM_STALE = timedelta(minutes=10)
_HEAD_BYTES = 4096
OUTCOMES = ("new", "seen_again", "suppressed", "reinforced")
Progress = Callable[[dict[str, Any]], None]


def _head_hash(path: str, length: int) -> str:
    with open(path, "rb") as handle:
        data = handle.read(length)
    return f"{len(data)}:{hashlib.sha1(data).hexdigest()}"


def _mentions(path: str, needle: bytes, chunk: int = 1 << 20) -> bool:
    """Whether the file contains ``needle`` (a byte scan, far cheaper than parsing every line)."""
    try:
        with open(path, "rb") as handle:
            tail = b""
            while block := handle.read(chunk):
                window = tail + block
                if needle in window:
                    return True
                tail = window[-(len(needle) - 1):]
    except OSError:
        return True  # let the real reader report the problem
    return False


def empty_counts() -> dict[str, int]:
    return {"turns": 0, **dict.fromkeys(OUTCOMES, 0), "invalid": 0}


class IngestService:
    def __init__(self, svc: Services, extractor: Extractor | None = None) -> None:
        self.svc = svc
        self._extractor = extractor
        self._built_from: dict[str, Any] | None = None
        # os.uname and urandom rather than socket and uuid: the Stop hook imports this module
        # on every turn, and those two imports cost it ~10 ms
        self.owner = f"{os.uname().nodename}:{os.getpid()}:{os.urandom(4).hex()}"

    # -- the extractor -------------------------------------------------------------------

    @property
    def extractor(self) -> Extractor | None:
        """The injected extractor, else the one the settings select (rebuilt when they change,
        so switching the backend in the dashboard reaches a long-running process)."""
        if self._extractor is not None and self._built_from is None:  # given by the caller
            return self._extractor
        from madohub_memory.services import extraction_backend

        values = extraction_backend.backend_values(self.svc)
        if self._extractor is None or values != self._built_from:
            self._extractor = extraction_backend.build(self.svc)
            self._built_from = values
        return self._extractor

    # -- importing -----------------------------------------------------------------------

    def ingest_paths(
        self,
        paths: Iterable[str],
        format: str = "auto",
        namespace: str | None = None,
        progress: Progress | None = None,
        *,
        extract: bool = True,
    ) -> dict[str, Any]:
        """Import files or folders; returns a summary with counts and per-line errors.

        ``status`` is ``ok`` (everything imported), ``partial`` (some files or lines were
        skipped) or ``failed`` (nothing could be imported).
        """
        fmt = validate_format(format)
        if namespace is not None:
            namespace = validate_namespace(namespace, self.svc.settings.get("persona"))
        files, path_errors = expand_paths(paths)
        summary: dict[str, Any] = {
            "files": [], "conversations": 0, "turns": {"new": 0, "known": 0},
            "candidates": {**dict.fromkeys(OUTCOMES, 0), "invalid": 0}, "decisions": 0,
            "errors": [e.to_dict() for e in path_errors], "warnings": [],
        }
        queue = list(files)
        seen: set[str] = set()
        index = 0
        while index < len(queue):
            path = queue[index]
            index += 1
            real = os.path.realpath(path)
            if real in seen:
                continue
            seen.add(real)
            if progress:
                progress({"file": path, "index": index, "total": len(queue), "turns": summary["turns"]["new"]})
            report = self._ingest_one(path, fmt, namespace, summary, extract=extract)
            summary["files"].append(report)
            if report.get("format") == "claude-code":
                queue.extend(f for f in self._subagent_files(path) if os.path.realpath(f) not in seen)
        if progress:
            progress({"file": None, "index": len(queue), "total": len(queue), "turns": summary["turns"]["new"]})
        imported = summary["turns"]["new"] + summary["turns"]["known"]
        if not summary["errors"]:
            summary["status"] = "ok"
        else:
            summary["status"] = "partial" if imported else "failed"
        return summary

    @staticmethod
    def _subagent_files(path: str) -> list[str]:
        folder = os.path.join(os.path.splitext(path)[0], "subagents")
        if os.path.basename(os.path.dirname(path)) == "subagents" or not os.path.isdir(folder):
            return []
        return [os.path.join(folder, n) for n in sorted(os.listdir(folder)) if n.endswith(".jsonl")]

    def _ingest_one(
        self, path: str, fmt: str, namespace: str | None, summary: dict[str, Any], *, extract: bool
    ) -> dict[str, Any]:
        report: dict[str, Any] = {"path": path, "format": None, "error": None}
        try:
            file_fmt = detect_format(path) if fmt == "auto" else fmt
            report["format"] = file_fmt
            result, known_before = self._read(path, file_fmt)
        except (UserError, OSError) as exc:
            message = str(exc) if isinstance(exc, UserError) else (exc.strerror or str(exc))
            report["error"] = message
            summary["errors"].append({"file": path, "line": None, "message": message})
            return report
        conv_ids, new, known = self._store(result, namespace, known_before)
        line_errors = [e.to_dict() for e in result.errors]
        summary["errors"].extend(line_errors)
        conversations = len(result.conversations) or int(bool(result.state.get("conversation_id")))
        summary["conversations"] += conversations
        summary["turns"]["new"] += new
        summary["turns"]["known"] += known
        report.update(conversations=conversations, turns_new=new, turns_known=known,
                      line_errors=len(line_errors))
        if extract and new:
            try:
                counts = self.drain(conversation_ids=conv_ids)
            except UserError as exc:  # postponed (budget, rate limit, model down): turns stay pending
                log.warning("extraction postponed for %s: %s", path, exc)
                summary["warnings"].append({"file": path, "message": f"extraction postponed: {exc}"})
            except Exception as exc:  # an extractor failure must not lose the import
                log.exception("extraction failed for %s", path)
                summary["warnings"].append({"file": path, "message": f"extraction postponed: {exc}"})
            else:
                for key in (*OUTCOMES, "invalid"):
                    summary["candidates"][key] += counts[key]
        if file_fmt == "claude-code":
            summary["decisions"] += self._capture_decisions(path, summary)
        return report

    def _read(self, path: str, fmt: str) -> tuple[ReadResult, int]:
        """Read a file, resuming a line format after the previous read when the file only grew."""
        real = os.path.realpath(path)
        previous = ingest_rows.get_file(self.svc.store, real)
        start_offset = start_line = known_before = 0
        state = None
        size = os.path.getsize(path)
        if (fmt in LINE_FORMATS and previous is not None and previous["format"] == fmt
                and size >= previous["end_offset"] and previous["head_hash"]):
            length = int(str(previous["head_hash"]).split(":", 1)[0])
            if _head_hash(path, length) == previous["head_hash"]:
                start_offset, start_line = previous["end_offset"], previous["end_line"]
                state, known_before = previous["state"], previous["turns"]
        result = read_file(os.path.abspath(path), fmt, start_offset, start_line, state,
                           workspace_map=self.svc.settings.get("workspace.map"))
        result.state = {**(state or {}), **result.state, "path": real}
        result.state["size"] = size
        result.state["mtime"] = os.path.getmtime(path)
        result.state["known_before"] = known_before
        return result, known_before

    def _store(self, result: ReadResult, namespace: str | None, known_before: int) -> tuple[list[str], int, int]:
        """Write one file's conversations and new turns in one transaction."""
        store = self.svc.store
        new = known = 0
        conv_ids: list[str] = []
        state = dict(result.state)
        real = state.pop("path")
        size, mtime = state.pop("size"), state.pop("mtime")
        state.pop("known_before", None)
        with store.transaction():
            for conv in result.conversations:
                if conv.parent_id:
                    ingest_rows.ensure_conversation(store, conv.parent_id, conv.format)
                ingest_rows.upsert_conversation(store, {
                    "id": conv.id, "format": conv.format, "source_path": conv.source_path, "title": conv.title,
                    "parent_id": conv.parent_id, "namespace": namespace or conv.namespace,
                    "started_at": conv.started_at, "meta": conv.meta,
                })
                conv_ids.append(conv.id)
                existing = ingest_rows.existing_turn_ids(store, [t.id for t in conv.turns])
                seq = ingest_rows.next_seq(store, conv.id)
                rows: list[dict[str, Any]] = []
                for turn in conv.turns:
                    if turn.id in existing:
                        known += 1
                        continue
                    existing.add(turn.id)
                    rows.append({
                        "id": turn.id, "conversation_id": conv.id, "seq": seq, "role": turn.role,
                        # Secrets are masked by the store as the turn is written (store/redaction.py).
                        "content": turn.content, "created_at": turn.created_at,
                        "meta": turn.meta,
                        "extract_state": "pending" if turn.extract else "skipped",
                        "extract_mode": "turn", "segment": turn.segment,
                    })
                    seq += 1
                ingest_rows.insert_turns(store, rows)
                new += len(rows)
                segment = int(state.get("segment", 0))
                if segment:
                    ingest_rows.mark_compaction(store, conv.id, before_segment=segment)
            if result.format in LINE_FORMATS:
                ingest_rows.put_file(store, {
                    "path": real, "format": result.format, "size": size, "mtime": mtime,
                    "head_hash": _head_hash(real, min(_HEAD_BYTES, result.end_offset)),
                    "end_offset": result.end_offset, "end_line": result.end_line,
                    "turns": known_before + new, "state": state, "updated_at": self.svc.clock.now_iso(),
                })
        return conv_ids, new, known + known_before

    def _capture_decisions(self, path: str, summary: dict[str, Any]) -> int:
        if importlib.util.find_spec("madohub_memory.services.decisions") is None:
            return 0
        if not _mentions(path, b"AskUserQuestion"):  # most sessions: no parse, no decisions import
            return 0
        try:
            return int(self.svc.decisions.capture_transcript(path) or 0)
        except UserError as exc:
            summary["warnings"].append({"file": path, "message": f"decision capture skipped: {exc}"})
        except Exception as exc:  # another capability's bug must not fail an import
            log.exception("decision capture failed for %s", path)
            summary["warnings"].append({"file": path, "message": f"decision capture failed: {exc}"})
        return 0

    # -- extraction ----------------------------------------------------------------------

    def drain(
        self, conversation_ids: Sequence[str] | None = None, *, max_rounds: int | None = None,
        batch_turns: int = 1000,
    ) -> dict[str, int]:
        """Extract candidates from pending turns (all, or of some conversations) until none is left.

        Each round claims whole conversations, runs the extractor outside any transaction,
        then submits the drafts and marks the turns done in one transaction. When the
        extractor fails, the claims are released (the turns stay pending) and the error is raised.
        """
        counts = empty_counts()
        extractor = self.extractor
        if extractor is None:
            return counts
        store = self.svc.store
        rounds = 0
        while max_rounds is None or rounds < max_rounds:
            rounds += 1
            now_moment = self.svc.clock.now()
            now = to_iso(now_moment)
            rows = ingest_rows.claim_pending(
                store, self.owner, now, to_iso(now_moment - CLAIM_STALE),
                conversation_ids=list(conversation_ids) if conversation_ids is not None else None,
                max_turns=batch_turns,
            )
            if not rows:
                break
            drafts: list[CandidateDraft] = []
            done: list[str] = []
            failure: BaseException | None = None
            try:
                for turn_ids, found in self._extract(extractor, rows):
                    drafts.extend(found)
                    done.extend(turn_ids)
            except BaseException as exc:  # keep what finished (a model call already paid for)
                failure = exc
            if failure is not None and not done:
                with store.transaction():
                    ingest_rows.release_claims(store, self.owner)
                raise failure
            self._prefetch_embeddings(drafts)
            with store.transaction():
                for draft in drafts:
                    try:
                        outcome = self.svc.review.submit(draft).outcome
                    except UserError as exc:
                        log.info("dropped an invalid draft: %s", exc)
                        counts["invalid"] += 1
                        continue
                    counts[outcome] = counts.get(outcome, 0) + 1
                ingest_rows.finish_turns(store, done, self.owner, "done", now)
                ingest_rows.release_claims(store, self.owner)  # turns whose pass did not finish
            counts["turns"] += len(done)
            if failure is not None:
                raise failure
        return counts

    def _prefetch_embeddings(self, drafts: list[CandidateDraft]) -> None:
        """Embed a round's drafts in one batch so semantic dedup does not embed them one by one.

        Uses the semantic dedup index's text cache when that module is present; any failure
        only costs speed (dedup then embeds each draft itself).
        """
        if len(drafts) < 2 or importlib.util.find_spec("madohub_memory.services.semantic_dedup") is None:
            return
        try:
            if not self.svc.settings.get("dedup.semantic"):
                return
            from madohub_memory.services.semantic_dedup import index_for

            index = index_for(self.svc.store, self.svc.settings.get("embedding.model"))
            texts: list[str] = []
            for draft in drafts:
                try:
                    texts.append(self.svc.review.validate(draft).content)
                except UserError:
                    continue
            index.embed(texts)
        except Exception as exc:
            log.warning("could not pre-compute draft embeddings: %s", exc)

    @staticmethod
    def _extract(extractor: Extractor, rows: list[dict[str, Any]]) -> Iterator[tuple[list[str], list[CandidateDraft]]]:
        """``(turn ids of the finished passes, their drafts)`` as each pass (or, for a model
        backend, each packed request) completes."""
        passes = list(build_passes(rows))
        spans = getattr(extractor, "extract_spans", None)
        results = (spans(passes) if spans is not None
                   else (([item], extractor.extract(item.turns, mode=item.mode, namespace=item.namespace))
                         for item in passes))
        for pack, found in results:
            drafts: list[CandidateDraft] = []
            for draft in found:
                item = next((p for p in pack if set(draft.turn_ids) & {t.id for t in p.turns}), pack[0])
                if draft.namespace is None and item.namespace:
                    draft = replace(draft, namespace=item.namespace)
                if draft.source not in ("turn", "compaction"):
                    draft = replace(draft, source=item.mode)
                if not draft.turn_ids:
                    draft = replace(draft, turn_ids=tuple(t.id for t in item.turns if t.role == "user")[:1]
                                    or (item.turns[0].id,))
                drafts.append(draft)
            yield [t.id for p in pack for t in p.turns], drafts

    def mark_for_compaction(self, conversation_id: str) -> int:
        """Everything still pending in a conversation is about to be compacted: send it to that pass."""
        with self.svc.store.transaction():
            return ingest_rows.mark_compaction(self.svc.store, conversation_id)

    def compaction_pass(self, conversation_id: str) -> dict[str, int]:
        """Mark what is pending in a conversation for the compaction pass and extract it now."""
        self.mark_for_compaction(conversation_id)
        return self.drain(conversation_ids=[conversation_id])

    def conversation_for_file(self, path: str) -> str | None:
        """The conversation a line-format file was last read into (``None`` if never read)."""
        row = ingest_rows.get_file(self.svc.store, os.path.realpath(path))
        return row["state"].get("conversation_id") if row else None

    def pending(self) -> dict[str, int]:
        """Turns by extraction state (pending, claimed, done, skipped, failed)."""
        return ingest_rows.count_by_state(self.svc.store)
