"""The coding-session gold (bench/gold) is well formed, its evidence is real, and the matcher
rewards a paraphrase while refusing an unrelated sentence.

The evidence checks read ``../shared/eval/dev`` (or ``$MADOHUB_EVAL_DEV``) and skip when it is
absent; the format and matcher checks need nothing but the repository.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from madohub_memory.core.errors import ValidationError
from madohub_memory.core.vocab import KINDS, validate_kind, validate_namespace

BENCH = Path(__file__).resolve().parents[1] / "bench"
sys.path.insert(0, str(BENCH))

from _gold_match import (  # noqa: E402
    CHATGPT_FILE,
    Candidate,
    conversation_key,
    load_chatgpt_selection,
    load_gold,
    match_all,
    matches,
    report,
)

GOLD = load_gold()
EVAL_DEV = Path(os.environ.get("MADOHUB_EVAL_DEV") or Path(__file__).resolve().parents[2] / "shared" / "eval" / "dev")
FIELDS = {"id", "file", "conversation", "kind", "namespace", "content", "tier", "evidence", "keywords"}
# Dev projects whose files declare no licence: nothing from them may enter the repository, so their
# evidence cites line and record uuid only (a quote is optional) and their content is paraphrased.
NO_LICENCE_PROJECTS = ("pv-case-review", "posthog-impact-dashboard", "bhavana")


def _no_licence(file: str) -> bool:
    return any(file.startswith(f"claude_code/more/{project}/") for project in NO_LICENCE_PROJECTS)


@pytest.fixture(scope="module")
def eval_dev() -> Path:
    if not EVAL_DEV.is_dir():
        pytest.skip(f"evaluation data not found at {EVAL_DEV}")
    return EVAL_DEV


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().casefold()


# -- the gold file itself ----------------------------------------------------------------


def test_every_item_has_exactly_the_documented_fields_and_valid_labels() -> None:
    assert len(GOLD) >= 60
    ids = [item["id"] for item in GOLD]
    assert len(ids) == len(set(ids)), "duplicate gold ids"
    for item in GOLD:
        assert set(item) == FIELDS, item["id"]
        assert validate_kind(item["kind"]) == item["kind"]
        assert validate_namespace(item["namespace"]) == item["namespace"]
        assert item["tier"] in ("must", "nice"), item["id"]
        assert item["content"].strip() and item["content"] == item["content"].strip(), item["id"]
        assert item["evidence"], item["id"]
        for ev in item["evidence"]:
            if _no_licence(item["file"]):
                assert "uuid" in ev, item["id"]
            else:
                assert ev["quote"].strip(), item["id"]
            if item["file"] == CHATGPT_FILE:
                assert set(ev) == {"message_id", "quote"}, item["id"]
            else:
                assert isinstance(ev["line"], int) and ev["line"] >= 1, item["id"]
                assert set(ev) <= {"line", "uuid", "quote"}, item["id"]


def test_kinds_of_the_vocabulary_are_all_used_and_both_tiers_occur() -> None:
    assert {item["kind"] for item in GOLD} == set(KINDS)
    assert {item["tier"] for item in GOLD} == {"must", "nice"}


def test_keyword_groups_are_few_and_every_item_matches_its_own_content() -> None:
    for item in GOLD:
        groups = item["keywords"]
        assert 1 <= len(groups) <= 4, item["id"]
        assert all(isinstance(g, list) and g and all(isinstance(a, str) and a.strip() for a in g) for g in groups)
        assert matches(item["content"], groups), f"{item['id']}: its own sentence does not match its keywords"


def test_claude_code_items_use_the_repository_workspace_or_the_persona() -> None:
    allowed = {
        "workspace:spotter",
        "workspace:alignment-hive",
        "workspace:gmail-automation",
        "workspace:session-share",
        "workspace:posthog-impact-dashboard",
        "workspace:bhavana",
        "persona:default",
    }
    for item in GOLD:
        assert item["namespace"] in allowed, item["id"]
        if item["file"] == CHATGPT_FILE:
            assert item["namespace"] == "persona:default", item["id"]


def test_chatgpt_items_come_from_the_twenty_selected_conversations() -> None:
    selected = load_chatgpt_selection()
    assert len(selected) == len(set(selected)) == 20
    for item in GOLD:
        if item["file"] == CHATGPT_FILE:
            assert item["conversation"] in selected, item["id"]


def test_validators_reject_what_the_gold_must_not_contain() -> None:
    # the checks above lean on these validators; make sure they really refuse bad labels
    with pytest.raises(ValidationError):
        validate_kind("insight")
    with pytest.raises(ValidationError):
        validate_namespace("project:spotter")


# -- evidence against the dev data -------------------------------------------------------


def test_every_claude_code_evidence_line_exists_and_holds_its_quote(eval_dev: Path) -> None:
    lines: dict[str, list[str]] = {}
    for item in GOLD:
        if item["file"] == CHATGPT_FILE:
            continue
        path = eval_dev / item["file"]
        assert path.is_file(), f"{item['id']}: {item['file']} does not exist"
        text = lines.setdefault(item["file"], path.read_text(encoding="utf-8").splitlines())
        for ev in item["evidence"]:
            assert ev["line"] <= len(text), f"{item['id']}: line {ev['line']} is past the end"
            record = json.loads(text[ev["line"] - 1])
            if "quote" in ev:
                assert _norm(ev["quote"]) in _norm(" ".join(_strings(record))), f"{item['id']}: quote not on line {ev['line']}"
            if "uuid" in ev:
                assert record.get("uuid") == ev["uuid"], f"{item['id']}: uuid differs on line {ev['line']}"
            assert record.get("sessionId") == item["conversation"], f"{item['id']}: line {ev['line']} is another session"


def test_every_chatgpt_evidence_message_exists_and_holds_its_quote(eval_dev: Path) -> None:
    export = json.loads((eval_dev / CHATGPT_FILE).read_text(encoding="utf-8"))
    by_id = {c["id"]: c for c in export}
    for item in GOLD:
        if item["file"] != CHATGPT_FILE:
            continue
        conv = by_id[item["conversation"]]
        messages = {n["message"]["id"]: n["message"] for n in conv["mapping"].values() if n.get("message")}
        for ev in item["evidence"]:
            message = messages.get(ev["message_id"])
            assert message is not None, f"{item['id']}: no message {ev['message_id']}"
            text = "\n".join(p for p in message["content"].get("parts", []) if isinstance(p, str))
            assert _norm(ev["quote"]) in _norm(text), f"{item['id']}: quote not in message"


def test_chatgpt_selection_follows_its_stated_rule(eval_dev: Path) -> None:
    export = json.loads((eval_dev / CHATGPT_FILE).read_text(encoding="utf-8"))
    expected = [export[int(k * len(export) / 20 + 0.5)]["id"] for k in range(20)]
    assert load_chatgpt_selection() == expected


# -- the matcher -------------------------------------------------------------------------


def _item(item_id: str) -> dict[str, Any]:
    return next(i for i in GOLD if i["id"] == item_id)


def test_a_paraphrase_matches_and_an_unrelated_sentence_does_not() -> None:
    sandbox = _item("s258-liveview-sandbox")["keywords"]
    assert matches("For LiveView tests use Ecto's Sandbox in {:shared, self()} mode, since the view runs in its own process.", sandbox)
    assert not matches("Spotter's dev server listens on port 1100.", sandbox)
    assert not matches("Run mix test with the Ecto sandbox checked out.", sandbox)  # topic only, not the fix
    tdd = _item("gm3a-tdd")["keywords"]
    assert matches("Write the tests first (test-driven) for new modules.", tdd)
    assert not matches("Tests run with npm test in packages/email-processor.", tdd)


def test_matching_ignores_case_and_whitespace_but_needs_every_group() -> None:
    groups = [["credo"], ["mix test"]]
    assert matches("Run MIX   TEST and Credo before committing", groups)
    assert not matches("Run credo before committing", groups)
    assert not matches("anything", [])


def test_candidates_only_match_items_of_their_own_conversation() -> None:
    item = _item("hive-pii-todo")
    text = "hive-mind should also remove PII from sessions, not only secrets."
    other = Candidate(1, text, "event", item["namespace"], ("some-other-session",), file="x", source="claude_code")
    same = Candidate(2, text, "event", item["namespace"], (item["conversation"],), file=item["file"], source="claude_code")
    score = match_all(GOLD, [other, same])
    assert score.matches == {2: ["hive-pii-todo"]}


def test_report_counts_recall_precision_and_agreement() -> None:
    item = _item("hive-pii-todo")
    good = Candidate(1, "Todo: add PII removal to hive-mind; it only strips secrets today.", "fact",
                     item["namespace"], (item["conversation"],), file=item["file"], source="claude_code")
    junk = Candidate(2, "User is going to count to four.", "fact", item["namespace"],
                     (item["conversation"],), file=item["file"], source="claude_code")
    result = report(match_all(GOLD, [good, junk]), show=("missed", "unmatched"))
    assert result["candidates"] == 2 and result["useful_candidates"] == 1
    assert result["precision"] == 0.5
    assert result["kind_agreement"] == 0.0  # gold says event
    assert result["namespace_agreement"] == 1.0
    musts = sum(i["tier"] == "must" for i in GOLD)
    assert result["must_recall"] == round(1 / musts, 4)
    assert result["per_source"]["chatgpt"]["candidates"] == 0
    assert [c["content"] for c in result["unmatched_candidates"]] == [junk.content]
    assert "hive-pii-todo" not in {m["id"] for m in result["missed"]}


def test_conversation_keys_map_stored_ids_to_gold_ids() -> None:
    assert conversation_key("cc:258c7280-ae70") == "258c7280-ae70"
    assert conversation_key("cc:258c7280-ae70:agent-a881341") == "258c7280-ae70"
    assert conversation_key("chatgpt:0d87bb88-b759") == "0d87bb88-b759"
