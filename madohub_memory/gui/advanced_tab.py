"""The Advanced tab: policies, extraction, embedding, language, jobs, export and import.

Every control writes its setting through ``svc.settings`` on the worker as soon as it
changes, so the workers and the MCP server see it without a restart. Switching the
auto-approve policy on (or loosening it) applies it at once and says how many candidates
it approved. The mouse wheel never changes a field that was not clicked into, and the
embedding model is switched only after a confirmation (it re-embeds every memory).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QSystemTrayIcon,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from madohub_memory.core.clock import to_iso
from madohub_memory.core.locations import display_location
from madohub_memory.core.vocab import KINDS
from madohub_memory.gui.extraction_box import ExtractionBox
from madohub_memory.gui.i18n import age_label, icon, kind_label
from madohub_memory.gui.import_child import ImportChild
from madohub_memory.gui.setting_labels import setting_label
from madohub_memory.gui.sweep_report import counts_text
from madohub_memory.gui.wheel_guard import guard_wheel
from madohub_memory.gui.worker import DbWorker, collection_op, query_op
from madohub_memory.gui.workspace_map_box import WorkspaceMapBox
from madohub_memory.services import extraction_backend
from madohub_memory.services.changes import OpChanges


class AdvancedTab(QWidget):
    language_changed = Signal(str)
    settings_loaded = Signal(dict)
    status = Signal(str)
    open_requested = Signal(str)  # a database to open instead of this one (OpenDatabaseDialog)

    def __init__(self, worker: DbWorker, parent: QWidget | None = None, *,
                 command_line_language: str | None = None, import_child: ImportChild | None = None) -> None:
        super().__init__(parent)
        self.worker = worker
        self.command_line_language = command_line_language  # --lang: shown as the language in force
        self.import_child = import_child or ImportChild(worker, self)
        self.import_child.status.connect(self.status)
        self.loaded = False
        self._loading = False
        self._build()
        self._dirty = True  # loaded when first shown
        worker.operation_did_execute.connect(self._external)

    # -- layout --------------------------------------------------------------------------

    def _build(self) -> None:
        inner = QWidget()
        inner.setObjectName("advancedPage")
        column = QVBoxLayout(inner)

        auto = QGroupBox(self.tr("Auto-approve"))
        form = QFormLayout(auto)
        self.auto_enabled = QCheckBox(self.tr("Promote candidates without review (off by default)"))
        self.auto_enabled.setAccessibleName(self.tr("Auto-approve enabled"))
        self.min_seen = QSpinBox()
        self.min_seen.setRange(1, 1000)
        self.min_seen.setAccessibleName(self.tr("Minimum times seen"))
        self.min_conf = QDoubleSpinBox()
        self.min_conf.setRange(0.0, 1.0)
        self.min_conf.setSingleStep(0.05)
        self.min_conf.setAccessibleName(self.tr("Minimum confidence"))
        excluded = QWidget()
        ex_layout = QHBoxLayout(excluded)
        ex_layout.setContentsMargins(0, 0, 0, 0)
        self.excluded: dict[str, QCheckBox] = {}
        for kind in KINDS:
            box = QCheckBox(kind_label(kind))
            box.setAccessibleName(self.tr("Never auto-approve %1").replace("%1", kind_label(kind)))
            self.excluded[kind] = box
            ex_layout.addWidget(box)
            box.toggled.connect(lambda _on: self._save_excluded())
        ex_layout.addStretch(1)
        form.addRow(self.auto_enabled)
        form.addRow(self.tr("Minimum times seen"), self.min_seen)
        form.addRow(self.tr("Minimum confidence"), self.min_conf)
        form.addRow(self.tr("Never auto-approve"), excluded)
        self.auto_enabled.toggled.connect(lambda on: self._set("auto_approve.enabled", on))
        self.min_seen.editingFinished.connect(lambda: self._set("auto_approve.min_seen", self.min_seen.value()))
        self.min_conf.editingFinished.connect(
            lambda: self._set("auto_approve.min_confidence", round(self.min_conf.value(), 2)))

        queue = QGroupBox(self.tr("Review queue"))
        qform = QFormLayout(queue)
        self.archive_days = QSpinBox()
        self.archive_days.setRange(1, 3650)
        self.archive_days.setSuffix(self.tr(" days"))
        self.archive_days.setAccessibleName(self.tr("Archive untouched candidates after"))
        self.archive_days.editingFinished.connect(lambda: self._set("archive_days", self.archive_days.value()))
        qform.addRow(self.tr("Archive untouched candidates after"), self.archive_days)

        self.extraction = ExtractionBox(self._set)
        self.backend = self.extraction.backend
        self.projects = WorkspaceMapBox(self._set)
        embedding = QGroupBox(self.tr("Embedding"))
        eform = QFormLayout(embedding)
        self.embedding = QComboBox()
        self.embedding.setAccessibleName(self.tr("Embedding model"))
        self.embedding.addItem(self.tr("e5-small (multilingual, most accurate)"), "e5-small")
        self.embedding.addItem(self.tr("USE multilingual (Chinese and English, fastest)"), "use-multilingual")
        self.embedding.addItem(self.tr("MiniLM (English only)"), "minilm")
        self.embedding.currentIndexChanged.connect(self._embedding_picked)
        eform.addRow(self.tr("Embedding model"), self.embedding)
        self.embedding_status = QLabel()
        self.embedding_status.setObjectName("embeddingStatus")
        self.embedding_status.setWordWrap(True)
        eform.addRow(self.embedding_status)
        self._embedding_timer = QTimer(self)
        self._embedding_timer.setInterval(5000)  # progress of a re-embedding, while it runs
        self._embedding_timer.timeout.connect(self._poll_embedding)

        ui = QGroupBox(self.tr("Interface"))
        uform = QFormLayout(ui)
        self.language = QComboBox()
        self.language.setAccessibleName(self.tr("Language"))
        self.language.addItem(self.tr("Follow the system"), "system")
        self.language.addItem("English", "en")
        self.language.addItem("简体中文", "zh_CN")
        self.language.currentIndexChanged.connect(self._language_picked)
        self.language_note = QLabel()  # why the box shows another language than the one saved
        self.language_note.setObjectName("languageNote")
        self.language_note.setWordWrap(True)
        self.language_note.hide()
        uform.addRow(self.tr("Language"), self.language)
        uform.addRow(self.language_note)
        self._build_desktop(uform)

        jobs = QGroupBox(self.tr("Background jobs"))
        jlayout = QVBoxLayout(jobs)
        self.jobs = QTableWidget(0, 5)
        self.jobs.setAccessibleName(self.tr("Background jobs"))
        self.jobs.setHorizontalHeaderLabels(
            [self.tr("Job"), self.tr("Last run"), self.tr("Next run"), self.tr("Result"), self.tr("Last error")])
        header = self.jobs.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)  # the result: what the run did
        self.jobs.setWordWrap(True)
        self.jobs.verticalHeader().hide()
        self.jobs.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.run_now = QPushButton(icon("run"), self.tr("&Run selected job now"))
        self.run_now.setAccessibleName(self.tr("Run selected job now"))
        self.run_now.clicked.connect(self._run_now)
        self.jobs_note = QLabel()
        self.jobs_note.setWordWrap(True)
        jlayout.addWidget(self.jobs)
        jrow = QHBoxLayout()
        jrow.addWidget(self.jobs_note, 1)
        jrow.addWidget(self.run_now)
        jlayout.addLayout(jrow)

        data = QGroupBox(self.tr("Your data"))
        drow = QHBoxLayout(data)
        self.export_btn = QPushButton(icon("export"), self.tr("E&xport…"))
        self.export_btn.setAccessibleName(self.tr("Export to a file"))
        self.import_btn = QPushButton(icon("import"), self.tr("&Import…"))
        self.import_btn.setAccessibleName(self.tr("Import from a file"))
        self.export_btn.clicked.connect(self._export)
        self.import_btn.clicked.connect(self._import)
        self.transcripts_btn = QPushButton(icon("import"), self.tr("Import &transcripts…"))
        self.transcripts_btn.setAccessibleName(self.tr("Import transcripts"))
        self.transcripts_btn.setToolTip(self.tr(
            "Claude Code or Codex sessions, a ChatGPT export or a JSONL of turns: imported in the background while"
            " you keep reviewing; the status bar shows how far it is."))
        self.transcripts_btn.clicked.connect(self._import_transcripts)
        drow.addWidget(QLabel(self.tr("A lossless JSONL file of everything stored.")), 1)
        drow.addWidget(self.export_btn)
        drow.addWidget(self.import_btn)
        drow.addWidget(self.transcripts_btn)

        database = QGroupBox(self.tr("Database"))
        brow = QHBoxLayout(database)
        self.location = QLabel(self.tr("Now open: %1").replace("%1", display_location(self.worker.db_path)))
        self.location.setObjectName("databaseLocation")  # data (a path or an address), not text to translate
        self.location.setAccessibleName(self.tr("The database this dashboard shows"))
        self.location.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.open_btn = QPushButton(self.tr("&Open another…"))
        self.open_btn.setAccessibleName(self.tr("Open another database file or server"))
        self.open_btn.clicked.connect(self._open_other)
        brow.addWidget(self.location, 1)
        brow.addWidget(self.open_btn)

        for spin in (self.min_seen, self.min_conf, self.archive_days):
            spin.setMaximumWidth(180)
        for combo in (self.embedding, self.language):
            combo.setMaximumWidth(420)
        for group in (auto, queue, self.extraction, self.projects, embedding, ui, jobs, data, database):
            column.addWidget(group)
        column.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(inner)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(scroll)
        guard_wheel(self)

    def _build_desktop(self, form: QFormLayout) -> None:
        """The tray icon and the notification (``desktop.tray``, ``desktop.notify``; see gui/tray.py)."""
        self.tray_box = QCheckBox(self.tr("Show the pending count in the system tray"))
        self.tray_box.setAccessibleName(self.tr("System tray icon"))
        self.tray_box.setToolTip(self.tr(
            "Closing the window then keeps MadoHub Memory running in the tray, so agents' candidates keep "
            "arriving. On GNOME the AppIndicator extension adds a tray."))
        self.tray_note = QLabel(self.tr("This desktop shows no tray icons; the setting applies where there is a tray."))
        self.tray_note.setObjectName("trayNote")
        self.tray_note.setWordWrap(True)
        self.tray_note.setEnabled(False)  # greyed: a hint, not a control
        self.tray_note.setVisible(not QSystemTrayIcon.isSystemTrayAvailable())
        self.notify_box = QCheckBox(self.tr("Notify me when candidates arrive (off by default)"))
        self.notify_box.setAccessibleName(self.tr("Desktop notifications"))
        self.notify_box.setToolTip(self.tr(
            "Only for candidates from agents, the hook or the background worker, and only while this window is"
            " not in front."))
        form.addRow(self.tray_box)
        form.addRow(self.tray_note)
        form.addRow(self.notify_box)
        self.tray_box.toggled.connect(lambda on: self._set("desktop.tray", on))
        self.notify_box.toggled.connect(lambda on: self._set("desktop.notify", on))

    # -- settings ------------------------------------------------------------------------

    def reload(self) -> None:
        def load(ctx: Any) -> dict[str, Any]:
            return {"settings": ctx.svc.settings.all(), "jobs": ctx.svc.jobs.status(),
                    "usage": extraction_backend.usage_today(ctx.svc), "embedding": ctx.svc.embedding.status()}

        query_op(self.worker, load, self._loaded, self.worker.error.emit)

    def _external(self, changes: OpChanges, initiator: object) -> None:
        if initiator is self:
            return  # our own setting: the control already shows it
        if changes.settings or changes.jobs:
            if self.isVisible():
                self.reload()
            else:
                self._dirty = True

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        if self._dirty:
            self._dirty = False
            self.reload()

    def _loaded(self, result: dict[str, Any]) -> None:
        s = result["settings"]
        self._loading = True
        try:
            self.auto_enabled.setChecked(bool(s["auto_approve.enabled"]))
            self.min_seen.setValue(int(s["auto_approve.min_seen"]))
            self.min_conf.setValue(float(s["auto_approve.min_confidence"]))
            for kind, box in self.excluded.items():
                box.setChecked(kind in s["auto_approve.excluded_kinds"])
            self.archive_days.setValue(int(s["archive_days"]))
            self.extraction.load(s, result.get("usage"))
            self.projects.load(s.get("workspace.map") or {})
            self._embedding_shown = s["embedding.model"]
            index = self.embedding.findData(s["embedding.model"])
            if index < 0:
                self.embedding.addItem(str(s["embedding.model"]), s["embedding.model"])
                index = self.embedding.count() - 1
            self.embedding.setCurrentIndex(index)
            self._show_language(str(s["ui.language"]))
            self.tray_box.setChecked(bool(s["desktop.tray"]))
            self.notify_box.setChecked(bool(s["desktop.notify"]))
            self._show_jobs(result)
            self._show_embedding(result.get("embedding"))
        finally:
            self._loading = False
        self.loaded = True
        self.settings_loaded.emit(s)

    def _show_language(self, saved: str) -> None:
        """The language in force: the saved choice, or the one ``--lang`` gave this run, with
        a line that says why the box does not show the saved choice."""
        forced = self.command_line_language
        shown = forced if forced else saved
        self.language.setCurrentIndex(max(0, self.language.findData(shown)))
        if forced and forced != saved:
            saved_name = self.language.itemText(max(0, self.language.findData(saved)))
            self.language_note.setText(
                self.tr("Chosen for this run with --lang %1. Your saved choice, “%2”, applies when MadoHub "
                        "Memory starts without --lang; picking a language here saves it.")
                .replace("%1", forced).replace("%2", saved_name))
        self.language_note.setVisible(bool(forced) and forced != saved)

    def _show_jobs(self, result: dict[str, Any]) -> None:
        rows = result["jobs"]
        self.jobs.setRowCount(0)
        self.jobs_note.setText(self.tr("%1 jobs").replace("%1", str(len(rows))))
        self.run_now.setEnabled(bool(rows))
        for r in rows:
            row = self.jobs.rowCount()
            self.jobs.insertRow(row)
            processed = r.get("processed", "")
            if not r.get("last_run"):
                outcome = ""
            elif isinstance(r.get("counts"), dict):  # a job of several actions: each one counted
                outcome = counts_text(r["counts"])
            else:
                outcome = self.tr("%1 processed").replace("%1", f"{processed:,}" if isinstance(processed, int)
                                                          else str(processed))
            values = [
                self._job_label(str(r.get("name", ""))),
                age_label(r["last_run"]) if r.get("last_run") else "—",
                self._when(r.get("next_run")),
                outcome,
                r.get("last_error") or "",
            ]
            for col, value in enumerate(values):
                item = QTableWidgetItem(str(value))
                item.setData(Qt.ItemDataRole.UserRole, r.get("name"))
                if col == 0 and r.get("description"):
                    item.setToolTip(str(r["description"]))
                elif col == 3 and value:
                    item.setToolTip(str(value))  # the whole report when the column is narrow
                self.jobs.setItem(row, col, item)
        self.jobs.resizeRowsToContents()
        rows_height = sum(self.jobs.rowHeight(r) for r in range(self.jobs.rowCount()))
        header = self.jobs.horizontalHeader()
        self.jobs.setFixedHeight(max(header.height(), header.sizeHint().height()) + rows_height + 2 * self.jobs.frameWidth() + 2)

    def _show_embedding(self, status: dict[str, Any] | None) -> None:
        """Which model recall uses, and a re-embedding's progress (polled while it runs)."""
        if not status:
            return
        total, done = int(status["memories"]), int(status["embedded"])
        share = f"{100 * done // total}%" if total else "100%"
        served = str(status["serving"])  # the model's own name: the combo's label says more
        if status["state"] == "re-embedding":
            text = (self.tr("Recall uses %1 until every memory is embedded with the new model: %2 of %3 (%4).")
                    .replace("%1", served).replace("%2", f"{done:,}").replace("%3", f"{total:,}")
                    .replace("%4", share))
        else:
            text = self.tr("Recall uses %1 (%2 memories).").replace("%1", served).replace("%2", f"{total:,}")
        self.embedding_status.setText(text)
        running = status["state"] != "ready"
        if running and not self._embedding_timer.isActive():
            self._embedding_timer.start()
        elif not running:
            self._embedding_timer.stop()

    def _poll_embedding(self) -> None:
        if not self.isVisible():
            return
        query_op(self.worker, lambda ctx: {"embedding": ctx.svc.embedding.status()},
                 lambda result: self._show_embedding(result.get("embedding")), self.worker.error.emit)

    def _job_label(self, name: str) -> str:
        labels = {
            "drain": self.tr("Extract candidates from new turns"),
            "watch": self.tr("Import new transcript lines"),
            "sweep": self.tr("Sweep: archive, auto-approve, decay"),
            "backup": self.tr("Daily backup of the database"),
            "reembed": self.tr("Embed memories with the chosen model"),
        }
        return labels.get(name, name)

    def _when(self, iso: Any) -> str:
        if not iso:
            return "—"
        try:
            moment = datetime.fromisoformat(str(iso).replace("Z", "+00:00"))
        except ValueError:
            return str(iso)
        seconds = (moment - datetime.now(UTC)).total_seconds()
        if seconds <= 0:
            return self.tr("due now")
        seconds = max(seconds, 60)  # under a minute reads "in 1 min", not "in just now"
        return self.tr("in %1").replace("%1", age_label(to_iso(datetime.now(UTC) - timedelta(seconds=seconds))))

    def _set(self, key: str, value: Any) -> None:
        if self._loading:
            return

        def run(ctx: Any) -> list[int]:
            ctx.svc.settings.set(key, value)
            # The policy acts the moment it is switched on or loosened, not at the next sweep.
            return ctx.svc.review.auto_approve() if key.startswith("auto_approve.") else []

        def done(approved: list[int]) -> None:
            message = self.tr("Saved: %1.").replace("%1", setting_label(key))
            if approved:
                message += " " + self.tr("Auto-approve approved %n waiting candidate(s).", "", len(approved))
            self.status.emit(message)
            if key.startswith("extraction.") or key == "embedding.model":
                self.reload()  # derived lines: the destination and budget, the re-embedding's progress

        collection_op(self.worker, run, done, lambda msg: (self.worker.error.emit(msg), self.reload()),
                      initiator=self)

    def _embedding_picked(self, _index: int) -> None:
        """Switching the model re-embeds every memory: ask first, and put the choice back on No."""
        if self._loading:
            return
        wanted = self.embedding.currentData()
        if wanted == getattr(self, "_embedding_shown", None):
            return
        box = QMessageBox(QMessageBox.Icon.Question, self.tr("Switch the embedding model?"),
                          self.tr("Every approved memory is embedded again with %1, in the background. "
                                  "Recall keeps using the current model until that is done; the progress "
                                  "shows here.")
                          .replace("%1", self.embedding.currentText()),
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, self)
        box.setObjectName("embeddingConfirm")
        box.button(QMessageBox.StandardButton.Yes).setText(self.tr("Switch and re-embed"))
        box.button(QMessageBox.StandardButton.No).setText(self.tr("Keep the current model"))
        box.setDefaultButton(QMessageBox.StandardButton.No)

        def answered(result: int) -> None:
            if result == QMessageBox.StandardButton.Yes:
                self._embedding_shown = wanted
                self._set("embedding.model", wanted)
                return
            self._loading = True
            try:
                self.embedding.setCurrentIndex(max(0, self.embedding.findData(self._embedding_shown)))
            finally:
                self._loading = False

        box.finished.connect(answered)
        self.confirm_box = box
        box.open()

    def _save_excluded(self) -> None:
        self._set("auto_approve.excluded_kinds", [k for k, b in self.excluded.items() if b.isChecked()])

    def _language_picked(self, _index: int) -> None:
        if self._loading:
            return
        lang = self.language.currentData()
        collection_op(self.worker, lambda ctx: ctx.svc.settings.set("ui.language", lang),
                      lambda _v: self.language_changed.emit(lang), self.worker.error.emit)

    def _run_now(self) -> None:
        item = self.jobs.item(self.jobs.currentRow(), 0) if self.jobs.currentRow() >= 0 else self.jobs.item(0, 0)
        if item is None:
            return
        name = item.data(Qt.ItemDataRole.UserRole)
        def done(result: Any) -> None:
            if isinstance(result, dict) and result.get("error"):
                self.worker.error.emit(str(result["error"]))
            else:
                self.status.emit(self.tr("Ran job %1.").replace("%1", self._job_label(str(name))))

        self.status.emit(self.tr("Running %1…").replace("%1", self._job_label(str(name))))
        self.worker.submit_background(lambda ctx: ctx.svc.jobs.run_now(name), done, self.worker.error.emit,
                                      changes=OpChanges(jobs=True))

    # -- another database ------------------------------------------------------------------

    def _open_other(self) -> None:
        from madohub_memory.gui.open_database import OpenDatabaseDialog

        dialog = OpenDatabaseDialog(self.worker.db_path, self)
        if dialog.exec():
            self.open_requested.emit(dialog.target())

    # -- export / import -----------------------------------------------------------------

    def _export(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Export memory"), "madohub-export.jsonl",
                                              self.tr("JSONL files (*.jsonl)"))
        if path:
            self.export_to(path)

    def export_to(self, path: str) -> None:
        query_op(self.worker, lambda ctx: ctx.svc.transfer.export(path),
                 lambda counts: self.status.emit(self.tr("Exported %1 rows to %2.")
                                                 .replace("%1", str(sum(counts.values()))).replace("%2", path)),
                 self.worker.error.emit)

    def _import(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Import memory"), "", self.tr("JSONL files (*.jsonl)"))
        if path:
            self.import_from(path)

    def _import_transcripts(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, self.tr("Import transcripts"), "",
                                                self.tr("Transcripts (*.jsonl *.json);;All files (*)"))
        if paths:
            self.import_child.start(paths)

    def import_from(self, path: str) -> None:
        collection_op(self.worker, lambda ctx: ctx.svc.transfer.import_file(path),
                      lambda counts: self.status.emit(self.tr("Imported %1 rows from %2.")
                                                      .replace("%1", str(sum(counts.values()))).replace("%2", path)),
                      self.worker.error.emit, changes=OpChanges.everything())
