"""Shared fixtures: a fresh database file per test, a settable clock, the CLI runner."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# The dashboard keeps window state and the interface language in QSettings and the default
# database under the user data dir: tests get their own, never the person's running them.
_SANDBOX = tempfile.mkdtemp(prefix="madohub-tests-")
os.environ["XDG_CONFIG_HOME"] = os.path.join(_SANDBOX, "config")
os.environ["XDG_DATA_HOME"] = os.path.join(_SANDBOX, "data")
os.environ.pop("MADOHUB_DB", None)

from madohub_memory.core.clock import Clock  # noqa: E402 (after the environment is set)
from madohub_memory.services import Services  # noqa: E402

# ../shared/eval/dev next to the repository (or next to the folder holding a git worktree)
SHARED_EVAL_DEV = next(
    (p / "shared" / "eval" / "dev" for p in Path(__file__).resolve().parents[1:4]
     if (p / "shared" / "eval" / "dev").is_dir()),
    Path(__file__).resolve().parents[2] / "shared" / "eval" / "dev",
)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "memory.db"


@pytest.fixture
def clock() -> Clock:
    return Clock("2026-11-01T09:00:00Z")


@pytest.fixture
def svc(db_path: Path, clock: Clock) -> Iterator[Services]:
    services = Services.open(db_path, clock)
    yield services
    services.close()


@pytest.fixture
def eval_dev() -> Path:
    if not SHARED_EVAL_DEV.is_dir():
        pytest.skip(f"evaluation data not found at {SHARED_EVAL_DEV}")
    return SHARED_EVAL_DEV
