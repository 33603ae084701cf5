"""The mouse wheel never changes a combo box or spin box the person did not click into.

Scrolling a settings page over a combo box must scroll the page, not switch the embedding
model or the language. Guarded widgets take focus only by click or Tab, and a wheel over
an unfocused one goes to its parent (the scroll area) instead.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt
from PySide6.QtWidgets import QAbstractSpinBox, QComboBox, QWidget


class WheelGuard(QObject):
    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Wheel and isinstance(obj, QWidget) and not obj.hasFocus():
            parent = obj.parentWidget()
            if parent is not None:
                QCoreApplication.sendEvent(parent, event)  # propagates up to the scroll area
            return True
        return False


def guard_wheel(root: QWidget) -> WheelGuard:
    """Guard every combo box and spin box under ``root`` (call again after adding more)."""
    guard = getattr(root, "_wheel_guard", None)
    if guard is None:
        guard = WheelGuard(root)
        root._wheel_guard = guard  # type: ignore[attr-defined]
    for widget in root.findChildren(QComboBox) + root.findChildren(QAbstractSpinBox):
        if widget.property("wheelGuarded"):
            continue
        widget.setProperty("wheelGuarded", True)
        widget.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        widget.installEventFilter(guard)
    return guard
