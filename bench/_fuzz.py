"""Hostile importer inputs for ``bench/reliability.py``: valid seeds, mutated value by value.

Every importer gets a valid seed document of its format; each input replaces a few values
at random places with values real files have held (a string cut mid-emoji, a number past
64 bits, a list where text belongs, a thousand nested brackets), then maybe damages the
bytes (a cut, a stray byte). Deterministic for a seed. The crash reproducers of issue 14
come first, verbatim.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

DEEP = "[" * 5000 + "]" * 5000

HOSTILE: list[Any] = [
    "\ud83d", "a\udc00b", "", " ", "\x00", "\u202e" + "evil", "x" * 20_000, "😀" * 50,
    2**63, 2**64 + 7, -(2**70), 10**30, 1e20, float("inf"), float("-inf"), float("nan"), -1, 0,
    True, False, None, [], {}, [1, 2], {"a": {"b": {"c": None}}}, ["x"], {"text": 5},
    "2023/13/45 (Mon) 25:61", "not a date", "1970-01-01T00:00:00Z",
]


def _nest(depth: int) -> Any:
    value: Any = "bottom"
    for _ in range(depth):
        value = [value]
    return value


def seeds() -> dict[str, tuple[str, Any]]:
    """(file suffix, content) of one valid file per importer; content is a list of lines
    (line formats) or one JSON document."""
    cc = [
        {"type": "user", "sessionId": "s1", "uuid": "u1", "cwd": "/home/a/shop", "timestamp": "2026-01-01T10:00:00Z",
         "message": {"role": "user", "content": "Always run make test before merging."}},
        {"type": "assistant", "sessionId": "s1", "uuid": "a1", "timestamp": "2026-01-01T10:00:05Z",
         "message": {"id": "m1", "role": "assistant", "model": "x",
                     "content": [{"type": "text", "text": "Understood."},
                                 {"type": "tool_use", "name": "Bash", "input": {"command": "make test"}}]}},
        {"type": "user", "sessionId": "s1", "uuid": "u2",
         "message": {"role": "user", "content": [{"type": "tool_result", "content": "ok", "is_error": False}]}},
        {"type": "system", "sessionId": "s1", "uuid": "b1", "subtype": "compact_boundary"},
        {"type": "user", "sessionId": "s1", "uuid": "u3", "isCompactSummary": True,
         "message": {"role": "user", "content": "Summary: tests first."}},
        {"type": "queue-operation", "sessionId": "s1", "operation": "enqueue", "content": "check again"},
        {"type": "summary", "summary": "Shop work", "leafUuid": "a1"},
    ]
    plain = [
        {"role": "user", "content": "I prefer dark mode.", "timestamp": "2026-01-01T10:00:00Z"},
        {"role": "assistant", "content": [{"type": "text", "text": "Noted."}]},
        {"role": "user", "content": "Use pnpm, not npm.", "conversation_id": "c2", "id": "t9", "name": "ann"},
    ]
    chatgpt = [{
        "id": "conv1", "title": "Trip", "create_time": 1700000000.5, "current_node": "n3",
        "mapping": {
            "n1": {"id": "n1", "parent": None, "children": ["n2"], "message": None},
            "n2": {"id": "n2", "parent": "n1", "children": ["n3"], "message": {
                "id": "m2", "author": {"role": "user"}, "create_time": 1700000001,
                "content": {"content_type": "text", "parts": ["I am vegetarian."]}, "recipient": "all",
                "metadata": {}}},
            "n3": {"id": "n3", "parent": "n2", "children": [], "message": {
                "id": "m3", "author": {"role": "assistant"}, "create_time": 1700000002,
                "content": {"content_type": "text", "parts": ["Noted."]}, "recipient": "all",
                "metadata": {"model_slug": "gpt"}}},
        },
    }]
    locomo = [{"sample_id": "s1", "conversation": {
        "speaker_a": "Ann", "speaker_b": "Bob", "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [{"speaker": "Ann", "dia_id": "D1:1", "text": "I adopted a dog."},
                      {"speaker": "Bob", "dia_id": "D1:2", "text": "Nice!", "blip_caption": "a dog"}]}}]
    lme = [{"question_id": "q1", "haystack_session_ids": ["h1"], "haystack_dates": ["2023/05/20 (Sat) 02:21"],
            "haystack_sessions": [[{"role": "user", "content": "My car is a Civic.", "has_answer": True},
                                   {"role": "assistant", "content": "Nice."}]]}]
    export = [
        {"format": "madohub-memory-export", "version": 1},
        {"table": "settings", "row": {"key": "archive_days", "value": "7", "updated_at": "2026-01-01T00:00:00Z"}},
        {"table": "conversations", "row": {"id": "c1", "format": "jsonl", "source_path": None, "title": "t",
                                            "parent_id": None, "namespace": None, "started_at": None, "meta": "{}"}},
    ]
    return {"claude-code": (".jsonl", cc), "jsonl": (".jsonl", plain), "chatgpt": (".json", chatgpt),
            "locomo": (".json", locomo), "longmemeval": (".json", lme), "export": (".jsonl", export)}


LINE_FORMATS = ("claude-code", "jsonl", "export")


def reproducers() -> dict[str, list[bytes]]:
    """The crash reproducers of issue 14, per importer (raw file bytes)."""
    surrogate_line = b'{"role": "user", "content": "cut mid-emoji \\ud83d"}\n'
    cc_surrogate = (b'{"type": "user", "sessionId": "s1", "uuid": "u1", "message": {"role": "user",'
                    b' "content": "hello \\ud83d"}}\n')
    return {
        "claude-code": [
            cc_surrogate,
            b'{"type": ["user"], "sessionId": "s1", "uuid": "u1"}\n' + cc_surrogate,
            b'{"type": "user", "sessionId": "s1", "uuid": {"x": 1}, "message": {"content": "hi"}}\n',
            b'{"type": "user", "sessionId": "s1", "uuid": 99999999999999999999, "message": {"content": "hi"}}\n',
            DEEP.encode() + b"\n" + cc_surrogate,
        ],
        "jsonl": [
            surrogate_line,
            b'{"role": "user", "content": "hi", "id": {"a": 1}}\n',
            b'{"role": "user", "content": "hi", "id": 99999999999999999999999}\n',
            DEEP.encode() + b"\n" + surrogate_line,
        ],
        "chatgpt": [
            json.dumps([{"id": "c", "create_time": 1e20, "mapping": {}}]).encode(),
            b'[{"id": "c", "create_time": Infinity, "mapping": {"n": {"id": "n", "children": [],'
            b' "message": {"id": "m", "author": {"role": "user"}, "create_time": Infinity,'
            b' "content": {"content_type": "text", "parts": ["hi"]}}}}}]',
            ("[" + DEEP + "]").encode(),
        ],
        "longmemeval": [
            json.dumps([{"question_id": "q", "haystack_session_ids": ["h"], "haystack_dates": ["2023/13/45 (Mon) 25:61"],
                        "haystack_sessions": [[{"role": "user", "content": "hi"}]]}]).encode(),
        ],
        "locomo": [
            json.dumps([{"sample_id": "s", "conversation": {"session_1": [{"dia_id": {"x": 1}, "text": "hi"}]}}]).encode(),
        ],
        "export": [
            b'{"format": "madohub-memory-export", "version": 1}\n{"table": ["settings"], "row": {}}\n',
            b'{"format": "madohub-memory-export", "version": 1}\n{"table": "settings", "row": {"key": "k\\ud83d",'
            b' "value": "1", "updated_at": "t"}}\n',
            b'{"format": "madohub-memory-export", "version": 1}\n{"table": "settings", "row": {"key": "k",'
            b' "value": 99999999999999999999, "updated_at": "t"}}\n',
        ],
    }


def _paths(value: Any, prefix: tuple = ()) -> Iterator[tuple]:
    yield prefix
    if len(prefix) > 12:  # never walk into a nest an earlier mutation planted
        return
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*prefix, index))


def _replace(value: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {k: (_replace(v, rest, new) if k == head else v) for k, v in value.items()}
    return [(_replace(v, rest, new) if i == head else v) for i, v in enumerate(value)]


def _hostile(rng: random.Random) -> Any:
    roll = rng.random()
    if roll < 0.08:
        return _nest(rng.choice([50, 120, 400, 900]))
    return rng.choice(HOSTILE)


def _dump(value: Any, rng: random.Random) -> str:
    try:
        return json.dumps(value, ensure_ascii=rng.random() < 0.7, allow_nan=True)
    except (RecursionError, ValueError):
        return DEEP


def _damage(data: bytes, rng: random.Random) -> bytes:
    roll = rng.random()
    if roll < 0.1 and data:
        return data[: rng.randrange(len(data))]
    if roll < 0.2 and data:
        at = rng.randrange(len(data))
        return data[:at] + bytes([rng.choice([0x00, 0xFF, 0xC3, 0x0A, 0x22, 0x5B])]) + data[at:]
    if roll < 0.25:
        return b"\xef\xbb\xbf" + data
    return data


def mutate(fmt: str, content: Any, rng: random.Random) -> bytes:
    """One hostile variant of a seed (file bytes)."""
    if fmt in LINE_FORMATS:
        lines = list(content)
        for _ in range(rng.randint(1, 3)):
            index = rng.randrange(len(lines))
            places = list(_paths(lines[index]))
            lines[index] = _replace(lines[index], rng.choice(places), _hostile(rng))
        if rng.random() < 0.1:
            lines.insert(rng.randrange(len(lines) + 1), _hostile(rng))
        text = "\n".join(_dump(line, rng) for line in lines) + ("\n" if rng.random() < 0.9 else "")
    else:
        doc = content
        for _ in range(rng.randint(1, 4)):
            doc = _replace(doc, rng.choice(list(_paths(doc))), _hostile(rng))
        text = _dump(doc, rng)
    return _damage(text.encode("utf-8", "surrogatepass"), rng)


def inputs(fmt: str, count: int, seed: int = 14) -> Iterator[bytes]:
    """``count`` inputs for one importer: the reproducers first, then mutations."""
    rng = random.Random(f"{seed}:{fmt}")
    made = 0
    for data in reproducers().get(fmt, []):
        if made >= count:
            return
        made += 1
        yield data
    suffix_content = seeds()[fmt][1]
    while made < count:
        made += 1
        yield mutate(fmt, suffix_content, rng)
