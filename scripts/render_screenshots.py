"""Render the AppStream screenshots with the app itself (offscreen, on the bundled demo data).

Reads the screenshot URLs from packaging/io.madohub.Memory.metainfo.xml; a file name
``<tab>[-<lang>].png`` is rendered with ``gui --demo --screenshot --tab <tab> [--lang <lang>]``
into packaging/screenshots/. Run it after a visible change to the dashboard and publish the
folder at the URLs the metainfo names.
"""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
METAINFO = ROOT / "packaging" / "io.madohub.Memory.metainfo.xml"
OUT = ROOT / "packaging" / "screenshots"


def screenshot_names(metainfo: Path = METAINFO) -> list[str]:
    root = ET.parse(metainfo).getroot()
    return [(image.text or "").rsplit("/", 1)[-1] for image in root.iter("image")]


def render(name: str, folder: Path = OUT) -> Path:
    tab, _, lang = Path(name).stem.partition("-")
    target = folder / name
    command = [sys.executable, "-m", "madohub_memory", "gui", "--demo", "--screenshot", str(target), "--tab", tab,
               "--lang", lang or "en"]
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
    subprocess.run(command, check=True, env=env, stdout=subprocess.DEVNULL)
    return target


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for name in screenshot_names():
        print(render(name).relative_to(ROOT))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
