"""Decision memory use cases shared by the CLI, the MCP server, the dashboard and ingest.

Records answers at decision points, recommends what the user keeps choosing (see
:mod:`madohub_memory.decisions.engine`), captures ``AskUserQuestion`` answers from Claude
Code transcripts, runs the daily decay scan and proposes a strong, stable preference as a
``preference`` *candidate* for review (never a memory directly).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from madohub_memory.agents.claude_code.questions import CapturedDecision, from_tool_call, parse_lines
from madohub_memory.core.clock import parse_iso, to_iso
from madohub_memory.core.errors import NotFoundError, UserError, ValidationError
from madohub_memory.core.types import CandidateDraft
from madohub_memory.decisions import asking, decay, engine, labels
from madohub_memory.decisions import tiers as tier_logic
from madohub_memory.decisions.free_text import match_free_text
from madohub_memory.decisions.model import DecisionConfig, Observation
from madohub_memory.store import decisions as rows

if TYPE_CHECKING:
    from madohub_memory.services import Services

SCAN_GATE = "decay_scan.last_run"
SCAN_INTERVAL = timedelta(days=1)
MAX_CONTEXT_KEYS = 20
_SETTING_FIELDS = {
    "decisions.min_observations": "min_observations",
    "decisions.strong_observations": "strong_observations",
    "decisions.auto_resolve_p": "auto_resolve_p",
    "decisions.ask_band": "ask_band",
    "decisions.transient_ttl_days": "transient_ttl_days",
}


def clean_context(context: Mapping[str, Any] | None) -> dict[str, Any]:
    """Context as flat ``key -> scalar``; one clear error for anything else."""
    if context is None:
        return {}
    if not isinstance(context, Mapping):
        raise ValidationError("Context must be a set of key=value pairs.")
    if len(context) > MAX_CONTEXT_KEYS:
        raise ValidationError(
            "Context may have at most {limit} keys.", limit=MAX_CONTEXT_KEYS,
        )
    cleaned: dict[str, Any] = {}
    for key, value in context.items():
        name = str(key).strip()
        if not name or len(name) > 64:
            raise ValidationError("Context key {key!r} must be 1 to 64 characters.", key=key)
        if value is not None and not isinstance(value, (str, int, float, bool)):
            raise ValidationError(
                "Context value for {name!r} must be text, a number or true/false.", name=name,
            )
        cleaned[name] = value.strip() if isinstance(value, str) else value
    return cleaned


class DecisionService:
    def __init__(self, svc: Services) -> None:
        self.svc = svc
        self._personalise = True  # this process only: switching it off is never persisted

    # -- settings ------------------------------------------------------------------------

    def config(self) -> DecisionConfig:
        values = {field: self.svc.settings.get(key) for key, field in _SETTING_FIELDS.items()}
        config = DecisionConfig(**values)
        if config.strong_observations < config.min_observations:
            raise UserError("Setting decisions.strong_observations must not be below decisions.min_observations.")
        return config

    def set_personalisation(self, enabled: bool) -> bool:
        """Switch personalisation off (or on) for this session/process only; not stored."""
        self._personalise = bool(enabled)
        return self._personalise

    @property
    def personalisation(self) -> bool:
        return self._personalise

    # -- recording -----------------------------------------------------------------------

    def record(
        self,
        question: str,
        options: Sequence[str],
        choice: str,
        session: str | None = None,
        context: Mapping[str, Any] | None = None,
        key: str | None = None,
        transient: bool = False,
        *,
        source: str = "api",
        allow_other: bool = False,
        timestamp: str | None = None,
        ref: str | None = None,
    ) -> dict[str, Any]:
        """Store one answer; returns the stored record (``inserted`` False if ``ref`` was seen)."""
        record = self._build(question, options, choice, session, context, key, transient,
                             source=source, allow_other=allow_other, timestamp=timestamp, ref=ref)
        with self.svc.store.transaction():
            inserted = rows.insert(self.svc.store, record)
        return {**record, "inserted": inserted}

    def _build(
        self, question: str, options: Sequence[str], choice: str, session: str | None,
        context: Mapping[str, Any] | None, key: str | None, transient: bool, *,
        source: str, allow_other: bool, timestamp: str | None, ref: str | None,
        descriptions: Mapping[str, str] | None = None, multi_select: bool = False,
    ) -> dict[str, Any]:
        text = labels.normalise_question(question)
        if isinstance(options, str):
            options = [o for o in options.split(",")]
        offered, default = labels.normalise_options(options)
        chosen = labels.match_option(str(choice), offered)
        if chosen is None and allow_other and not multi_select:
            chosen = self._free_text_option(str(choice), offered, descriptions)
        if chosen is None:
            chosen = labels.normalise_label(str(choice))
            if not chosen:
                raise ValidationError("The choice is empty: say which option was picked.")
            if not allow_other:
                raise ValidationError(
                    "Choice {chosen!r} is not one of the options: {choices}.",
                    chosen=chosen, choices=', '.join(offered),
                )
            if len(chosen) > labels.MAX_LABEL:
                chosen = chosen[: labels.MAX_LABEL]
        at = to_iso(parse_iso(timestamp)) if timestamp else self.svc.clock.now_iso()
        session_text = str(session).strip() if session is not None else ""
        return {
            "decision_id": uuid.uuid4().hex,
            "timestamp": at,
            "point_key": labels.point_key(text, offered, key),
            "question": text,
            "user_choice": chosen,
            "all_options": offered,
            "static_default": default,
            "context": clean_context(context),
            "session": session_text or None,
            "transient": bool(transient),
            "source": source,
            "source_ref": ref,
        }

    def _free_text_option(
        self, answer: str, offered: list[str], descriptions: Mapping[str, str] | None
    ) -> str | None:
        """The offered option a typed answer means (None: the user's own answer)."""
        described = {labels.normalise_label(k): v for k, v in (descriptions or {}).items()}
        return match_free_text(answer, offered, described, self._similarity).option

    def _similarity(self, text: str, others: Sequence[str]) -> list[float]:
        """Cosine similarity with the similarity model (the thresholds were measured on its
        cosines; loaded only when words were not enough)."""
        from madohub_memory.recall.embeddings import SIMILARITY_MODEL, get_embedder

        vectors = get_embedder(SIMILARITY_MODEL).encode([text, *others])
        return [float(vectors[0] @ v) for v in vectors[1:]]

    def capture_transcript(self, path: str | Path) -> int:
        """Record every answered ``AskUserQuestion`` in a Claude Code file; returns how many are new."""
        file = Path(path)
        if not file.is_file():
            raise NotFoundError("Transcript {file} does not exist.", file=file)
        from madohub_memory.services.workspaces import resolver

        with file.open(encoding="utf-8", errors="replace") as handle:
            found = parse_lines(handle, resolver(self.svc))
        return self._capture(found, "transcript")

    def capture_tool_call(
        self, tool_input: Mapping[str, Any], tool_response: Mapping[str, Any], *,
        ref: str, session: str | None = None, context: Mapping[str, Any] | None = None,
    ) -> int:
        """Record the answers of one ``AskUserQuestion`` call (e.g. from a PostToolUse hook)."""
        answers = tool_response.get("answers") if isinstance(tool_response, Mapping) else None
        if not isinstance(answers, Mapping):
            return 0
        found = from_tool_call(tool_input, answers, ref=ref, session=session, context=context)
        return self._capture(found, "hook")

    def _capture(self, found: list[CapturedDecision], source: str) -> int:
        known = rows.known_refs(self.svc.store, [item.ref for item in found])
        records: list[dict[str, Any]] = []
        for item in found:  # built before the write lock: matching free text may load a model
            if item.ref in known:
                continue
            try:
                records.append(self._build(
                    item.question, item.options, item.answer, item.session, item.context, None,
                    False, source=source, allow_other=True, timestamp=item.timestamp, ref=item.ref,
                    descriptions=item.descriptions, multi_select=item.multi_select,
                ))
            except ValidationError:
                continue  # a malformed question in a transcript is skipped, not fatal
        added = 0
        with self.svc.store.transaction():
            for record in records:
                added += rows.insert(self.svc.store, record)
        return added

    # -- recommending --------------------------------------------------------------------

    def _observations(self, records: list[dict[str, Any]], config: DecisionConfig) -> list[Observation]:
        now = self.svc.clock.now()
        return decay.weigh_all([
            Observation(
                choice=r["user_choice"], at=parse_iso(r["timestamp"]), session=r["session"],
                transient=r["transient"], context=r["context"],
            )
            for r in records
        ], now, config)

    def recommend(
        self,
        question: str,
        options: Sequence[str],
        session: str | None = None,
        context: Mapping[str, Any] | None = None,
        key: str | None = None,
        personalise: bool | None = None,
    ) -> dict[str, Any]:
        """The recommendation for a question about to be asked, with tiers and ask-or-decide."""
        text = labels.normalise_question(question)
        if isinstance(options, str):
            options = options.split(",")
        offered, default = labels.normalise_options(options)
        point = labels.point_key(text, offered, key)
        return self._recommend_point(point, text, offered, default, session,
                                     clean_context(context), personalise)

    def _recommend_point(
        self, point: str, question: str, offered: list[str], default: str | None,
        session: str | None, context: Mapping[str, Any], personalise: bool | None,
    ) -> dict[str, Any]:
        config = self.config()
        records = rows.for_point(self.svc.store, point)
        if default is None and records and records[-1]["static_default"] in offered:
            default = records[-1]["static_default"]  # the asker's marker from last time
        observations = self._observations(records, config)
        use = self._personalise if personalise is None else (personalise and self._personalise)
        rec = engine.recommend(
            question, offered, observations, config, default=default,
            sessions=rows.session_count(self.svc.store), personalise=use, query_context=context,
        )
        result = rec.to_dict()
        result["point_key"] = point
        result["personalisation"] = use
        result["tiers"] = tier_logic.tiers(observations, session)
        return result

    def triage(
        self, questions: Sequence[Mapping[str, Any]], session: str | None = None,
        context: Mapping[str, Any] | None = None,
    ) -> list[dict[str, Any]]:
        """Recommendations for several questions, the most informative to ask first."""
        results = [
            self.recommend(q.get("question", ""), q.get("options") or [], session,
                           q.get("context", context), q.get("key"))
            for q in questions
        ]
        return asking.order_questions(results)

    # -- overview ------------------------------------------------------------------------

    def points(self, session: str | None = None) -> list[dict[str, Any]]:
        """Per decision point: tiers, current recommendation, confidence and precondition."""
        store = self.svc.store
        current = session or rows.latest_session(store)
        config = self.config()
        sessions = rows.session_count(store)
        out: list[dict[str, Any]] = []
        for point in rows.point_keys(store):
            records = rows.for_point(store, point)
            latest = records[-1]
            observations = self._observations(records, config)
            rec = engine.recommend(
                latest["question"], latest["all_options"], observations, config,
                default=latest["static_default"], sessions=sessions, personalise=self._personalise,
            )
            out.append({
                "point_key": point, "question": latest["question"], "options": latest["all_options"],
                "tiers": tier_logic.tiers(observations, current), "recommendation": rec.option,
                "label": rec.label, "stage": rec.stage, "confidence": rec.confidence,
                "confidence_level": rec.confidence_level, "precondition": rec.precondition,
                "share": rec.share, "observations": rec.observations, "action": rec.action,
                "basis": rec.basis, "shared_context": rec.shared_context,
                "last_seen": latest["timestamp"],
            })
        return out

    def stats(self) -> dict[str, Any]:
        store = self.svc.store
        config = self.config()
        sessions = rows.session_count(store)
        level, strength = engine.expertise(sessions, config)
        return {
            **rows.counts(store), "sessions": sessions, "expertise": level, "strength": strength,
            "personalisation": self._personalise, "last_decay_scan": rows.get_state(store, SCAN_GATE),
            "min_observations": config.min_observations,
            "strong_observations": config.strong_observations,
        }

    # -- maintenance ---------------------------------------------------------------------

    def decay_scan(self, force: bool = False) -> dict[str, Any]:
        """Expire transient choices and propose stable preferences, at most once a day."""
        store = self.svc.store
        now = self.svc.clock.now()
        config = self.config()
        from madohub_memory.services.semantic_dedup import warm

        warm(self.svc)  # a proposal is matched against known candidates: load the model first
        with store.transaction():
            last = rows.get_state(store, SCAN_GATE)
            if last and not force:
                elapsed = now - parse_iso(last)
                if timedelta(0) <= elapsed < SCAN_INTERVAL:
                    return {"ran": False, "last_run": last,
                            "next_run": to_iso(parse_iso(last) + SCAN_INTERVAL),
                            "expired": 0, "proposed": []}
            cutoff = to_iso(now - timedelta(days=config.transient_ttl_days))
            expired = rows.delete_transient_before(store, cutoff)
            proposed = self._propose(config)
            rows.set_state(store, SCAN_GATE, to_iso(now))
        return {"ran": True, "last_run": to_iso(now), "next_run": to_iso(now + SCAN_INTERVAL),
                "expired": expired, "proposed": proposed}

    def _propose(self, config: DecisionConfig) -> list[dict[str, Any]]:
        """Submit each strong and stable preference once as a ``preference`` candidate."""
        proposed: list[dict[str, Any]] = []
        sessions = rows.session_count(self.svc.store)
        for point in rows.point_keys(self.svc.store):
            records = rows.for_point(self.svc.store, point)
            latest = records[-1]
            observations = self._observations(records, config)
            rec = engine.recommend(latest["question"], latest["all_options"], observations, config,
                                   default=latest["static_default"], sessions=sessions)
            if rec.stage != "strong" or rows.proposal(self.svc.store, point, rec.option):
                continue
            recent = tier_logic.tiers(observations, None)["recent"]
            if recent and max(recent, key=lambda c: recent[c]) != rec.option:
                continue  # not stable: the last sessions lean elsewhere
            result = self.svc.review.submit(CandidateDraft(
                content=(f'When asked "{latest["question"]}", the user prefers "{rec.option}" '
                         f"({round(100 * (rec.share or 0))}% of {rec.observations} choices; "
                         f"{rec.precondition[0].lower()}{rec.precondition[1:]})."),
                kind="preference", namespace=self._namespace(observations), source="turn",
                confidence=min(0.99, max(0.5, rec.confidence)),
            ))
            rows.add_proposal(self.svc.store, point, rec.option, result.candidate_id,
                              self.svc.clock.now_iso())
            proposed.append({"point_key": point, "choice": rec.option,
                             "candidate_id": result.candidate_id, "outcome": result.outcome})
        return proposed

    def _namespace(self, observations: list[Observation]) -> str | None:
        from madohub_memory.core.vocab import validate_namespace
        from madohub_memory.decisions.precondition import shared_context

        workspace = shared_context(o.context for o in observations if o.counts).get("workspace")
        if not workspace:
            return None
        try:
            return validate_namespace(f"workspace:{workspace}")
        except ValidationError:
            return None
