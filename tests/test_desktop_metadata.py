"""The packaging metadata passes the freedesktop validators and carries what stores need (issue 11)."""

from __future__ import annotations

import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGING = ROOT / "packaging"
DESKTOP = PACKAGING / "io.madohub.Memory.desktop"
METAINFO = PACKAGING / "io.madohub.Memory.metainfo.xml"


def tool(name: str, package: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.fail(f"{name} is missing: run scripts/install-system-deps.sh (Debian {package})")
    return path


def test_desktop_file_validates() -> None:
    done = subprocess.run([tool("desktop-file-validate", "desktop-file-utils"), str(DESKTOP)],
                          capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout == "", done.stdout


def test_metainfo_validates_without_errors_or_warnings() -> None:
    done = subprocess.run([tool("appstreamcli", "appstream"), "validate", "--no-net", str(METAINFO)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    problems = [line for line in done.stdout.splitlines() if line.startswith(("E:", "W:"))]
    assert problems == []


def test_metainfo_has_what_flathub_requires() -> None:
    root = ET.parse(METAINFO).getroot()
    assert root.findtext("id") == "io.madohub.Memory"
    assert root.find("launchable").text == DESKTOP.name  # type: ignore[union-attr]
    developer = root.find("developer")
    assert developer is not None and developer.get("id") and developer.findtext("name")
    assert root.find("content_rating").get("type") == "oars-1.1"  # type: ignore[union-attr]
    releases = root.findall("releases/release")
    assert releases and all(r.get("version") and r.get("date") for r in releases)
    assert releases[0].find("description") is not None
    from madohub_memory import __version__

    assert releases[0].get("version") == __version__  # the newest release is this version


def test_screenshots_are_rendered_by_the_app() -> None:
    """Every screenshot the metainfo names is in packaging/screenshots at the stated size
    (scripts/render_screenshots.py renders them with ``gui --demo --screenshot``)."""
    from PySide6.QtGui import QImage

    images = ET.parse(METAINFO).getroot().findall("screenshots/screenshot/image")
    assert len(images) >= 3
    for image in images:
        name = (image.text or "").rsplit("/", 1)[-1]
        shot = QImage(str(PACKAGING / "screenshots" / name))
        assert (shot.width(), shot.height()) == (int(image.get("width", 0)), int(image.get("height", 0))), name


def test_the_screenshot_script_renders_with_the_app(tmp_path: Path) -> None:
    import importlib.util

    from PySide6.QtGui import QImage

    spec = importlib.util.spec_from_file_location("render_screenshots", ROOT / "scripts" / "render_screenshots.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    names = module.screenshot_names()
    assert "pending-zh_CN.png" in names
    shot = QImage(str(module.render("pending-zh_CN.png", tmp_path)))
    assert (shot.width(), shot.height()) == (1280, 800)
