"""The changes of one memory, newest first, each naming who made it ("2 h ago · wei · approved").

Shown under the Approved tab's detail pane: on a shared database the person who approved,
edited or pinned a memory matters as much as when. Rows come from
``ChangeLog.changes(memory_id=...)`` (the memory's history and that of the candidate it was
approved from); the approval of a candidate and the creation of its memory are one step
and are shown once. Changes the sweep made (``actor`` ``auto``: a lowered weight, an
archive of an unused memory, an eviction of an expired one) are the sweep's, never "the
auto-approve policy"'s, and every action is named in the interface language.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt
from PySide6.QtWidgets import QAbstractItemView, QListWidget, QListWidgetItem, QWidget

from madohub_memory.gui.i18n import ago_label

ACTIONS = {
    "create": QT_TRANSLATE_NOOP("ChangeList", "proposed"),
    "approve": QT_TRANSLATE_NOOP("ChangeList", "approved"),
    "edit": QT_TRANSLATE_NOOP("ChangeList", "edited"),
    "pin": QT_TRANSLATE_NOOP("ChangeList", "pinned"),
    "unpin": QT_TRANSLATE_NOOP("ChangeList", "unpinned"),
    "deprecated": QT_TRANSLATE_NOOP("ChangeList", "deprecated"),
    "active": QT_TRANSLATE_NOOP("ChangeList", "made active again"),
    "archived": QT_TRANSLATE_NOOP("ChangeList", "archived"),
    "reinforce": QT_TRANSLATE_NOOP("ChangeList", "seen again"),
    "seen_again": QT_TRANSLATE_NOOP("ChangeList", "seen again"),
    "undo": QT_TRANSLATE_NOOP("ChangeList", "undid a change"),
    "delete": QT_TRANSLATE_NOOP("ChangeList", "deleted"),
    "restore": QT_TRANSLATE_NOOP("ChangeList", "restored"),
    # the sweep (services/decay.py)
    "archive": QT_TRANSLATE_NOOP("ChangeList", "archived as unused (never recalled)"),
    "evict": QT_TRANSLATE_NOOP("ChangeList", "archived as expired or over the limit"),
}
SWEEP_ACTIONS = frozenset({"decay", "archive", "evict"})  # what the actor "auto" does besides auto-approve


def _tr(text: str) -> str:
    return QCoreApplication.translate("ChangeList", text)


def who_label(row: dict[str, Any]) -> str:
    """The person, as the dashboard names them: the policy and the sweep are not persons; an
    agent acts for one."""
    if row["actor"] == "auto":
        if row["action"] in SWEEP_ACTIONS:
            return QCoreApplication.translate("ChangeList", "the sweep")
        return _tr("the auto-approve policy")
    person = row.get("person") or _tr("unknown")
    return _tr("%1's agent").replace("%1", person) if row["actor"] == "agent" else person


def action_label(row: dict[str, Any]) -> str:
    """What a history row did, in the interface language (a weight change says to what)."""
    if row["action"] == "decay":
        weight = (row.get("after") or {}).get("weight")
        before = (row.get("before") or {}).get("weight")
        if not isinstance(weight, int | float):
            return QCoreApplication.translate("ChangeList", "lowered its weight")
        if isinstance(before, int | float) and weight > before:
            said = QCoreApplication.translate("ChangeList", "raised its weight to %1")
        else:
            said = QCoreApplication.translate("ChangeList", "lowered its weight to %1")
        return said.replace("%1", f"{weight:.2f}")
    if row["action"] == "archive" and row["entity"] == "candidate":
        return QCoreApplication.translate("ChangeList", "archived after waiting too long for review")
    action = ACTIONS.get(row["action"])
    return _tr(str(action)) if action else row["action"]


def change_lines(rows: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """(line, tooltip) per change, newest first; an approval's memory creation is folded into it."""
    approved_batches = {r["batch"] for r in rows if r["entity"] == "candidate" and r["action"] == "approve"}
    out: list[tuple[str, str]] = []
    for row in rows:
        if row["entity"] == "memory" and row["action"] == "create" and row["batch"] in approved_batches:
            continue
        what = action_label(row)
        line = f"{ago_label(row['at'])} · {who_label(row)} · {what}"
        out.append((line, f"{row['at']} · {row['origin'] or '?'}"))
    return out


class ChangeList(QListWidget):
    """A short, read-only list of one memory's changes."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("changes")
        self.setAccessibleName(_tr("Changes"))
        self.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the list keeps the keys; this only informs
        self.setMaximumHeight(130)
        # a line wraps instead of hiding its end behind a scroll bar ("archived as expired or over the limit")
        self.setWordWrap(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setResizeMode(QListWidget.ResizeMode.Adjust)
        self.memory_id: int | None = None

    def show_changes(self, memory_id: int | None, rows: list[dict[str, Any]]) -> None:
        if memory_id != self.memory_id:
            return  # an answer for a memory no longer shown
        self.clear()
        for line, tip in change_lines(rows):
            item = QListWidgetItem(line)
            item.setToolTip(tip)
            self.addItem(item)
