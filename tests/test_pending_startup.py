"""``pending`` starts fast because its path imports little, and prints what it always printed (issue 11).

Listing the queue is the command people and agents run most; its target is a cold start in
< 150 ms (``bench/startup.py``). Most of a cold start is imports, so the path is kept to the
read it does: no submit machinery (dedup, history, the secret scanner), no dataclass
(``dataclasses`` imports ``inspect``, ~15 ms), no hash, no migration module when the schema
is current. The first test fails when one of them comes back; the others check that the
lighter path prints byte for byte what the candidate objects give.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from cli_runner import invoke

from madohub_memory.core.types import CandidateDraft
from madohub_memory.services import Services
from madohub_memory.store.migrations import all_migrations, module_names

COLUMNS = ["id", "kind", "namespace", "source", "confidence", "seen_count", "flags", "content"]

PROBE = """
import io, sys
from madohub_memory.cli import main
out, sys.stdout = sys.stdout, io.StringIO()
code = main(["--db", sys.argv[1], "pending", *sys.argv[2:]])
printed, sys.stdout, modules = sys.stdout.getvalue(), out, sorted(sys.modules)
import json
print(json.dumps({"code": code, "stdout": printed, "modules": modules}))
"""

# Standard modules that the read path does without (what each costs a cold start, roughly).
HEAVY = {
    "dataclasses", "inspect", "ast", "dis",  # ~15 ms: a dataclass anywhere on the path
    "hashlib", "_hashlib",  # OpenSSL: fingerprints are for writes
    "pkgutil",  # imports inspect: migrations are listed from the folder
    "random",  # only a busy retry waits a random time
    "numpy", "jieba", "regex", "sentence_transformers", "torch",
}
# The only modules of this package a `pending` may load. A new one on the path is a
# deliberate choice: add it here after checking its import time (python -X importtime).
ALLOWED = {
    "madohub_memory", "madohub_memory.cli", "madohub_memory.cli.output", "madohub_memory.cli.review_cmd",
    "madohub_memory.core", "madohub_memory.core.cjk", "madohub_memory.core.clock", "madohub_memory.core.errors",
    "madohub_memory.core.lazy_re", "madohub_memory.core.log_redaction", "madohub_memory.core.paths",
    "madohub_memory.core.text", "madohub_memory.core.vocab",
    "madohub_memory.services", "madohub_memory.services.log", "madohub_memory.services.pending_list",
    "madohub_memory.store", "madohub_memory.store.candidates", "madohub_memory.store.database",
    "madohub_memory.store.errors", "madohub_memory.store.files", "madohub_memory.store.fts_text",
    "madohub_memory.store.liveness", "madohub_memory.store.migrations", "madohub_memory.store.open_checks",
    "madohub_memory.store.rows", "madohub_memory.store.settings",  # one read: is stores.map set?
    "madohub_memory.store.opening", "madohub_memory.core.locations",  # a file or a server address?
    # the connection's write guard and its column lists (the scanner itself loads only on a write)
    "madohub_memory.store.write_guard", "madohub_memory.store.free_text",
    "madohub_memory.core.lock_order",  # the store's place in the lock order (stdlib only)
}


@pytest.fixture
def queue(svc: Services) -> Services:
    """A queue with what the listing shows: flags, turn ids, two kinds and namespaces, a
    multi-line and a long text, Chinese, and candidates that are not pending."""
    review = svc.review
    review.add_manual("The user prefers pnpm over npm", "preference", "persona:default")
    review.submit(CandidateDraft("Deploys go out on Thursday\nafter the freeze", "fact", "workspace:shop",
                                 source="turn", confidence=0.72, turn_ids=("t-1", "t-2"), flags=("pii",)))
    review.remember("我们决定用 PostgreSQL，因为需要事务", "decision", "workspace:shop", confidence=0.9)
    review.remember("x" * 300, "fact", "workspace:shop", confidence=0.333)
    review.reject(review.add_manual("Rejected text", "fact", "workspace:shop").candidate_id)
    review.approve(review.add_manual("Approved text", "fact", "workspace:shop").candidate_id)
    return svc


def _probe(db: Path, *args: str) -> dict[str, Any]:
    """``pending ARGS`` in a fresh interpreter: its exit code, its output and the modules it loaded."""
    env = {"PATH": "/usr/bin:/bin", **{k: v for k, v in os.environ.items() if k == "PYTHONPATH"}}
    done = subprocess.run([sys.executable, "-c", PROBE, str(db), *args], capture_output=True, text=True,
                          timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


def test_pending_imports_only_its_read_path(queue: Services) -> None:
    queue.close()
    probe = _probe(queue.store.path)
    loaded = set(probe["modules"])
    assert probe["code"] == 0 and "pnpm" in probe["stdout"]
    assert not HEAVY & loaded, f"the pending path imports {sorted(HEAVY & loaded)} again"
    ours = {m for m in loaded if m.startswith("madohub_memory")}
    assert ours <= ALLOWED, f"new modules on the pending path: {sorted(ours - ALLOWED)}"
    assert "json" not in loaded  # the table needs no JSON; --json loads it
    assert "json" in _probe(queue.store.path, "--json")["modules"]


def _old_table(rows: list[dict[str, Any]]) -> str:
    """The table as the CLI printed it before the read path was made lighter (the oracle)."""
    from madohub_memory.cli.output import _cell

    if not rows:
        return "(none)"
    cells = [[_cell(r.get(c)) for c in COLUMNS] for r in rows]
    widths = [max(len(c), *(len(row[i]) for row in cells)) for i, c in enumerate(COLUMNS)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(COLUMNS, widths, strict=True)).rstrip()]
    lines += ["  ".join(v.ljust(w) for v, w in zip(row, widths, strict=True)).rstrip() for row in cells]
    return "\n".join(lines)


@pytest.mark.parametrize("filters", [[], ["--kind", "fact"], ["--namespace", "workspace:shop"],
                                     ["--kind", "event"]])
def test_pending_prints_what_the_candidate_objects_give(queue: Services, filters: list[str]) -> None:
    kind = filters[1] if filters[:1] == ["--kind"] else None
    namespace = filters[1] if filters[:1] == ["--namespace"] else None
    rows = [c.to_dict() for c in queue.review.pending(kind, namespace)]
    for row in rows:
        del row["fingerprint"], row["memory_id"]
    db = str(queue.store.path)
    as_json = invoke("--db", db, "pending", "--json", *filters)
    assert as_json.returncode == 0, as_json.stderr
    assert as_json.stdout == json.dumps(rows, ensure_ascii=False, indent=2, default=str) + "\n"
    as_table = invoke("--db", db, "pending", *filters)
    assert as_table.stdout == _old_table(rows) + "\n"
    if filters[1:] != ["event"]:
        assert len(rows) >= 2


def test_pending_lists_flags_and_turn_ids_as_lists(queue: Services) -> None:
    listed = json.loads(invoke("--db", str(queue.store.path), "pending", "--json", "--kind", "fact").stdout)
    deploys = next(r for r in listed if r["content"].startswith("Deploys"))
    assert deploys["flags"] == ["pii"] and deploys["turn_ids"] == ["t-1", "t-2"]
    assert list(deploys) == ["id", "content", "kind", "namespace", "source", "confidence", "seen_count", "status",
                             "flags", "created_at", "updated_at", "turn_ids", "decided_by"]


def test_a_bad_kind_is_still_one_sentence(queue: Services) -> None:
    done = invoke("--db", str(queue.store.path), "pending", "--kind", "feeling")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("madohub-memory: Unknown kind 'feeling': use one of preference, fact")


def test_migration_modules_match_their_file_names() -> None:
    """Every open reads the newest schema version from the file names, without importing the
    modules; so each module's VERSION and NAME must be what its name says."""
    names = module_names()
    assert names and names == sorted(names)
    for name in names:
        module = importlib.import_module(f"madohub_memory.store.migrations.{name}")
        assert (int(name[1:5]), name[6:]) == (module.VERSION, module.NAME), name
    assert [(m.version, m.name) for m in all_migrations()] == [(int(n[1:5]), n[6:]) for n in names]


def test_a_migration_whose_name_disagrees_is_refused_before_it_runs() -> None:
    from madohub_memory.store import migrations

    apply = migrations._applier(module_names()[0], 99, "renamed")
    with pytest.raises(RuntimeError, match="its file name says 99 'renamed'"):
        apply(None)  # type: ignore[arg-type]
