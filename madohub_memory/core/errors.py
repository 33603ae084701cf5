"""Errors a person can act on, kept apart from bugs.

Every front end shows a :class:`UserError` as its one-sentence message (stderr and a
non-zero exit in the CLI, a message box in the GUI, a tool error over MCP); anything
else is a bug and keeps its traceback.

An error carries its sentence as a template and the values that fill it
(``NotFoundError("No memory with id {memory_id}.", memory_id=7)``): ``str(err)`` is the
English sentence the CLI and the MCP server print, and the dashboard looks the template up
in the ``Errors`` context of its translations and fills in the same values, so a sentence
is written once, in English, where it is raised.
"""

from __future__ import annotations

from collections.abc import Mapping

MAX_MESSAGE_CHARS = 400


def _masked(value: object) -> object:
    """A string value with its secrets masked (an error sentence may quote the input, and is
    printed, logged, shown in the dashboard and sent to agents); anything else as it is. The
    scanner is imported with the first sentence that quotes text, not with this module."""
    if isinstance(value, str) and len(value) >= 6:
        from madohub_memory.core.secrets import redact

        return redact(value)
    return value


def shown(value: object, limit: int = 60) -> str:
    """``repr(value)`` for an error sentence, cut to ``limit`` characters (inputs can be huge):
    masked before it is cut, so a cut never leaves half a key unrecognised."""
    text = repr(_masked(value))
    if len(text) <= limit:
        return text
    return f"{text[: limit - 1]}…({len(str(value)):,} characters)"


def _bounded(message: str) -> str:
    """Keep a sentence readable when it quotes a huge input (a 20,000-character argument):
    its start (what went wrong) and its end (what to do) stay, the middle is left out."""
    if len(message) <= MAX_MESSAGE_CHARS:
        return message
    left = message[:220].rstrip()
    right = message[-140:].lstrip()
    return f"{left} … [{len(message) - 360:,} characters left out] … {right}"


def render(template: str, arguments: Mapping[str, object]) -> str:
    """``template`` (English or a translation of it) filled with ``arguments``, cut to a
    readable length. A template without arguments is taken as it is (braces and all)."""
    if not arguments:
        return _bounded(template)
    # masked before it is cut (the values are masked already; their repr or a list's may not be)
    return _bounded(str(_masked(template.format_map(arguments))))


class UserError(Exception):
    """Bad input or a state the user can fix; ``str(err)`` is one clear sentence.

    ``template`` is the English sentence with ``{name}`` fields (format syntax: ``{n:,}``,
    ``{text!r}``), ``arguments`` the values for them.
    """

    exit_code = 1

    def __init__(self, template: object = "", /, **arguments: object) -> None:
        self.template = str(template)
        # the dashboard fills its translation of the template with these: masked here once
        self.arguments: dict[str, object] = {k: _masked(v) for k, v in arguments.items()}
        super().__init__(render(self.template, self.arguments))

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled with its template and values (the dashboard's helper process sends errors
        over a pipe); values that are not plain data travel as the text they print as."""
        plain = {k: v if isinstance(v, (str, int, float, bool, type(None))) else str(v)
                 for k, v in self.arguments.items()}
        return _rebuild, (type(self), self.template, plain)


def _rebuild(cls: type[UserError], template: str, arguments: dict[str, object]) -> UserError:
    return cls(template, **arguments)


class ValidationError(UserError):
    """A value outside the closed vocabularies or limits (kind, namespace, content...)."""


class NotFoundError(UserError):
    """An id that does not exist (or is not in the state the operation needs)."""


class ConflictError(UserError):
    """The operation does not apply to the current state (e.g. approving a rejected candidate)."""


class ReviewerRoleError(UserError):
    """A decision (approve, reject, edit) the server refuses: the person may only propose."""


class ImportFileError(UserError):
    """An import file is broken; nothing from it was written."""

    def __init__(self, template: str, /, *, line: int | None = None, **arguments: object) -> None:
        super().__init__(template, **({"line": line} if line is not None else {}), **arguments)
        self.line = line


class StorageError(UserError):
    """The database file itself is the problem (busy, full disk, read-only, damaged, foreign).

    Front ends that speak a protocol (the MCP server) report these as protocol errors with
    the sentence as the reason, rather than as a mistake in the caller's input.
    """


class DatabaseBusyError(StorageError):
    """Another process held the write lock for longer than we are willing to wait."""


class DiskFullError(StorageError):
    """The disk (or a size limit) refused to grow the database file."""


class ReadOnlyDatabaseError(StorageError):
    """A write was asked of a database that can only be read."""


class DamagedDatabaseError(StorageError):
    """The file failed an integrity check, or SQLite found a damaged page."""


class ForeignDatabaseError(StorageError):
    """The file is not ours: another program's SQLite file, a newer schema, or not SQLite."""


class MappedStoreError(StorageError):
    """A store named by setting ``stores.map`` could not be opened (missing file, server down)."""


class MissingDatabaseError(StorageError):
    """A read command named a database file that does not exist (it is not created)."""
