"""Hatchling build hook: compile the Qt translations into the wheel.

The ``.qm`` files are build output (not in git). They are compiled into
``resources/translations`` (as ``make translations`` does) and mapped into the package
next to the other resources. Only the ``.qm`` goes in: the app reads a ``.ts`` only when
its ``.qm`` is missing or older, and an installer does not keep the files' times.
Editable installs read the source tree, so they skip this.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CustomBuildHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if version == "editable":
            return
        script = Path(self.root) / "scripts" / "build_translations.py"
        spec = importlib.util.spec_from_file_location("madohub_build_translations", script)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        module.main()
        for qm in sorted(module.TRANSLATIONS.glob("*.qm")):
            build_data["force_include"][str(qm)] = f"madohub_memory/resources/translations/{qm.name}"
