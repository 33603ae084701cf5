"""The PySide6 dashboard. The only package that imports Qt."""
