"""Compile resources/translations/*.ts to .qm with pyside6-lrelease (run by `make`)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = ROOT / "resources" / "translations"


def lrelease() -> str:
    exe = Path(sys.executable).parent / "pyside6-lrelease"
    if exe.exists():
        return str(exe)
    found = shutil.which("pyside6-lrelease")
    if not found:
        sys.exit("pyside6-lrelease not found: install PySide6-Essentials in this environment.")
    return found


def main() -> int:
    for ts in sorted(TRANSLATIONS.glob("*.ts")):
        qm = ts.with_suffix(".qm")
        if qm.exists() and qm.stat().st_mtime >= ts.stat().st_mtime:
            continue
        subprocess.run([lrelease(), str(ts), "-qm", str(qm)], check=True, capture_output=True)
        print(f"compiled {qm.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
