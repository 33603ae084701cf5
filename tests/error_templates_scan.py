"""The error templates raised in the package, read by ``scripts/error_templates.py`` (for tests)."""

from __future__ import annotations

import functools
import importlib.util
import string
import sys
from pathlib import Path
from types import ModuleType

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "error_templates.py"


@functools.cache
def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("error_templates", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up while being built
    spec.loader.exec_module(module)
    return module


def raised_templates() -> list[str]:
    return sorted(script().scan().templates)


def fields(template: str) -> list[tuple[str, str, str]]:
    """The replacement fields of a template (name, conversion, format spec), sorted."""
    return sorted((name, conversion or "", spec or "")
                  for _, name, spec, conversion in string.Formatter().parse(template) if name is not None)
