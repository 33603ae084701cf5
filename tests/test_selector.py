"""The learned selector: its shipped weights load from the package resources, weights for
other features are refused, the per-exchange cap grows with a long run, and the training
code (bench/_selector_training.py) turns labelled units into a selector that loads."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from madohub_memory.core.resources import resources_dir
from madohub_memory.core.types import TurnView
from madohub_memory.core.vocab import KINDS
from madohub_memory.extraction.selector import MODEL_FILE, exchange_caps, from_dict, load, shipped
from madohub_memory.extraction.unit_features import NAMES
from madohub_memory.extraction.units import pass_units

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))


def test_the_shipped_selector_is_a_resource_trained_on_the_current_features() -> None:
    data = json.loads((resources_dir() / "extraction" / MODEL_FILE).read_text(encoding="utf-8"))
    assert data["features"] == NAMES and len(data["weights"]) == len(NAMES)
    selector = shipped()
    assert 0.0 < selector.threshold < 1.0 and selector.cap_scale > 0
    assert len(selector.info["trained_on"]) >= 4  # projects, each also left out in the bench


def test_weights_for_other_features_are_refused() -> None:
    data = json.loads((resources_dir() / "extraction" / MODEL_FILE).read_text(encoding="utf-8"))
    data["features"] = [*NAMES[:-1], "something_else"]
    with pytest.raises(ValueError, match="train them again"):
        from_dict(data)


def test_the_cap_grows_with_the_square_root_of_an_exchange() -> None:
    turns = [TurnView("u1", "user", ". ".join(f"Rule {i} holds" for i in range(100)) + ".")]
    units = pass_units(turns)
    assert len(units) == 60  # a turn gives at most 60 units
    assert exchange_caps(units, 1.0) == {"u1:user": 8}
    assert exchange_caps(units[:3], 1.0) == {"u1:user": 2}


def test_every_chosen_unit_gets_a_kind_of_the_vocabulary() -> None:
    turns = [TurnView("u1", "user", "Never push to main. I prefer small commits. We use Postgres 16."),
             TurnView("a1", "assistant", "Root cause: the cache key ignored the lockfile.\n[tool Bash] make test")]
    selector = shipped()
    units = pass_units(turns)
    assert all(selector.kind(u) in KINDS for u in units)
    assert selector.kind(units[1]) == "preference"  # the person's own preference


def test_training_turns_labelled_units_into_a_selector_that_loads(tmp_path: Path) -> None:
    from _selector_training import Row, train

    def rows(project: str, n: int) -> list[Row]:
        out = []
        for i in range(n):
            rule = i % 3 == 0
            text = f"Never deploy on Friday number {i}." if rule else f"Let me look at file {i}."
            unit = pass_units([TurnView(f"{project}{i}", "user" if rule else "assistant", text)])[0]
            hits = [{"id": f"{project}-{i}", "tier": "must", "kind": "preference"}] if rule else []
            out.append(Row(unit, text, hits, project))
        return out

    model = train({"a": rows("a", 30), "b": rows("b", 30), "c": rows("c", 30)})
    path = tmp_path / MODEL_FILE
    path.write_text(json.dumps(model), encoding="utf-8")
    selector = load(path)
    rule = pass_units([TurnView("x", "user", "Never deploy on Friday.")])
    narration = pass_units([TurnView("y", "assistant", "Let me look at the file.")])
    assert selector.score(rule)[0] > selector.score(narration)[0]
    assert model["info"]["trained_on"] == ["a", "b", "c"]
