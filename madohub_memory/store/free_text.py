"""Which text columns hold free text (masked on every write) and which are structural.

Kept apart from :mod:`.redaction` (which loads the scanner) so that the write guard
(:mod:`.write_guard`), which every connection carries, costs a read-only command nothing.
``tests/test_secret_sinks.py`` checks that every text column of the schema is in one of
the two lists, so a new column cannot be added without deciding which it is.
"""

from __future__ import annotations

# table -> column -> "text" (a string) or "json" (JSON text, or the value before encoding)
FREE_TEXT: dict[str, dict[str, str]] = {
    "conversations": {"title": "text", "meta": "json", "source_path": "text"},
    "turns": {"content": "text", "meta": "json"},
    "candidates": {"content": "text"},
    "memories": {"content": "text"},
    "history": {"before": "json", "after": "json"},
    "settings": {"value": "json"},
    "working_memory": {"task": "text"},
    "working_items": {"text": "text", "reason": "text"},
    "recall_log": {"query": "text"},
    "decisions": {"question": "text", "user_choice": "text", "all_options": "json", "static_default": "text",
                  "context": "json"},
    "decision_proposals": {"choice": "text"},
    "jobs": {"last_error": "text"},
    "work_progress": {"detail": "json"},  # a file name
}

STRUCTURAL: dict[str, set[str]] = {
    "schema_migrations": {"name", "applied_at"},
    "conversations": {"id", "format", "parent_id", "namespace", "started_at"},
    "turns": {"id", "conversation_id", "role", "created_at", "extract_state", "extract_mode", "claimed_by",
              "claimed_at", "extracted_at"},
    "candidates": {"kind", "namespace", "source", "status", "flags", "fingerprint", "created_at", "updated_at",
                   "decided_by"},
    "candidate_sightings": {"turn_id", "source", "actor", "seen_at", "session", "source_key"},
    "memories": {"kind", "namespace", "fingerprint", "last_hit_at", "status", "created_at", "updated_at",
                 "approved_by", "edited_by", "edited_at"},
    "history": {"entity", "entity_id", "action", "actor", "at", "batch", "origin", "person"},
    "settings": {"key", "updated_at"},
    "ingest_files": {"path", "format", "head_hash", "state", "updated_at"},
    "embeddings": {"entity", "model", "fingerprint"},
    "embedding_changes": {"entity"},
    "recall_log": {"at", "source", "namespace", "memory_ids"},
    "recall_state": {"key", "value"},
    "working_memory": {"workspace", "task_started_at", "updated_at"},
    "working_items": {"workspace", "item", "status", "created_at", "updated_at"},
    "decisions": {"decision_id", "timestamp", "point_key", "session", "source", "source_ref"},
    "decision_proposals": {"point_key", "proposed_at"},
    "decision_state": {"key", "value"},
    "jobs": {"name", "running_by", "running_since", "last_run", "next_run", "last_error_at", "counts"},
    "transfer_state": {"source_id", "table_name", "last_key", "source", "updated_at"},
    "work_progress": {"owner", "work", "started_at", "updated_at"},
}


