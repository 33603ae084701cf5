"""Render the AppStream screenshots with the app itself, and put them in a release's metainfo.

``python scripts/render_screenshots.py`` renders every screenshot of :data:`SCREENSHOTS` with
``gui --demo --screenshot --tab <tab> --lang <lang>`` (offscreen, on the bundled demo data)
into packaging/screenshots/. Run it after a visible change to the dashboard.

The metainfo in packaging/ names no screenshot: AppStream (and Flathub, which requires
screenshots) wants absolute https URLs of published images, and this project has no public
site yet, so any URL there would point nowhere. At release time, publish the folder and run
``python scripts/render_screenshots.py --metainfo-url https://HOST/PATH/ --metainfo-out FILE``:
FILE is packaging/io.madohub.Memory.metainfo.xml with a ``<screenshots>`` block whose images
are ``https://HOST/PATH/<name>.png``; ship that file (``appstreamcli validate`` it first).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
METAINFO = ROOT / "packaging" / "io.madohub.Memory.metainfo.xml"
OUT = ROOT / "packaging" / "screenshots"
WIDTH, HEIGHT = 1280, 800

# (file name "<tab>[-<lang>].png", English caption, Chinese caption); the first is the default
SCREENSHOTS = [
    ("pending.png", "The review queue with the detail pane", "审核队列与详情面板"),
    ("approved.png", "Approved memory grouped by namespace", "按命名空间分组的已批准记忆"),
    ("advanced.png", "Auto-approve policy, models, background jobs and your data", "自动批准策略、模型、后台任务与数据"),
    ("pending-zh_CN.png", "The review queue in Chinese", "中文界面的审核队列"),
]


def screenshot_names() -> list[str]:
    return [name for name, _, _ in SCREENSHOTS]


def render(name: str, folder: Path = OUT) -> Path:
    tab, _, lang = Path(name).stem.partition("-")
    target = folder / name
    command = [sys.executable, "-m", "madohub_memory", "gui", "--demo", "--screenshot", str(target), "--tab", tab,
               "--lang", lang or "en"]
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
    subprocess.run(command, check=True, env=env, stdout=subprocess.DEVNULL)
    return target


def screenshots_block(base_url: str) -> str:
    """The ``<screenshots>`` element for images published under ``base_url``."""
    if not base_url.startswith("https://"):
        raise SystemExit(f"--metainfo-url must be an https URL (AppStream requires one), not {base_url!r}.")
    base = base_url if base_url.endswith("/") else base_url + "/"
    lines = ["  <screenshots>"]
    for index, (name, caption, caption_zh) in enumerate(SCREENSHOTS):
        lines += [
            '    <screenshot type="default">' if index == 0 else "    <screenshot>",
            f"      <caption>{caption}</caption>",
            f'      <caption xml:lang="zh_CN">{caption_zh}</caption>',
            f'      <image type="source" width="{WIDTH}" height="{HEIGHT}">{base}{name}</image>',
            "    </screenshot>",
        ]
    lines.append("  </screenshots>")
    return "\n".join(lines) + "\n"


def release_metainfo(base_url: str, target: Path, source: Path = METAINFO) -> Path:
    """Write ``source`` with the screenshots block (before ``<url``) to ``target``."""
    text = source.read_text(encoding="utf-8")
    if "<screenshots>" in text:
        raise SystemExit(f"{source} already names screenshots.")
    at = text.index("  <url ")
    target.write_text(text[:at] + screenshots_block(base_url) + text[at:], encoding="utf-8")
    return target


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--metainfo-url", metavar="URL", help="where the PNGs are published (https)")
    parser.add_argument("--metainfo-out", metavar="FILE", type=Path, help="the release metainfo to write")
    parser.add_argument("--no-render", action="store_true", help="only write the metainfo")
    args = parser.parse_args()
    if bool(args.metainfo_url) != bool(args.metainfo_out):
        parser.error("--metainfo-url and --metainfo-out go together")
    if not args.no_render:
        OUT.mkdir(parents=True, exist_ok=True)
        for name in screenshot_names():
            print(render(name).relative_to(ROOT))
    if args.metainfo_out:
        print(release_metainfo(args.metainfo_url, args.metainfo_out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
