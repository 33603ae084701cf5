"""Defects found by acceptance testing the merged main as a new user would: each test
fails on the code before its fix."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from madohub_memory.core.errors import UserError
from madohub_memory.store import Store


@pytest.mark.parametrize("url", ["mysql://x", "sqlite:///tmp/m.db", "https://host/db"])
def test_a_url_as_database_is_one_sentence_and_creates_nothing(
    tmp_path: Path, url: str, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(UserError, match="not a URL"):
        Store(url)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", [["add", "hello there", "--kind", "fact"], ["backup"], ["worker", "--once"]])
def test_the_cli_refuses_a_url_as_database_before_any_command(
    tmp_path: Path, command: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    from madohub_memory.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(["--db", "mysql://x", *command]) == 1
    assert "not a URL" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_the_hook_logs_a_url_as_database_and_exits_0(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from madohub_memory.cli import main

    monkeypatch.chdir(tmp_path)
    log = tmp_path.parent / f"{tmp_path.name}-hook.log"
    monkeypatch.setenv("MADOHUB_HOOK_LOG", str(log))
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b'{"hook_event_name": "SessionStart", "cwd": "/tmp"}')))
    assert main(["hook", "--db", "mysql://x"]) == 0
    assert "not a URL" in log.read_text()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.qt_log_ignore("propagateSizeHints")
@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_age_of_a_fresh_candidate_is_not_clipped(qtbot, db_path: Path, tmp_path: Path, lang: str) -> None:
    """A candidate that arrived a moment ago reads "just now" in full, not "just n…"."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication
    from test_gui_helpers import open_window

    from madohub_memory.gui.i18n import stylesheet
    from madohub_memory.gui.pending_model import COLUMNS
    from madohub_memory.services import Services

    with Services.open(db_path) as svc:  # the real clock: the candidate arrives now
        svc.review.add_manual("Database migrations are applied with mix ecto.migrate", "fact")
    app = QApplication.instance()
    app.setStyleSheet(stylesheet())  # as the dashboard runs: its cell padding counts
    try:
        with open_window(qtbot, db_path, tmp_path, lang=lang) as win:
            table = win.pending.table
            col = COLUMNS.index("created_at")
            index = win.pending.model.index(0, col)
            needed = table.sizeHintForIndex(index).width()  # what the delegate needs to paint it whole
            assert table.horizontalHeader().sectionSize(col) >= needed, index.data(Qt.ItemDataRole.DisplayRole)
    finally:
        app.setStyleSheet("")


def test_two_databases_in_one_folder_keep_their_own_backups(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """work.db and personal.db side by side: `restore latest` on one never brings back the
    other's data, and one's daily backup and rotation neither skip nor delete for the other."""
    from madohub_memory.cli import main
    from madohub_memory.services import Services

    work, personal = tmp_path / "work.db", tmp_path / "personal.db"
    with Services.open(work) as svc:
        svc.review.add_manual("Work fact: the API uses snake_case keys", "fact")
        svc.settings.set("backup.keep", 1)
        svc.backup.create()
        assert svc.backup.daily() == 0  # its own backup is minutes old
    with Services.open(personal) as svc:
        svc.review.add_manual("Personal fact: the user drinks green tea", "fact")
        assert svc.backup.list() == []
        svc.settings.set("backup.keep", 1)
        assert svc.backup.daily() == 1  # not skipped because work.db was backed up today
        assert [b.path.name.startswith("personal-") for b in svc.backup.list()] == [True]
    with Services.open(work) as svc:
        assert len(svc.backup.list()) == 1  # personal's rotation left work's backup alone

    monkeypatch.chdir(tmp_path)
    assert main(["--db", str(personal), "restore", "latest"]) == 0
    capsys.readouterr()
    assert main(["--db", str(personal), "pending", "--json"]) == 0
    shown = capsys.readouterr().out
    assert "green tea" in shown and "snake_case" not in shown


def test_sweep_reports_in_words_not_python_dicts(db_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from madohub_memory.cli import main
    from madohub_memory.services import Services

    Services.open(db_path).close()
    for _ in range(2):  # the second run finds the daily scans not due
        assert main(["--db", str(db_path), "sweep", "--now", "2027-01-01T00:00:00Z"]) == 0
        out = capsys.readouterr().out
        assert "{" not in out and "[" not in out and "'" not in out, out
    assert "not due" in out


def test_a_question_ending_in_a_parenthesis_gets_no_stray_question_mark() -> None:
    """Seen on the dev session: 'Which rig …? (… should I use 'spotter'?)?'."""
    from madohub_memory.core.types import TurnView
    from madohub_memory.extraction.answers import question_answers

    answer = ('[tool result] User has answered your questions: "Which rig do these beads belong to? (This is a'
              ' single-app project — should I use \'spotter\'?)"="No rig", "Run the slow tests in CI"="Only nightly".')
    found = [f.content for f in question_answers([TurnView("r1", "tool", answer)])]
    assert found == [
        'User chose "No rig" when asked: Which rig do these beads belong to? (This is a single-app project'
        ' — should I use \'spotter\'?)',
        'User chose "Only nightly" when asked: Run the slow tests in CI?',
    ]


def test_an_unreachable_model_endpoint_is_one_sentence_not_a_traceback(tmp_path: Path) -> None:
    """`worker --once` with the LLM backend pointed at a closed port: the status line says
    why and the turns stay pending; no Python traceback on stderr."""
    import subprocess
    import sys

    from madohub_memory.services import Services

    root = Path(__file__).resolve().parents[1]
    db = tmp_path / "memory.db"
    session = tmp_path / "chat.jsonl"
    session.write_text('{"role": "user", "content": "I always use pnpm, never npm, in my projects."}\n'
                       '{"role": "assistant", "content": "Noted: pnpm it is."}\n')
    with Services.open(db) as svc:
        svc.ingest.ingest_paths([str(session)], extract=False)
        for key, value in (("extraction.backend", "llm"), ("extraction.llm.base_url", "http://127.0.0.1:9/v1"),
                           ("extraction.llm.retries", 0)):
            svc.settings.set(key, value)
    run = subprocess.run([sys.executable, "-m", "madohub_memory", "worker", "--once", "--job", "drain", "--db", str(db)],
                         capture_output=True, text=True, timeout=120, cwd=root,
                         env={**os.environ, "PYTHONPATH": str(root)})
    assert run.returncode == 1
    assert "drain: error:" in run.stdout and "127.0.0.1:9" in run.stdout and "stay pending" in run.stdout
    assert "Traceback" not in run.stderr, run.stderr


@pytest.mark.qt_log_ignore("propagateSizeHints")
@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_a_job_due_within_a_minute_does_not_read_in_just_now(qtbot, db_path: Path, tmp_path: Path, lang: str) -> None:
    """Advanced › Background jobs showed "in just now" for the folder watch due in 30 s."""
    from datetime import UTC, datetime, timedelta

    from PySide6.QtCore import QCoreApplication
    from test_gui_helpers import open_window

    from madohub_memory.core.clock import to_iso
    from madohub_memory.services import Services

    Services.open(db_path).close()
    with open_window(qtbot, db_path, tmp_path, lang=lang) as win:
        soon = win.advanced._when(to_iso(datetime.now(UTC) + timedelta(seconds=30)))
        assert QCoreApplication.translate("Vocab", "just now") not in soon
        assert soon == win.advanced._when(to_iso(datetime.now(UTC) + timedelta(seconds=61)))  # "in 1 min"


@pytest.mark.qt_log_ignore("propagateSizeHints")
def test_english_counts_read_as_english_not_s_in_parentheses(qtbot, svc, db_path: Path, tmp_path: Path, clock) -> None:
    """The Decisions tab said "3 decision point(s) · 17 counted choice(s)"; closing said
    "Saving 1 decision(s)…" where the issue asks for "Saving N decisions…"."""
    from PySide6.QtCore import QCoreApplication
    from test_gui_helpers import open_window

    from madohub_memory.services.demo import load_demo

    load_demo(svc)
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        win.tabs.setCurrentWidget(win.decisions)
        qtbot.waitUntil(lambda: "decision point" in win.decisions.summary.text(), timeout=5000)
        assert win.decisions.summary.text() == "3 decision points · 17 counted choices"
        assert QCoreApplication.translate("MainWindow", "Saving %n decision(s)…", "", 1) == "Saving 1 decision…"
    with open_window(qtbot, db_path, tmp_path, clock, lang="zh_CN") as win:
        win.tabs.setCurrentWidget(win.decisions)
        qtbot.waitUntil(lambda: "决策点" in win.decisions.summary.text(), timeout=5000)
        assert win.decisions.summary.text() == "3 个决策点 · 17 次计入的选择"


def test_a_string_missing_from_the_ts_file_shows_in_english_not_empty(qapp) -> None:
    """Without a fresh .qm (a checkout before `make`, or a .ts newer than its .qm) the .ts is
    read directly: a string it has no translation for must fall back to its English source
    instead of turning into an empty label."""
    from PySide6.QtCore import QCoreApplication

    from madohub_memory.core.resources import resources_dir
    from madohub_memory.gui.i18n import EnglishPlurals, TsTranslator

    for translator in (TsTranslator(resources_dir() / "translations" / "madohub_zh_CN.ts"), EnglishPlurals()):
        qapp.installTranslator(translator)
        try:
            assert QCoreApplication.translate("MainWindow", "A string nobody translated yet") == (
                "A string nobody translated yet")
        finally:
            qapp.removeTranslator(translator)


def test_the_recall_table_shows_the_memory_not_a_wall_of_turn_ids(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """A memory seen in four turns printed four UUIDs (150 characters) before its text."""
    from madohub_memory.cli import main
    from madohub_memory.core.types import CandidateDraft
    from madohub_memory.services import Services

    db, chat = tmp_path / "memory.db", tmp_path / "chat.jsonl"
    chat.write_text("".join(f'{{"role": "user", "content": "The API uses snake_case JSON keys ({n})."}}\n'
                            for n in range(4)))
    with Services.open(db) as svc:
        svc.ingest.ingest_paths([str(chat)], extract=False)
        turns = tuple(str(r[0]) for r in svc.store.query("SELECT id FROM turns ORDER BY seq"))
        result = svc.review.submit(CandidateDraft("The shop API uses snake_case JSON keys", "fact",
                                                  "workspace:shop", turn_ids=turns))
        svc.review.approve(result.candidate_id)
    assert main(["--db", str(db), "recall", "JSON key style", "-k", "3"]) == 0
    out = capsys.readouterr().out
    assert "The shop API uses snake_case JSON keys" in out
    assert max(len(line) for line in out.splitlines()) <= 140, out
    assert main(["--db", str(db), "recall", "JSON key style", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["turn_ids"] == list(turns)  # the full list stays in JSON


def test_a_memory_from_an_imported_session_is_dated_when_it_was_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """A rule said in March, imported and approved in November: what agents get (recall,
    its rendered block, the session-start context) shows March, not the day of the review."""
    from madohub_memory.cli import main
    from madohub_memory.core.clock import Clock
    from madohub_memory.core.types import CandidateDraft
    from madohub_memory.services import Services

    db, chat = tmp_path / "memory.db", tmp_path / "chat.jsonl"
    chat.write_text('{"role": "user", "content": "We deploy the shop on Tuesdays only.",'
                    ' "timestamp": "2026-03-02T10:00:00Z"}\n')
    with Services.open(db, Clock("2026-11-20T09:00:00Z")) as svc:
        svc.ingest.ingest_paths([str(chat)], extract=False)
        turns = tuple(str(r[0]) for r in svc.store.query("SELECT id FROM turns"))
        result = svc.review.submit(CandidateDraft("Deploys of the shop happen on Tuesdays only", "pattern",
                                                  "workspace:shop", turn_ids=turns))
        svc.review.approve(result.candidate_id)
        assert "[2026-03-02]" in svc.recall.render(svc.recall.search("when do we deploy?", "workspace:shop"))
        assert "[2026-03-02] (pattern) Deploys" in svc.session_context.build("workspace:shop").text
    assert main(["--db", str(db), "recall", "when do we deploy?", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["date"] == "2026-03-02"


@pytest.mark.parametrize("stamp", ["1.5", "1700000000", '"yesterday evening"'])
def test_a_turn_time_that_is_not_iso_never_breaks_a_dated_recall(
    tmp_path: Path, stamp: str, capsys: pytest.CaptureFixture[str],
) -> None:
    """A JSONL line with "timestamp": 1.5 was stored as is; from then on every recall whose
    query names a date failed with "Time '1.5' is not an ISO-8601 date or date-time"."""
    from madohub_memory.cli import main

    db, chat = tmp_path / "memory.db", tmp_path / "chat.jsonl"
    chat.write_text(f'{{"role": "user", "content": "I prefer dark mode in every editor I use.", "timestamp": {stamp}}}\n')
    assert main(["--db", str(db), "ingest", str(chat)]) == 0
    assert main(["--db", str(db), "approve", "1"]) == 0
    capsys.readouterr()
    assert main(["--db", str(db), "recall", "what did I say about dark mode in March 2023?", "--json"]) == 0
    hits = json.loads(capsys.readouterr().out)
    assert "dark mode" in hits[0]["content"]
