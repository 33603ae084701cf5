"""Interface language, display labels for the closed vocabularies, and resource files.

Translations are ``resources/translations/madohub_<lang>.ts`` compiled to ``.qm`` by
``scripts/build_translations.py``. ``.qm`` files are not in git, so when one is missing
the ``.ts`` is read directly by :class:`TsTranslator`: the app works from a bare checkout.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import UTC, datetime
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLocale, QTranslator
from PySide6.QtGui import QIcon

from madohub_memory.core.errors import UserError, render
from madohub_memory.core.resources import resources_dir
from madohub_memory.core.vocab import CANDIDATE_STATUSES, MEMORY_STATUSES

LANGUAGES = ("en", "zh_CN")
_installed: list[QTranslator] = []
_current = "en"


def tr(text: str) -> str:
    return QCoreApplication.translate("Vocab", text)


class TsTranslator(QTranslator):
    """A translator over a Qt Linguist ``.ts`` file, for when no compiled ``.qm`` exists."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self._table: dict[tuple[str, str], str] = {}
        root = ET.parse(path).getroot()
        for context in root.iter("context"):
            name = context.findtext("name") or ""
            for message in context.iter("message"):
                source = message.findtext("source")
                node = message.find("translation")
                if source is None or node is None or node.get("type") in ("unfinished", "obsolete"):
                    continue
                forms = [f.text or "" for f in node.findall("numerusform")]
                text = forms[0] if forms else node.text  # zh_CN has one plural form
                if text:
                    self._table[(name, source)] = text

    def translate(self, context: str, source: str, disambiguation: str | None = None, n: int = -1) -> str:
        return self._table.get((context, source))  # type: ignore[return-value]  # None: not translated, the source shows

    def isEmpty(self) -> bool:
        return not self._table


class EnglishPlurals(QTranslator):
    """English needs no translation file, but counted strings are written once with ``(s)``
    for every language ("%n decision point(s)"): English reads "1 decision point", "3
    decision points". Everything else falls through to the source text."""

    def translate(self, context: str, source: str, disambiguation: str | None = None, n: int = -1) -> str:
        if n < 0 or "(s)" not in source:
            return None  # type: ignore[return-value]  # not translated: Qt shows the source ("" would blank it)
        return source.replace("(s)", "" if n == 1 else "s")

    def isEmpty(self) -> bool:
        return False


def system_language() -> str:
    return "zh_CN" if QLocale.system().name().startswith("zh") else "en"


def resolve_language(setting: str | None) -> str:
    if setting in LANGUAGES:
        return str(setting)
    return system_language()


def install_language(lang: str) -> str:
    """Install the translator for ``lang`` (``en`` needs none); return the language in effect."""
    global _current
    app = QCoreApplication.instance()
    for old in _installed:
        if app is not None:
            app.removeTranslator(old)
    _installed.clear()
    _current = lang if lang in LANGUAGES else "en"
    if app is None:
        return _current
    if _current == "en":
        english = EnglishPlurals()
        app.installTranslator(english)
        _installed.append(english)
        return _current
    folder = resources_dir() / "translations"
    qm = folder / f"madohub_{_current}.qm"
    ts = folder / f"madohub_{_current}.ts"
    translator: QTranslator = QTranslator()
    # A .qm older than its .ts (edited, not rebuilt yet) would show stale text: read the .ts.
    fresh = qm.is_file() and (not ts.is_file() or qm.stat().st_mtime >= ts.stat().st_mtime)
    if not (fresh and translator.load(str(qm))):
        if not ts.is_file():
            return "en"
        translator = TsTranslator(ts)
    app.installTranslator(translator)
    _installed.append(translator)
    return _current


def current_language() -> str:
    return _current


def icon(name: str) -> QIcon:
    path = resources_dir() / "icons" / f"{name}.svg"
    return QIcon(str(path)) if path.is_file() else QIcon()


def stylesheet() -> str:
    path = resources_dir() / "styles" / "madohub.qss"
    if not path.is_file():
        return ""
    icons = (resources_dir() / "icons").as_posix()
    return path.read_text(encoding="utf-8").replace("@ICONS@", icons)


# -- display labels for stored values --------------------------------------------------------

def kind_label(kind: str) -> str:
    labels = {
        "preference": QCoreApplication.translate("Vocab", "preference"),
        "fact": QCoreApplication.translate("Vocab", "fact"),
        "decision": QCoreApplication.translate("Vocab", "decision"),
        "pattern": QCoreApplication.translate("Vocab", "pattern"),
        "postmortem": QCoreApplication.translate("Vocab", "postmortem"),
        "event": QCoreApplication.translate("Vocab", "event"),
    }
    return labels.get(kind, kind)


def source_label(source: str) -> str:
    labels = {
        "remember": QCoreApplication.translate("Vocab", "remember"),
        "turn": QCoreApplication.translate("Vocab", "turn"),
        "compaction": QCoreApplication.translate("Vocab", "compaction"),
        "manual": QCoreApplication.translate("Vocab", "manual"),
    }
    return labels.get(source, source)


def flag_label(flag: str) -> str:
    labels = {
        "secret": QCoreApplication.translate("Vocab", "secret"),
        "pii": QCoreApplication.translate("Vocab", "PII"),
        "instruction": QCoreApplication.translate("Vocab", "instruction"),
    }
    return labels.get(flag, flag)


def flags_label(flags: str) -> str:
    names = [flag_label(f) for f in flags.split(",") if f]
    return ("⚠ " + ", ".join(names)) if names else ""


def role_label(role: str) -> str:
    labels = {
        "user": QCoreApplication.translate("Vocab", "User"),
        "assistant": QCoreApplication.translate("Vocab", "Assistant"),
        "tool": QCoreApplication.translate("Vocab", "Tool"),
        "system": QCoreApplication.translate("Vocab", "System"),
    }
    return labels.get(role, role)


def namespace_label(namespace: str) -> str:
    """``persona:default`` shown as e.g. ``人设 · default`` in Chinese."""
    prefix, _, name = namespace.partition(":")
    if prefix == "persona":
        return QCoreApplication.translate("Vocab", "persona") + " · " + name
    if prefix == "workspace":
        return QCoreApplication.translate("Vocab", "workspace") + " · " + name
    return namespace


def age_label(iso: str | None, now: datetime | None = None) -> str:
    """A short relative time: ``5 min``, ``3 h``, ``2 d``."""
    if not iso:
        return QCoreApplication.translate("Vocab", "never")
    try:
        then = datetime.fromisoformat(iso.replace("Z", "+00:00"))
    except ValueError:
        return iso
    if then.tzinfo is None:  # a transcript time written without a zone is taken as UTC
        then = then.replace(tzinfo=UTC)
    seconds = max(0.0, ((now or datetime.now(UTC)) - then).total_seconds())
    if seconds < 60:
        return QCoreApplication.translate("Vocab", "just now")
    if seconds < 3600:
        return f"{int(seconds // 60)} " + QCoreApplication.translate("Vocab", "min")
    if seconds < 86400:
        return f"{int(seconds // 3600)} " + QCoreApplication.translate("Vocab", "h")
    return f"{int(seconds // 86400)} " + QCoreApplication.translate("Vocab", "d")


def ago_label(iso: str | None, now: datetime | None = None) -> str:
    """``14 min ago``, ``just now``, ``never``: an age that reads as a sentence part."""
    age = age_label(iso, now)
    if not iso or age in (QCoreApplication.translate("Vocab", "just now"), iso):
        return age
    return QCoreApplication.translate("Vocab", "%1 ago").replace("%1", age)


# Arguments of an error sentence that hold status words ("Candidate 3 is rejected, not
# pending or approved."): shown in the interface language too.
_STATUS_ARGUMENTS = ("status", "expected")
_STATUS_WORDS = frozenset(CANDIDATE_STATUSES + MEMORY_STATUSES)


def _status_words(value: object) -> object:
    words = value.split(" or ") if isinstance(value, str) else []
    if not words or not all(w in _STATUS_WORDS for w in words):
        return value
    return QCoreApplication.translate("Errors", " or ").join(
        QCoreApplication.translate("Errors", w) for w in words)


def error_text(error: BaseException | str) -> str:
    """A service error in the interface language: its template looked up in the ``Errors``
    context and filled with its values. A sentence without a translation (or a plain
    string) is shown as it is, in English, so nothing is ever hidden."""
    if not isinstance(error, UserError):
        return str(error)
    translated = QCoreApplication.translate("Errors", error.template)
    if not translated or translated == error.template:
        return str(error)
    values = {k: _status_words(v) if k in _STATUS_ARGUMENTS else v for k, v in error.arguments.items()}
    try:
        return render(translated, values)
    except (KeyError, IndexError, ValueError):  # a translation naming a value the error lacks
        return str(error)
