"""What an agent is told about proposing memories: when to call ``remember`` and how.

Why: the agent already runs a language model and sees every turn, so it is the best
extractor we have, but only if it knows what a reviewer wants in the queue (corrections,
rules, decisions with reasons, confirmed root causes) and what not (tool output, one-off
commands, secrets). The same few lines go into the MCP server's ``instructions`` and
into the Claude Code ``SessionStart`` hook output (for agents that only use hooks), so
they are written once, here, and kept short: they are paid for in every session.

The text is plain (no Qt, no store); :func:`remember_guide` fills in the workspace of the
session when the caller knows it. The request the ``PreCompact`` hook adds to Claude Code's
compaction (end the summary with a "Memory candidates" section) is written beside its parser,
in :mod:`madohub_memory.extraction.memory_candidates`, and handed out from here.
"""

from __future__ import annotations

import shlex

GUIDE_VERSION = 1

_KINDS = (
    "preference (how the user wants things done), fact (a durable project fact: stack, commands, "
    "paths, conventions), decision (a choice and its reason), pattern (a rule or recurring practice), "
    "postmortem (what broke, the confirmed root cause, the fix), event (a milestone or open problem)"
)


def remember_guide(
    workspace: str | None = None, *, persona: str | None = None, command: str | None = None
) -> str:
    """The instruction block: when to call ``remember`` and with which kind and namespace.

    ``workspace`` is ``workspace:<project>`` of the session when known (the hook knows
    it from the working directory); ``persona`` is the active persona; ``command``, when
    given, is the shell form of ``remember`` for agents without the MCP tool.
    """
    ws = workspace or "workspace:<repo>"
    person = f"persona:{persona}" if persona else "persona:<name>"
    how = "call the `remember` tool"
    if command:
        how += f" (or run `{command} \"TEXT\" --kind KIND --namespace NS`)"
    return "\n".join([
        f"Long-term memory: when the user corrects you, states a rule or preference, or a decision, "
        f"root cause or milestone is settled, {how} once, with one standalone sentence in the third "
        "person (\"User wants pnpm, not npm.\"), in the user's language.",
        f"Kinds: {_KINDS}.",
        f"Namespace: {ws} for this project; {person} for the user's personal preferences.",
        "Do not remember tool output, file contents, one-off commands, your own plans or guesses, "
        "and never secrets (keys, passwords, tokens). It is queued for the user's review.",
    ])


def shell_command(db: str | None = None, program: str = "madohub-memory remember") -> str:
    """The CLI form of ``remember`` (with ``--db`` when the hook was given one)."""
    return program + (f" --db {shlex.quote(db)}" if db else "")


def compaction_instruction() -> str:
    """What the ``PreCompact`` hook prints: the request for a "Memory candidates" section at the
    end of the summary (imported here, not at the top: ``SessionStart`` never needs it)."""
    from madohub_memory.extraction import memory_candidates

    return memory_candidates.compaction_instruction()
