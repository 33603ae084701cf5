"""The Decisions view under pytest-qt, fed with real ``svc.decisions.points()`` output."""

from __future__ import annotations

import pytest

pytest.importorskip("PySide6")

from madohub_memory.gui.decisions_view import (
    COL_ALL,
    COL_CONFIDENCE,
    COL_PRECONDITION,
    COL_SESSION,
    DecisionsView,
)

TIERS = ["Tier S", "Tier M (Recommended)", "Tier L"]


@pytest.fixture
def points(svc):
    for i, choice in enumerate(["Tier S"] * 3 + ["Tier M"] * 6 + ["Tier L"]):
        svc.decisions.record("Which tier?", TIERS, choice, session="s2" if i >= 7 else "s1",
                             context={"workflow": "spec"})
    svc.decisions.record("Commit style?", ["Squash", "Merge"], "Merge", session="s2")
    return svc.decisions.points()


def test_shows_tiers_recommendation_confidence_and_precondition(qtbot, points):
    view = DecisionsView()
    qtbot.addWidget(view)
    view.set_points(points)
    assert view.stack.currentWidget() is view.tree
    assert view.tree.topLevelItemCount() == 2
    tier = next(view.tree.topLevelItem(i) for i in range(2)
                if view.tree.topLevelItem(i).text(0) == "Which tier?")
    assert tier.text(COL_CONFIDENCE).startswith("medium-high")
    assert tier.text(COL_PRECONDITION) == "Recommended when workflow=spec"
    rows = {tier.child(i).text(0): tier.child(i) for i in range(tier.childCount())}
    assert list(rows) == ["Tier S", "Tier M", "Tier L"]
    assert rows["Tier M"].text(COL_ALL) == "6" and rows["Tier M"].font(0).bold()
    assert rows["Tier L"].text(COL_SESSION) == "1"  # s2, the latest session, holds the last 3 choices
    assert rows["Tier S"].text(COL_SESSION) == "0"
    view.tree.setCurrentItem(rows["Tier M"])
    assert "Tier M (Recommended) — 60% of recent choices" in view.detail.text()
    assert "observed majority" in view.detail.text()
    static = next(view.tree.topLevelItem(i) for i in range(2)
                  if view.tree.topLevelItem(i).text(0) == "Commit style?")
    assert static.text(COL_CONFIDENCE).startswith("none")
    assert "2 decision point" in view.summary.text()  # "points" once a language is installed


def test_empty_state_and_accessible_names(qtbot):
    view = DecisionsView()
    qtbot.addWidget(view)
    view.set_points([])
    assert view.stack.currentWidget() is view.empty
    assert "No decisions recorded yet" in view.empty.text()
    for widget in (view, view.tree, view.summary, view.detail, view.empty):
        assert widget.accessibleName()


def test_selection_survives_a_refresh(qtbot, points):
    view = DecisionsView()
    qtbot.addWidget(view)
    view.set_points(points)
    item = view.tree.topLevelItem(1)
    view.tree.setCurrentItem(item)
    key = view.point_for(item)["point_key"]
    view.set_points(points)
    assert view.point_for(view.tree.currentItem())["point_key"] == key


def test_precondition_and_label_follow_the_interface_language(qtbot, qapp, points):
    from madohub_memory.gui.i18n import install_language

    install_language("zh_CN")
    try:
        view = DecisionsView()
        qtbot.addWidget(view)
        view.set_points(points)
        tier = next(view.tree.topLevelItem(i) for i in range(2)
                    if view.tree.topLevelItem(i).text(0) == "Which tier?")
        assert tier.text(COL_PRECONDITION) == "适用条件：workflow=spec"
        view.tree.setCurrentItem(tier)
        assert "Tier M（推荐）— 近期选择中占 60%" in view.detail.text()
        assert "Recommended" not in view.detail.text()
    finally:
        install_language("en")
