"""Where the bundled resources (icons, style sheet, translations, demo data) are.

``resources/`` is a top-level folder of the repository. A wheel carries it inside the
package (``madohub_memory/resources``, mapped by the build), the PyInstaller bundle at the
same place under its unpack folder, and a source checkout reads it next to the package.
Only the location is decided here; reading the files is the caller's business.
"""

from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path

from madohub_memory.core.errors import UserError

PACKAGE = "madohub_memory"


def candidates() -> list[Path]:
    """The places looked at, in order: frozen bundle, installed package, source checkout."""
    found: list[Path] = []
    frozen = getattr(sys, "_MEIPASS", None)
    if getattr(sys, "frozen", False) and frozen:
        found.append(Path(frozen) / PACKAGE / "resources")
    packaged = resources.files(PACKAGE) / "resources"
    if isinstance(packaged, Path):  # a real folder; Qt needs file paths, not a zip member
        found.append(packaged)
    found.append(Path(__file__).resolve().parents[2] / "resources")
    return found


def resources_dir() -> Path:
    """The first existing resources folder, or one clear sentence to reinstall."""
    places = candidates()
    for path in places:
        if path.is_dir():
            return path
    raise UserError(
        "The resources folder is missing (looked in {choices}); reinstall MadoHub Memory.",
        choices=', '.join(map(str, places)),
    )


def desktop_file(name: str) -> Path:
    """A desktop metadata file (``.desktop``, metainfo): ``resources/desktop/`` in a wheel or
    bundle, ``packaging/`` in a source checkout (where it is kept, next to the bundle spec)."""
    base = resources_dir()
    for path in (base / "desktop" / name, base.parent / "packaging" / name):
        if path.is_file():
            return path
    raise UserError(
        "The desktop file {name} is missing from this installation; reinstall MadoHub Memory.", name=name,
    )
