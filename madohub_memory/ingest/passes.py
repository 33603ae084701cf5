"""Cutting claimed turns into extraction passes.

``turn`` mode: one pass per exchange (a user turn and the replies after it, at most
:data:`MAX_EXCHANGE` turns). ``compaction`` mode: the span before a compaction boundary, in
chunks of :data:`MAX_SPAN` turns (an LLM extractor has a bounded context). An extractor
without that bound (the offline one) asks for longer passes, so that a long autonomous
run is one exchange and its final report is seen as the end of it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import groupby
from typing import Any

from madohub_memory.core.types import Mode
from madohub_memory.ingest.model import SpeakerTurnView

MAX_EXCHANGE = 40
MAX_SPAN = 60


@dataclass(frozen=True)
class Pass:
    mode: Mode
    namespace: str | None
    turns: tuple[SpeakerTurnView, ...]


def _view(row: dict[str, Any]) -> SpeakerTurnView:
    meta = row.get("meta")
    if isinstance(meta, str):
        try:
            meta = json.loads(meta)
        except ValueError:
            meta = {}
    speaker = meta.get("speaker") if isinstance(meta, dict) else None
    return SpeakerTurnView(
        id=row["id"], role=row["role"], content=row["content"], conversation_id=row["conversation_id"],
        created_at=row.get("created_at"), speaker=speaker if isinstance(speaker, str) else None,
    )


def build_passes(rows: list[dict[str, Any]], max_exchange: int = MAX_EXCHANGE,
                 max_span: int = MAX_SPAN) -> Iterator[Pass]:
    """Passes over claimed turns (rows ordered by conversation and seq)."""
    for _, group in groupby(rows, key=lambda r: r["conversation_id"]):
        conv_rows = list(group)
        namespace = conv_rows[0].get("namespace")
        compaction = [r for r in conv_rows if r.get("extract_mode") == "compaction"]
        for _, seg_rows in groupby(compaction, key=lambda r: r.get("segment", 0)):
            span = [_view(r) for r in seg_rows]
            for start in range(0, len(span), max_span):
                yield Pass("compaction", namespace, tuple(span[start:start + max_span]))
        exchange: list[SpeakerTurnView] = []
        for row in conv_rows:
            if row.get("extract_mode") == "compaction":
                continue
            if exchange and (row["role"] == "user" or len(exchange) >= max_exchange):
                yield Pass("turn", namespace, tuple(exchange))
                exchange = []
            exchange.append(_view(row))
        if exchange:
            yield Pass("turn", namespace, tuple(exchange))
