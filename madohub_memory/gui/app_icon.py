"""The application icon as PNG files of the sizes desktop environments look up.

Used by ``madohub-memory desktop install``: the icon theme spec wants PNGs per size next to
the scalable SVG (some panels, docks and notification daemons never read SVG).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

from madohub_memory.core.errors import UserError

PNG_SIZES = (16, 22, 24, 32, 48, 64, 128, 256, 512)


def _ensure_app() -> None:
    """Rendering needs a QGuiApplication; a command-line process gets an offscreen one."""
    if QGuiApplication.instance() is None:
        QGuiApplication(["madohub-memory", "-platform", "offscreen"])


def render_png(svg: Path, size: int, target: Path) -> Path:
    _ensure_app()
    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise UserError(f"The icon {svg} cannot be read as SVG; reinstall MadoHub Memory.")
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    target.parent.mkdir(parents=True, exist_ok=True)
    if not image.save(str(target), "PNG"):  # type: ignore[call-overload]  # the stubs want bytes; Qt takes str
        raise UserError(f"Cannot write the icon {target}.")
    return target
