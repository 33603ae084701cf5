"""A secret typed in a conversation never reaches a stored turn, candidate, memory or export."""

from __future__ import annotations

import json
from pathlib import Path

from madohub_memory.services import Services

SECRET = "sk-proj-A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6"


def test_secret_in_an_ingested_prompt_is_masked_everywhere(tmp_path: Path, svc: Services) -> None:
    transcript = tmp_path / "chat.jsonl"
    lines = [
        {"role": "user", "content": f"I prefer keeping the OpenAI key in .env: OPENAI_API_KEY={SECRET}"},
        {"role": "assistant", "content": "Noted, I will read it from the environment."},
    ]
    transcript.write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    svc.ingest.ingest_paths([str(transcript)], format="jsonl")
    assert svc.store.query_one("SELECT COUNT(*) FROM turns")[0] == 2
    export = tmp_path / "out.jsonl"
    svc.transfer.export(export)
    assert SECRET not in export.read_text(encoding="utf-8")
    assert "[REDACTED" in export.read_text(encoding="utf-8")
    for table in ("turns", "candidates", "memories"):
        for row in svc.store.query(f"SELECT * FROM {table}"):
            assert SECRET not in json.dumps(dict(row), ensure_ascii=False)
