"""The bundled demo data: loading it into a database, and a throw-away demo copy.

The data lives in ``resources/demo/demo.jsonl`` (the export format of
:mod:`madohub_memory.services.transfer`). Its times are shifted on load so the demo
always looks recent, and ``--demo`` always works on a fresh copy, never on the real file.
"""

from __future__ import annotations

import json
import tempfile
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from madohub_memory.core.clock import parse_iso, to_iso
from madohub_memory.core.errors import UserError
from madohub_memory.core.resources import resources_dir

if TYPE_CHECKING:
    from madohub_memory.services import Services

REFERENCE = "2026-11-01T09:00:00.000Z"
_TIME_KEYS = {"created_at", "updated_at", "seen_at", "started_at", "last_hit_at", "at"}


def demo_file() -> Path:
    path = resources_dir() / "demo" / "demo.jsonl"
    if not path.is_file():
        raise UserError(f"The bundled demo data is missing ({path}); reinstall MadoHub Memory.")
    return path


def _shift(row: dict[str, Any], delta: timedelta) -> dict[str, Any]:
    for key in _TIME_KEYS & row.keys():
        if isinstance(row[key], str):
            row[key] = to_iso(parse_iso(row[key]) + delta)
    return row


def load_demo(svc: Services) -> dict[str, int]:
    """Import the demo data into ``svc``'s (empty) database, times shifted to now."""
    delta = svc.clock.now() - parse_iso(REFERENCE)
    with tempfile.TemporaryDirectory(prefix="madohub-demo-") as tmp:
        shifted = Path(tmp) / "demo.jsonl"
        with demo_file().open(encoding="utf-8") as src, shifted.open("w", encoding="utf-8") as out:
            for number, line in enumerate(src):
                obj = json.loads(line)
                if number and isinstance(obj.get("row"), dict):
                    obj["row"] = _shift(obj["row"], delta)
                out.write(json.dumps(obj, ensure_ascii=False) + "\n")
        counts = svc.transfer.import_file(shifted)
    counts["decisions"] = _demo_decisions(svc)
    return counts


# (question, options, [(choice, session, hours ago), ...]): answers a user gave at recurring points
_DECISIONS = [
    ("Which package manager should I use?", ["pnpm", "npm", "yarn"],
     [("pnpm", f"demo-s{n}", 200 - n * 20) for n in range(7)] + [("npm", "demo-s2", 150)]),
    ("Run the whole test suite before committing?", ["Whole suite", "Affected tests only"],
     [("Whole suite", "demo-s1", 180), ("Affected tests only", "demo-s3", 120),
      ("Whole suite", "demo-s4", 90), ("Affected tests only", "demo-s5", 60)]),
    ("部署前需要人工确认吗？", ["需要确认", "直接部署"],
     [("需要确认", f"demo-s{n}", 170 - n * 25) for n in range(5)]),
]


def _demo_decisions(svc: Services) -> int:
    """A few recorded answers for the Decisions tab."""
    now = svc.clock.now()
    recorded = 0
    for question, options, answers in _DECISIONS:
        for choice, session, hours in answers:
            svc.decisions.record(
                question, options, choice, session=session, source="api",
                timestamp=to_iso(now - timedelta(hours=hours)),
            )
            recorded += 1
    return recorded


def create_demo_db(directory: str | Path | None = None) -> Path:
    """A fresh database with the demo data in ``directory`` (a new temp dir by default)."""
    from madohub_memory.services import Services

    folder = Path(directory) if directory else Path(tempfile.mkdtemp(prefix="madohub-demo-"))
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "demo.db"
    for suffix in ("", "-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    with Services.open(path) as svc:
        load_demo(svc)
        # A demo copy must not pull the person's real transcripts into itself.
        svc.settings.set("workers.watch_enabled", False)
    return path
