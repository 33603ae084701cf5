"""``madohub-memory desktop install|uninstall`` into the XDG user folders (issue 11)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from madohub_memory.cli.desktop_cmd import desktop_entry, quote


def cli(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run([sys.executable, "-m", "madohub_memory", *args], capture_output=True, text=True,
                          env=env, timeout=120)


def validate(path: Path) -> None:
    tool = shutil.which("desktop-file-validate")
    if tool is None:
        pytest.fail("desktop-file-validate is missing: run scripts/install-system-deps.sh (Debian desktop-file-utils)")
    done = subprocess.run([tool, str(path)], capture_output=True, text=True)
    assert done.returncode == 0 and "error" not in done.stdout, done.stdout


def test_install_then_uninstall_leaves_nothing_behind(tmp_path: Path) -> None:
    from PySide6.QtGui import QImage

    db = tmp_path / "my memories" / "memory.db"
    done = cli(tmp_path, "--db", str(db), "--json", "desktop", "install", "--autostart")
    assert done.returncode == 0, done.stderr
    installed = [Path(p) for p in json.loads(done.stdout)["installed"]]
    assert all(p.is_file() for p in installed)

    entry = tmp_path / "data" / "applications" / "io.madohub.Memory.desktop"
    worker = tmp_path / "config" / "autostart" / "io.madohub.Memory-worker.desktop"
    assert entry in installed and worker in installed
    validate(entry)
    validate(worker)
    text = entry.read_text(encoding="utf-8")
    assert f'--db "{db}" gui' in text  # the path with a space is quoted for the launcher
    assert "Icon=io.madohub.Memory" in text and "Name[zh_CN]=MadoHub 记忆" in text
    assert f'--db "{db}" worker' in worker.read_text(encoding="utf-8")

    hicolor = tmp_path / "data" / "icons" / "hicolor"
    assert (hicolor / "scalable" / "apps" / "io.madohub.Memory.svg").is_file()
    for size in (16, 32, 48, 128, 256, 512):
        image = QImage(str(hicolor / f"{size}x{size}" / "apps" / "io.madohub.Memory.png"))
        assert (image.width(), image.height()) == (size, size)
        assert image.pixelColor(size // 2, size // 8).alpha() == 255  # drawn, not a transparent square

    done = cli(tmp_path, "desktop", "install")  # again without --autostart: it is switched off
    assert done.returncode == 0 and "login" not in done.stdout
    assert entry.is_file() and not worker.exists()

    done = cli(tmp_path, "--json", "desktop", "uninstall")
    assert done.returncode == 0, done.stderr
    removed = json.loads(done.stdout)["removed"]
    assert str(entry) in removed
    leftovers = [p for p in (tmp_path / "data").rglob("*") if p.is_file() and "madohub" in p.name.lower()]
    assert leftovers == []
    assert cli(tmp_path, "desktop", "uninstall").stdout.strip() == "nothing was installed."


def test_launchers_of_a_server_keep_its_address_and_never_a_password(tmp_path: Path) -> None:
    address = "postgresql://wei@db.lan:5432/team?sslmode=verify-full"
    done = cli(tmp_path, "--db", address, "desktop", "install", "--autostart")
    assert done.returncode == 0, done.stderr
    entry = tmp_path / "data" / "applications" / "io.madohub.Memory.desktop"
    worker = tmp_path / "config" / "autostart" / "io.madohub.Memory-worker.desktop"
    validate(entry)
    assert f'--db "{address}" gui' in entry.read_text(encoding="utf-8")  # not made into a path
    assert f'--db "{address}" worker' in worker.read_text(encoding="utf-8")
    done = cli(tmp_path, "--db", "service=team", "desktop", "install")
    assert done.returncode == 0, done.stderr
    assert "--db service=team gui" in entry.read_text(encoding="utf-8")

    secret = "postgresql://wei:s3cret@db.lan/team"
    done = cli(tmp_path, "--db", secret, "desktop", "install")
    assert done.returncode != 0 and "PGPASSFILE" in done.stderr and "s3cret" not in done.stderr + done.stdout
    assert "s3cret" not in entry.read_text(encoding="utf-8")
    assert len(done.stderr.strip().splitlines()) == 1


def test_exec_arguments_follow_the_desktop_entry_spec() -> None:
    assert quote("/usr/bin/madohub-memory") == "/usr/bin/madohub-memory"
    assert quote("/home/ana/My Files/m.db") == '"/home/ana/My Files/m.db"'
    assert quote('/tmp/a"b$c') == '"/tmp/a\\"b\\$c"'
    assert quote("/tmp/100%") == "/tmp/100%%"
    template = "[Desktop Entry]\nExec=madohub-memory gui\nTryExec=madohub-memory\nName=X\n"
    out = desktop_entry(template, ["/opt/mm/madohub-memory"], None)
    assert out == "[Desktop Entry]\nExec=/opt/mm/madohub-memory gui\nTryExec=/opt/mm/madohub-memory\nName=X\n"
