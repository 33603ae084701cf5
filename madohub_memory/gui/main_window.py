"""The main window: Pending / Approved / Advanced (/ Decisions) tabs over one DB worker."""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QCloseEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import QLabel, QMainWindow, QMessageBox, QStackedWidget, QTabWidget, QWidget

from madohub_memory.gui.advanced_tab import AdvancedTab
from madohub_memory.gui.approved_tab import ApprovedTab
from madohub_memory.gui.i18n import icon, install_language
from madohub_memory.gui.pending_tab import PendingTab
from madohub_memory.gui.turn_viewer import TurnViewer
from madohub_memory.gui.welcome import ShortcutsDialog, WelcomePage
from madohub_memory.gui.worker import DbWorker, query_op

TAB_NAMES = ("pending", "approved", "advanced", "decisions")


def has_decisions_view() -> bool:
    try:
        return (importlib.util.find_spec("madohub_memory.gui.decisions_view") is not None
                and importlib.util.find_spec("madohub_memory.services.decisions") is not None)
    except ModuleNotFoundError:
        return False


class MainWindow(QMainWindow):
    def __init__(self, worker: DbWorker, *, restore: bool = True, settings: QSettings | None = None,
                 language_fixed: bool = True) -> None:
        super().__init__()
        self.worker = worker
        # False: follow the ui.language setting stored in the database once it is read
        self.language_fixed = language_fixed
        self.qsettings = settings or QSettings("MadoHub", "MadoHub Memory")
        self.setObjectName("mainWindow")
        self.setWindowIcon(icon("app"))
        self.setWindowTitle(self.tr("MadoHub Memory"))
        self.resize(1280, 800)
        self.turn_viewer: TurnViewer | None = None
        self.totals: dict[str, int] | None = None
        self._error_box: QMessageBox | None = None
        worker.error.connect(self.show_error)
        worker.data_changed.connect(self._data_changed)
        self._build()
        for number in range(1, 5):
            shortcut = QShortcut(QKeySequence(f"Ctrl+{number}"), self)
            shortcut.activated.connect(lambda n=number: self._go_tab(n - 1))
        undo = QShortcut(QKeySequence.StandardKey.Undo, self)
        undo.activated.connect(self.undo)
        help_key = QShortcut(QKeySequence("F1"), self)
        help_key.activated.connect(self.show_shortcuts)
        if restore:
            geometry = self.qsettings.value("window/geometry")
            if geometry is not None:
                self.restoreGeometry(geometry)
            self.tabs.setCurrentIndex(int(self.qsettings.value("window/tab", 0) or 0))
        self._load_totals()

    # -- building (again on a language switch) -------------------------------------------

    def _build(self) -> None:
        self.setWindowTitle(self.tr("MadoHub Memory"))
        self.tabs = QTabWidget()
        self.tabs.setObjectName("mainTabs")
        self.tabs.setDocumentMode(True)
        self.pending = PendingTab(self.worker)
        self.welcome = WelcomePage(self.worker)
        self.pending_stack = QStackedWidget()
        self.pending_stack.addWidget(self.pending)
        self.pending_stack.addWidget(self.welcome)
        self.approved = ApprovedTab(self.worker)
        self.advanced = AdvancedTab(self.worker)
        self.tabs.addTab(self.pending_stack, icon("inbox"), self.tr("Pending"))
        self.tabs.addTab(self.approved, icon("memory"), self.tr("Approved"))
        self.tabs.addTab(self.advanced, icon("settings"), self.tr("Advanced"))
        self.decisions: QWidget | None = None
        if has_decisions_view():
            try:
                module = importlib.import_module("madohub_memory.gui.decisions_view")
                self.decisions = module.DecisionsView()
                self.tabs.addTab(self.decisions, icon("decisions"), self.tr("Decisions"))
                self._load_decisions()
            except Exception as exc:  # an optional tab must not take the dashboard down
                self.decisions = None
                self.statusBar().showMessage(str(exc))
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
        self.advanced.language_changed.connect(self.switch_language)
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
        index = self.tabs.currentIndex()
        old = self.tabs
        self.statusBar().removeWidget(self.count_label)
        self._build()
        old.deleteLater()
        self.tabs.setCurrentIndex(index)
        if self.totals is not None:
            self._show_welcome_if_empty(self.totals)

    # -- state ---------------------------------------------------------------------------

    def _go_tab(self, index: int) -> None:
        if 0 <= index < self.tabs.count():
            self.tabs.setCurrentIndex(index)

    def select_tab(self, name: str) -> None:
        if name == "decisions" and self.decisions is None:
            return
        self._go_tab(TAB_NAMES.index(name))

    def _tab_changed(self, index: int) -> None:
        if index == 0:
            self.pending.table.setFocus()
        elif index == 1:
            self.approved.tree.setFocus()

    def _count_changed(self, count: int) -> None:
        title = self.tr("Pending (%1)").replace("%1", f"{count:,}")
        self.tabs.setTabText(0, title)
        self.count_label.setText(self.tr("%1 pending").replace("%1", f"{count:,}"))

    def _data_changed(self, origin: str) -> None:
        if origin == "queue":
            return  # a decision in the queue neither empties the database nor changes decisions
        self._load_totals()
        if self.decisions is not None:
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
        query_op(self.worker, points, lambda p: view.set_points(p) if view is self.decisions else None,  # type: ignore[union-attr]
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
        if self.tabs.currentWidget() is self.approved:
            self.approved.undo()
        else:
            self.pending.undo()

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

    def closeEvent(self, event: QCloseEvent) -> None:
        self.qsettings.setValue("window/geometry", self.saveGeometry())
        self.qsettings.setValue("window/tab", self.tabs.currentIndex())
        self.welcome.finish_import()
        super().closeEvent(event)
