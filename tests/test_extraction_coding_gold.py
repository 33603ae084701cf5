"""The coding-session gold (bench/gold) is well formed, its evidence is real, and the matcher
rewards a paraphrase while refusing an unrelated sentence.

Items from sessions that declare no licence (``NO_LICENCE_DIRS`` in bench/_gold_match.py) cite
evidence by line and record uuid only, and their text must not be copied from the session; all
other Claude Code and ChatGPT evidence carries a quote found in the cited record.

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
    NO_LICENCE_DIRS,
    Candidate,
    conversation_key,
    declares_no_licence,
    load_chatgpt_selection,
    load_gold,
    match_all,
    matches,
    report,
)

GOLD = load_gold()
# ../shared/eval/dev next to the repository, or next to the folder that holds a git worktree
EVAL_DEV = Path(os.environ.get("MADOHUB_EVAL_DEV") or next(
    (p / "shared" / "eval" / "dev" for p in Path(__file__).resolve().parents[1:4] if (p / "shared" / "eval" / "dev").is_dir()),
    Path(__file__).resolve().parents[2] / "shared" / "eval" / "dev",
))
FIELDS = {"id", "file", "conversation", "kind", "namespace", "content", "tier", "evidence", "keywords"}
WORKSPACES = {
    "spotter", "alignment-hive", "gmail-automation",
    "pv-case-review", "weave", "bhavana", "session-share",
}
COPY_MIN_CHARS = 30  # a gold string this long must not occur verbatim in an unlicensed session
COPY_RUN_WORDS = 8  # nor may this many consecutive words of its content


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


def _evidence_format_problem(item: dict[str, Any], ev: dict[str, Any]) -> str | None:
    """Why one evidence entry is malformed for its file, or None."""
    if item["file"] == CHATGPT_FILE:
        if set(ev) != {"message_id", "quote"} or not str(ev["quote"]).strip():
            return "ChatGPT evidence is {message_id, quote} with a non-empty quote"
        return None
    if not isinstance(ev.get("line"), int) or ev["line"] < 1:
        return "evidence needs a 1-based line number"
    if declares_no_licence(item["file"]):
        if set(ev) != {"line", "uuid"} or not str(ev["uuid"]).strip():
            return "a file without a licence is cited by line and uuid only, never by quote"
        return None
    if not set(ev) <= {"line", "uuid", "quote"} or not str(ev.get("quote", "")).strip():
        return "evidence from a licensed file needs a non-empty quote"
    return None


def _evidence_record_problem(item: dict[str, Any], ev: dict[str, Any], lines: list[str]) -> str | None:
    """Why one Claude Code evidence entry does not hold in the session's lines, or None."""
    if ev["line"] > len(lines):
        return f"line {ev['line']} is past the end"
    record = json.loads(lines[ev["line"] - 1])
    if "quote" in ev and _norm(ev["quote"]) not in _norm(" ".join(_strings(record))):
        return f"quote not on line {ev['line']}"
    if "uuid" in ev and record.get("uuid") != ev["uuid"]:
        return f"uuid differs on line {ev['line']}"
    if record.get("sessionId") != item["conversation"]:
        return f"line {ev['line']} is another session"
    return None


def _copied_text(item: dict[str, Any], session_text: str) -> list[str]:
    """Gold strings of ``item`` that occur verbatim in ``session_text`` (already normalised).

    Whole strings of at least ``COPY_MIN_CHARS`` (content and keyword alternatives) and runs of
    ``COPY_RUN_WORDS`` consecutive words of the content both count as copied.
    """
    strings = [item["content"], *(alt for group in item["keywords"] for alt in group)]
    copied = [s for s in strings if len(s) >= COPY_MIN_CHARS and _norm(s) in session_text]
    words = _norm(item["content"]).split()
    for start in range(len(words) - COPY_RUN_WORDS + 1):
        run = " ".join(words[start:start + COPY_RUN_WORDS])
        if run in session_text:
            copied.append(run)
    return copied


def _session_text(lines: list[str]) -> str:
    """Every decoded string of a session, normalised as one text."""
    return _norm(" ".join(s for line in lines if line.strip() for s in _strings(json.loads(line))))


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
            problem = _evidence_format_problem(item, ev)
            assert problem is None, f"{item['id']}: {problem}"


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
    allowed = {f"workspace:{name}" for name in WORKSPACES} | {"persona:default"}
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


def test_evidence_format_follows_the_licence_of_its_file() -> None:
    unlicensed = {"file": NO_LICENCE_DIRS[0] + "s.jsonl"}
    licensed = {"file": "claude_code/more/gmail-automation/s.jsonl"}
    chatgpt = {"file": CHATGPT_FILE}
    assert _evidence_format_problem(unlicensed, {"line": 3, "uuid": "u-3"}) is None
    assert _evidence_format_problem(unlicensed, {"line": 3, "uuid": "u-3", "quote": "copied words"})
    assert _evidence_format_problem(unlicensed, {"line": 3})  # the uuid is what pins the record
    assert _evidence_format_problem(unlicensed, {"line": 0, "uuid": "u-3"})
    assert _evidence_format_problem(licensed, {"line": 3, "uuid": "u-3", "quote": "npm test"}) is None
    assert _evidence_format_problem(licensed, {"line": 3, "uuid": "u-3"})  # quotes stay mandatory
    assert _evidence_format_problem(licensed, {"line": 3, "quote": " "})
    assert _evidence_format_problem(chatgpt, {"message_id": "m", "quote": "a webshop"}) is None
    assert _evidence_format_problem(chatgpt, {"message_id": "m"})
    assert all(declares_no_licence(d + "x.jsonl") for d in NO_LICENCE_DIRS)
    assert not declares_no_licence(licensed["file"]) and not declares_no_licence(CHATGPT_FILE)


def test_evidence_records_are_checked_by_line_uuid_and_session() -> None:
    lines = [
        json.dumps({"uuid": "u-1", "sessionId": "s", "message": {"content": "use Lombok please"}}),
        json.dumps({"uuid": "u-2", "sessionId": "other", "message": {"content": "hello"}}),
    ]
    item = {"file": NO_LICENCE_DIRS[0] + "s.jsonl", "conversation": "s"}
    assert _evidence_record_problem(item, {"line": 1, "uuid": "u-1"}, lines) is None
    assert "uuid differs" in str(_evidence_record_problem(item, {"line": 1, "uuid": "u-2"}, lines))
    assert "past the end" in str(_evidence_record_problem(item, {"line": 3, "uuid": "u-3"}, lines))
    assert "another session" in str(_evidence_record_problem(item, {"line": 2, "uuid": "u-2"}, lines))
    assert "quote not" in str(_evidence_record_problem(item, {"line": 1, "quote": "use records"}, lines))


def test_the_copy_guard_catches_copied_sentences_but_not_own_words() -> None:
    session = _session_text([json.dumps({"message": {"content": (
        "Can we configure Jackson so that null fields are simply left out of every response we send?")}})])
    own = {"content": "The API omits null fields from its JSON (Jackson non_null).",
           "keywords": [["null"], ["omit", "non_null"]]}
    assert _copied_text(own, session) == []
    whole = {"content": "so that null fields are simply left out of every response", "keywords": [["null"]]}
    assert _copied_text(whole, session)
    run = {"content": "Rule: null fields are simply left out of every response, always.", "keywords": [["null"]]}
    assert _copied_text(run, session) == ["null fields are simply left out of every"]  # an 8-word run
    keyword = {"content": "Nulls are omitted.", "keywords": [["configure jackson so that null fields are"]]}
    assert _copied_text(keyword, session)


# -- evidence against the dev data -------------------------------------------------------


def test_every_claude_code_evidence_line_exists_and_holds_its_quote_or_uuid(eval_dev: Path) -> None:
    lines: dict[str, list[str]] = {}
    for item in GOLD:
        if item["file"] == CHATGPT_FILE:
            continue
        path = eval_dev / item["file"]
        assert path.is_file(), f"{item['id']}: {item['file']} does not exist"
        text = lines.setdefault(item["file"], path.read_text(encoding="utf-8").splitlines())
        for ev in item["evidence"]:
            problem = _evidence_record_problem(item, ev, text)
            assert problem is None, f"{item['id']}: {problem}"


def test_no_gold_text_is_copied_from_sessions_without_a_licence(eval_dev: Path) -> None:
    files = sorted({item["file"] for item in GOLD if declares_no_licence(item["file"])})
    assert files, "the gold should cover the sessions without a licence"
    for file in files:
        session = _session_text((eval_dev / file).read_text(encoding="utf-8").splitlines())
        for item in GOLD:
            if item["file"] == file:
                copied = _copied_text(item, session)
                assert not copied, f"{item['id']}: copied from {file}: {copied}"


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
