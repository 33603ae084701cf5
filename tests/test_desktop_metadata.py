"""The packaging metadata passes the freedesktop validators and carries what stores need (issue 11)."""

from __future__ import annotations

import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

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


def _screenshot_script() -> Any:
    import importlib.util

    spec = importlib.util.spec_from_file_location("render_screenshots", ROOT / "scripts" / "render_screenshots.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_screenshots_are_rendered_by_the_app() -> None:
    """Every screenshot of the release metainfo is in packaging/screenshots at the stated size
    (scripts/render_screenshots.py renders them with ``gui --demo --screenshot``)."""
    from PySide6.QtGui import QImage

    names = _screenshot_script().screenshot_names()
    assert len(names) >= 3
    for name in names:
        shot = QImage(str(PACKAGING / "screenshots" / name))
        assert (shot.width(), shot.height()) == (1280, 800), name


def test_the_metainfo_names_no_unpublished_screenshot_url() -> None:
    """No screenshot URL points at a site that does not exist: they are added at release time."""
    assert ET.parse(METAINFO).getroot().find("screenshots") is None


def test_a_release_metainfo_with_published_screenshots_validates(tmp_path: Path) -> None:
    script = _screenshot_script()
    target = script.release_metainfo("https://downloads.example/madohub/0.1.0", tmp_path / METAINFO.name)
    images = ET.parse(target).getroot().findall("screenshots/screenshot/image")
    assert [i.text for i in images] == [f"https://downloads.example/madohub/0.1.0/{n}" for n in script.screenshot_names()]
    done = subprocess.run([tool("appstreamcli", "appstream"), "validate", "--no-net", str(target)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert [line for line in done.stdout.splitlines() if line.startswith(("E:", "W:"))] == []
    with pytest.raises(SystemExit, match="https"):
        script.release_metainfo("screenshots/", tmp_path / "other.xml")


def test_the_screenshot_script_renders_with_the_app(tmp_path: Path) -> None:
    from PySide6.QtGui import QImage

    module = _screenshot_script()
    names = module.screenshot_names()
    assert "pending-zh_CN.png" in names
    shot = QImage(str(module.render("pending-zh_CN.png", tmp_path)))
    assert (shot.width(), shot.height()) == (1280, 800)
