"""The wheel, installed into a fresh virtualenv, runs the dashboard with its resources (issue 11).

Builds the wheel from this checkout (hatchling, without build isolation: the test
environment has the build back end and pyside6-lrelease), installs it with pip into a new
venv that sees nothing of this checkout or of the test environment, and from there renders
the demo dashboard offscreen in Chinese, checks that icons, the compiled translation and the
demo data come from the installed package, and that semantic dedup works without torch.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("wheel")]  # one worker builds the venv

PROBE = """
import json, importlib.util
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QApplication
app = QApplication([])
import madohub_memory
from madohub_memory.core.resources import resources_dir
from madohub_memory.gui import i18n
from madohub_memory.extraction.selector import shipped
lang = i18n.install_language("zh_CN")
print(json.dumps({
    "package": madohub_memory.__file__,
    "resources": str(resources_dir()),
    "lang": lang,
    "translator": type(i18n._installed[0]).__name__,
    "pending": QCoreApplication.translate("MainWindow", "Pending"),
    "icon": not i18n.icon("app").isNull(),
    "stylesheet": len(i18n.stylesheet()),
    "absent": [m for m in ("torch", "sentence_transformers", "sqlite_utils") if importlib.util.find_spec(m)],
    "selector": shipped().info["trained_on"],
}))
"""


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("wheel")
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--quiet", "-w", str(work), str(ROOT)],
        capture_output=True, text=True, timeout=600,
    )
    assert build.returncode == 0, build.stderr[-3000:]
    wheels = list(work.glob("madohub_memory-*.whl"))
    assert len(wheels) == 1
    env_dir = work / "venv"
    # The new venv gets no pip of its own: this environment's pip installs into it (--python),
    # which saves ensurepip; --no-compile leaves the .pyc to the first import. ~25 s -> ~8 s.
    venv.EnvBuilder(with_pip=False, clear=True).create(env_dir)
    install = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(env_dir / "bin" / "python"), "install", "--quiet",
         "--no-compile", str(wheels[0])],
        capture_output=True, text=True, timeout=1500, env=_clean_env(work),
    )
    assert install.returncode == 0, install.stderr[-3000:]
    return env_dir


def _clean_env(work: Path) -> dict[str, str]:
    """Nothing of this checkout or the test environment leaks in; user folders are temporary."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "MADOHUB_DB", "MADOHUB_CACHE_DIR", "PYTHONHOME")}
    env.update(QT_QPA_PLATFORM="offscreen", HOME=str(work / "home"), XDG_CONFIG_HOME=str(work / "config"),
               XDG_DATA_HOME=str(work / "data"), XDG_CACHE_HOME=str(work / "cache"))
    return env


def run(env_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    work = env_dir.parent
    return subprocess.run([*args], capture_output=True, text=True, timeout=300, cwd=work, env=_clean_env(work))


def test_wheel_renders_the_demo_dashboard_from_a_fresh_venv(installed: Path) -> None:
    from PySide6.QtGui import QImage

    bin_dir = installed / "bin"
    assert (bin_dir / "madohub-memory-gui").is_file()  # the gui-scripts entry
    shot = installed.parent / "demo.png"
    done = run(installed, str(bin_dir / "madohub-memory"), "gui", "--demo", "--screenshot", str(shot),
               "--tab", "pending", "--lang", "zh_CN")
    assert done.returncode == 0, done.stderr[-3000:]
    image = QImage(str(shot))
    assert (image.width(), image.height()) == (1280, 800)
    colours = {image.pixel(x, y) for x in range(0, 1280, 16) for y in range(0, 800, 16)}
    assert len(colours) > 20  # a rendered window, not a blank surface

    done = run(installed, str(bin_dir / "python"), "-c", PROBE)
    assert done.returncode == 0, done.stderr[-3000:]
    probe = json.loads(done.stdout)
    site = str(installed / "lib")
    assert probe["package"].startswith(site) and probe["resources"].startswith(site)
    assert probe["resources"].endswith("madohub_memory/resources")
    assert probe["lang"] == "zh_CN" and probe["translator"] == "QTranslator"  # the compiled .qm, not the .ts
    assert probe["pending"] == "待审核"
    assert probe["icon"] and probe["stylesheet"] > 1000
    assert probe["absent"] == []  # the default install needs neither torch nor sqlite-utils
    assert len(probe["selector"]) >= 4  # the offline extractor's weights ship inside the wheel


def test_wheel_cli_dedups_semantically_without_torch(installed: Path) -> None:
    cli = str(installed / "bin" / "madohub-memory")
    db = str(installed.parent / "memory.db")
    done = run(installed, cli, "--version")
    assert done.returncode == 0 and done.stdout.startswith("madohub-memory ")
    outcomes = []
    for text in ("The user prefers dark mode in every editor", "User prefers dark mode in all editors"):
        done = run(installed, cli, "--db", db, "--json", "remember", text, "--kind", "preference")
        assert done.returncode == 0, done.stderr[-3000:]
        outcomes.append(json.loads(done.stdout)["outcome"])
    assert outcomes == ["new", "seen_again"]
    assert any((installed.parent / "cache" / "madohub-memory" / "models").iterdir())  # the model cache was built
