"""``desktop install|uninstall``: the launcher, icons and an optional worker autostart entry.

Files go to the XDG user folders (``$XDG_DATA_HOME``, default ``~/.local/share``, and
``$XDG_CONFIG_HOME``, default ``~/.config``), so no root is needed:

* ``applications/io.madohub.Memory.desktop`` with ``Exec`` pointing at this installation
  (a venv, pipx or the frozen bundle), so the menu entry works even when it is not on PATH;
* ``icons/hicolor/scalable/apps/io.madohub.Memory.svg`` and a PNG per size;
* ``metainfo/io.madohub.Memory.metainfo.xml`` for software centres;
* with ``--autostart``, ``autostart/io.madohub.Memory-worker.desktop`` starting the
  background worker at login.

``uninstall`` removes exactly these files. Both print what they did (``--json`` too).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

from madohub_memory.cli.output import emit
from madohub_memory.core.errors import ValidationError
from madohub_memory.core.locations import is_dsn, redact

APP_ID = "io.madohub.Memory"
WORKER_ID = f"{APP_ID}-worker"
_RESERVED = set(' \t\n"\'\\><~|&;$*?#()`')


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("desktop", parents=[common], help="add or remove the menu entry, icons and autostart")
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    inst = actions.add_parser("install", parents=[common], help="install the launcher and icons for this user")
    inst.add_argument("--autostart", action="store_true", help="also start the background worker at login")
    inst.set_defaults(handler=_install)
    rem = actions.add_parser("uninstall", parents=[common], help="remove what desktop install added")
    rem.set_defaults(handler=_uninstall)


def data_home() -> Path:
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")


def config_home() -> Path:
    return Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")


def installed_paths() -> dict[str, Path]:
    from madohub_memory.gui.app_icon import PNG_SIZES

    icons = data_home() / "icons" / "hicolor"
    paths = {
        "desktop": data_home() / "applications" / f"{APP_ID}.desktop",
        "metainfo": data_home() / "metainfo" / f"{APP_ID}.metainfo.xml",
        "svg": icons / "scalable" / "apps" / f"{APP_ID}.svg",
        "autostart": config_home() / "autostart" / f"{WORKER_ID}.desktop",
    }
    for size in PNG_SIZES:
        paths[f"png{size}"] = icons / f"{size}x{size}" / "apps" / f"{APP_ID}.png"
    return paths


def launcher() -> list[str]:
    """The command that starts this installation: the frozen binary, the console script next
    to this interpreter (venv, pipx), or the interpreter with ``-m``."""
    if getattr(sys, "frozen", False):
        return [sys.executable]
    script = Path(sys.executable).parent / "madohub-memory"
    if script.is_file() and os.access(script, os.X_OK):
        return [str(script)]
    found = shutil.which("madohub-memory")
    return [found] if found else [sys.executable, "-m", "madohub_memory"]


def quote(arg: str) -> str:
    """An argument of a desktop entry's ``Exec`` key (Desktop Entry spec, 'The Exec key')."""
    if arg and not (_RESERVED & set(arg)):
        return arg.replace("%", "%%")
    escaped = arg.replace("\\", "\\\\").replace('"', '\\"').replace("`", "\\`").replace("$", "\\$")
    return '"' + escaped.replace("%", "%%") + '"'


def exec_line(args: list[str]) -> str:
    return " ".join(quote(a) for a in args)


def desktop_entry(template: str, command: list[str], db: str | None) -> str:
    """The packaged ``.desktop`` with ``Exec``/``TryExec`` for this installation."""
    gui = [*command, *(["--db", db] if db else []), "gui"]
    lines = []
    for line in template.splitlines():
        if line.startswith("Exec="):
            line = "Exec=" + exec_line(gui)
        elif line.startswith("TryExec="):
            line = "TryExec=" + command[0]
        lines.append(line)
    return "\n".join(lines) + "\n"


def worker_entry(command: list[str], db: str | None) -> str:
    worker = [*command, *(["--db", db] if db else []), "worker"]
    return "\n".join([
        "[Desktop Entry]",
        "Type=Application",
        "Version=1.4",
        "Name=MadoHub Memory background worker",
        "Name[zh_CN]=MadoHub 记忆后台任务",
        "Comment=Extracts memory candidates from new agent transcripts for your review",
        "Comment[zh_CN]=从新的智能体对话中提取记忆候选，等待你审核",
        f"Exec={exec_line(worker)}",
        f"TryExec={command[0]}",
        f"Icon={APP_ID}",
        "Terminal=false",
        "NoDisplay=true",
        "X-GNOME-Autostart-enabled=true",
        "",
    ])


def _refresh_caches(paths: dict[str, Path]) -> None:
    """Tell menus and icon themes about the change, where the tools exist (best effort)."""
    for command in (["update-desktop-database", "-q", str(paths["desktop"].parent)],
                    ["gtk-update-icon-cache", "-q", "-t", "-f", str(data_home() / "icons" / "hicolor")]):
        if shutil.which(command[0]):
            subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)


def _location(db: str | None) -> str | None:
    """What the launchers pass as ``--db``: a file as an absolute path, a server address as
    given (never one with a password: the entries are plain files other programs read)."""
    if not db:
        return None
    if is_dsn(db):
        from madohub_memory.store.pg.dsn import has_password

        if has_password(db):
            raise ValidationError(
                "The address {db} holds a password, which a launcher would store in plain text: keep it in"
                " PGPASSFILE (~/.pgpass) or a libpq service file.", db=redact(db),
            )
        return db.strip()
    return str(Path(db).expanduser().resolve())


def install(db: str | None, autostart: bool) -> list[str]:
    from madohub_memory.core.resources import desktop_file, resources_dir
    from madohub_memory.gui.app_icon import PNG_SIZES, render_png

    paths = installed_paths()
    command = launcher()
    db_path = _location(db)
    written: list[Path] = []
    paths["desktop"].parent.mkdir(parents=True, exist_ok=True)
    template = desktop_file(f"{APP_ID}.desktop").read_text(encoding="utf-8")
    paths["desktop"].write_text(desktop_entry(template, command, db_path), encoding="utf-8")
    written.append(paths["desktop"])
    paths["metainfo"].parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(desktop_file(f"{APP_ID}.metainfo.xml"), paths["metainfo"])
    written.append(paths["metainfo"])
    svg = resources_dir() / "icons" / "app.svg"
    paths["svg"].parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(svg, paths["svg"])
    written.append(paths["svg"])
    written += [render_png(svg, size, paths[f"png{size}"]) for size in PNG_SIZES]
    if autostart:
        paths["autostart"].parent.mkdir(parents=True, exist_ok=True)
        paths["autostart"].write_text(worker_entry(command, db_path), encoding="utf-8")
        written.append(paths["autostart"])
    elif paths["autostart"].exists():  # installing again without --autostart turns it off
        paths["autostart"].unlink()
    _refresh_caches(paths)
    return [str(p) for p in written]


def uninstall() -> list[str]:
    paths = installed_paths()
    removed = []
    for path in paths.values():
        if path.is_file():
            path.unlink()
            removed.append(str(path))
    _refresh_caches(paths)
    return removed


def _install(args: argparse.Namespace) -> int:
    written = install(args.db, args.autostart)
    text = f"installed {len(written)} files; MadoHub Memory is in the applications menu"
    if args.autostart:
        text += " and the background worker starts at login"
    emit(args, {"installed": written, "autostart": bool(args.autostart)}, text + ".")
    return 0


def _uninstall(args: argparse.Namespace) -> int:
    removed = uninstall()
    emit(args, {"removed": removed}, f"removed {len(removed)} files." if removed else "nothing was installed.")
    return 0
