"""``hook``: the Claude Code hook entry point (event JSON on stdin).

``Stop`` imports the new lines of ``transcript_path`` (the last exchange) and has them
extracted; ``PreCompact`` sends everything not yet extracted through the compaction pass
before the agent summarises it away, and prints the request that the summary end with a
"Memory candidates" section (Claude Code adds it to the compaction request as "Additional
Instructions"); ``PostCompact`` keeps ``compact_summary`` as a turn when it carries that
section, and the drain reads its lines back as candidates
(services/compaction_readback.py); ``SessionStart`` prints the workspace's rules for the
agent (pinned memories, working memory, patterns and preferences; see
services/session_context.py) followed by the few lines that tell the agent when to call
``remember`` (:mod:`madohub_memory.agents.guide`). It never blocks the agent: what
it did and any error are logged to ``hook.log`` next to the database (through
:mod:`madohub_memory.services.log`, never to the agent's screen) and the exit status is 0.

Why ``Stop`` never asks the agent to reflect ("save what you have not saved", by blocking
the stop once per session): such a turn re-reads the whole context, twice when the
``remember`` tool still has to be loaded (MCP tools are deferred), at a median of ~63k
tokens per session end on the dev transcripts, to propose what the session-start guide
already asked for at the moment it happened and what the compaction section collects
anyway; and its trigger ("a correction was seen") would be the offline extractor, which
has queued exactly those items already, while it cannot run inside this hook's 200 ms.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from madohub_memory.core.paths import default_db_path

MAX_EVENT_BYTES = 1_000_000
log = logging.getLogger(__name__)


def log_path(db: str | None) -> Path:
    env = os.environ.get("MADOHUB_HOOK_LOG")
    if env:
        return Path(env).expanduser()
    if db and "://" not in db and not db.lstrip().lower().startswith("service="):
        # a file: log beside it (a server address or a refused URL: beside the default database)
        return Path(db).expanduser().parent / "hook.log"
    return default_db_path().parent / "hook.log"


def _read_event() -> dict[str, Any]:
    raw = sys.stdin.buffer.read(MAX_EVENT_BYTES + 1)
    if len(raw) > MAX_EVENT_BYTES:
        raise ValueError("hook event is larger than 1 MB")
    event = json.loads(raw.decode("utf-8"))
    if not isinstance(event, dict):
        raise ValueError("hook event is not a JSON object")
    return event


def _transcript(event: dict[str, Any]) -> str:
    path = event.get("transcript_path")
    if not isinstance(path, str) or not os.path.isfile(os.path.expanduser(path)):
        raise ValueError(f"transcript_path {path!r} is not a file")
    return os.path.expanduser(path)


def handle_event(event: dict[str, Any], db: str | None) -> str | None:
    """Run one hook event; returns text to print (SessionStart context) or None (``PreCompact``'s
    request is printed by the entry point, before this runs).

    ``Stop`` and ``PreCompact`` only import the new lines (fast) and mark what the pass
    must cover; the extraction itself runs in a detached ``worker --once --job drain``
    process, so the agent never waits for the extractor or the embedding model. Set
    ``MADOHUB_HOOK_INLINE=1`` to extract inside the hook instead.
    """
    from madohub_memory.services import Services

    name = event.get("hook_event_name")
    if name not in ("Stop", "SubagentStop", "PreCompact", "PostCompact", "SessionStart"):
        return None
    inline = os.environ.get("MADOHUB_HOOK_INLINE", "") not in ("", "0")
    if db:
        from madohub_memory.store.database import refuse_url

        refuse_url(db)  # a password in the hook's --db: logged as the CLI's one sentence
    with Services.open(db, origin="hook") as svc:
        if name == "SessionStart":
            return _session_start(svc, event, db)
        transcript = _transcript(event)
        summary = svc.ingest.ingest_paths([transcript], format="claude-code", extract=False)
        if name == "PreCompact":
            ids = [svc.ingest.conversation_for_file(f["path"]) for f in summary["files"]]
            for conversation_id in filter(None, ids):
                svc.ingest.mark_for_compaction(conversation_id)
        elif name == "PostCompact":
            _post_compact(svc, event, transcript)
        counts = svc.ingest.drain() if inline else None
        pending = svc.ingest.pending().get("pending", 0)
    if not inline and pending:
        _spawn_drain(db)
    log.info("%s: turns %s, pending %s%s", name, summary["turns"], pending, f", extracted {counts}" if counts else "")
    return None


def _post_compact(svc: Any, event: dict[str, Any], transcript: str) -> None:
    """Keep ``compact_summary`` as a summary turn when it carries the "Memory candidates"
    section (services/compaction_readback.py); the transcript gets the summary only later."""
    from madohub_memory.agents.claude_code.compaction_readback import skipped_reasons, store_summary
    from madohub_memory.services.workspaces import namespace_for

    text = event.get("compact_summary")
    if not isinstance(text, str) or not text.strip():
        log.info("PostCompact: no compact_summary in the event (a CLI without it); the summary is read "
                 "when the transcript is imported")
        return
    conversation_id = svc.ingest.conversation_for_file(transcript)
    session = event.get("session_id")
    if conversation_id is None and isinstance(session, str) and session:
        conversation_id = f"cc:{session}"
    if conversation_id is None:
        raise ValueError("PostCompact event without a session_id or a readable transcript")
    cwd = event.get("cwd")
    namespace = namespace_for(svc, cwd) if isinstance(cwd, str) and cwd.strip("/ ") else None
    stored = store_summary(svc, conversation_id, text, segment=svc.ingest.segment_of_file(transcript) + 1,
                           namespace=namespace)
    if stored is None:
        log.info("PostCompact: the summary has no Memory candidates section; it is mined when the "
                 "transcript is imported")
    else:
        # which lines were skipped and why: here, since the drain that reads the lines back runs
        # in a detached worker whose log is not this file
        log.info("PostCompact: summary turn %s (%s), %s candidate lines, %s skipped%s", stored["turn_id"],
                 "new" if stored["new"] else "known", stored["lines"], stored["skipped"],
                 skipped_reasons(stored["skipped_lines"]))


def _spawn_drain(db: str | None) -> None:
    """Start ``worker --once --job drain`` detached from the agent's process group; the
    database goes in ``$MADOHUB_DB``, never on the child's command line (``ps`` shows that)."""
    # The daily backup rides along: it returns at once unless a day has passed.
    command = [sys.executable, "-m", "madohub_memory", "worker", "--once", "--job", "drain", "--job", "backup"]
    environment = {**os.environ, "MADOHUB_DB": db} if db else None
    subprocess.Popen(
        command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True, close_fds=True, env=environment,
    )


def _session_context(svc: Any, event: dict[str, Any], db: str | None) -> str | None:
    """The workspace's rules for the agent (services/session_context.py), or None."""
    cwd = event.get("cwd")
    if not isinstance(cwd, str) or not cwd.strip("/ "):
        return None
    context = svc.session_context.build(cwd=cwd, source="hook")
    log.info("SessionStart: %s, memories %s, tokens %s, %s ms",
             context.workspace or context.persona, context.memory_ids, context.tokens, context.elapsed_ms)
    return context.text or None


def _session_start(svc: Any, event: dict[str, Any], db: str | None) -> str:
    """The workspace's rules (if any), then the block that tells the agent when to call ``remember``."""
    try:
        context = _session_context(svc, event, db)
    except Exception as exc:  # recall failing must not cost the agent its instructions
        log.warning("SessionStart context failed: %s: %s", type(exc).__name__, exc)
        context = None
    return "\n\n".join(part for part in (context, _remember_guide(svc, event, db)) if part)


def _remember_guide(svc: Any, event: dict[str, Any], db: str | None) -> str:
    from madohub_memory.agents.guide import remember_guide, shell_command
    from madohub_memory.services.workspaces import namespace_for

    cwd = event.get("cwd")
    workspace = namespace_for(svc, cwd) if isinstance(cwd, str) and cwd.strip("/ ") else None
    program = "madohub-memory" if shutil.which("madohub-memory") else f"{sys.executable} -m madohub_memory"
    return remember_guide(workspace, persona=svc.settings.get("persona"),
                          command=shell_command(db, f"{program} remember"))


def _print(text: str | None) -> None:
    if text:
        sys.stdout.write(text.rstrip("\n") + "\n")
        sys.stdout.flush()


def run(args: argparse.Namespace) -> int:
    if os.environ.get("MADOHUB_HOOK_DISABLE", "") not in ("", "0"):
        return 0  # our own headless extraction run (claude -p): never feed it back into memory
    from madohub_memory.services.log import log_to_file

    with log_to_file(log_path(args.db), only=True):
        try:
            event = _read_event()
            if event.get("hook_event_name") == "PreCompact":
                # first, so that a database problem below cannot cost the summary its request
                from madohub_memory.agents.guide import compaction_instruction

                _print(compaction_instruction())  # becomes "Additional Instructions" of the summary request
            _print(handle_event(event, args.db))
        except BaseException as exc:  # never block or fail the agent
            if isinstance(exc, (SystemExit, KeyboardInterrupt)):
                return 0
            from madohub_memory.core.errors import UserError

            # a mistake in the event or the transcript is one line; a bug keeps its traceback
            log.error("error: %s: %s", type(exc).__name__, exc, exc_info=not isinstance(exc, (ValueError, UserError)))
    return 0
