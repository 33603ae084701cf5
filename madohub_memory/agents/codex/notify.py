"""``codex-notify``: the Codex CLI's turn-completion ``notify`` command (set by ``setup codex``).

Codex runs it after each finished turn with one JSON argument (thread id, turn id, cwd).
It imports the new lines of that session's rollout file (the turn just finished) and starts
the extraction in a detached ``worker --once`` process, like the Claude Code ``Stop`` hook.
Codex does not wait for it, and it never fails Codex: what it did and any error go to
``hook.log`` next to the database, and the exit status is 0.

``--then CMD…`` runs the person's own ``notify`` (the one they had before setup) with the
same argument, first and detached, so their notification is never delayed by ours.
"""

from __future__ import annotations

import argparse
import logging
import os
import subprocess
import sys

log = logging.getLogger(__name__)


def _chained(notification: str | None, then: list[str] | None) -> tuple[list[str], str]:
    """``(the person's own notify command, the notification JSON)`` from the arguments: Codex
    appends the JSON last, so after ``--then CMD…`` it is the last word of ``then``."""
    if then:
        return then[:-1], then[-1]
    if notification is None:
        raise ValueError("no notification argument (Codex passes the turn's JSON as the last argument)")
    return [], notification


def _run_detached(command: list[str]) -> None:
    try:
        subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         start_new_session=True, close_fds=True)
    except OSError as exc:
        log.warning("codex-notify: your notify command %r could not start: %s", command[:1], exc)


def handle_notice(argument: str, db: str | None) -> None:
    """Import the rollout of the session the notification names; extract in the background."""
    from madohub_memory.agents.claude_code.hook import _spawn_drain
    from madohub_memory.agents.codex.sessions import find_rollout, parse_notice, wait_for_turn
    from madohub_memory.services import Services

    notice = parse_notice(argument)
    if notice is None:
        return
    path = find_rollout(notice.thread_id)
    if path is None:
        log.warning("codex-notify: no rollout file for session %s under $CODEX_HOME/sessions; skipped",
                    notice.thread_id)
        return
    if not wait_for_turn(path, notice.turn_id):
        log.info("codex-notify: turn %s not complete in %s yet; importing what is there", notice.turn_id, path)
    inline = os.environ.get("MADOHUB_HOOK_INLINE", "") not in ("", "0")
    if db:
        from madohub_memory.store.database import refuse_url

        refuse_url(db)
    with Services.open(db, origin="hook") as svc:
        summary = svc.ingest.ingest_paths([str(path)], format="codex", extract=False)
        counts = svc.ingest.drain() if inline else None
        pending = svc.ingest.pending().get("pending", 0)
    if not inline and pending:
        _spawn_drain(db)
    problems = [e["message"] for e in summary["errors"]]
    log.info("codex-notify %s: turns %s, pending %s%s%s", notice.thread_id, summary["turns"], pending,
             f", extracted {counts}" if counts else "", f", problems {problems}" if problems else "")


def run(args: argparse.Namespace) -> int:
    if os.environ.get("MADOHUB_HOOK_DISABLE", "") not in ("", "0"):
        return 0
    from madohub_memory.agents.claude_code.hook import log_path
    from madohub_memory.services.log import log_to_file

    with log_to_file(log_path(args.db), only=True):
        try:
            own, argument = _chained(args.notification, args.then)
            if own:
                _run_detached([*own, argument])
            handle_notice(argument, args.db)
        except BaseException as exc:  # never fail or block Codex
            if isinstance(exc, (SystemExit, KeyboardInterrupt)):
                return 0
            from madohub_memory.core.errors import UserError

            log.error("codex-notify error: %s: %s", type(exc).__name__, exc,
                      exc_info=not isinstance(exc, (ValueError, UserError)))
    sys.stdout.flush()
    return 0
