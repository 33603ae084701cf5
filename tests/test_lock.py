"""requirements/lock.txt: the generated pins `make venv` installs with (scripts/lock.py)."""

from __future__ import annotations

import importlib.util
import tomllib
from pathlib import Path
from types import ModuleType

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]


def _lock_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("lock_script", ROOT / "scripts" / "lock.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_direct_requirement_is_pinned_within_its_range() -> None:
    lock = _lock_script()
    pins = lock.read(ROOT / "requirements" / "lock.txt")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    for line in [*project["dependencies"], *project["optional-dependencies"]["test"]]:
        req = Requirement(line)
        name = lock.canonical(req.name)
        assert name in pins, f"{req.name} is not in requirements/lock.txt: run `make lock`"
        assert req.specifier.contains(pins[name], prereleases=True), f"{name}=={pins[name]} is outside {line}"


def test_the_check_names_each_disagreement(tmp_path: Path) -> None:
    lock = _lock_script()
    path = tmp_path / "lock.txt"
    path.write_text("# generated\nnumpy==2.0.0\njieba==0.42.1\nold-thing==1.0\n", encoding="utf-8")
    problems = lock.check({"numpy": "2.4.6", "jieba": "0.42.1", "httpx": "0.28.1"}, path)
    assert sorted(problems) == sorted([
        "httpx 0.28.1 is installed but not in the lock: run `make lock`.",
        "numpy is installed at 2.4.6, the lock says 2.0.0.",
        "old-thing is in the lock but no longer needed: run `make lock`.",
    ])
    assert lock.check({"jieba": "0.42.1"}, tmp_path / "absent.txt") != []
