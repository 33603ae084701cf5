"""Who made each change: the person on history rows, "approved by wei" in the dashboard and
the CLI, and undo still scoped to the actor instance (origin), not the person."""

from __future__ import annotations

import json
import os

import pytest
from cli_runner import invoke
from PySide6.QtCore import Qt
from test_gui_helpers import open_window

from madohub_memory.core.errors import NotFoundError
from madohub_memory.services import Services
from madohub_memory.store import Store
from madohub_memory.store.identity import os_login

pytestmark = pytest.mark.qt_log_ignore("propagateSizeHints")


@pytest.fixture(autouse=True)
def no_configured_user(monkeypatch):
    monkeypatch.delenv("MADOHUB_USER", raising=False)


def test_an_approval_records_the_person_on_history_memory_and_candidate(svc, db_path, clock):
    cid = svc.review.add_manual("Use pnpm, not npm", "preference").candidate_id
    with Services.open(db_path, clock, origin="cli", person="wei") as wei:
        mid = wei.review.approve(cid)
        rows = wei.changelog.changes(memory_id=mid)
    assert {(r["action"], r["entity"], r["person"]) for r in rows} >= {
        ("approve", "candidate", "wei"), ("create", "memory", "wei")}
    assert svc.memories.get(mid).approved_by == "wei"
    assert svc.review.get(cid).decided_by == "wei"
    assert svc.memories.get(mid).edited_by is None


def test_an_edit_records_who_and_when_and_the_policy_is_no_person(svc, db_path, clock):
    svc.settings.set("auto_approve.enabled", True)
    svc.settings.set("auto_approve.min_seen", 1)
    result = svc.review.remember("The API uses snake_case JSON keys", "fact", session="s1")
    memory = svc.memories.get(svc.review.get(result.candidate_id).memory_id)
    assert memory.approved_by is None  # the auto-approve policy approved it, not a person
    clock.advance(hours=2)
    with Services.open(db_path, clock, origin="gui:1", person="li") as li:
        li.memories.edit(memory.id, content="The API uses snake_case keys in JSON")
    edited = svc.memories.get(memory.id)
    assert (edited.edited_by, edited.edited_at) == ("li", clock.now_iso())


def test_undo_stays_per_origin_whoever_the_person_is(svc, db_path, clock):
    a = svc.review.add_manual("Deploy with make deploy", "fact").candidate_id
    b = svc.review.add_manual("Tests run with make test", "fact").candidate_id
    with Services.open(db_path, clock, origin="gui:1", person="wei") as window, \
            Services.open(db_path, clock, origin="cli", person="wei") as cli:
        window.review.approve(a)
        cli.review.reject(b)
        undone = window.review.undo()  # the window's approval, not the CLI's newer rejection
        assert {(r["entity"], r["entity_id"]) for r in undone} == {("candidate", str(a)), ("memory", "1")}
        assert svc.review.get(b).status == "rejected"
        assert svc.review.get(a).status == "pending" and svc.review.get(a).decided_by is None
        with pytest.raises(NotFoundError):
            window.review.undo()
        undo_rows = [r for r in cli.changelog.changes() if r["action"] == "undo"]
        assert undo_rows and all(r["person"] == "wei" and r["origin"] == "gui:1" for r in undo_rows)


def test_the_person_is_the_env_then_the_setting_then_the_backend_default(svc, db_path, clock, monkeypatch):
    assert svc.person == os_login()
    svc.settings.set("user.name", "  Wei   Zhang ")
    assert svc.person == "Wei Zhang"
    monkeypatch.setenv("MADOHUB_USER", "li")
    assert svc.person == "li"


class RoleStore(Store):
    """A backend that knows who is connected (as a server's database role does)."""

    def default_person(self) -> str:
        return "db_role_wei"


def test_a_backend_that_names_its_role_wins_over_the_shared_setting(db_path, clock, monkeypatch):
    with Services(RoleStore(db_path), clock) as svc:
        svc.settings.set("user.name", "everyone")  # a setting on a server would name everyone
        cid = svc.review.add_manual("Staging runs on k3s", "fact").candidate_id
        mid = svc.review.approve(cid)
        assert svc.memories.get(mid).approved_by == "db_role_wei"
        monkeypatch.setenv("MADOHUB_USER", "wei")
        assert svc.person == "wei"


def test_cli_json_names_the_person(svc, db_path, monkeypatch):
    cid = svc.review.add_manual("Use ruff for linting", "preference").candidate_id
    other = svc.review.add_manual("Squash merge feature branches", "pattern").candidate_id
    env = {**os.environ, "MADOHUB_USER": "wei"}
    approved = invoke("--db", str(db_path), "approve", str(cid), "--json", env=env)
    assert approved.returncode == 0, approved.stderr
    memory_id = json.loads(approved.stdout)["memory_id"]
    assert json.loads(approved.stdout)["approved_by"] == "wei"
    rejected = invoke("--db", str(db_path), "reject", str(other), "--json", env=env)
    assert json.loads(rejected.stdout)["rejected_by"] == "wei"
    shown = json.loads(invoke("--db", str(db_path), "memory", "show", str(memory_id), "--json").stdout)
    assert shown["approved_by"] == "wei"
    history = json.loads(invoke("--db", str(db_path), "history", "--json").stdout)
    assert [(h["action"], h["person"], h["origin"]) for h in history[:2]] == [
        ("reject", "wei", "cli"), ("approve", "wei", "cli")]
    mine = json.loads(invoke("--db", str(db_path), "history", "--memory", str(memory_id), "--json").stdout)
    assert {h["entity"] for h in mine} == {"memory", "candidate"}
    text = invoke("--db", str(db_path), "history", "--person", "wei").stdout
    assert "wei" in text and "approve" in text and "create" in text
    undone = json.loads(invoke("--db", str(db_path), "undo", "--json", env=env).stdout)
    assert undone["undone"] == [{"entity": "candidate", "id": str(other), "action": "reject", "by": "wei"}]


def test_old_rows_keep_an_unknown_person(svc):
    """A history row written before the person was recorded reads as unknown, not as someone."""
    svc.store.execute(
        "INSERT INTO history (entity, entity_id, action, actor, at, batch) VALUES"
        " ('setting', 'persona', 'set', 'human', '2026-01-01T00:00:00Z', 'old')")
    assert svc.changelog.changes(limit=1)[0]["person"] is None


@pytest.mark.parametrize(("lang", "expected"), [("en", "approved by wei · "), ("zh_CN", "由 wei 批准 · ")])
def test_the_approved_tab_says_who_approved(qtbot, svc, db_path, tmp_path, clock, monkeypatch, lang, expected):
    monkeypatch.setenv("MADOHUB_USER", "wei")
    cid = svc.review.add_manual("Release notes live in docs/CHANGES.md", "fact").candidate_id
    with open_window(qtbot, db_path, tmp_path, clock, lang=lang) as win:
        tab = win.pending
        qtbot.waitUntil(lambda: tab.detail.candidate_id == cid, timeout=5000)
        qtbot.keyClick(tab.table, Qt.Key.Key_A)  # approved in the dashboard, by the person at it
        qtbot.waitUntil(lambda: svc.review.get(cid).status == "approved", timeout=5000)
        win.tabs.setCurrentIndex(1)
        approved = win.approved
        qtbot.waitUntil(lambda: approved.current_id() is not None and expected in approved.info.text(),
                        timeout=5000)
        mid = approved.current_id()
    assert svc.memories.get(mid).approved_by == "wei"
    assert svc.changelog.changes(memory_id=mid)[0]["origin"].startswith("gui")


def test_the_approved_tab_says_who_edited(qtbot, svc, db_path, tmp_path, clock):
    cid = svc.review.add_manual("CI runs on GitHub Actions", "fact").candidate_id
    with Services.open(db_path, clock, person="wei") as wei:
        mid = wei.review.approve(cid)
    clock.advance(minutes=5)
    with Services.open(db_path, clock, person="li") as li:
        li.memories.pin(mid)
    with open_window(qtbot, db_path, tmp_path, clock) as win:
        win.tabs.setCurrentIndex(1)
        qtbot.waitUntil(lambda: win.approved.current_id() == mid and win.approved.changes.count() == 3, timeout=5000)
        text = win.approved.info.text()
        changes = [win.approved.changes.item(i).text() for i in range(win.approved.changes.count())]
    assert [line.split(" · ", 1)[1] for line in changes] == [
        "li · pinned", "wei · approved", f"{os_login() or 'unknown'} · proposed"]
    assert "approved by wei · " in text and "edited by li · " in text
    assert text.index("approved by wei") < text.index("edited by li")


def test_the_nearest_approved_memory_says_who_approved_it(qtbot, svc, db_path, clock):
    from madohub_memory.gui.detail_pane import DetailPane
    from madohub_memory.services.nearest import NearestService

    cid = svc.review.add_manual("Keep pull requests small, under 400 lines", "preference").candidate_id
    with Services.open(db_path, clock, person="wei") as wei:
        wei.review.approve(cid)
    submitted = svc.review.add_manual("Pull requests stay small: at most 300 lines", "preference")
    assert submitted.outcome == "new"
    twin = submitted.candidate_id
    row = svc.review.get(twin)
    near = NearestService(svc).nearest(row.content, row.namespace, twin)
    assert near is not None and near["approved_by"] == "wei"
    pane = DetailPane()
    qtbot.addWidget(pane)
    pane.bind(twin, {**row.to_dict(), "flags": ""})
    pane.show_nearest(twin, near)
    assert "approved by wei" in pane.nearest.text()


def test_mcp_list_memories_names_who_approved(db_path, clock):
    """A real MCP client session: an agent sees who approved each memory of its workspace."""
    import asyncio
    import sys
    from pathlib import Path

    from mcp import Client, StdioServerParameters

    with Services.open(db_path, clock, person="wei") as wei:
        cid = wei.review.add_manual("Orders are stored in PostgreSQL 16", "fact", "workspace:shop").candidate_id
        wei.review.approve(cid)
    params = StdioServerParameters(command=sys.executable, args=["-m", "madohub_memory", "mcp", "--db", str(db_path)],
                                   cwd=str(Path(__file__).resolve().parents[1]))

    async def go() -> dict:
        async with Client(params) as client:
            result = await client.call_tool("list_memories", {"namespace": "workspace:shop"})
            assert not result.is_error, result.content[0].text
            return result.structured_content

    listed = asyncio.run(go())
    assert [(m["content"], m["approved_by"]) for m in listed["memories"]] == [("Orders are stored in PostgreSQL 16", "wei")]
