"""Finding the bundled resources in a checkout, an installed wheel and a frozen bundle (issue 11)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import madohub_memory
from madohub_memory.core import resources
from madohub_memory.core.errors import UserError

CHECKOUT = Path(madohub_memory.__file__).resolve().parent.parent / "resources"


def test_a_source_checkout_reads_the_top_level_folder() -> None:
    assert resources.resources_dir() == CHECKOUT
    assert (resources.resources_dir() / "demo" / "demo.jsonl").is_file()


def test_a_frozen_bundle_reads_its_unpack_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bundled = tmp_path / "madohub_memory" / "resources"
    (bundled / "icons").mkdir(parents=True)
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    assert resources.resources_dir() == bundled


def test_nothing_found_is_one_sentence_to_reinstall(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(resources, "candidates", lambda: [tmp_path / "a", tmp_path / "b"])
    with pytest.raises(UserError, match=r"^The resources folder is missing \(looked in .*a, .*b\); reinstall"):
        resources.resources_dir()
