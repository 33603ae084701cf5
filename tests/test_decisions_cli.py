"""``madohub-memory decisions ...`` through the real argument parser and a real subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from madohub_memory.cli import main

TIERS = "Tier S,Tier M (Recommended),Tier L"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_record_and_recommend_worked_example(capsys, db_path):
    db = str(db_path)
    for choice in ["Tier S"] * 3 + ["Tier M"] * 6 + ["Tier L"]:
        code, _, _ = run(capsys, "decisions", "record", "--db", db, "--question", "Which tier?",
                         "--options", TIERS, "--choice", choice, "--session", "s1",
                         "--context", "workflow=spec", "phase=design")
        assert code == 0
    code, out, _ = run(capsys, "decisions", "recommend", "--db", db, "--json",
                       "--question", "Which tier?", "--options", "Tier S,Tier M,Tier L")
    rec = json.loads(out)
    assert code == 0 and rec["option"] == "Tier M" and rec["confidence_level"] == "medium-high"
    assert rec["precondition"] == "Recommended when phase=design and workflow=spec"
    code, out, _ = run(capsys, "decisions", "recommend", "--db", db,
                       "--question", "Which tier?", "--options", "Tier S,Tier M,Tier L")
    assert "Tier M (Recommended) — 60% of recent choices" in out
    assert "Recommended when phase=design and workflow=spec" in out
    code, out, _ = run(capsys, "decisions", "recommend", "--db", db, "--no-personalisation",
                       "--question", "Which tier?", "--options", "Tier S,Tier M,Tier L")
    assert "switched off" in out and "static default" in out and out.startswith("Tier M (Recommended)")


def test_stats_and_decay_scan_json(capsys, db_path):
    db = str(db_path)
    run(capsys, "decisions", "record", "--db", db, "--question", "Q?", "--options", "A,B", "--choice", "A",
        "--transient")
    code, out, _ = run(capsys, "decisions", "stats", "--db", db, "--json")
    stats = json.loads(out)
    assert code == 0 and stats["records"] == 1 and stats["transient"] == 1
    code, out, _ = run(capsys, "decisions", "decay-scan", "--db", db, "--json",
                       "--now", "2099-01-01T00:00:00Z")
    report = json.loads(out)
    assert report["ran"] and report["expired"] == 1
    code, out, _ = run(capsys, "decisions", "decay-scan", "--db", db, "--now", "2099-01-01T05:00:00Z")
    assert code == 0 and out.startswith("skipped")
    code, out, _ = run(capsys, "decisions", "decay-scan", "--db", db, "--force", "--json",
                       "--now", "2099-01-01T05:00:00Z")
    assert json.loads(out)["ran"]


def test_bad_input_is_one_sentence_and_stores_nothing(capsys, db_path):
    db = str(db_path)
    code, out, err = run(capsys, "decisions", "record", "--db", db, "--question", "Q?",
                         "--options", "A,B", "--choice", "C")
    assert code == 1 and out == ""
    assert err.strip() == "madohub-memory: Choice 'C' is not one of the options: A, B."
    code, _, err = run(capsys, "decisions", "record", "--db", db, "--question", "Q?",
                       "--options", "A", "--choice", "A")
    assert code == 1 and "at least two different options" in err
    code, _, err = run(capsys, "decisions", "record", "--db", db, "--question", "Q?",
                       "--options", "A,B", "--choice", "A", "--context", "nokey")
    assert code == 1 and "KEY=VALUE" in err
    run(capsys, "decisions", "stats", "--db", db, "--json")
    code, out, _ = run(capsys, "decisions", "stats", "--db", db, "--json")
    assert json.loads(out)["records"] == 0


def test_capture_command(capsys, db_path, eval_dev):
    path = str(eval_dev / "claude_code" / "subagent.jsonl")
    code, out, _ = run(capsys, "decisions", "capture", "--db", str(db_path), "--json", path)
    assert code == 0 and json.loads(out)["added"] == 2
    code, out, _ = run(capsys, "decisions", "points", "--db", str(db_path))
    assert "Which tools should we set up?" in out


def test_real_subprocess(db_path):
    env = {**os.environ, "MADOHUB_DB": str(db_path)}
    cmd = [sys.executable, "-m", "madohub_memory", "decisions"]
    for choice in ["B"] * 5:
        subprocess.run([*cmd, "record", "--question", "Q?", "--options", "A,B", "--choice", choice],
                       check=True, env=env, capture_output=True)
    done = subprocess.run([*cmd, "recommend", "--json", "--question", "Q?", "--options", "A,B"],
                          env=env, capture_output=True, text=True, check=True)
    assert json.loads(done.stdout)["option"] == "B"
    bad = subprocess.run([*cmd, "record", "--question", "Q?", "--options", "A,B", "--choice", "Z"],
                         env=env, capture_output=True, text=True)
    assert bad.returncode == 1 and "not one of the options" in bad.stderr
