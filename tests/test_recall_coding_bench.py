"""The coding recall bench (bench/recall_coding.py) and its prompts.

The prompts are data a later session would type: each names gold items that exist (or none),
none copies its memory's words at length, about a fifth need no memory and about a fifth are
in the session's language. A smoke run of the bench on one small project loads the memories
through review, recalls each prompt with the real embedding model and reports figures a
reader can check (a prompt that needs a memory finds it in the top ten).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"
sys.path.insert(0, str(BENCH))

from _recall_coding_data import load_gold, load_prompts  # noqa: E402

PROMPTS = load_prompts()
GOLD = {item["id"]: item for item in load_gold()}
COPY_RUN_WORDS = 7  # an error message pasted as it came shares up to six words with its postmortem


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def _longest_run(a: list[str], b: list[str]) -> int:
    best = 0
    for i in range(len(a)):
        for j in range(len(b)):
            k = 0
            while i + k < len(a) and j + k < len(b) and a[i + k] == b[j + k]:
                k += 1
            best = max(best, k)
    return best


def test_prompts_are_well_formed() -> None:
    ids = [p.id for p in PROMPTS]
    assert len(ids) == len(set(ids)), "prompt ids are unique"
    assert len(PROMPTS) >= 200
    for p in PROMPTS:
        assert p.prompt.strip() and p.language in {"en", "zh", "nl", "ja", "ko", "pt", "fr", "es", "de"}, p.id
        assert all(n in GOLD for n in p.needs), f"{p.id} needs an item that is not a gold memory"
        if p.workspace:  # a workspace prompt needs that workspace's memories or the persona's
            for n in p.needs:
                assert GOLD[n]["namespace"] in (f"workspace:{p.workspace}",) or GOLD[n]["namespace"].startswith(
                    "persona:"), p.id


def test_prompts_mix_languages_and_prompts_needing_nothing() -> None:
    share_none = sum(1 for p in PROMPTS if not p.needs) / len(PROMPTS)
    share_other = sum(1 for p in PROMPTS if p.language != "en") / len(PROMPTS)
    assert 0.15 <= share_none <= 0.3
    assert 0.15 <= share_other <= 0.35
    assert {p.language for p in PROMPTS if p.workspace == "weave"} >= {"zh"}


def test_prompts_do_not_copy_their_memory() -> None:
    for p in PROMPTS:
        for n in p.needs:
            run = _longest_run(_words(p.prompt), _words(GOLD[n]["content"]))
            assert run < COPY_RUN_WORDS, f"{p.id} copies {run} words of {n}"


@pytest.mark.xdist_group("model")
def test_bench_smoke_run_on_one_project(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH / "recall_coding.py"), "--json", "--workspace", "alignment-hive"],
        capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout)
    assert report["prompts"] == sum(1 for p in PROMPTS if p.workspace == "alignment-hive")
    assert report["no_memory"] >= 1
    for scope in ("scoped", "unscoped"):
        figures = report[scope]
        assert 0.0 <= figures["hit@1"] <= figures["hit@3"] <= figures["hit@10"] <= 1.0
        assert figures["hit@10"] >= 0.5  # five project memories and the persona's: most are found
        assert "auc_keyword_score" in figures["separation"]
    assert 0.0 <= report["session_start"]["coverage"] <= 1.0
