"""Jump to the originating turn: the conversation around it, the turn highlighted.

Personal data in the turns (e-mail addresses, phone and ID numbers, IBANs; see
:mod:`madohub_memory.core.pii`) is marked, so a reviewer sees what an export with
``--redact-pii`` would leave out.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QUrl
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from madohub_memory.core.pii import find_pii
from madohub_memory.gui.i18n import namespace_label, role_label
from madohub_memory.gui.worker import DbWorker, query_op

FOLD_LINES = 12
ROLE_COLOURS = {
    "user": ("#eef3fb", "#2d5fa8"),
    "assistant": ("#f5f5f2", "#5b5b52"),
    "tool": ("#f7f2e8", "#8a5a00"),
    "system": ("#f1eef8", "#5d3f9a"),
}


PII_STYLE = "background:#fde7c8"


def mark_pii(text: str, label: str) -> str:
    """``text`` as HTML with each piece of personal data marked; ``label`` is its tooltip."""
    out: list[str] = []
    at = 0
    for kind, start, end in find_pii(text):
        out.append(html.escape(text[at:start]))
        title = html.escape(f"{label}: {kind}", quote=True)
        out.append(f"<span style='{PII_STYLE}' title='{title}'>{html.escape(text[start:end])}</span>")
        at = end
    out.append(html.escape(text[at:]))
    return "".join(out)


_FENCE = re.compile(r"^[ \t]*```[^\n]*\n(.*?)(?:^[ \t]*```[ \t]*$|\Z)", re.S | re.M)
_PRE = "white-space:pre-wrap"
_CODE = ("white-space:pre; font-family:monospace; background:#eef0f3; border:1px solid #d8dbe0;"
         " padding:6px; margin:4px 0")


def render_body(text: str, monospace: bool = False, escape: Callable[[str], str] = html.escape) -> str:
    """A turn's text as rich text that keeps what code needs: Markdown code blocks become
    preformatted blocks, and elsewhere spaces and line breaks are kept as typed; ``escape``
    turns plain text into HTML (the caller marks personal data with it)."""
    font = "font-family:monospace; " if monospace else ""
    parts = []
    pos = 0
    for match in _FENCE.finditer(text):
        before = text[pos : match.start()]
        if before.strip("\n"):
            parts.append(f"<div style='{font}{_PRE}'>{escape(before.strip(chr(10)))}</div>")
        code = match.group(1).rstrip("\n")
        parts.append(f"<pre style='{_CODE}'>{escape(code)}</pre>")
        pos = match.end()
    rest = text[pos:]
    if rest.strip("\n") or not parts:
        parts.append(f"<div style='{font}{_PRE}'>{escape(rest.strip(chr(10)))}</div>")
    return "".join(parts)


def render_turns(context: dict[str, Any], expanded: set[int], labels: dict[str, str]) -> str:
    """HTML for the turns; long tool output is folded unless its seq is in ``expanded``."""
    pii_label = labels.get("pii", "personal data")

    def mark(part: str) -> str:
        return mark_pii(part, pii_label)

    parts = []
    focus = context["focus"]
    for i, turn in enumerate(context["turns"]):
        role = turn["role"]
        bg, fg = ROLE_COLOURS.get(role, ROLE_COLOURS["assistant"])
        lines = turn["content"].split("\n")
        folded = role in ("tool", "system") and len(lines) > FOLD_LINES and turn["seq"] not in expanded
        shown = "\n".join(lines[:8]) if folded else turn["content"]
        body = render_body(shown, monospace=role == "tool", escape=mark)
        if folded:
            more = labels["fold"].replace("%1", str(len(lines) - 8))
            body += f"<br><a href='expand:{turn['seq']}'>{html.escape(more)}</a>"
        border = "#e8a317" if i == focus else bg
        anchor = "<a name='focus'></a>" if i == focus else ""
        marker = f" <b style='color:#b06f00'>{html.escape(labels['origin'])}</b>" if i == focus else ""
        parts.append(
            f"{anchor}<table width='100%' cellpadding='8' style='margin:6px 0; background:{bg};"
            f" border:2px solid {border}'><tr><td>"
            f"<b style='color:{fg}'>{html.escape(role_label(role))}</b>"
            f" <span style='color:#888'>#{turn['seq']}</span>{marker}<br>{body}</td></tr></table>"
        )
    return "".join(parts)


class TurnViewer(QDialog):
    """Loads ``svc.turns.context(turn_id, radius)`` on the worker and shows it."""

    def __init__(self, worker: DbWorker, turn_id: str, parent: QWidget | None = None, radius: int = 5) -> None:
        super().__init__(parent)
        self.setObjectName("turnViewer")
        self.worker = worker
        self.turn_id = turn_id
        self.radius = radius
        self.context: dict[str, Any] | None = None
        self.expanded: set[int] = set()
        self.setWindowTitle(self.tr("Originating turn"))
        self.resize(760, 620)
        layout = QVBoxLayout(self)
        self.header = QLabel(self.tr("Loading…"))
        self.header.setObjectName("detailTitle")
        self.header.setWordWrap(True)
        self.browser = QTextBrowser()
        self.browser.setObjectName("turnBrowser")
        self.browser.setAccessibleName(self.tr("Conversation"))
        self.browser.setOpenLinks(False)
        self.browser.anchorClicked.connect(self._anchor)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.button(QDialogButtonBox.StandardButton.Close).setText(self.tr("Close"))
        self.more = QPushButton(self.tr("Show &more context"))
        self.more.setAccessibleName(self.tr("Show more context"))
        self.more.clicked.connect(self._more)
        buttons.addButton(self.more, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        layout.addWidget(self.header)
        layout.addWidget(self.browser, 1)
        layout.addWidget(buttons)
        self.loaded = False
        self._load()

    def _load(self) -> None:
        turn_id, radius = self.turn_id, self.radius
        query_op(self.worker, lambda ctx: ctx.svc.turns.context(turn_id, radius), self._show, self._failed)

    def _failed(self, message: str) -> None:
        self.header.setText(message)
        self.loaded = True

    def _show(self, context: dict[str, Any]) -> None:
        self.context = context
        conv = context.get("conversation") or {}
        title = conv.get("title") or conv.get("id") or ""
        ns = namespace_label(conv["namespace"]) if conv.get("namespace") else ""
        self.header.setText(
            f"<b>{html.escape(title)}</b><br><span style='color:#666'>"
            + html.escape(" · ".join(x for x in (ns, conv.get("format") or "", conv.get("source_path") or "") if x))
            + "</span>"
        )
        self._render()
        self.loaded = True

    def _render(self) -> None:
        if self.context is None:
            return
        labels = {"fold": self.tr("Show %1 more lines"), "origin": self.tr("← origin"),
                  "pii": self.tr("Personal data")}
        self.browser.setHtml(render_turns(self.context, self.expanded, labels))
        self.browser.scrollToAnchor("focus")

    def _anchor(self, url: QUrl) -> None:
        text = url.toString()
        if text.startswith("expand:"):
            value = self.browser.verticalScrollBar().value()
            self.expanded.add(int(text.split(":", 1)[1]))
            self._render()
            self.browser.verticalScrollBar().setValue(value)

    def _more(self) -> None:
        self.radius += 10
        self._load()
