"""Importing transcripts and running extraction over the new turns.

``ingest_paths`` reads files (format detected or given), stores conversations and turns
(one transaction per file, turn ids stable so a re-import adds only what is new, a grown
JSONL file is read only from where the last read stopped), then extracts candidates from
the new turns. Extraction goes through turn claims (:func:`store.ingest.claim_pending`), the
same path the background drain job uses, so the dashboard, the daemon, the hook and the CLI
never extract the same turn twice.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from madohub_memory.agents.claude_code import compaction_readback
from madohub_memory.agents.codex.rollout import session_from_name
from madohub_memory.core.clock import to_iso
from madohub_memory.core.errors import MappedStoreError, StorageError, UserError
from madohub_memory.core.text import fingerprint
from madohub_memory.core.types import CandidateDraft
from madohub_memory.core.vocab import validate_namespace
from madohub_memory.ingest.detect import LINE_FORMATS, detect_format, expand_paths, read_file, validate_format
from madohub_memory.ingest.lines import INCOMPLETE_LINE
from madohub_memory.ingest.model import ReadResult
from madohub_memory.ingest.passes import MAX_EXCHANGE, MAX_SPAN, build_passes
from madohub_memory.ingest.sanitize import check_result
from madohub_memory.services.batch_submit import CHUNK as SUBMIT_GROUP
from madohub_memory.services.batch_submit import submit_drafts
from madohub_memory.services.draft_embedding import DraftEmbedding
from madohub_memory.services.progress import WorkProgress
from madohub_memory.services.stopping import stop_requested
from madohub_memory.services.transcript_files import (
    DECISION_NEEDLES,
    HEAD_BYTES,
    empty_subagent_file,
    head_hash,
    mentions,
    regular_file_error,
    tail_hash,
)
from madohub_memory.store import candidates as candidate_rows
from madohub_memory.store import ingest as ingest_rows
from madohub_memory.store.liveness import is_alive, new_owner
from madohub_memory.store.redaction import redact_turns

if TYPE_CHECKING:
    from madohub_memory.extraction.base import Extractor
    from madohub_memory.services import Services

log = logging.getLogger(__name__)

# Turns claimed per drain round. Each round ends waiting for the embedding thread to finish
# its last drafts (0.1-0.4 s); the offline extractor does 1,000 turns in about 2 s, so rounds of
# 4,000 wait a quarter as often (bench/ingest.py: median of 9 runs 504 -> 560 turns/s) and
# still hold their claims for seconds, far inside CLAIM_STALE. A model backend takes minutes
# per 1,000 turns: its rounds stay small so a claim never outlives CLAIM_STALE.
OFFLINE_ROUND_TURNS = 4000
MODEL_ROUND_TURNS = 1000
CLAIM_STALE = timedelta(minutes=10)  # only for claims of another host (liveness unknown)
WRITE_CHUNK = 500  # turns per write transaction: the lock is never held for a whole big file
OUTCOMES = ("new", "seen_again", "suppressed", "reinforced")
_LIVE_FORMATS = ("codex",)  # session files written while the agent runs: a half line is normal
Progress = Callable[[dict[str, Any]], None]


def empty_counts() -> dict[str, int]:
    return {"turns": 0, **dict.fromkeys(OUTCOMES, 0), "invalid": 0}


class IngestService:
    def __init__(self, svc: Services, extractor: Extractor | None = None) -> None:
        self.svc = svc
        self._extractor = extractor
        self._built_from: dict[str, Any] | None = None
        self.owner = new_owner()
        self._work: WorkProgress | None = None  # the running import's progress row (services/progress.py)

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
        self._work = work = WorkProgress(self.svc, "import", self.owner)  # the dashboard's status bar reads it
        try:
            while index < len(queue) and not stop_requested():
                path = queue[index]
                index += 1
                real = os.path.realpath(path)
                if real in seen:
                    continue
                seen.add(real)
                if progress:
                    progress({"file": path, "index": index, "total": len(queue), "turns": summary["turns"]["new"]})
                work.update(file=os.path.basename(path), index=index, files=len(queue), done=0, total=0,
                            force=index == 1)
                report = self._ingest_one(path, fmt, namespace, summary, extract=extract)
                summary["files"].append(report)
                if report.get("format") == "claude-code":
                    queue.extend(f for f in self._subagent_files(path) if os.path.realpath(f) not in seen)
        finally:
            self._work = None
            work.finish()
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
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            return []
        return [os.path.join(folder, n) for n in names if n.endswith(".jsonl")]

    def _ingest_one(
        self, path: str, fmt: str, namespace: str | None, summary: dict[str, Any], *, extract: bool
    ) -> dict[str, Any]:
        """Import one file. Anything wrong with it is reported (file, line, reason) and the
        next file is read; only a problem with the database itself stops the import."""
        report: dict[str, Any] = {"path": path, "format": None, "error": None}
        try:
            problem = regular_file_error(path)
            if problem is not None:
                raise problem
            if empty_subagent_file(path):  # a workflow that never ran its agent: nothing to read, nothing wrong
                report["skipped"] = "empty subagent file"
                return report
            if fmt in ("auto", "codex") and session_from_name(path) and not mentions(path, b"\n"):
                # Codex creates the rollout, then writes its first line: a session just started
                summary["warnings"].append({"file": path, "message": "Codex session file still being written "
                                            "(no complete line yet); skipped, it is read once it has lines"})
                return report
            file_fmt = detect_format(path) if fmt == "auto" else fmt
            report["format"] = file_fmt
            result, known_before, start_offset = self._read(path, file_fmt)
            resumed = start_offset > 0
            result.errors.extend(check_result(result))
            conv_ids, new, known = self._store(result, namespace, known_before, start_offset)
        except StorageError:
            raise
        except (UserError, OSError) as exc:
            message = str(exc) if isinstance(exc, UserError) else (exc.strerror or str(exc))
            return self._file_failed(report, summary, message)
        except Exception as exc:  # a reader bug must cost this file only, never the others
            log.exception("could not import %s", path)
            return self._file_failed(report, summary, f"internal error while reading it ({type(exc).__name__}: {exc})")
        if file_fmt in _LIVE_FORMATS:
            self._live_tail_warning(result, summary)
        line_errors = [e.to_dict() for e in result.errors]
        if not resumed and not line_errors and not (new + known) and file_fmt not in ("claude-code", "codex"):
            line_errors.append({"file": path, "line": None,
                                "message": f"no conversation turns found: is it really a {file_fmt} file?"})
        summary["errors"].extend(line_errors)
        conversations = len(result.conversations) or int(bool(result.state.get("conversation_id")))
        summary["conversations"] += conversations
        summary["turns"]["new"] += new
        summary["turns"]["known"] += known
        report.update(conversations=conversations, turns_new=new, turns_known=known,
                      line_errors=len(line_errors))
        if extract:
            self._extract_file(path, conv_ids, summary)
        if file_fmt == "claude-code":
            summary["decisions"] += self._capture_decisions(path, summary, since=start_offset)
        return report

    @staticmethod
    def _live_tail_warning(result: ReadResult, summary: dict[str, Any]) -> None:
        """A last line without its newline in a session file is, nearly always, one the agent is
        still writing: a warning (it is read again on the next import), not a failed import."""
        for tail in [e for e in result.errors if e.message.startswith(INCOMPLETE_LINE)]:
            result.errors.remove(tail)
            summary["warnings"].append({"file": tail.file, "line": tail.line, "message": (
                "the last line is incomplete (a session still being written, or cut off); it is read again "
                "on the next import")})

    @staticmethod
    def _file_failed(report: dict[str, Any], summary: dict[str, Any], message: str) -> dict[str, Any]:
        report["error"] = message
        summary["errors"].append({"file": report["path"], "line": None, "message": message})
        return report

    def _extract_file(self, path: str, conv_ids: list[str], summary: dict[str, Any]) -> None:
        """Extract what is pending in the file's conversations: its new turns, and turns a
        killed earlier run left pending or claimed (re-ingesting resumes them)."""
        pending = ingest_rows.pending_in(self.svc.store, conv_ids) if conv_ids else 0
        if not pending:
            return
        if self._work is not None:
            self._work.update(done=0, total=pending, force=True)
        try:
            counts = self.drain(conversation_ids=conv_ids)
        except StorageError:
            raise
        except UserError as exc:  # postponed (budget, rate limit, model down): turns stay pending
            log.warning("extraction postponed for %s: %s", path, exc)
            summary["warnings"].append({"file": path, "message": f"extraction postponed: {exc}"})
        except Exception as exc:  # an extractor failure must not lose the import
            log.exception("extraction failed for %s", path)
            summary["warnings"].append({"file": path, "message": f"extraction postponed: {exc}"})
        else:
            for key in (*OUTCOMES, "invalid"):
                summary["candidates"][key] += counts[key]
            if counts.get("deferred"):  # for a mapped store that is away (setting stores.map)
                summary["candidates"]["deferred"] = summary["candidates"].get("deferred", 0) + counts["deferred"]
                summary["warnings"].append({"file": path, "message": "extraction postponed: a store named by "
                                            "stores.map could not be opened; the turns stay pending"})

    def _read(self, path: str, fmt: str) -> tuple[ReadResult, int, int]:
        """Read a file, resuming a line format after the previous read when the file only grew.

        Returns the result, the number of turns known from earlier reads, and the byte offset
        this read started at (0: from the start).
        """
        real = os.path.realpath(path)
        previous = ingest_rows.get_file(self.svc.store, real)
        start_offset = start_line = known_before = 0
        state = None
        size = os.path.getsize(path)
        if (fmt in LINE_FORMATS and previous is not None and previous["format"] == fmt
                and size >= previous["end_offset"] and previous["head_hash"]):
            length = int(str(previous["head_hash"]).split(":", 1)[0])
            tail = previous["state"].get("tail_hash")
            if head_hash(path, length) == previous["head_hash"] and (
                    not tail or tail_hash(path, previous["end_offset"]) == tail):
                start_offset, start_line = previous["end_offset"], previous["end_line"]
                state, known_before = previous["state"], previous["turns"]
        result = read_file(os.path.abspath(path), fmt, start_offset, start_line, state,
                           workspace_map=self.svc.settings.get("workspace.map"))
        result.state = {**(state or {}), **result.state, "path": real}
        result.state["size"] = size
        result.state["mtime"] = os.path.getmtime(path)
        result.state["known_before"] = known_before
        return result, known_before, start_offset

    def _store(
        self, result: ReadResult, namespace: str | None, known_before: int, start_offset: int = 0,
    ) -> tuple[list[str], int, int]:
        """Write one file's conversations and new turns.

        Secrets are masked and rows built before any lock is taken; turns are written in
        transactions of :data:`WRITE_CHUNK`, and the file's read position last, so a crash
        in between only makes the next read find some turns already known (stable ids).
        A resumed read that found nothing new (a second hook for the same turn) writes nothing.
        """
        store = self.svc.store
        new = known = 0
        state = dict(result.state)
        real = state.pop("path")
        size, mtime = state.pop("size"), state.pop("mtime")
        state.pop("known_before", None)
        conv_ids = [conv.id for conv in result.conversations]
        if state.get("conversation_id") and state["conversation_id"] not in conv_ids:
            conv_ids.append(state["conversation_id"])
        for conv in result.conversations:
            # Secrets are masked here, before the write lock, the turns of a conversation
            # together (a value given after "What is the password?", a masked value said
            # again); the store's own pass (store/redaction.py) then finds the text clean.
            contents = redact_turns([turn.content for turn in conv.turns], ingest_rows.last_content(store, conv.id))
            rows: list[dict[str, Any]] = [{
                "id": turn.id, "conversation_id": conv.id, "role": turn.role,
                "content": content, "created_at": turn.created_at,
                "meta": turn.meta, "extract_state": "pending" if turn.extract else "skipped",
                "extract_mode": "turn", "segment": turn.segment,
            } for turn, content in zip(conv.turns, contents, strict=True)]
            for start in range(0, max(1, len(rows)), WRITE_CHUNK):
                chunk = rows[start:start + WRITE_CHUNK]
                with store.transaction():
                    if start == 0:
                        if conv.parent_id:
                            ingest_rows.ensure_conversation(store, conv.parent_id, conv.format)
                        ingest_rows.upsert_conversation(store, {
                            "id": conv.id, "format": conv.format, "source_path": conv.source_path,
                            "title": conv.title, "parent_id": conv.parent_id,
                            "namespace": namespace or conv.namespace, "started_at": conv.started_at,
                            "meta": conv.meta,
                        })
                    existing = ingest_rows.existing_turn_ids(store, [r["id"] for r in chunk])
                    seq = ingest_rows.next_seq(store, conv.id)
                    fresh = []
                    for row in chunk:
                        if row["id"] in existing:
                            known += 1
                            continue
                        existing.add(row["id"])
                        fresh.append({**row, "seq": seq})
                        seq += 1
                    ingest_rows.insert_turns(store, fresh)
                    new += len(fresh)
                    self._link_remembered(fresh)
        segment = int(state.get("segment", 0))
        if start_offset and result.end_offset == start_offset and not result.conversations:
            return conv_ids, 0, known_before
        with store.transaction():
            if segment:
                for conv in result.conversations:
                    ingest_rows.mark_compaction(store, conv.id, before_segment=segment)
            if result.format in LINE_FORMATS:
                state["tail_hash"] = tail_hash(real, result.end_offset)
                ingest_rows.put_file(store, {
                    "path": real, "format": result.format, "size": size, "mtime": mtime,
                    "head_hash": head_hash(real, min(HEAD_BYTES, result.end_offset)),
                    "end_offset": result.end_offset, "end_line": result.end_line,
                    "turns": known_before + new, "state": state, "updated_at": self.svc.clock.now_iso(),
                })
        return conv_ids, new, known + known_before

    def _link_remembered(self, turns: list[dict[str, Any]]) -> None:
        """An agent's ``remember`` call (over MCP) queued a candidate without knowing its turn;
        the transcript read now shows the call: it becomes the candidate's originating turn, so
        the reviewer can jump to it. Only when the candidate still says what the call said."""
        for turn in turns:
            links = turn["meta"].get("remembered") if isinstance(turn.get("meta"), dict) else None
            # one link (Codex: a reply per item) or several (Claude Code: parallel calls, one reply record)
            for link in links if isinstance(links, list) else [links]:
                if not isinstance(link, dict):
                    continue
                row = candidate_rows.get_row(self.svc.store, int(link.get("candidate_id") or 0))
                if row is not None and fingerprint(str(row["content"])) == link.get("fingerprint"):
                    candidate_rows.link_remember_sighting(self.svc.store, int(row["id"]), str(link["turn_id"]))

    def _capture_decisions(self, path: str, summary: dict[str, Any], since: int = 0) -> int:
        """Record the answered ``AskUserQuestion`` calls of a Claude Code file. Only when the
        bytes read now (from ``since``) hold a question or an answer is the file parsed: most
        turns (the ``Stop`` hook runs on every one) pay a byte scan of what they added."""
        if not any(mentions(path, needle, start=since) for needle in DECISION_NEEDLES):
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
        batch_turns: int | None = None,
    ) -> dict[str, int]:
        """Extract candidates from pending turns (all, or of some conversations) until none is left.

        Each round claims whole conversations (taking over claims whose process is gone),
        runs the extractor and the embedding of its drafts (on a worker thread, overlapping the
        extraction: :mod:`.draft_embedding`) outside any transaction, then
        submits the drafts in short transactions of up to 64 (:mod:`.batch_submit`) and marks
        the turns done. The write lock is never held across a model, a network call or
        more than about 0.1 s of submits. When the
        extractor or the database fails, the passes that finished are kept (a model call
        already paid for) and the other claims are released (those turns stay pending);
        a round redone after a crash adds nothing twice (a sighting from a known turn is
        not counted again).
        """
        counts = empty_counts()
        extractor = self.extractor
        if extractor is None:
            return counts
        if batch_turns is None:  # a model backend packs requests (extract_spans): minutes per round
            batch_turns = MODEL_ROUND_TURNS if hasattr(extractor, "extract_spans") else OFFLINE_ROUND_TURNS
        work = self._work or (self._drain_progress() if conversation_ids is None else None)
        try:
            self._drain_rounds(extractor, counts, conversation_ids, max_rounds, batch_turns, work)
        finally:
            if work is not None and work is not self._work:
                work.finish()
        return counts

    def _drain_progress(self) -> WorkProgress | None:
        """The extraction job's progress row, when there is something to extract."""
        states = ingest_rows.count_by_state(self.svc.store)
        pending = states.get("pending", 0) + states.get("claimed", 0)
        if not pending:
            return None
        work = WorkProgress(self.svc, "extract", self.owner)
        work.update(done=0, total=pending, force=True)
        return work

    def _drain_rounds(self, extractor: Extractor, counts: dict[str, int], conversation_ids: Sequence[str] | None,
                      max_rounds: int | None, batch_turns: int, work: WorkProgress | None) -> None:
        store = self.svc.store
        rounds = 0
        while max_rounds is None or rounds < max_rounds:
            rounds += 1
            now_moment = self.svc.clock.now()
            now = to_iso(now_moment)
            dead, unknown = self._orphaned_owners()
            rows = ingest_rows.claim_pending(
                store, self.owner, now, to_iso(now_moment - CLAIM_STALE),
                conversation_ids=list(conversation_ids) if conversation_ids is not None else None,
                max_turns=batch_turns, dead_owners=dead, unknown_owners=unknown,
            )
            if not rows:
                break
            drafts: list[CandidateDraft] = []
            passes: list[list[str]] = []  # the turns of each draft's pass
            done: list[str] = []
            deferred: set[str] = set()  # passes with a draft for a mapped store that is away
            failure: BaseException | None = None
            embedding = DraftEmbedding(self.svc)  # embeds on a second core while passes run
            submitted = 0
            try:
                results = self._extract(extractor, rows)
                while True:
                    try:
                        turn_ids, found = next(results)
                    except StopIteration:
                        break
                    except BaseException as exc:  # keep what finished (a model call already paid for)
                        failure = exc
                        break
                    drafts.extend(found)
                    passes.extend([turn_ids] * len(found))
                    done.extend(turn_ids)
                    embedding.add(found)
                    if work is not None:
                        work.update(done=counts["turns"] + len(done))
                    if stop_requested():  # the process is quitting: store what finished, give the rest back
                        break
                    # The groups embedded so far are submitted between passes, not after them all.
                    while embedding.embedded() - submitted >= SUBMIT_GROUP:
                        submitted = self._submit(drafts, submitted, submitted + SUBMIT_GROUP, embedding, counts,
                                                 passes, deferred)
                if failure is not None and not done:
                    raise failure
                self._submit(drafts, submitted, len(drafts), embedding, counts, passes, deferred)
                done = [turn_id for turn_id in done if turn_id not in deferred]
                for start in range(0, len(done), WRITE_CHUNK):
                    with store.transaction():
                        ingest_rows.finish_turns(store, done[start:start + WRITE_CHUNK], self.owner, "done", now)
                if failure is not None:
                    raise failure  # the turns whose pass did not finish are released below
                if deferred or stop_requested():  # back to pending (a sighting is never counted twice)
                    with store.transaction():
                        ingest_rows.release_claims(store, self.owner)
            except BaseException:
                try:
                    with store.transaction():
                        ingest_rows.release_claims(store, self.owner)
                except Exception:
                    log.warning("could not release claims of %s; they are taken over when it exits", self.owner)
                raise
            finally:
                embedding.close()
            counts["turns"] += len(done)
            if deferred or stop_requested():
                break  # not again in this drain: the store is still away, or the process quits

    def _submit(self, drafts: list[CandidateDraft], start: int, end: int, embedding: DraftEmbedding,
                counts: dict[str, int], passes: list[list[str]], deferred: set[str]) -> int:
        """Submit ``drafts[start:end]`` (each group once the worker has embedded it); returns ``end``.

        With ``stores.map`` set, drafts go one by one through the routing submit: a draft for a
        mapped store that is away leaves its pass's turns (``passes``) in ``deferred``."""
        if not self.svc.has_store_map():
            for outcome in submit_drafts(self.svc, drafts[start:end], ready=lambda n: embedding.wait(start + n)):
                counts[outcome] = counts.get(outcome, 0) + 1
            return end
        for number in range(start + 1, end + 1):
            embedding.wait(number)
            if deferred and deferred.issuperset(passes[number - 1]):
                continue
            try:
                outcome = self.svc.review.submit(drafts[number - 1]).outcome
            except MappedStoreError as exc:  # its namespace's store is away: that pass waits
                if not deferred:
                    log.warning("%s Its turns stay pending.", exc)
                deferred.update(passes[number - 1])
                counts["deferred"] = counts.get("deferred", 0) + 1
                continue
            except StorageError:
                raise
            except UserError as exc:
                log.info("dropped an invalid draft: %s", exc)
                counts["invalid"] += 1
                continue
            counts[outcome] = counts.get(outcome, 0) + 1
        return end

    def _orphaned_owners(self) -> tuple[list[str], list[str]]:
        """Claim owners whose process is gone, and owners that cannot be checked from here."""
        dead: list[str] = []
        unknown: list[str] = []
        for owner in ingest_rows.claim_owners(self.svc.store):
            if owner == self.owner:
                continue
            alive = is_alive(owner)
            if alive is False:
                dead.append(owner)
            elif alive is None:
                unknown.append(owner)
        return dead, unknown

    def _extract(self, extractor: Extractor, rows: list[dict[str, Any]]) -> Iterator[tuple[list[str], list[CandidateDraft]]]:
        """``(turn ids of the finished passes, their drafts)`` as each pass (or, for a model
        backend, each packed request) completes."""
        # A compaction summary that carries the agent's own "Memory candidates" is read back
        # line by line, whatever the backend (services/compaction_readback.py).
        built = build_passes(rows, getattr(extractor, "max_exchange", MAX_EXCHANGE),
                             getattr(extractor, "max_span", MAX_SPAN))
        passes, read_back = compaction_readback.take_summaries(self.svc, built)
        yield from read_back
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

    def segment_of_file(self, path: str) -> int:
        """Compaction boundaries read so far in a Claude Code file (0 if never read)."""
        row = ingest_rows.get_file(self.svc.store, os.path.realpath(path))
        return int(row["state"].get("segment", 0)) if row else 0

    def pending(self) -> dict[str, int]:
        """Turns by extraction state (pending, claimed, done, skipped, failed)."""
        return ingest_rows.count_by_state(self.svc.store)
