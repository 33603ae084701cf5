"""Candidates the session's own model wrote into a compaction summary, read back into the queue.

The ``PreCompact`` hook asks Claude Code's compaction to end its summary with a "Memory
candidates" section (:mod:`madohub_memory.extraction.memory_candidates`). The summary reaches
us twice: at once in ``PostCompact``'s ``compact_summary`` (the transcript does not hold it
yet), and later as the ``isCompactSummary`` record when the transcript is imported (by the
next ``Stop`` hook or an ``ingest``). Both become a ``system`` turn of the conversation, and
the drain reads a summary turn carrying the section here instead of sending it to the
extractor: each well-formed line is one candidate (source ``compaction``, linked to that
turn, the workspace of the session's repository), and nothing else is mined from it. A
summary without the section goes to the extractor as before.

The same summary read twice adds nothing: ``PostCompact`` stores its turn under an id made
from the items themselves (:func:`summary_turn_id`), and the imported record, finding that
turn already there, is not read again. A re-import of a file finds its turns known.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from madohub_memory.core.types import CandidateDraft
from madohub_memory.extraction.memory_candidates import Section, find_section, section_drafts
from madohub_memory.ingest.passes import Pass
from madohub_memory.store import ingest as ingest_rows
from madohub_memory.store.redaction import redact_text

if TYPE_CHECKING:
    from madohub_memory.services import Services

log = logging.getLogger(__name__)

ReadBack = tuple[list[str], list[CandidateDraft]]


def summary_turn_id(conversation_id: str, key: str) -> str:
    """The id of a summary turn stored at ``PostCompact`` (the same items: the same id)."""
    return f"{conversation_id}:compact:{key}"


def take_summaries(svc: Services, passes: Iterable[Pass]) -> tuple[list[Pass], list[ReadBack]]:
    """Split off the summary turns that carry the section: ``(the passes left for the
    extractor, [(summary turn id, its drafts)])``."""
    persona = str(svc.settings.get("persona"))
    left: list[Pass] = []
    read: list[ReadBack] = []
    for item in passes:
        keep = []
        for turn in item.turns:
            section = find_section(turn.content) if turn.role == "system" and turn.content else None
            if section is None:
                keep.append(turn)
            else:
                read.append(([turn.id], _drafts(svc, item, turn.id, turn.conversation_id, section, persona)))
        if len(keep) == len(item.turns):
            left.append(item)
        elif keep:
            left.append(replace(item, turns=tuple(keep)))
    return left, read


def _drafts(svc: Services, item: Pass, turn_id: str, conversation_id: str, section: Section,
            persona: str) -> list[CandidateDraft]:
    first = summary_turn_id(conversation_id, section.key())
    if turn_id != first and ingest_rows.existing_turn_ids(svc.store, [first]):
        log.info("summary %s: its memory candidates were read at PostCompact (turn %s); nothing new", turn_id, first)
        return []
    workspace = item.namespace if item.namespace and item.namespace.startswith("workspace:") else None
    drafts = section_drafts(section, turn_id, workspace=workspace, persona=persona)
    log.info("summary %s: %d memory candidate lines read, %d skipped%s", turn_id, len(drafts),
             len(section.skipped), skipped_reasons(section.skipped))
    return drafts


def skipped_reasons(skipped: list[tuple[int, str]], shown: int = 5) -> str:
    """`` (line 12: unknown kind 'opinion'; …)`` for a log line: which lines were skipped and why."""
    if not skipped:
        return ""
    listed = "; ".join(f"line {line}: {why}" for line, why in skipped[:shown])
    return f" ({listed}{'; …' if len(skipped) > shown else ''})"


def store_summary(
    svc: Services, conversation_id: str, summary: str, *, created_at: str | None = None,
    segment: int = 0, namespace: str | None = None,
) -> dict[str, Any] | None:
    """``PostCompact``: keep the summary as a pending ``system`` turn of the conversation when
    it carries the section (the drain reads it back); None when it does not (the summary is
    then mined from the transcript's record, as before). Storing the same summary again adds
    nothing. ``namespace``: the session's, for a conversation not imported yet.

    The section is read from the masked text, as the transcript's record will be when it is
    imported: a line carrying a secret then gives the same key both times (read once)."""
    summary = redact_text(summary) or ""
    section = find_section(summary)
    if section is None:
        return None
    turn_id = summary_turn_id(conversation_id, section.key())
    body = _after_analysis(summary)
    with svc.store.transaction():
        # fills in only what the conversation's row does not know yet (a session not imported)
        ingest_rows.upsert_conversation(svc.store, {
            "id": conversation_id, "format": "claude-code", "source_path": None, "title": None,
            "parent_id": None, "namespace": namespace, "started_at": created_at, "meta": {},
        })
        new = not ingest_rows.existing_turn_ids(svc.store, [turn_id])
        if new:
            ingest_rows.insert_turns(svc.store, [{
                "id": turn_id, "conversation_id": conversation_id,
                "seq": ingest_rows.next_seq(svc.store, conversation_id), "role": "system",
                "content": body, "created_at": created_at or svc.clock.now_iso(),
                "meta": {"compact_summary": True, "post_compact": True}, "extract_state": "pending",
                "extract_mode": "turn", "segment": segment,
            }])
    return {"turn_id": turn_id, "new": new, "lines": len(section.lines), "skipped": len(section.skipped),
            "skipped_lines": section.skipped}


def _after_analysis(summary: str) -> str:
    """The summary proper, as Claude Code keeps it (the ``<analysis>`` drafting left out)."""
    marker = summary.rfind("</analysis>")
    return summary[marker + len("</analysis>"):].strip() if marker >= 0 else summary.strip()
