"""The main window: Pending / Approved / Advanced (/ Decisions) tabs over one DB worker.

It owns what spans the tabs: Ctrl+Z (this window's own undo stack, whatever tab made the
step), Ctrl+Q, the "Saving N decisions…" note, the note that the sweep archived approved
memories (Ctrl+Shift+A shows them), and closing only once every queued decision is stored.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtGui import QCloseEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow, QMessageBox, QStackedWidget, QTabWidget

from madohub_memory.gui.advanced_tab import AdvancedTab
from madohub_memory.gui.approved_tab import ApprovedTab
from madohub_memory.gui.decisions_view import DecisionsView
from madohub_memory.gui.i18n import icon, install_language
from madohub_memory.gui.import_child import ImportChild
from madohub_memory.gui.import_note import ImportNote
from madohub_memory.gui.live_updates_note import LiveUpdatesNote
from madohub_memory.gui.pending_tab import PendingTab
from madohub_memory.gui.sweep_report import SHOW_ARCHIVED_KEY, SweepNote
from madohub_memory.gui.turn_viewer import TurnViewer
from madohub_memory.gui.welcome import ShortcutsDialog, WelcomePage
from madohub_memory.gui.worker import DbWorker, query_op
from madohub_memory.services.changes import OpChanges

TAB_NAMES = ("pending", "approved", "advanced", "decisions")


class MainWindow(QMainWindow):
    def __init__(self, worker: DbWorker, *, restore: bool = True, settings: QSettings | None = None,
                 language_fixed: bool = True, command_line_language: str | None = None) -> None:
        super().__init__()
        self.worker = worker
        # False: follow the ui.language setting stored in the database once it is read
        self.language_fixed = language_fixed or bool(command_line_language)
        # --lang: in force for this run whatever is saved (the Advanced tab says so)
        self.command_line_language = command_line_language
        self.qsettings = settings or QSettings("MadoHub", "MadoHub Memory")
        self.setObjectName("mainWindow")
        self.setWindowIcon(icon("app"))
        self.setWindowTitle(self.tr("MadoHub Memory"))
        self.resize(1280, 800)
        self.turn_viewer: TurnViewer | None = None
        self.totals: dict[str, int] | None = None
        self._error_box: QMessageBox | None = None
        self._close_when_saved = False
        worker.error.connect(self.show_error)
        worker.operation_did_execute.connect(self._operation_did_execute)
        worker.writes_changed.connect(self._writes_changed)
        self.saving_label = QLabel()
        self.saving_label.setObjectName("savingNote")
        self.saving_label.hide()
        self.statusBar().addPermanentWidget(self.saving_label)
        self.live_updates_note = LiveUpdatesNote(worker)
        self.statusBar().addPermanentWidget(self.live_updates_note)
        self.import_note = ImportNote(worker)  # an import running here or in another process, and how far
        self.statusBar().addPermanentWidget(self.import_note)
        self.import_child = ImportChild(worker, self)  # this window's own imports (kept across rebuilds)
        self.import_child.finished.connect(self.import_note.check)
        self._saving_timer = QTimer(self)
        self._saving_timer.setSingleShot(True)
        self._saving_timer.setInterval(300)  # a decision stored within a frame never flashes it
        self._saving_timer.timeout.connect(self._show_saving)
        self._build()
        self.sweep_note = SweepNote(worker, self.qsettings)
        self.sweep_note.show_requested.connect(self.show_archived)
        self.statusBar().insertPermanentWidget(0, self.sweep_note)
        show_archived = QShortcut(QKeySequence(SHOW_ARCHIVED_KEY), self)
        show_archived.activated.connect(self.show_archived)
        for number in range(1, 5):
            shortcut = QShortcut(QKeySequence(f"Ctrl+{number}"), self)
            shortcut.activated.connect(lambda n=number: self._go_tab(n - 1))
        undo = QShortcut(QKeySequence.StandardKey.Undo, self)
        undo.activated.connect(self.undo)
        help_key = QShortcut(QKeySequence("F1"), self)
        help_key.activated.connect(self.show_shortcuts)
        quit_key = QShortcut(QKeySequence("Ctrl+Q"), self)
        quit_key.activated.connect(self.close)
        if restore:
            geometry = self.qsettings.value("window/geometry")
            if geometry is not None:
                self.restoreGeometry(geometry)
            self.tabs.setCurrentIndex(int(str(self.qsettings.value("window/tab", 0) or 0)))
        self._load_totals()

    # -- building (again on a language switch) -------------------------------------------

    def _build(self) -> None:
        self.setWindowTitle(self.tr("MadoHub Memory"))
        self.tabs = QTabWidget()
        self.tabs.setObjectName("mainTabs")
        self.tabs.setDocumentMode(True)
        self.pending = PendingTab(self.worker)
        self.welcome = WelcomePage(self.worker, import_child=self.import_child)
        self.pending_stack = QStackedWidget()
        self.pending_stack.addWidget(self.pending)
        self.pending_stack.addWidget(self.welcome)
        self.approved = ApprovedTab(self.worker)
        self.advanced = AdvancedTab(self.worker, command_line_language=self.command_line_language,
                                    import_child=self.import_child)
        self.tabs.addTab(self.pending_stack, icon("inbox"), self.tr("Pending"))
        self.tabs.addTab(self.approved, icon("memory"), self.tr("Approved"))
        self.tabs.addTab(self.advanced, icon("settings"), self.tr("Advanced"))
        self.decisions = DecisionsView()
        self.tabs.addTab(self.decisions, icon("decisions"), self.tr("Decisions"))
        self._load_decisions()
        self.tabs.setTabToolTip(0, self.tr("Candidates waiting for your decision (Ctrl+1)"))
        self.tabs.setTabToolTip(1, self.tr("Approved memory by namespace (Ctrl+2)"))
        self.tabs.setTabToolTip(2, self.tr("Policies, models, jobs and your data (Ctrl+3)"))
        self.setCentralWidget(self.tabs)
        self.pending.count_changed.connect(self._count_changed)
        for tab in (self.pending, self.approved):
            tab.jump_requested.connect(self.open_turn)
        for source in (self.pending, self.approved, self.advanced, self.welcome):
            source.status.connect(self.show_status)
        self.pending.help_requested.connect(self.show_shortcuts)
        self.approved.help_requested.connect(self.show_shortcuts)
        self.pending.undo_requested.connect(self.undo)
        self.advanced.language_changed.connect(self.switch_language)
        self.advanced.open_requested.connect(self.open_database)
        self.advanced.settings_loaded.connect(self._settings_loaded)
        self.tabs.currentChanged.connect(self._tab_changed)
        self.count_label = QLabel()
        self.statusBar().addPermanentWidget(self.count_label)
        self._count_changed(self.pending.model.total)

    def _settings_loaded(self, settings: dict) -> None:
        from madohub_memory.gui.i18n import current_language, resolve_language

        if self.language_fixed:
            return
        self.language_fixed = True
        wanted = str(settings.get("ui.language", "system"))
        if resolve_language(wanted) != current_language():
            self.switch_language(wanted)

    def switch_language(self, lang: str) -> None:
        """Install the translator and rebuild the tabs: takes effect without a restart."""
        from madohub_memory.gui.i18n import resolve_language

        install_language(resolve_language(lang))
        self.qsettings.setValue("ui/language", lang)
        self.command_line_language = None  # a language picked now replaces --lang
        index = self.tabs.currentIndex()
        old = self.tabs
        old_pending = self.pending
        self.statusBar().removeWidget(self.count_label)
        drafts = dict(old_pending.drafts)
        old_pending.shutdown()
        self._build()
        self.pending.drafts.update(drafts)
        self.pending.model.drafts.update(drafts)
        old.deleteLater()
        self.tabs.setCurrentIndex(index)
        self.sweep_note.refresh()  # worded again in the new language
        if self.totals is not None:
            self._show_welcome_if_empty(self.totals)

    # -- state ---------------------------------------------------------------------------

    def _go_tab(self, index: int) -> None:
        if 0 <= index < self.tabs.count():
            self.tabs.setCurrentIndex(index)

    def select_tab(self, name: str) -> None:
        self._go_tab(TAB_NAMES.index(name))

    def _tab_changed(self, index: int) -> None:
        if index == 0:
            self.pending.table.setFocus()
        elif index == 1:
            self.approved.table.setFocus()

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        QTimer.singleShot(0, lambda: self._tab_changed(self.tabs.currentIndex()))  # keys go to the list

    def _count_changed(self, count: int) -> None:
        title = self.tr("Pending (%1)").replace("%1", f"{count:,}")
        self.tabs.setTabText(0, title)
        self.count_label.setText(self.tr("%1 pending").replace("%1", f"{count:,}"))

    def _operation_did_execute(self, changes: OpChanges, initiator: object) -> None:
        # a decision in the queue neither empties the database nor changes decision memory
        if (changes.candidates or changes.memories) and initiator is not self.pending:
            self._load_totals()
        if changes.decisions:
            self._load_decisions()

    def _load_totals(self) -> None:
        query_op(self.worker, lambda ctx: ctx.queue.totals(), self._show_welcome_if_empty)

    def _show_welcome_if_empty(self, totals: dict[str, int]) -> None:
        self.totals = totals
        empty = not any(totals.values())
        self.pending_stack.setCurrentIndex(1 if empty else 0)

    def _load_decisions(self) -> None:
        def points(ctx: Any) -> Any:
            return ctx.svc.decisions.points()

        view = self.decisions
        query_op(self.worker, points, lambda p: view.set_points(p) if view is self.decisions else None,
                 lambda _m: None)

    @property
    def ready(self) -> bool:
        """Initial loads are done (used by the screenshot mode and tests)."""
        shown = self.tabs.currentWidget()
        return (self.totals is not None and self.pending.ready
                and (self.approved.loaded or shown is not self.approved)
                and (self.advanced.loaded or shown is not self.advanced) and self.worker.busy == 0)

    # -- actions -------------------------------------------------------------------------

    def undo(self) -> None:
        """Take back this window's newest step, wherever it was made; never a settings change
        and never what the CLI, an agent or another window did."""
        entry = self.worker.undo_stack.pop()
        if entry is None:
            self.show_status(self.tr("Nothing to undo in this window."))
            return
        if entry.kind == "memory":
            self.approved.undo_entry(entry)
        else:
            self.pending.undo_entry(entry)

    def show_archived(self) -> None:
        """The Approved tab's archived memories, newest first: what the sweep took out of the
        list (the status-bar note's link and Ctrl+Shift+A); the note has been read."""
        self.sweep_note.dismiss()
        self.tabs.setCurrentIndex(TAB_NAMES.index("approved"))
        self.approved.show_status("archived")
        self.approved.table.setFocus()

    def open_turn(self, turn_id: str) -> None:
        if self.turn_viewer is not None:
            self.turn_viewer.close()
            self.turn_viewer.deleteLater()
        self.turn_viewer = TurnViewer(self.worker, turn_id, self)
        self.turn_viewer.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
        self.turn_viewer.open()

    def show_shortcuts(self) -> None:
        dialog = ShortcutsDialog(self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()

    def show_status(self, message: str) -> None:
        self.statusBar().showMessage(message, 8000)

    def show_error(self, message: str) -> None:
        """A problem the user can act on: one sentence in a message box, never a traceback."""
        self.statusBar().showMessage(message, 15000)
        if self._error_box is not None and self._error_box.isVisible():
            self._error_box.setText(message)
            return
        box = QMessageBox(QMessageBox.Icon.Warning, self.tr("MadoHub Memory"), message,
                          QMessageBox.StandardButton.Ok, self)
        box.button(QMessageBox.StandardButton.Ok).setText(self.tr("OK"))
        box.setObjectName("errorBox")
        self._error_box = box
        box.open()

    # -- saving and closing --------------------------------------------------------------

    def _writes_changed(self, count: int) -> None:
        if count == 0:
            self._saving_timer.stop()
            self.saving_label.hide()
            if self._close_when_saved:
                self._close_when_saved = False
                QTimer.singleShot(0, self.close)
        elif self.saving_label.isVisible() or self._close_when_saved:
            self._show_saving()
        elif not self._saving_timer.isActive():
            self._saving_timer.start()

    def _show_saving(self) -> None:
        count = self.worker.pending_writes
        if count == 0:
            return
        self.saving_label.setText(self.tr("Saving %n decision(s)…", "", count))
        self.saving_label.show()

    def open_database(self, target: str) -> None:
        """Start a dashboard on another database, then quit this one as the tray's Quit does
        (every queued decision is saved before the window goes)."""
        from madohub_memory.core.locations import display_location
        from madohub_memory.gui.open_database import start_dashboard

        if not start_dashboard(target):
            self.show_status(self.tr("Could not start a dashboard on %1.").replace("%1", display_location(target)))
            return
        tray = getattr(self, "tray", None)
        if tray is not None:
            tray.quit()
            return
        self.close()
        QApplication.quit()

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.worker.pending_writes:
            # Every decision the screen showed as made is stored before the window goes.
            self._close_when_saved = True
            self._show_saving()
            event.ignore()
            return
        self.qsettings.setValue("window/geometry", self.saveGeometry())
        self.qsettings.setValue("window/tab", self.tabs.currentIndex())
        self.import_child.finish()
        self.pending.shutdown()
        super().closeEvent(event)
