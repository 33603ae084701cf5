"""The candidate lifecycle: submit (with dedup), approve, reject, restore, archive, auto-approve."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from madohub_memory.core.clock import to_iso
from madohub_memory.core.errors import ConflictError, NotFoundError
from madohub_memory.core.text import fingerprint, validate_content
from madohub_memory.core.types import Candidate, CandidateDraft, Equivalent, SubmitResult
from madohub_memory.core.vocab import (
    validate_actor,
    validate_confidence,
    validate_flags,
    validate_kind,
    validate_namespace,
    validate_source,
)
from madohub_memory.services.dedup import confirm, find_exact, find_listing, find_semantic
from madohub_memory.services.edits import edit_values, masked_content, stays_in_store
from madohub_memory.services.instruction_model import decide, flags_instruction
from madohub_memory.services.pending_list import pending_fields
from madohub_memory.store import candidates as candidate_rows
from madohub_memory.store import memories as memory_rows
from madohub_memory.store.fts_text import warm as warm_keyword_index

if TYPE_CHECKING:
    from madohub_memory.services import Services

_ACTOR_FOR_SOURCE = {"manual": "human", "remember": "agent", "turn": "agent", "compaction": "agent"}
SWEEP_CHUNK = 50  # candidates archived or auto-approved per write transaction


def default_session() -> str:
    """The session of a caller that names none: this process."""
    from madohub_memory.store.liveness import process_identity

    return f"process|{process_identity()}"


@dataclass(frozen=True)
class Source:
    """Where one sighting comes from; ``key`` is what two sightings share when they are the same."""

    turn_id: str | None
    session: str | None
    key: str


@dataclass(frozen=True)
class PreparedDraft:
    """A validated draft with the outcome of its slow lookups (see :meth:`ReviewService.prepare`)."""

    draft: CandidateDraft
    actor: str
    fingerprint: str
    semantic: Equivalent | None
    sources: list[Source]
    exact: Equivalent | None = None  # what the fingerprint found when prepared
    target: Services | None = None  # the mapped store it is written to (setting stores.map)


class ReviewService:
    def __init__(self, svc: Services) -> None:
        self.svc = svc
        self.changes = svc.changelog

    # -- creating candidates -------------------------------------------------------------

    def add_manual(self, content: str, kind: str, namespace: str | None = None) -> SubmitResult:
        """A person typed a memory: it enters the queue like any other candidate."""
        return self.submit(CandidateDraft(content, kind, namespace, source="manual", confidence=1.0))

    def remember(
        self,
        content: str,
        kind: str,
        namespace: str | None = None,
        confidence: float = 0.9,
        turn_id: str | None = None,
        session: str | None = None,
    ) -> SubmitResult:
        """An agent explicitly asked to remember something (source ``remember``).

        ``session`` names the agent's session (the MCP connection, the terminal session of
        the CLI): however often one session repeats a text, it counts as one sighting.
        """
        draft = CandidateDraft(
            content, kind, namespace, source="remember", confidence=confidence,
            turn_ids=(turn_id,) if turn_id else (),
        )
        return self.submit(draft, session=session)

    def validate(self, draft: CandidateDraft) -> CandidateDraft:
        """Check a draft against the closed vocabularies; clean and mask its content."""
        from madohub_memory.extraction.flags import scan  # loaded to write text, not to list it

        content = validate_content(draft.content)
        masked, found = scan(content)
        flags = set(draft.flags) | set(found)
        flags = decide(masked, flags, self.svc)  # the model's verdict, cues among its evidence
        return CandidateDraft(
            content=validate_content(masked),
            kind=validate_kind(draft.kind),
            namespace=validate_namespace(draft.namespace, self.svc.settings.get("persona")),
            source=validate_source(draft.source),
            confidence=validate_confidence(draft.confidence),
            turn_ids=tuple(t for t in draft.turn_ids if t),
            flags=validate_flags(flags),
        )

    def submit(
        self, draft: CandidateDraft, actor: str | None = None, *, session: str | None = None,
    ) -> SubmitResult:
        """Queue a draft unless an equivalent is already known (DESIGN invariant 3); a candidate
        that now qualifies for the auto-approve policy (when it is on) is approved at once,
        not at the next sweep.

        ``session``: who is speaking when the draft names no stored turn (an MCP server
        process, a terminal session); repeated sightings from one source are not counted
        again. Default: this process.
        """
        draft, target = self._route(draft)
        if target is not None:  # a namespace kept in another store: queued (and reviewed) there
            result = target.review.submit(draft, actor, session=session)
            return replace(result, store=self.svc.stores.label_of(self.svc.stores.location_for(draft.namespace or "")))
        result = self.commit(self.prepare(draft, actor, session=session))
        if result.outcome in ("new", "seen_again") and self.svc.settings.get("auto_approve.enabled"):
            self.auto_approve(only=[result.candidate_id])
        return result

    def prepare(
        self, draft: CandidateDraft, actor: str | None = None, *, session: str | None = None,
        validated: bool = False, turns: dict[str, str] | None = None,
    ) -> PreparedDraft:
        """Everything slow about a submit, done without the write lock: validation, the
        semantic match (model load, embedding) and the lookup of the draft's turns. (A drain
        round loads the model and its drafts' vectors first, then prepares and commits a
        group of drafts inside one short transaction: :mod:`.batch_submit`.)

        ``validated``: ``draft`` comes from :meth:`validate` already; ``turns``: the
        conversation of each stored turn the draft names, looked up for a whole batch
        (:mod:`.batch_submit`, which routes no draft: with ``stores.map`` set every draft
        takes the single path)."""
        if not validated:
            draft, target = self._route(draft)
            if target is not None:
                return replace(target.review.prepare(draft, actor, session=session), target=target)
            draft = self.validate(draft)
        assert draft.namespace is not None  # validate() always names one
        actor = validate_actor(actor or _ACTOR_FOR_SOURCE[draft.source])
        fp = fingerprint(draft.content)
        semantic = None
        exact = find_exact(self.svc, draft.kind, draft.namespace, fp)
        if exact is None:
            semantic = (find_listing(self.svc, draft.content, draft.kind, draft.namespace)
                        or find_semantic(self.svc, draft.content, draft.kind, draft.namespace))
        return PreparedDraft(draft, actor, fp, semantic, self._sources(draft, session, turns), exact)

    def commit(self, prepared: PreparedDraft, *, current: bool = False) -> SubmitResult:
        """The write of a prepared draft: a short transaction of point queries and inserts.

        ``current``: the draft was prepared inside the write transaction this commit joins,
        so what its lookups found is still true and is not read again."""
        if prepared.target is not None and prepared.target is not self.svc:
            return prepared.target.review.commit(prepared)
        draft, actor, fp = prepared.draft, prepared.actor, prepared.fingerprint
        assert draft.namespace is not None  # validated in prepare()
        store = self.svc.store
        with self.changes.batch():
            now = self.svc.clock.now_iso()
            if current:
                match = prepared.exact or prepared.semantic
            else:
                match = (find_exact(self.svc, draft.kind, draft.namespace, fp)
                         or confirm(self.svc, prepared.semantic))
            if match is None:
                values = {
                    "content": draft.content, "kind": draft.kind, "namespace": draft.namespace,
                    "source": draft.source, "confidence": draft.confidence, "seen_count": 1,
                    "status": "pending", "flags": ",".join(draft.flags), "fingerprint": fp,
                    "created_at": now, "updated_at": now,
                }
                candidate_id = candidate_rows.insert(store, values)
                self._sightings(candidate_id, prepared, prepared.sources, now)
                self.changes.record(
                    "candidate", candidate_id, "create", actor, None,
                    candidate_rows.get_row(store, candidate_id),
                )
                return SubmitResult("new", candidate_id)
            if match.memory is not None:
                return self._reinforce(match.memory, prepared, now)
            assert match.candidate is not None
            return self._seen_again(match.candidate, prepared, now)

    def _route(self, draft: CandidateDraft) -> tuple[CandidateDraft, Services | None]:
        """The draft with its namespace resolved here (the local persona is the default) and
        the store it belongs in: ``None`` for this one. A mapped store that cannot be opened
        is one sentence, and nothing is written here instead."""
        if self.svc.mapped or not self.svc.settings.get("stores.map"):
            return draft, None
        namespace = validate_namespace(draft.namespace, self.svc.settings.get("persona"))
        target = self.svc.stores.for_namespace(namespace)
        return (draft if target is None else replace(draft, namespace=namespace)), target

    def _sources(self, draft: CandidateDraft, session: str | None,
                 turns: dict[str, str] | None = None) -> list[Source]:
        """(turn id, session, source key) of each sighting the draft makes.

        A stored turn is its own source, in its conversation. A turn id that is not stored
        counts as a turn only when our own extraction passes named it; from an agent's
        ``remember`` (which may pass anything) it counts as the caller's session, like a
        draft without turns.
        """
        session = session or default_session()
        if not draft.turn_ids:
            return [Source(None, session, f"session:{session}")]
        known = (turns if turns is not None
                 else candidate_rows.turn_conversations(self.svc.store, list(draft.turn_ids)))
        extracted = draft.source in ("turn", "compaction")
        out = []
        for turn_id in draft.turn_ids:
            if turn_id in known:
                out.append(Source(turn_id, known[turn_id], turn_id))
            elif extracted:
                out.append(Source(turn_id, session, turn_id))
            else:
                out.append(Source(turn_id, session, f"session:{session}"))
        return out

    def _new_sources(self, candidate_id: int | None, sources: list[Source]) -> list[Source]:
        """The sources that have not been seen on this candidate before."""
        if candidate_id is None:
            return sources
        keys = list(dict.fromkeys(s.key for s in sources))
        known = candidate_rows.known_source_keys(self.svc.store, candidate_id, keys)
        fresh: dict[str, Source] = {}
        for source in sources:
            if source.key not in known:
                fresh.setdefault(source.key, source)
        return list(fresh.values())

    def _sightings(self, candidate_id: int, prepared: PreparedDraft, sources: list[Source], now: str) -> None:
        draft = prepared.draft
        for source in sources:
            candidate_rows.add_sighting(
                self.svc.store,
                {"candidate_id": candidate_id, "turn_id": source.turn_id, "source": draft.source,
                 "confidence": draft.confidence, "actor": prepared.actor, "seen_at": now,
                 "session": source.session, "source_key": source.key},
            )

    def _seen_again(self, before: dict[str, Any], prepared: PreparedDraft, now: str) -> SubmitResult:
        store = self.svc.store
        draft, actor = prepared.draft, prepared.actor
        candidate_id = before["id"]
        fresh = self._new_sources(candidate_id, prepared.sources)
        changes: dict[str, Any] = {}
        if fresh:
            changes["seen_count"] = before["seen_count"] + 1
        if before["status"] == "pending":
            confidence = max(before["confidence"], draft.confidence)
            flags = ",".join(validate_flags(set(f for f in before["flags"].split(",") if f) | set(draft.flags)))
            # A repeat from a known source changes nothing but may add a flag.
            if fresh or confidence != before["confidence"] or flags != before["flags"]:
                changes.update(updated_at=now, confidence=confidence, flags=flags)
            from madohub_memory.extraction.routines import widen_listing  # not on every start

            wider = widen_listing(before["content"], draft.content)
            if wider is not None:  # a later pass saw more of the project's checks
                changes.update(updated_at=now, content=wider, fingerprint=fingerprint(wider))
        outcome = "seen_again" if before["status"] == "pending" else "suppressed"
        if not changes:
            return SubmitResult(outcome, candidate_id, before.get("memory_id"))
        candidate_rows.update(store, candidate_id, changes)
        self._sightings(candidate_id, prepared, fresh, now)
        self.changes.record(
            "candidate", candidate_id, outcome, actor, before,
            candidate_rows.get_row(store, candidate_id),
        )
        return SubmitResult(outcome, candidate_id, before.get("memory_id"))

    def _reinforce(self, memory: dict[str, Any], prepared: PreparedDraft, now: str) -> SubmitResult:
        store = self.svc.store
        actor = prepared.actor
        candidate_id = memory["candidate_id"]
        before = candidate_rows.get_row(store, candidate_id) if candidate_id is not None else None
        fresh = self._new_sources(before["id"] if before else None, prepared.sources)
        if not fresh:
            return SubmitResult("reinforced", candidate_id or 0, memory["id"])
        memory_rows.update(
            store, memory["id"],
            {"reinforced_count": memory["reinforced_count"] + 1, "updated_at": now},
        )
        self.changes.record(
            "memory", memory["id"], "reinforce", actor, memory, memory_rows.get_row(store, memory["id"])
        )
        if before is not None:
            candidate_rows.update(store, candidate_id, {"seen_count": before["seen_count"] + 1})
            self._sightings(candidate_id, prepared, fresh, now)
            self.changes.record(
                "candidate", candidate_id, "reinforce", actor, before,
                candidate_rows.get_row(store, candidate_id),
            )
        return SubmitResult("reinforced", candidate_id or 0, memory["id"])

    # -- decisions on candidates ---------------------------------------------------------

    def get(self, candidate_id: int) -> Candidate:
        candidate = candidate_rows.get(self.svc.store, candidate_id)
        if candidate is None:
            raise NotFoundError("No candidate with id {candidate_id}.", candidate_id=candidate_id)
        return candidate

    def candidate_of(self, result: SubmitResult) -> Candidate | None:
        """The candidate a submit queued or counted, read from the store it went to."""
        if not result.candidate_id:
            return None
        if result.store is None:
            return self.get(result.candidate_id)
        location = self.svc.stores.location_of_label(result.store)
        owner = self.svc if location is None else self.svc.stores.open(location)
        return owner.review.get(result.candidate_id)

    def pending(self, kind: str | None = None, namespace: str | None = None) -> list[Candidate]:
        return [Candidate(**fields) for fields in pending_fields(self.svc, kind, namespace)]

    def _require(self, candidate_id: int, *statuses: str) -> dict[str, Any]:
        row = candidate_rows.get_row(self.svc.store, candidate_id)
        if row is None:
            raise NotFoundError("No candidate with id {candidate_id}.", candidate_id=candidate_id)
        if statuses and row["status"] not in statuses:
            raise ConflictError(
                "Candidate {candidate_id} is {status}, not {expected}.",
                candidate_id=candidate_id, status=row["status"], expected=" or ".join(statuses),
            )
        return row

    def approve(
        self,
        candidate_id: int,
        *,
        content: str | None = None,
        kind: str | None = None,
        namespace: str | None = None,
        actor: str = "human",
    ) -> int:
        """Promote a pending candidate to memory, with the person's edits; return the memory id.

        The edited text is what becomes memory; the candidate keeps its original text, and
        history keeps both. If the (edited) text equals an active memory, that memory is
        reinforced instead of duplicated.
        """
        store = self.svc.store
        row = candidate_rows.get_row(store, candidate_id)
        warm_keyword_index(content, row["content"] if row else None)
        with self.changes.batch():
            before = self._require(candidate_id, "pending")
            new_content = masked_content(content) if content is not None else before["content"]
            new_kind = validate_kind(kind) if kind else before["kind"]
            new_ns = (
                validate_namespace(namespace, self.svc.settings.get("persona"))
                if namespace else before["namespace"]
            )
            if namespace:
                stays_in_store(self.svc, new_ns)
            now = self.svc.clock.now_iso()
            person = self.changes.person() if actor == "human" else None  # "approved by wei"
            fp = fingerprint(new_content)
            existing = memory_rows.find_active_by_fingerprint(store, fp, new_ns, new_kind)
            if existing is not None:
                memory_id = existing["id"]
                memory_rows.update(
                    store, memory_id,
                    {"reinforced_count": existing["reinforced_count"] + 1, "updated_at": now},
                )
                self.changes.record(
                    "memory", memory_id, "reinforce", actor, dict(existing),
                    memory_rows.get_row(store, memory_id),
                )
            else:
                memory_id = memory_rows.insert(
                    store,
                    {"candidate_id": candidate_id, "content": new_content, "kind": new_kind,
                     "namespace": new_ns, "fingerprint": fp, "created_at": now, "updated_at": now,
                     "approved_by": person},
                )
                self.changes.record(
                    "memory", memory_id, "create", actor, None, memory_rows.get_row(store, memory_id)
                )
            candidate_rows.update(
                store, candidate_id,
                {"status": "approved", "memory_id": memory_id, "updated_at": now, "decided_by": person},
            )
            self.changes.record(
                "candidate", candidate_id, "approve", actor, before,
                candidate_rows.get_row(store, candidate_id),
            )
        return int(memory_id)

    def _set_status(self, candidate_id: int, status: str, action: str, actor: str, *allowed: str) -> None:
        with self.changes.batch():
            before = self._require(candidate_id, *allowed)
            candidate_rows.update(
                self.svc.store, candidate_id,
                {"status": status, "updated_at": self.svc.clock.now_iso(),
                 "decided_by": self.changes.person() if actor == "human" else None},
            )
            self.changes.record(
                "candidate", candidate_id, action, actor, before,
                candidate_rows.get_row(self.svc.store, candidate_id),
            )

    def reject(self, candidate_id: int, actor: str = "human") -> None:
        self._set_status(candidate_id, "rejected", "reject", actor, "pending")

    def restore(self, candidate_id: int, actor: str = "human") -> None:
        """Put an archived or rejected candidate back in the queue (unless an equivalent one
        is already waiting there: two pending copies of one memory would break invariant 3)."""
        with self.changes.batch():
            row = self._require(candidate_id, "archived", "rejected")
            twin = candidate_rows.pending_twin(self.svc.store, row)
            if twin is not None:
                raise ConflictError(
                    "Candidate {candidate_id} is the same as pending candidate {twin}: review that one "
                    "instead.", candidate_id=candidate_id, twin=twin,
                )
            self._set_status(candidate_id, "pending", "restore", actor, "archived", "rejected")

    def edit(
        self,
        candidate_id: int,
        *,
        content: str | None = None,
        kind: str | None = None,
        namespace: str | None = None,
    ) -> None:
        """Edit a pending candidate without deciding on it yet."""
        # the instruction model runs before the write lock is taken (a model never runs under it)
        steering = content is not None and flags_instruction(masked_content(content), self.svc)
        with self.changes.batch():
            before = self._require(candidate_id, "pending")
            values = edit_values(self.svc, content, kind, namespace)
            if "content" in values:
                from madohub_memory.extraction.flags import scan

                # the cues' own verdict is replaced by the model's (``steering``), which reads them
                flags = (set(scan(values["content"])[1]) - {"instruction"}) | {f for f in before["flags"].split(",") if f}
                flags |= {"instruction"} if steering else set()
                values["flags"] = ",".join(validate_flags(flags))
            values["updated_at"] = self.svc.clock.now_iso()
            candidate_rows.update(self.svc.store, candidate_id, values)
            self.changes.record(
                "candidate", candidate_id, "edit", "human", before,
                candidate_rows.get_row(self.svc.store, candidate_id),
            )

    def approve_many(self, candidate_ids: list[int]) -> list[int]:
        """Approve several candidates as one undoable step."""
        with self.changes.batch():
            return [self.approve(cid) for cid in candidate_ids]

    def reject_many(self, candidate_ids: list[int]) -> None:
        with self.changes.batch():
            for cid in candidate_ids:
                self.reject(cid)

    def undo(self) -> list[dict[str, Any]]:
        """Take back the newest decision or edit this origin made (see ``services.changes``)."""
        return self.changes.undo()

    # -- policies run by the sweep -------------------------------------------------------

    def archive_stale(self) -> list[int]:
        """Archive pending candidates untouched for ``archive_days``."""
        days = self.svc.settings.get("archive_days")
        cutoff = to_iso(self.svc.clock.now() - timedelta(days=days))
        ids = candidate_rows.stale_pending_ids(self.svc.store, cutoff)
        for start in range(0, len(ids), SWEEP_CHUNK):  # a short write per chunk, not one per sweep
            with self.changes.batch():
                for cid in ids[start:start + SWEEP_CHUNK]:
                    self._set_status(cid, "archived", "archive", "auto", "pending")
        return ids

    def auto_approve(self, only: list[int] | None = None) -> list[int]:
        """Apply the opt-in auto-approve policy (DESIGN invariant 4) to every pending candidate,
        or to ``only`` these (a candidate that just arrived); return the approved ids."""
        settings = self.svc.settings
        if not settings.get("auto_approve.enabled"):
            return []
        ids = candidate_rows.auto_approve_ids(
            self.svc.store,
            settings.get("auto_approve.min_seen"),
            settings.get("auto_approve.min_confidence"),
            settings.get("auto_approve.excluded_kinds"),
            only,
        )
        may_decide = getattr(self.svc.store, "may_decide_workspace", None)  # a server's proposer role
        if ids and may_decide is not None and not may_decide():  # its own persona only (DESIGN: team server)
            ids = [cid for cid in ids if str((candidate_rows.get_row(self.svc.store, cid) or {})
                                             .get("namespace", "")).startswith("persona:")]
        if not ids:
            return []
        warm_keyword_index(*((candidate_rows.get_row(self.svc.store, cid) or {}).get("content") for cid in ids[:50]))
        for start in range(0, len(ids), SWEEP_CHUNK):
            with self.changes.batch():
                for cid in ids[start:start + SWEEP_CHUNK]:
                    self.approve(cid, actor="auto")
        return ids
