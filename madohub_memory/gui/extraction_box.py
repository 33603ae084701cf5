"""The Advanced tab's extraction settings: which backend, where transcripts go, today's budget.

Why a box of its own: switching a model backend on sends transcripts off the machine (to
an endpoint, or through Claude Code to Anthropic), so the dashboard says so in plain words
next to the switch, updated as the user types the URL, and shows how much of the daily
budget is used. Every control writes its setting through the ``save`` callback (the
tab's worker-backed setter) as soon as it changes.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from PySide6.QtWidgets import QComboBox, QFormLayout, QGroupBox, QLabel, QLineEdit, QSpinBox, QWidget

from madohub_memory.services.extraction_backend import destination

Save = Callable[[str, Any], None]

_TEXT_KEYS = {
    "base_url": "extraction.llm.base_url", "llm_model": "extraction.llm.model",
    "key_env": "extraction.llm.api_key_env", "claude_program": "extraction.claude.executable",
    "claude_model": "extraction.claude.model",
}
_SPIN_KEYS = {"timeout": "extraction.llm.timeout", "daily_calls": "extraction.llm.daily_calls",
              "daily_tokens": "extraction.llm.daily_tokens"}
_LLM_ROWS = ("base_url", "llm_model", "key_env")
_CLAUDE_ROWS = ("claude_program", "claude_model")
_MODEL_ROWS = ("timeout", "daily_calls", "daily_tokens", "usage")


class ExtractionBox(QGroupBox):
    def __init__(self, save: Save, parent: QWidget | None = None) -> None:
        super().__init__(self.tr("Extraction"), parent)
        self._save = save
        self._loading = False
        self._values: dict[str, Any] = {}  # as stored
        self._draft: dict[str, Any] = {}  # typed, not saved yet
        self.form = QFormLayout(self)

        self.backend = QComboBox()
        self.backend.setAccessibleName(self.tr("Extraction backend"))
        self.backend.addItem(self.tr("Offline (built in)"), "offline")
        self.backend.addItem(self.tr("OpenAI-compatible endpoint"), "llm")
        self.backend.addItem(self.tr("Claude Code (claude -p on this machine)"), "claude-code")
        self.backend.currentIndexChanged.connect(self._backend_picked)
        self.destination = QLabel()
        self.destination.setObjectName("extractionDestination")
        self.destination.setWordWrap(True)

        self.base_url = QLineEdit()
        self.llm_model = QLineEdit()
        self.key_env = QLineEdit()
        self.claude_program = QLineEdit()
        self.claude_model = QLineEdit()
        self.claude_model.setPlaceholderText(self.tr("Claude Code's default"))
        names = {
            "base_url": self.tr("Endpoint URL"), "llm_model": self.tr("Model name"),
            "key_env": self.tr("API key environment variable"), "claude_program": self.tr("Claude Code program"),
            "claude_model": self.tr("Claude model"),
        }
        for attr, key in _TEXT_KEYS.items():
            edit: QLineEdit = getattr(self, attr)
            edit.setAccessibleName(names[attr])
            edit.setMaximumWidth(520)
            edit.editingFinished.connect(lambda e=edit, k=key: self._text_changed(k, e.text()))
            edit.textEdited.connect(lambda _t, e=edit, k=key: self._preview(k, e.text()))

        self.timeout = self._spin(5, 3600, self.tr(" s"), self.tr("Timeout per model call"))
        self.daily_calls = self._spin(0, 1_000_000, "", self.tr("Model calls per day"))
        self.daily_tokens = self._spin(0, 1_000_000_000, "", self.tr("Model tokens per day"))
        for limit in (self.daily_calls, self.daily_tokens):
            limit.setSpecialValueText(self.tr("no limit"))
            limit.setSingleStep(100)
        for attr, key in _SPIN_KEYS.items():
            spin: QSpinBox = getattr(self, attr)
            spin.editingFinished.connect(lambda s=spin, k=key: self._set(k, s.value()))
        self.usage = QLabel()
        self.usage.setWordWrap(True)

        self.form.addRow(self.tr("Extraction backend"), self.backend)
        self.form.addRow(self.tr("Transcripts are sent to"), self.destination)
        for attr in (*_LLM_ROWS, *_CLAUDE_ROWS):
            self.form.addRow(names[attr], getattr(self, attr))
        self.form.addRow(self.tr("Timeout per model call"), self.timeout)
        self.form.addRow(self.tr("Model calls per day"), self.daily_calls)
        self.form.addRow(self.tr("Model tokens per day"), self.daily_tokens)
        self.form.addRow(self.tr("Used today"), self.usage)
        self.backend.setMaximumWidth(420)

    def _spin(self, low: int, high: int, suffix: str, name: str) -> QSpinBox:
        spin = QSpinBox()
        spin.setRange(low, high)
        spin.setSuffix(suffix)
        spin.setAccessibleName(name)
        spin.setMaximumWidth(180)
        return spin

    # -- loading -----------------------------------------------------------------------

    def load(self, settings: dict[str, Any], usage: dict[str, Any] | None) -> None:
        """Show stored settings and today's usage (called on the GUI thread)."""
        self._loading = True
        try:
            self._values = dict(settings)
            editing = {key for attr, key in _TEXT_KEYS.items() if getattr(self, attr).hasFocus()}
            self._draft = {k: v for k, v in self._draft.items() if k in editing}  # keep what is being typed
            self.backend.setCurrentIndex(max(0, self.backend.findData(settings["extraction.backend"])))
            for attr, key in _TEXT_KEYS.items():
                edit: QLineEdit = getattr(self, attr)
                if not edit.hasFocus():
                    edit.setText(str(settings.get(key) or ""))
            for attr, key in _SPIN_KEYS.items():
                spin: QSpinBox = getattr(self, attr)
                if not spin.hasFocus():
                    spin.setValue(int(settings[key]))
            self._show_usage(usage)
            self._refresh()
        finally:
            self._loading = False

    def _show_usage(self, usage: dict[str, Any] | None) -> None:
        if not usage:
            self.usage.setText("—")
            return
        calls_limit = usage.get("daily_calls") or self.tr("no limit")
        tokens_limit = usage.get("daily_tokens") or self.tr("no limit")
        text = self.tr("%1 of %2 calls, %3 of %4 tokens").replace("%1", str(usage.get("calls", 0))) \
            .replace("%2", f"{calls_limit:,}" if isinstance(calls_limit, int) else calls_limit) \
            .replace("%3", f"{usage.get('tokens', 0):,}") \
            .replace("%4", f"{tokens_limit:,}" if isinstance(tokens_limit, int) else tokens_limit)
        if usage.get("paused_until"):
            moment = datetime.fromisoformat(str(usage["paused_until"]).replace("Z", "+00:00")).astimezone()
            text += "\n" + self.tr("Paused until %1 (%2).").replace("%1", moment.strftime("%H:%M")) \
                .replace("%2", str(usage.get("pause_reason") or ""))
        self.usage.setText(text)

    # -- changes -----------------------------------------------------------------------

    def _set(self, key: str, value: Any) -> None:
        if self._loading:
            return
        self._values[key] = value
        self._draft.pop(key, None)
        self._refresh()
        self._save(key, value)

    def _backend_picked(self, _index: int) -> None:
        self._set("extraction.backend", self.backend.currentData())
        self._refresh()

    def _text_changed(self, key: str, text: str) -> None:
        if self._values.get(key) != text:
            self._set(key, text)

    def _preview(self, key: str, text: str) -> None:
        """Say where transcripts would go while the URL is being typed (not saved yet)."""
        self._draft[key] = text
        self._refresh()

    def _refresh(self) -> None:
        backend = self.backend.currentData()
        values = {**self._values, **self._draft, "extraction.backend": backend}
        where = destination(values)
        if where["backend"] == "offline":
            text = self.tr("Nowhere: extraction runs on this computer.")
        elif where["backend"] == "claude-code":
            text = self.tr("Claude Code on this machine, which sends them to Anthropic under your Claude login.")
        elif where["leaves_machine"]:
            text = self.tr("%1 — transcripts leave this computer (secrets are masked first).") \
                .replace("%1", where["target"] or "?")
        else:
            text = self.tr("%1 — a server on this computer.").replace("%1", where["target"])
        self.destination.setText(text)
        font = self.destination.font()
        font.setBold(bool(where["leaves_machine"]))  # leaving the machine is what the user must notice
        self.destination.setFont(font)
        for attr in _LLM_ROWS:
            self.form.setRowVisible(getattr(self, attr), backend == "llm")
        for attr in _CLAUDE_ROWS:
            self.form.setRowVisible(getattr(self, attr), backend == "claude-code")
        for attr in _MODEL_ROWS:
            self.form.setRowVisible(getattr(self, attr), backend != "offline")
