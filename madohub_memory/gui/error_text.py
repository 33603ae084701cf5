"""Service error sentences in the interface language.

Services raise one English sentence (the CLI and the MCP server speak English). The
dashboard shows the sentences a person meets while curating in the language they chose:
each template below is an English sentence with ``{0}``, ``{1}`` where the values go, and
its translation in the ``Errors`` context of the ``.ts`` file keeps the same placeholders.
A sentence no template matches is shown as it is, so nothing is ever hidden.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QCoreApplication

from madohub_memory.core.vocab import CANDIDATE_STATUSES, MEMORY_STATUSES

TEMPLATES: tuple[str, ...] = (
    "No candidate with id {0}.",
    "No memory with id {0}.",
    "No turn with id {0}.",
    "Nothing to undo.",
    "Candidate {0} is {1}, not {2}.",
    "Content is empty: write the memory as one standalone statement.",
    "Content has {0} characters, more than the limit of {1}.",
    "Malformed namespace {0}: use persona:<name> or workspace:<project>.",
    "Unknown kind {0}: use one of {1}.",
    "Confidence {0} must be between 0 and 1.",
    "{0} is not a yes/no value: use true or false.",
    "{0} is not a whole number.",
    "Unknown setting {0}: see `madohub-memory settings list`.",
    "Cannot open the database file {0}: {1}.",
    "{0} is not a MadoHub Memory database ({1}).",
    "The database could not be opened.",
    "Cannot read {0}: {1}.",
    "Cannot write {0}: {1}.",
    "The resources folder is missing (looked in {0}); reinstall MadoHub Memory.",
    "The bundled demo data is missing ({0}); reinstall MadoHub Memory.",
    "The query is empty: give some words to search for.",
    "The choice is empty: say which option was picked.",
    "Transcript {0} does not exist.",
    "Line {0} of {1} is not valid JSON; nothing was imported.",
    "{0} is not a MadoHub Memory export (line 1 has no export header); nothing was imported.",
    "{0} is export version {1}, this program reads version {2}; nothing was imported.",
    "Line {0} of {1} is not a table row; nothing was imported.",
    "Line {0} of {1} names an unknown table {2}; nothing was imported.",
    "Line {0} of {1} has an unknown field {2} for {3}; nothing was imported.",
    "{0} is empty; nothing was imported.",
    "Line {0} of {1} conflicts with stored data or breaks a rule ({2}); nothing was imported.",
    "Line {0} of {1} cannot be stored ({2}); nothing was imported.",
    "The database file {0} was deleted or replaced while it was open; nothing was written. Restart MadoHub"
    " Memory to open the file that is there now.",
    "Unexpected error: {0}",
    "Candidate {0} is the same as pending candidate {1}: review that one instead.",
    "The database {0} is busy: another program kept it locked for {1} seconds; nothing was written, try again in a moment.",
    "The disk holding {0} is full: free some space, then try again; nothing was written.",
    "The database {0} is read-only: it can be searched but not changed (check the file's permissions and the disk it is on).",
    "The database {0} is damaged ({1}): run `madohub-memory doctor` to check it, or `madohub-memory restore` a backup.",
    "{0} was written by a newer MadoHub Memory (schema version {1}; this program knows up to {2}): update madohub-memory to use it; nothing was changed.",
    "{0} is another program's SQLite database (tables {1}), not a MadoHub Memory database: give another --db path; nothing was changed.",
)


def _compile(template: str) -> re.Pattern[str]:
    parts = re.split(r"\{\d\}", template)
    return re.compile("(.+?)".join(re.escape(p) for p in parts), re.S)


_COMPILED = tuple((template, _compile(template)) for template in TEMPLATES)
# Status words inside "Candidate 3 is rejected, not pending." read in the interface language.
_STATUS_WORDS = frozenset(CANDIDATE_STATUSES + MEMORY_STATUSES)


def _value(text: str) -> str:
    words = text.split(" or ")
    if all(w in _STATUS_WORDS for w in words):
        return QCoreApplication.translate("Errors", " or ").join(
            QCoreApplication.translate("Errors", w) for w in words)
    return text


def localize_error(message: str) -> str:
    """``message`` in the interface language when it is one of the known sentences."""
    for template, pattern in _COMPILED:
        match = pattern.fullmatch(message)
        if match is None:
            continue
        translated = QCoreApplication.translate("Errors", template)
        if translated == template:
            return message
        return translated.format(*(_value(v) for v in match.groups()))
    return message
