"""Guard for the Qt binding pin: PySide6 6.12.0 on CPython 3.11 leaks references away from
``True``/``None`` and aborts the interpreter after a few thousand calls."""

from __future__ import annotations

import sys

from PySide6.QtCore import QAbstractListModel, QModelIndex, QObject, Qt, Signal


class _Emitter(QObject):
    ping = Signal(int)


class _Model(QAbstractListModel):
    def rowCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 3

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        return None


def test_signals_and_models_keep_reference_counts_of_true_and_none(qapp) -> None:
    emitter, model = _Emitter(), _Model()
    emitter.ping.connect(lambda value: None)
    true_before, none_before = sys.getrefcount(True), sys.getrefcount(None)
    for i in range(2000):
        emitter.ping.emit(i)
        model.data(model.index(1, 0))
        qapp.processEvents()
    assert sys.getrefcount(True) - true_before > -50
    assert sys.getrefcount(None) - none_before > -50
