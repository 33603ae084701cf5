"""One log for every front end (services/log.py): masked, on stderr, and ``hook.log`` for the hook."""

from __future__ import annotations

import io
import json
import logging
import pickle
import stat
import sys
from logging.handlers import RotatingFileHandler
from pathlib import Path

import pytest

from madohub_memory.cli import main
from madohub_memory.core.errors import ConflictError, ImportFileError
from madohub_memory.services.log import LOG_MAX_BYTES, log_to_file, setup_logging

TOKEN = "ghp_" + "aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1eF3hJ5"


def hook(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], db: Path, log: Path,
         payload: str) -> tuple[int, str, str]:
    monkeypatch.setenv("MADOHUB_HOOK_LOG", str(log))
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(payload.encode())))
    code = main(["hook", "--db", str(db)])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_hook_logs_to_a_private_file_and_never_to_the_agents_screen(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, db_path: Path) -> None:
    log = tmp_path / "logs" / "hook.log"
    payload = json.dumps({"hook_event_name": "Stop", "transcript_path": f"/no/such/{TOKEN}.jsonl"})
    assert hook(monkeypatch, capsys, db_path, log, payload) == (0, "", "")
    text = log.read_text(encoding="utf-8")
    assert text.startswith("20") and "Z error: ValueError: transcript_path" in text
    assert TOKEN not in text and "[REDACTED]" in text
    assert stat.S_IMODE(log.stat().st_mode) == 0o600
    assert stat.S_IMODE(log.parent.stat().st_mode) == 0o700
    # a bug (not a mistake in the event) keeps its traceback in the file
    monkeypatch.setattr("madohub_memory.agents.claude_code.hook.handle_event", lambda *_: 1 / 0)
    assert hook(monkeypatch, capsys, db_path, log, "{}") == (0, "", "")
    assert "error: ZeroDivisionError: division by zero\nTraceback" in log.read_text(encoding="utf-8")
    assert not any(isinstance(h, RotatingFileHandler) for h in logging.getLogger().handlers)  # closed after


def test_the_hook_log_is_rotated_past_a_megabyte(tmp_path: Path) -> None:
    log = tmp_path / "hook.log"
    log.write_text("x" * (LOG_MAX_BYTES + 10))
    log.chmod(0o644)
    with log_to_file(log, only=True):
        logging.getLogger("madohub_memory.test").info("Stop: turns 3")
    assert log.read_text().endswith(" Stop: turns 3\n") and len(log.read_text()) < 100
    assert (tmp_path / "hook.log.1").stat().st_size == LOG_MAX_BYTES + 10


def test_an_unwritable_log_folder_costs_nothing(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    with log_to_file(blocker / "hook.log", only=True):
        logging.getLogger("madohub_memory.test").error("still fine")


def test_warnings_go_to_stderr_masked_and_info_only_when_asked(capsys: pytest.CaptureFixture[str],
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    setup_logging()
    logger = logging.getLogger("madohub_memory.test")
    logger.info("quiet by default")
    logger.warning("model cache unavailable for %s", TOKEN)
    err = capsys.readouterr().err
    assert "quiet" not in err and "model cache unavailable for [REDACTED]" in err and TOKEN not in err
    monkeypatch.setenv("MADOHUB_LOG_LEVEL", "info")
    setup_logging()
    try:
        logger.info("now shown")
        assert "now shown" in capsys.readouterr().err
    finally:
        monkeypatch.delenv("MADOHUB_LOG_LEVEL")
        setup_logging()
        logging.getLogger("madohub_memory").setLevel(logging.NOTSET)
    assert sum(getattr(h, "_madohub_handler", False) for h in logging.getLogger().handlers) == 1


def test_a_dashboard_operation_that_crashes_is_logged_and_shown_in_one_sentence(
        qtbot, db_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    from madohub_memory.gui.worker import DbWorker, query_op

    worker = DbWorker(db_path)
    failures: list[str] = []
    try:
        with caplog.at_level(logging.ERROR, logger="madohub_memory.gui.worker"):
            query_op(worker, lambda ctx: 1 / 0, failures.append, failures.append)
            qtbot.waitUntil(lambda: bool(failures), timeout=5000)
    finally:
        worker.stop()
    assert failures == ["Unexpected error: ZeroDivisionError: division by zero"]
    assert "a dashboard operation failed" in caplog.text and "ZeroDivisionError" in caplog.text


def test_an_error_crosses_a_process_pipe_with_its_template() -> None:
    err = ConflictError("Candidate {candidate_id} is {status}, not {expected}.",
                        candidate_id=3, status="rejected", expected="pending")
    back = pickle.loads(pickle.dumps(err))
    assert (type(back), back.template, back.arguments, str(back)) == (
        ConflictError, err.template, err.arguments, "Candidate 3 is rejected, not pending.")
    line = pickle.loads(pickle.dumps(ImportFileError("Line {line} of {source} is empty.", line=2, source=Path("f"))))
    assert (line.line, str(line)) == (2, "Line 2 of f is empty.")


def test_no_module_prints_a_traceback_itself() -> None:
    package = Path(__file__).resolve().parent.parent / "madohub_memory"
    offenders = [p.name for p in package.rglob("*.py")
                 if any(f"traceback.{name}(" in p.read_text(encoding="utf-8") for name in ("print_exc", "format_exc"))]
    assert offenders == []
