"""Log records with secrets masked, whichever handler writes them.

A log line can quote what it failed on (an LLM reply, a dropped draft, an exception
message that echoes its input), so every record this program emits is masked before any
handler sees it: :func:`install` wraps the logging record factory once per process, and
masks the formatted message and the exception text with
:func:`madohub_memory.core.secrets.redact`. No I/O here; handlers are configured elsewhere.
"""

from __future__ import annotations

import logging
import traceback
from typing import Any

_installed = False


def redact_record(record: logging.LogRecord) -> logging.LogRecord:
    """Mask the message, its arguments and any exception text of ``record`` in place. (The
    scanner is imported with the first record, not with :func:`install`: a command that logs
    nothing does not load it.)"""
    from madohub_memory.core.secrets import redact

    if isinstance(record.args, tuple) and record.args:
        # each text argument first: a format that cuts it ("%.200r") must not cut a key in two
        record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
    elif isinstance(record.args, dict):
        record.args = {k: redact(v) if isinstance(v, str) else v for k, v in record.args.items()}
    try:
        message = record.getMessage()
    except Exception:  # a bad format string: keep the record as the logging module would
        return record
    record.msg, record.args = redact(message) or "", ()
    if record.exc_info and record.exc_info[0] is not None and not record.exc_text:
        record.exc_text = redact("".join(traceback.format_exception(*record.exc_info)).rstrip("\n"))
    if record.stack_info:
        record.stack_info = redact(record.stack_info)
    return record


def install() -> None:
    """Mask every log record created from now on in this process (idempotent)."""
    global _installed
    if _installed:
        return
    previous = logging.getLogRecordFactory()

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        return redact_record(previous(*args, **kwargs))

    logging.setLogRecordFactory(factory)
    _installed = True
