"""An agent's call of our MCP ``remember`` tool, as a transcript shows it: the call and the
candidate its reply says was queued.

Why: the MCP server queues the candidate while the session runs, without knowing the turn
it came from (the transcript line is not written yet). When the transcript is read later,
the call is that turn: the reader notes it (``meta["remembered"]`` on the reply's turn) and
the ingest service links it to the candidate, so "jump to turn" works for the agent's own
candidates too. Shared by the Claude Code and the Codex readers; pure functions, no I/O.
"""

from __future__ import annotations

from typing import Any

from madohub_memory.core.text import fingerprint
from madohub_memory.ingest.sanitize import parse_json

KEPT_CALLS = 20  # calls awaiting their reply, carried from one read of a growing file to the next


def is_remember_tool(name: str) -> bool:
    """An MCP tool named ``remember``: ``mcp__madohub__remember`` (setup), the plugin's
    ``mcp__plugin_madohub-memory_madohub__remember``, or a server registered under another name
    (the candidate id and the text must still match before anything is linked)."""
    return name.startswith("mcp__") and name.endswith("__remember")


def call_record(turn_id: str, arguments: Any) -> list[str] | None:
    """``[turn id, fingerprint of the content]`` for a remember call's arguments, or None."""
    content = arguments.get("content") if isinstance(arguments, dict) else None
    if not isinstance(content, str) or not content.strip():
        return None
    return [turn_id, fingerprint(content)]


def queued_candidate(reply: str) -> int | None:
    """The candidate a ``remember`` reply reports as queued in this database (not in a mapped
    team store), from the reply's JSON (``{"outcome": "new", "candidate_id": 3, …}``)."""
    try:
        data = parse_json(reply.strip())
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("store") or data.get("outcome") not in ("new", "seen_again"):
        return None
    candidate = data.get("candidate_id")
    return candidate if isinstance(candidate, int) and not isinstance(candidate, bool) else None


def link(call: list[str], candidate: int) -> dict[str, Any]:
    """What the reply's turn carries in ``meta["remembered"]`` (read by services/ingest.py)."""
    return {"candidate_id": candidate, "turn_id": call[0], "fingerprint": call[1]}
