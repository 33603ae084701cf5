"""Shared helper of the recall benches: bulk loading approved memories.

Benchmarks load thousands of memories; going through review one by one would measure
the review path, not recall. This writes the same rows approval writes (candidate with
its sightings, then the memory), in one big transaction, through the store modules.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from madohub_memory.core.text import fingerprint
from madohub_memory.services import Services
from madohub_memory.store import candidates as candidate_rows
from madohub_memory.store import ingest as ingest_rows
from madohub_memory.store import memories as memory_rows


def _eval_dev() -> Path:
    """``../shared/eval/dev`` next to the checkout (or a worktree's ancestor), or $MADOHUB_EVAL_DEV."""
    env = os.environ.get("MADOHUB_EVAL_DEV")
    if env:
        return Path(env)
    for parent in Path(__file__).resolve().parents[1:]:
        candidate = parent / "shared" / "eval" / "dev"
        if candidate.is_dir():
            return candidate
    return Path(__file__).resolve().parents[2] / "shared" / "eval" / "dev"


EVAL_DEV = _eval_dev()


def load_approved(svc: Services, items: Iterable[dict[str, Any]]) -> list[int]:
    """Insert approved memories: each item has content, kind, namespace, optional turn_ids,
    optional ``turn_date`` (ISO time of the turns, recorded as turn rows like an import does)
    and optional ``created_at``."""
    store = svc.store
    now = svc.clock.now_iso()
    ids: list[int] = []
    with store.transaction():
        for item in items:
            if item.get("turn_date") and item.get("turn_ids"):
                conversation = f"bench:{item['namespace']}"
                ingest_rows.ensure_conversation(store, conversation, "jsonl")
                ingest_rows.insert_turns(store, [
                    {"id": turn, "conversation_id": conversation, "seq": 0, "role": "user", "content": "",
                     "created_at": item["turn_date"], "meta": {}, "extract_state": "done",
                     "extract_mode": "turn", "segment": 0}
                    for turn in item["turn_ids"]
                ])
            content = item["content"][:10_000]
            fp = fingerprint(content)
            at = item.get("created_at", now)
            cid = candidate_rows.insert(store, {
                "content": content, "kind": item["kind"], "namespace": item["namespace"],
                "source": "manual", "confidence": 1.0, "seen_count": 1, "status": "approved",
                "flags": "", "fingerprint": fp, "created_at": at, "updated_at": at,
            })
            for turn in item.get("turn_ids") or [None]:
                candidate_rows.add_sighting(store, {
                    "candidate_id": cid, "turn_id": turn, "source": "manual", "confidence": 1.0,
                    "actor": "human", "seen_at": at,
                })
            mid = memory_rows.insert(store, {
                "candidate_id": cid, "content": content, "kind": item["kind"],
                "namespace": item["namespace"], "fingerprint": fp, "created_at": at, "updated_at": at,
            })
            candidate_rows.update(store, cid, {"memory_id": mid})
            ids.append(mid)
    return ids


def embedding_cache(folder: str) -> Path | None:
    """The embedding cache folder of the dev-set benches (made if missing), or None, with one
    sentence on stderr, when the evaluation data is not there."""
    if not EVAL_DEV.is_dir():
        print(f"evaluation data not found at {EVAL_DEV}", file=sys.stderr)
        return None
    cache = Path(folder)
    cache.mkdir(parents=True, exist_ok=True)
    return cache
