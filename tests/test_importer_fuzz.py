"""Importers never stop on one value: a fuzz test per importer (hypothesis), with the crash
reproducers of issue 14 as regression cases, and the file-level faults (a pipe, a device,
one bad file among good ones, the hook, the watch job)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from madohub_memory.core.errors import UserError
from madohub_memory.services import Services

ROOT = Path(__file__).resolve().parents[1]
DEEP = "[" * 3000 + "]" * 3000

hostile_leaf = st.one_of(
    st.text(max_size=30),
    st.sampled_from(["\ud83d", "a\udc00b", "\x00", "\u202eevil", "x" * 5000, "2023/13/45 (Mon) 25:61"]),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([1e20, float("inf"), float("-inf"), float("nan"), 1.5]),
    st.booleans(), st.none(),
)
hostile = st.recursive(
    hostile_leaf,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)),
    max_leaves=8,
)


def _replace_some(value: Any, data: st.DataObject, depth: int = 0) -> Any:
    """A copy of ``value`` with some of its fields replaced by hostile values."""
    if depth < 6 and isinstance(value, dict):
        return {k: (data.draw(hostile) if data.draw(st.integers(0, 5)) == 0 else _replace_some(v, data, depth + 1))
                for k, v in value.items()}
    if depth < 6 and isinstance(value, list):
        return [data.draw(hostile) if data.draw(st.integers(0, 5)) == 0 else _replace_some(v, data, depth + 1)
                for v in value]
    return value


CLAUDE = [
    {"type": "user", "sessionId": "s1", "uuid": "u1", "cwd": "/home/a/shop", "timestamp": "2026-01-01T10:00:00Z",
     "message": {"role": "user", "content": "Always run make test before merging."}},
    {"type": "assistant", "sessionId": "s1", "uuid": "a1",
     "message": {"id": "m1", "content": [{"type": "text", "text": "Ok."},
                                        {"type": "tool_use", "name": "Bash", "input": {"command": "make"}}]}},
    {"type": "user", "sessionId": "s1", "uuid": "u2",
     "message": {"content": [{"type": "tool_result", "content": "ok"}]}},
    {"type": "system", "sessionId": "s1", "subtype": "compact_boundary"},
    {"type": "queue-operation", "sessionId": "s1", "operation": "enqueue", "content": "check again"},
]
PLAIN = [{"role": "user", "content": "I prefer dark mode.", "timestamp": "2026-01-01T10:00:00Z"},
         {"role": "assistant", "content": [{"type": "text", "text": "Noted."}]},
         {"role": "user", "content": "Use pnpm.", "conversation_id": "c2", "id": "t9"}]
CHATGPT = [{"id": "c1", "title": "T", "create_time": 1700000000, "current_node": "n2", "mapping": {
    "n1": {"id": "n1", "parent": None, "children": ["n2"], "message": {
        "id": "m1", "author": {"role": "user"}, "create_time": 1700000001,
        "content": {"content_type": "text", "parts": ["I am vegetarian."]}, "recipient": "all", "metadata": {}}},
    "n2": {"id": "n2", "parent": "n1", "children": [], "message": {
        "id": "m2", "author": {"role": "assistant"}, "content": {"content_type": "text", "parts": ["Noted."]}}}}}]
LOCOMO = [{"sample_id": "s1", "conversation": {
    "speaker_a": "Ann", "speaker_b": "Bob", "session_1_date_time": "1:56 pm on 8 May, 2023",
    "session_1": [{"speaker": "Ann", "dia_id": "D1:1", "text": "I adopted a dog."}]}}]
LME = [{"question_id": "q1", "haystack_session_ids": ["h1"], "haystack_dates": ["2023/05/20 (Sat) 02:21"],
        "haystack_sessions": [[{"role": "user", "content": "My car is a Civic."}]]}]
SEEDS = {"claude-code": CLAUDE, "jsonl": PLAIN, "chatgpt": CHATGPT, "locomo": LOCOMO, "longmemeval": LME}
LINE = ("claude-code", "jsonl")


def _write(path: Path, fmt: str, value: Any) -> None:
    if fmt in LINE:
        path.write_text("\n".join(json.dumps(v) for v in value) + "\n", encoding="utf-8", errors="surrogatepass")
    else:
        path.write_text(json.dumps(value), encoding="utf-8", errors="surrogatepass")


def _assert_survives(svc: Services, path: Path, fmt: str) -> dict[str, Any]:
    """The importer returns a summary (never raises but for a one-sentence error), never
    reports an internal error, and everything it stored reads back."""
    summary = svc.ingest.ingest_paths([str(path)], format=fmt, extract=False)
    assert not [e for e in summary["errors"] if "internal error" in e["message"]], summary["errors"]
    for (text,) in svc.store.query("SELECT content FROM turns"):
        text.encode("utf-8")
    return summary


@pytest.mark.parametrize("fmt", list(SEEDS))
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_every_importer_survives_hostile_values(fmt: str, data: st.DataObject, tmp_path_factory, fresh_db) -> None:
    folder = tmp_path_factory.mktemp("fuzz")
    value = _replace_some(SEEDS[fmt], data)
    if fmt in LINE and not isinstance(value, list):
        value = [value]
    path = folder / ("in.jsonl" if fmt in LINE else "in.json")
    try:
        _write(path, fmt, value)
    except (ValueError, RecursionError):
        return
    with Services.open(fresh_db(folder)) as svc:
        _assert_survives(svc, path, fmt)
        _assert_survives(svc, path, "auto")


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(rows=st.lists(st.fixed_dictionaries({"table": hostile, "row": st.dictionaries(st.text(max_size=8), hostile)}),
                     max_size=3))
def test_export_import_never_crashes_on_hostile_lines(rows: list[dict[str, Any]], tmp_path_factory, fresh_db) -> None:
    folder = tmp_path_factory.mktemp("fuzz")
    path = folder / "in.jsonl"
    header = json.dumps({"format": "madohub-memory-export", "version": 1})
    path.write_text("\n".join([header, *(json.dumps(r) for r in rows)]) + "\n", encoding="utf-8",
                    errors="surrogatepass")
    with Services.open(fresh_db(folder)) as svc:
        try:
            svc.transfer.import_file(path)
        except UserError:
            pass


REPRODUCERS = {
    "jsonl lone surrogate": ("chat.jsonl", b'{"role": "user", "content": "cut mid-emoji \\ud83d"}\n'
                             b'{"role": "user", "content": "next line"}\n', 2),
    "claude-code lone surrogate": ("s.jsonl", b'{"type": "user", "sessionId": "s1", "uuid": "u1", "message":'
                                   b' {"content": "hello \\ud83d"}}\n{"type": "user", "sessionId": "s1", "uuid":'
                                   b' "u2", "message": {"content": "next"}}\n', 2),
    "deep nesting": ("deep.jsonl", DEEP.encode() + b'\n{"role": "user", "content": "after the bomb"}\n', 1),
    "id is an object": ("obj.jsonl", b'{"type": "user", "sessionId": "s1", "uuid": {"x": 1}, "message":'
                        b' {"content": "hi"}}\n{"type": "user", "sessionId": "s1", "uuid": "u2", "message":'
                        b' {"content": "next"}}\n', 1),
    "id above 2^63": ("big.jsonl", b'{"type": "user", "sessionId": "s1", "uuid": 99999999999999999999999,'
                      b' "message": {"content": "hi"}}\n', 1),
    "type is a list": ("list.jsonl", b'{"type": ["user"], "sessionId": "s1", "uuid": "u0"}\n'
                       b'{"type": "user", "sessionId": "s1", "uuid": "u1", "message": {"content": "hi"}}\n', 1),
    "create_time 1e20": ("c.json", json.dumps([{**CHATGPT[0], "create_time": 1e20}]).encode(), 2),
    "create_time Infinity": ("i.json", json.dumps([{**CHATGPT[0], "create_time": float("inf")}]).encode(), 2),
    "bad LongMemEval date": ("l.json", json.dumps([{**LME[0], "haystack_dates": ["2023/13/45 (Mon) 25:61"]}]).encode(), 1),
}


@pytest.mark.parametrize("name", list(REPRODUCERS))
def test_crash_reproducers_of_issue_14(name: str, svc: Services, tmp_path: Path) -> None:
    filename, data, turns = REPRODUCERS[name]
    path = tmp_path / filename
    path.write_bytes(data)
    summary = _assert_survives(svc, path, "auto")
    assert summary["turns"]["new"] == turns, summary


def test_an_export_line_whose_table_is_a_list_is_one_sentence(svc: Services, tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    path.write_text('{"format": "madohub-memory-export", "version": 1}\n{"table": ["settings"], "row": {}}\n')
    with pytest.raises(UserError, match=r"Line 2 .* unknown table"):
        svc.transfer.import_file(path)
    path.write_text('{"format": "madohub-memory-export", "version": 1}\n'
                    '{"table": "settings", "row": {"key": "k", "value": 99999999999999999999, "updated_at": "t"}}\n')
    with pytest.raises(UserError, match=r"Line 2 .* cannot be stored"):
        svc.transfer.import_file(path)


def test_one_bad_file_never_stops_the_files_after_it(svc: Services, tmp_path: Path) -> None:
    folder = tmp_path / "sessions"
    folder.mkdir()
    (folder / "a-bad.jsonl").write_bytes(b'{"type": "user", "sessionId": "s1", "uuid": {"x": 1}, "message":'
                                         b' {"content": "\\ud83d"}}\n')
    (folder / "b-good.jsonl").write_text('{"role": "user", "content": "The staging port is 5433."}\n')
    summary = svc.ingest.ingest_paths([str(folder)], extract=False)
    assert summary["turns"]["new"] == 1
    assert summary["status"] == "partial"


def test_a_pipe_or_a_device_in_an_ingested_folder_is_skipped(tmp_path: Path, db_path: Path) -> None:
    folder = tmp_path / "sessions"
    folder.mkdir()
    os.mkfifo(folder / "fifo.jsonl")
    os.symlink("/dev/zero", folder / "zero.jsonl")
    (folder / "real.jsonl").write_text('{"role": "user", "content": "The staging port is 5433."}\n')
    run = subprocess.run([sys.executable, "-m", "madohub_memory", "ingest", str(folder), "--no-extract",
                          "--json", "--db", str(db_path)], capture_output=True, text=True, cwd=ROOT, timeout=60)
    summary = json.loads(run.stdout)
    assert summary["turns"]["new"] == 1
    skipped = {Path(e["file"]).name for e in summary["errors"] if "not a regular file" in e["message"]}
    assert skipped == {"fifo.jsonl", "zero.jsonl"}


def test_the_stop_hook_keeps_importing_a_session_with_a_cut_emoji(tmp_path: Path, db_path: Path) -> None:
    transcript = tmp_path / "session.jsonl"
    line = '{{"type": "user", "sessionId": "s1", "uuid": "{u}", "message": {{"content": "{text}"}}}}\n'
    transcript.write_text(line.format(u="u1", text="first \\ud83d") + line.format(u="u2", text="second"))
    event = json.dumps({"hook_event_name": "Stop", "transcript_path": str(transcript)})
    env = {**os.environ, "MADOHUB_HOOK_INLINE": "1"}

    def hook() -> None:
        subprocess.run([sys.executable, "-m", "madohub_memory", "hook", "--db", str(db_path)], input=event,
                       capture_output=True, text=True, cwd=ROOT, timeout=300, env=env)

    hook()
    with transcript.open("a") as handle:
        handle.write(line.format(u="u3", text="third"))
    hook()
    with Services.open(db_path) as svc:
        contents = [r[0] for r in svc.store.query("SELECT content FROM turns ORDER BY seq")]
    assert contents == ["first \ufffd", "second", "third"]
    log = (db_path.parent / "hook.log").read_text()
    assert "error" not in log


def test_the_watch_job_imports_the_other_files_past_a_bad_one(db_path: Path, tmp_path: Path) -> None:
    folder = tmp_path / "projects"
    folder.mkdir()
    (folder / "a.jsonl").write_bytes(b'{"type": "user", "sessionId": "s1", "uuid": 7, "message": {"content":'
                                     b' {"deep": ' + b"[" * 2000 + b"]" * 2000 + b'}}}\n')
    (folder / "b.jsonl").write_text('{"role": "user", "content": "The staging port is 5433."}\n')
    with Services.open(db_path) as svc:
        svc.settings.set("workers.watch_paths", str(folder))
        result = svc.jobs.run_now("watch")
        assert result["error"] is None
        assert svc.store.query_one("SELECT COUNT(*) FROM turns")[0] == 1
