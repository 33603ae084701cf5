"""The Decisions view: per decision point, what the user chose and what we would recommend.

Shows, for each decision point, the distribution of choices over the three tiers (this
session, the last 3 sessions, all time), the current recommendation, its confidence and
its precondition. It never reads the database: the dashboard loads
``svc.decisions.points()`` on a worker thread and hands the result to :meth:`set_points`.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QLabel, QStackedWidget, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

COL_NAME, COL_SESSION, COL_RECENT, COL_ALL, COL_CONFIDENCE, COL_PRECONDITION = range(6)
POINT_KEY_ROLE = Qt.ItemDataRole.UserRole
MAX_NAME_WIDTH = 340


class DecisionsView(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName(self.tr("Decisions"))
        self._points: list[dict[str, Any]] = []

        self.summary = QLabel(self)
        self.summary.setAccessibleName(self.tr("Decision summary"))
        self.summary.setWordWrap(True)

        self.tree = QTreeWidget(self)
        self.tree.setAccessibleName(self.tr("Decision points"))
        self.tree.setAccessibleDescription(
            self.tr("Each decision point with its choices per tier, recommendation, confidence and precondition")
        )
        self.tree.setColumnCount(6)
        self.tree.setHeaderLabels([
            self.tr("Decision point / option"), self.tr("This session"), self.tr("Last 3 sessions"),
            self.tr("All time"), self.tr("Confidence"), self.tr("Precondition"),
        ])
        self.tree.setAlternatingRowColors(True)
        self.tree.setUniformRowHeights(True)
        self.tree.setWordWrap(False)

        self.empty = QLabel(self.tr("No decisions recorded yet. Answers to questions such as "
                                    "Claude Code's AskUserQuestion appear here."), self)
        self.empty.setAccessibleName(self.tr("No decisions"))
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)

        self.detail = QLabel(self)
        self.detail.setAccessibleName(self.tr("Selected recommendation"))
        self.detail.setWordWrap(True)
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        self.stack = QStackedWidget(self)
        self.stack.addWidget(self.empty)
        self.stack.addWidget(self.tree)

        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.stack, 1)
        layout.addWidget(self.detail)
        self.tree.currentItemChanged.connect(self._show_detail)
        self.set_points([])

    # -- labels of the closed vocabularies ---------------------------------------------

    def _level(self, level: str) -> str:
        names = {
            "none": self.tr("none (static default)"), "low": self.tr("low"),
            "medium": self.tr("medium"), "medium-high": self.tr("medium-high"), "high": self.tr("high"),
        }
        return names.get(level, level)

    def _stage(self, stage: str) -> str:
        names = {"static": self.tr("static default"), "partial": self.tr("observed majority"),
                 "strong": self.tr("significant majority")}
        return names.get(stage, stage)

    # -- data ----------------------------------------------------------------------------

    def set_points(self, points: list[dict[str, Any]]) -> None:
        """Show ``svc.decisions.points()``; keeps the selected point selected when possible."""
        current = self.tree.currentItem()
        selected = current.data(0, POINT_KEY_ROLE) if current is not None else None
        self._points = list(points)
        self.tree.clear()
        restore: QTreeWidgetItem | None = None
        bold = QFont()
        bold.setBold(True)
        for point in self._points:
            item = self._point_item(point)
            self.tree.addTopLevelItem(item)
            for option in self._option_order(point):
                child = QTreeWidgetItem([option] + [
                    str(point["tiers"].get(tier, {}).get(option, 0))
                    for tier in ("session", "recent", "all")
                ] + ["", ""])
                child.setData(0, POINT_KEY_ROLE, point["point_key"])
                for col in (COL_SESSION, COL_RECENT, COL_ALL):
                    child.setTextAlignment(col, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if option == point.get("recommendation"):
                    child.setFont(0, bold)
                    child.setToolTip(0, self.tr("Recommended"))
                item.addChild(child)
            item.setExpanded(True)
            if point["point_key"] == selected:
                restore = item
        for col in range(COL_PRECONDITION):
            self.tree.resizeColumnToContents(col)
        # A long question must not push the precondition out of sight (the tooltip has it all).
        self.tree.setColumnWidth(COL_NAME, min(self.tree.columnWidth(COL_NAME), MAX_NAME_WIDTH))
        self.stack.setCurrentWidget(self.tree if self._points else self.empty)
        total = sum(int(p.get("observations") or 0) for p in self._points)
        self.summary.setText(
            self.tr("%n decision point(s)", "", len(self._points)) + " · "
            + self.tr("%n counted choice(s)", "", total)
        )
        if restore is not None:
            self.tree.setCurrentItem(restore)
        else:
            self.detail.setText(self.tr("Select a decision point to see its recommendation."))

    def _option_order(self, point: dict[str, Any]) -> list[str]:
        """Offered options first (in their order), then free-text answers seen in any tier."""
        options = list(point.get("options") or [])
        for tier in ("session", "recent", "all"):
            for choice in point["tiers"].get(tier, {}):
                if choice not in options:
                    options.append(choice)
        return options

    def _point_item(self, point: dict[str, Any]) -> QTreeWidgetItem:
        confidence = self._level(str(point.get("confidence_level") or "none"))
        if point.get("stage") != "static":
            confidence += f" ({float(point.get('confidence') or 0):.2f})"
        item_tip = self.tr("%n choice(s) count towards the recommendation", "", int(point.get("observations") or 0))
        total = sum(point["tiers"].get("all", {}).values())
        precondition = self._precondition(point)
        item = QTreeWidgetItem([point["question"], "", "", str(total), confidence, precondition])
        item.setData(0, POINT_KEY_ROLE, point["point_key"])
        item.setToolTip(0, point["question"])
        item.setToolTip(COL_PRECONDITION, precondition)
        item.setToolTip(COL_CONFIDENCE, item_tip)
        item.setTextAlignment(COL_ALL, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return item

    def _precondition(self, point: dict[str, Any]) -> str:
        """The "Recommended when ..." clause, in the interface language (the engine's own
        sentence is English, for the CLI and agents)."""
        basis = point.get("basis")
        if basis == "personalisation_off":
            return self.tr("Recommended when personalisation is switched off (the asker's default)")
        if basis == "early_choice":
            return self.tr("Recommended when you chose it before (too few observations to personalise)")
        if basis == "own_answer":
            return self.tr("Ask: you answered in your own words, not with an offered option")
        if basis == "static_default" or point.get("stage") == "static":
            return self.tr("Recommended when there is no personal history yet")
        shared = point.get("shared_context") or {}
        if not shared:
            return self.tr("Recommended when this question comes up (no context shared by the choices)")
        conditions = self.tr(" and ").join(f"{key}={value}" for key, value in list(shared.items())[:4])
        return self.tr("Recommended when {conditions}").format(conditions=conditions)

    def _label(self, point: dict[str, Any]) -> str:
        option = str(point.get("recommendation") or "")
        if point.get("basis") == "own_answer":
            return self.tr("No recommendation (your own answers so far)")
        if point.get("basis") == "early_choice":
            return self.tr("{option} (Recommended) — your earlier choice").format(option=option)
        if point.get("stage") == "static" or point.get("share") is None:
            return self.tr("{option} (Recommended, static default)").format(option=option)
        percent = round(100 * float(point["share"]))
        return self.tr("{option} (Recommended) — {percent}% of recent choices").format(
            option=option, percent=percent
        )

    def point_for(self, item: QTreeWidgetItem | None) -> dict[str, Any] | None:
        if item is None:
            return None
        key = item.data(0, POINT_KEY_ROLE)
        return next((p for p in self._points if p["point_key"] == key), None)

    def _show_detail(self, item: QTreeWidgetItem | None, _previous: QTreeWidgetItem | None = None) -> None:
        point = self.point_for(item)
        if point is None:
            self.detail.setText(self.tr("Select a decision point to see its recommendation."))
            return
        self.detail.setText(
            self.tr("Recommendation: {label}\nBasis: {stage}; confidence: {level}\n{precondition}").format(
                label=self._label(point),
                stage=self._stage(str(point.get("stage"))),
                level=self._level(str(point.get("confidence_level") or "none")),
                precondition=self._precondition(point),
            )
        )
