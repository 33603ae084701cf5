"""Errors a person can act on, kept apart from bugs.

Every front end shows a :class:`UserError` as its one-sentence message (stderr and a
non-zero exit in the CLI, a message box in the GUI, a tool error over MCP); anything
else is a bug and keeps its traceback.
"""

from __future__ import annotations


class UserError(Exception):
    """Bad input or a state the user can fix; ``str(err)`` is one clear sentence."""

    exit_code = 1


class ValidationError(UserError):
    """A value outside the closed vocabularies or limits (kind, namespace, content...)."""


class NotFoundError(UserError):
    """An id that does not exist (or is not in the state the operation needs)."""


class ConflictError(UserError):
    """The operation does not apply to the current state (e.g. approving a rejected candidate)."""


class ImportFileError(UserError):
    """An import file is broken; nothing from it was written."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line
