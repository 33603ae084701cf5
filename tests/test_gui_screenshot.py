"""``madohub-memory gui --demo --screenshot``: a real process renders a PNG and exits,
and the demo never touches the real database."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from PySide6.QtGui import QImage


@pytest.mark.parametrize(("tab", "lang"), [("pending", "en"), ("advanced", "zh_CN")])
def test_screenshot_command_writes_a_png(tmp_path, tab, lang):
    real_db = tmp_path / "real.db"
    shot = tmp_path / f"{tab}.png"
    env = {**os.environ, "MADOHUB_DB": str(real_db), "QT_QPA_PLATFORM": "offscreen",
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "TMPDIR": str(tmp_path)}
    result = subprocess.run(
        [sys.executable, "-m", "madohub_memory", "gui", "--demo", "--screenshot", str(shot),
         "--tab", tab, "--lang", lang],
        capture_output=True, text=True, timeout=120, env=env,
    )
    assert result.returncode == 0, result.stderr
    image = QImage(str(shot))
    assert image.width() == 1280 and image.height() == 800
    assert not real_db.exists()  # the demo works on its own copy


def test_screenshot_of_an_unreadable_database_is_one_sentence(tmp_path):
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"this is not sqlite" * 100)
    result = subprocess.run(
        [sys.executable, "-m", "madohub_memory", "gui", "--db", str(bad), "--screenshot",
         str(tmp_path / "x.png")],
        capture_output=True, text=True, timeout=120,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen", "XDG_CONFIG_HOME": str(tmp_path / "config")},
    )
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert result.stderr.strip().startswith("madohub-memory:")


def test_screenshot_json_reports_the_nearest_memory_from_the_helper_process(tmp_path, svc, db_path):
    """``--json`` says what the shot shows: the nearest approved memory, found by the helper
    process the dashboard spawns (packaging/check_bundle.py checks the frozen app this way)."""
    memory = svc.review.approve(svc.review.add_manual(
        "The user prefers pnpm over npm in every JavaScript project", "preference", "persona:default").candidate_id)
    svc.review.remember("Always install JavaScript dependencies with pnpm instead of npm", "preference",
                        "persona:default")
    shot = tmp_path / "pending.png"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "XDG_CONFIG_HOME": str(tmp_path / "config")}
    result = subprocess.run(
        [sys.executable, "-m", "madohub_memory", "--json", "gui", "--db", str(db_path), "--screenshot", str(shot),
         "--tab", "pending", "--lang", "en"], capture_output=True, text=True, timeout=180, env=env)
    assert result.returncode == 0, result.stderr
    shown = json.loads(result.stdout.splitlines()[-1])
    assert shown["screenshot"] == str(shot) and shown["nearest_settled"] is True
    assert shown["nearest"].startswith(f"#{memory} ") and "similarity" in shown["nearest"]


@pytest.mark.parametrize("detach", [False, True])
def test_without_a_display_the_dashboard_says_so_in_one_sentence(tmp_path, detach):
    """Over SSH: Qt would abort the process (exit 134, its own plugin messages), and --detach
    (the Claude Code plugin's /madohub-memory:review) would report a window that died at once."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env.update(MADOHUB_DB=str(tmp_path / "memory.db"), XDG_CONFIG_HOME=str(tmp_path / "config"))
    result = subprocess.run([sys.executable, "-m", "madohub_memory", "gui", *(["--detach"] if detach else [])],
                            capture_output=True, text=True, timeout=120, env=env)
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.startswith("madohub-memory: There is no display here") and len(
        result.stderr.strip().splitlines()) == 1
