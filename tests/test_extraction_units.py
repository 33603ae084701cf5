"""Units: a coding session cut into statements, each with its place (no model involved).

The fixtures are written here; none is copied from real sessions.
"""

from __future__ import annotations

from madohub_memory.core.types import TurnView
from madohub_memory.extraction.unit_features import NAMES, features
from madohub_memory.extraction.units import exchanges, pass_units, sentences

PREAMBLE = ("This session is being continued from a previous conversation that ran out of context. "
            "The summary below covers the earlier portion of the conversation.\n\n")


def turn(i: str, role: str, content: str) -> TurnView:
    return TurnView(i, role, content, "cc:s", "2026-03-01T10:00:00Z")


def feature(unit, name: str) -> float:
    return features(unit)[NAMES.index(name)]


AUTONOMOUS = [
    turn("u1", "user", "Fix the importer. Never install packages on the host; everything runs in Docker."),
    turn("a1", "assistant", "Let me run the tests first.\n[tool Bash] docker compose run --rm app pytest -q"),
    turn("r1", "tool", "[tool error] Exit code 1 FAILED tests/test_import.py::test_csv - UnicodeDecodeError"),
    turn("a2", "assistant", "The reader opens files without an encoding.\n[tool Edit] app/reader.py"),
    turn("r2", "tool", "[tool result] The file app/reader.py has been updated successfully."),
    turn("a3", "assistant", "[tool Bash] docker compose run --rm app pytest -q"),
    turn("r3", "tool", "[tool result] 31 passed in 2.0s"),
    turn("a4", "assistant", "## Summary\n\n- Root cause: the CSV reader used the locale encoding.\n"
                            "- Fix: it now opens files as UTF-8; all 31 tests pass."),
]


def test_an_autonomous_run_is_one_exchange_with_its_rules_and_its_report():
    units = pass_units(AUTONOMOUS)
    assert len(exchanges(AUTONOMOUS)) == 1
    rules = [u for u in units if u.source == "user"]
    assert [u.text for u in rules] == ["Fix the importer.", "Never install packages on the host; everything runs in Docker."]
    report = [u for u in units if u.final]
    assert [u.text for u in report] == ["Root cause: the CSV reader used the locale encoding.",
                                        "Fix: it now opens files as UTF-8; all 31 tests pass."]
    assert all(u.resolved and u.heading == "Summary" for u in report)  # a failing run passed before it
    narration = next(u for u in units if u.text == "Let me run the tests first.")
    assert narration.with_tool and not narration.final and feature(narration, "narration") == 1.0
    cause = next(u for u in units if u.text == "The reader opens files without an encoding.")
    assert cause.after_failure and not cause.final
    assert feature(report[0], "established_cause") == 1.0
    assert feature(rules[1], "standing_rule") == 1.0 and feature(rules[0], "standing_rule") == 1.0


def test_prompts_and_reports_are_capped_apart():
    units = pass_units(AUTONOMOUS)
    assert {u.exchange for u in units if u.source == "user"} == {"u1:user"}
    assert {u.exchange for u in units if u.source == "assistant"} == {"u1:assistant"}


def test_summary_items_carry_their_section_and_quoted_user_messages_are_the_users():
    body = PREAMBLE + """Summary:
1. Primary Request and Intent:
   The user asked for the export feature.

4. Errors and fixes:
   - Export timed out:
     - Root cause: the query missed an index
     - Fix: added an index on orders.created_at

6. All user messages:
   - "never push to main"

8. Current Work:
   Writing the export tests.
"""
    units = pass_units([turn("s1", "system", body)])
    by_section = {(u.source, u.section): u.text for u in units}
    assert by_section[("summary", "errors")] == ("Export timed out — root cause: the query missed an index; "
                                                  "fix: added an index on orders.created_at")
    assert by_section[("user", "summary_user")] == "never push to main"
    assert by_section[("summary", "current")] == "Writing the export tests."
    assert ("summary", "request") in by_section


def test_a_recap_and_an_unknown_summary_layout_are_read_sentence_by_sentence():
    recap = pass_units([turn("r1", "system", "Goal: ship the export. Status: the CSV path works; PDF is next.")])
    assert [u.source for u in recap] == ["recap", "recap"]
    odd = pass_units([turn("s1", "system", PREAMBLE + "~~~ notes ~~~\n>> all fine <<\n" + "* * *\n" * 50)])
    assert all(u.section == "unknown" for u in odd) and len(odd) <= 3


def test_answers_and_the_projects_commands_are_units_already_written():
    turns = [
        turn("u1", "user", "set up the checks"),
        turn("a1", "assistant", "[tool AskUserQuestion] Which linter?"),
        turn("r1", "tool", 'User has answered your questions: "Which linter?"="ruff". You can now continue.'),
        turn("a2", "assistant", "[tool Bash] ruff check .\n[tool Bash] mypy src\n[tool Bash] pytest -q"),
    ]
    units = {u.source: u for u in pass_units(turns)}
    assert units["answer"].preset == 'User chose "ruff" when asked: Which linter?'
    assert units["answer"].kind_hint == "decision"
    assert units["routine"].preset.startswith("Checks run in this project:")


def test_sentences_leave_out_code_tables_and_tool_lines_and_keep_a_bullet_whole():
    text = ("Intro line that says nothing much.\n```python\nprint('x')\n```\n| a | b |\n[tool Bash] ls\n"
            "- Use pnpm, not npm. It keeps the lockfile small.\nFiles created:\n- `app/x.py` (40 lines)")
    pieces = sentences(text)
    assert [p.text for p in pieces] == ["Intro line that says nothing much.",
                                        "Use pnpm, not npm. It keeps the lockfile small.", "`app/x.py` (40 lines)"]
    assert pieces[1].bullet and pieces[2].heading == "Files created"


def test_a_numbered_list_in_one_line_is_one_statement_each():
    pieces = sentences("Let's (1) just have one script, (2) don't print the count, (3) keep it in the session dir")
    assert [p.text for p in pieces] == ["Let's (1) just have one script", "(2) don't print the count",
                                        "(3) keep it in the session dir"]


def test_chinese_sentences_and_size_are_measured_like_english():
    units = pass_units([turn("u1", "user", "不要问我，自己闭环验证。所有测试必须在 Docker 里跑。"),
                        turn("a1", "assistant", "[tool Bash] make test")])
    assert [u.text for u in units if u.source == "user"] == ["不要问我，自己闭环验证。", "所有测试必须在 Docker 里跑。"]
    assert all(u.zh for u in units if u.source == "user")
    en = pass_units([turn("u1", "user", "Don't ask me, verify it yourself in a closed loop.")])[0]
    zh = next(u for u in units if u.source == "user")
    assert abs(feature(en, "log_size") - feature(zh, "log_size")) < 0.12  # not judged shorter for being Chinese


def test_pasted_material_and_envelopes_give_no_units():
    log = "\n".join(f"2026-03-01 10:00:{i % 60:02d} ERROR worker-{i} crashed" for i in range(5000))
    units = pass_units([turn("u1", "user", "<ide_opened_file>/x/y.md</ide_opened_file>\nthe worker dies, log:\n" + log)])
    assert all("crashed" not in u.text and "ide_opened" not in u.text for u in units)
