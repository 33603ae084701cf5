"""The PySide6 dashboard. The only package that imports Qt.

PySide6-Essentials is pinned below 6.12 in pyproject.toml: 6.12.0 on CPython 3.11 drops
references to ``True``/``None`` (``SignalInstance.emit()``, void methods, ``None`` from a
model's ``data()``) and the interpreter aborts with "Fatal Python error: none_dealloc"
after a few thousand calls. 6.11 does not.
"""
