"""Whose memory is whose on a team server (``server-setup``): each person's ``persona:`` rows
are theirs alone, ``workspace:`` rows are shared, and only a reviewer decides on them. The
server enforces it (row-level security, a guard trigger): a plain SQL connection as li sees
no more than li's dashboard does."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from conftest import PG_TEMPLATE

from madohub_memory.cli import main
from madohub_memory.core.clock import Clock
from madohub_memory.core.errors import NotFoundError, ReviewerRoleError
from madohub_memory.services import Services
from madohub_memory.store.pg import security

WEI_PERSONA = "Wei writes commit messages in Chinese and keeps them under fifty characters"
LI_PERSONA = "Li reviews pull requests only in the afternoon after lunch"
SHOP_RULE = "The shop service uses pnpm workspaces, never npm"


@pytest.fixture(autouse=True)
def no_configured_user(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MADOHUB_USER", raising=False)


@pytest.fixture
def team(pg_cluster: Any, capsys: pytest.CaptureFixture[str]) -> Iterator[dict[str, str]]:
    """A database of its own, set up by its owner with wei as reviewer and li as proposer."""
    name = f"team_{os.getpid()}_{os.urandom(3).hex()}"
    admin = pg_cluster.create_database(name, template=PG_TEMPLATE)
    for role in ("wei", "li"):
        pg_cluster.admin(f"DO $$ BEGIN CREATE ROLE {role} LOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$")
    assert main(["server-setup", "--db", admin, "--reviewer", "wei", "--proposer", "li"]) == 0, capsys.readouterr()
    assert main(["server-setup", "--db", admin, "--reviewer", "wei", "--proposer", "li"]) == 0  # runs again
    capsys.readouterr()
    yield {"admin": admin, "wei": admin.replace("//madohub@", "//wei@"), "li": admin.replace("//madohub@", "//li@")}
    pg_cluster.drop_database(name)


def _cli(capsys: pytest.CaptureFixture[str], dsn: str, *args: str) -> Any:
    code = main([*args, "--db", dsn, "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    return json.loads(out.out)


def _fill(team: dict[str, str], clock: Clock) -> dict[str, int]:
    """wei and li each keep a persona:default memory; li proposes a shop rule wei approves."""
    with Services.open(team["wei"], clock) as wei:
        wei_persona = wei.review.remember(WEI_PERSONA, "preference", namespace="persona:default").candidate_id
        wei_memory = wei.review.approve(wei_persona)
    with Services.open(team["li"], clock) as li:
        li_persona = li.review.remember(LI_PERSONA, "preference", namespace="persona:default").candidate_id
        li_memory = li.review.approve(li_persona)  # one's own persona is one's own to curate
        shop = li.review.remember(SHOP_RULE, "fact", namespace="workspace:shop").candidate_id
    with Services.open(team["wei"], clock) as wei:
        shop_memory = wei.review.approve(shop)
    return {"wei_memory": wei_memory, "li_memory": li_memory, "shop": shop, "shop_memory": shop_memory}


def test_each_person_sees_their_own_persona_and_the_shared_workspace_on_every_path(
    team: dict[str, str], clock: Clock, capsys: pytest.CaptureFixture[str], tmp_path: Path,
) -> None:
    ids = _fill(team, clock)
    with Services.open(team["wei"], clock) as wei:
        history = wei.changelog.changes(memory_id=ids["shop_memory"])
        assert {(r["action"], r["person"]) for r in history} >= {("approve", "wei")}
        assert wei.memories.get(ids["shop_memory"]).approved_by == "wei"
        pending_wei = wei.review.add_manual("Wei's draft about the release train", "fact",
                                            "persona:default").candidate_id
    for me, mine, theirs in (("wei", WEI_PERSONA, LI_PERSONA), ("li", LI_PERSONA, WEI_PERSONA)):
        memories = [m["content"] for m in _cli(capsys, team[me], "memories")]
        assert mine in memories and SHOP_RULE in memories and theirs not in memories
        export = tmp_path / f"{me}.jsonl"
        _cli(capsys, team[me], "export", str(export))
        text = export.read_text()
        assert mine in text and SHOP_RULE in text and theirs not in text
        entities = {(r["entity"], r["entity_id"]) for r in _cli(capsys, team[me], "history")}
        other = "li" if me == "wei" else "wei"
        assert ("memory", str(ids[f"{me}_memory"])) in entities and ("memory", str(ids["shop_memory"])) in entities
        assert ("memory", str(ids[f"{other}_memory"])) not in entities
        for mode in ("keyword", "vector", "hybrid"):
            with Services.open(team[me], clock) as svc:
                found = [h.content for h in svc.recall.search(theirs, k=10, mode=mode)]
                assert theirs not in found, (me, mode)
                assert mine in [h.content for h in svc.recall.search(mine, k=10, mode=mode)], (me, mode)
        recalled = [h["content"] for h in _cli(capsys, team[me], "recall", theirs)]
        assert theirs not in recalled
    pending_li = [c["id"] for c in _cli(capsys, team["li"], "pending")]
    assert pending_wei not in pending_li
    assert pending_wei in [c["id"] for c in _cli(capsys, team["wei"], "pending")]
    with Services.open(team["li"], clock) as li, pytest.raises(NotFoundError):
        li.review.approve(pending_wei)  # not li's to see, so not li's to decide


def test_the_server_itself_hides_wei_persona_rows_from_a_plain_sql_connection_as_li(
    team: dict[str, str], clock: Clock,
) -> None:
    ids = _fill(team, clock)
    with Services.open(team["wei"], clock) as wei:
        wei.recall.search(WEI_PERSONA, k=5, mode="hybrid")  # vectors stored, a recall logged
    checks = {
        "candidates": "SELECT count(*) FROM candidates WHERE content = %(text)s",
        "memories": "SELECT count(*) FROM memories WHERE content = %(text)s",
        "history": "SELECT count(*) FROM history WHERE strpos(coalesce(before, '') || coalesce(after, ''),"
                   " %(text)s) > 0",
        "keyword index": "SELECT count(*) FROM memory_fts WHERE memory_id = %(id)s",
        "postings": "SELECT count(*) FROM memory_terms WHERE memory_id = %(id)s",
        "vectors": "SELECT count(*) FROM embeddings WHERE entity = 'memory' AND entity_id = %(id)s",
        "sightings": "SELECT count(*) FROM candidate_sightings s WHERE s.candidate_id = (SELECT candidate_id"
                     " FROM memories WHERE id = %(id)s)",
        "recall log": "SELECT count(*) FROM recall_log WHERE query = %(text)s",
    }
    wei_row = {"text": WEI_PERSONA, "id": ids["wei_memory"]}
    with psycopg.connect(team["admin"]) as admin, psycopg.connect(team["li"]) as li:
        for name, sql in checks.items():
            assert admin.execute(sql.encode(), wei_row).fetchone()[0] > 0 or name == "sightings", name  # type: ignore[index]
            assert li.execute(sql.encode(), wei_row).fetchone()[0] == 0, name  # type: ignore[index]
        assert li.execute(b"SELECT count(*) FROM memories WHERE content = %s", (SHOP_RULE,)).fetchone()[0] == 1  # type: ignore[index]
        with pytest.raises(psycopg.errors.InsufficientPrivilege):  # nor can li write as wei
            li.execute(b"UPDATE memories SET content = 'x' WHERE namespace LIKE 'workspace:%'")


def test_a_proposer_cannot_decide_on_shared_candidates_one_sentence_nothing_written(
    team: dict[str, str], clock: Clock, capsys: pytest.CaptureFixture[str],
) -> None:
    with Services.open(team["li"], clock) as li:
        shop = li.review.remember(SHOP_RULE, "fact", namespace="workspace:shop").candidate_id
        before = li.store.scalar("SELECT count(*) FROM history")
        assert not li.store.may_decide_workspace()  # type: ignore[attr-defined]
        with pytest.raises(ReviewerRoleError):
            li.review.approve(shop)
    for command in (["approve", str(shop)], ["reject", str(shop)], ["approve", str(shop), "--content", "edited"]):
        assert main([*command, "--db", team["li"]]) == 1
        err = capsys.readouterr().err.strip()
        assert "reviewer" in err and "li" in err and "nothing was changed" in err and "\n" not in err
    with Services.open(team["li"], clock) as li:
        assert li.review.get(shop).status == "pending" and li.review.get(shop).content == SHOP_RULE
        assert li.store.scalar("SELECT count(*) FROM memories") == 0
        assert li.store.scalar("SELECT count(*) FROM history") == before
        again = li.review.remember(SHOP_RULE, "fact", namespace="workspace:shop", session="other")
        assert again.outcome == "seen_again"  # proposing again still counts
    with Services.open(team["wei"], clock) as wei:
        assert wei.store.may_decide_workspace()  # type: ignore[attr-defined]
        with pytest.raises(ReviewerRoleError, match="proposed by someone else"):  # li's, not wei's persona
            wei.review.approve(shop, namespace="persona:default")
        assert wei.review.get(shop).status == "pending"
        mid = wei.review.approve(shop)
        assert wei.memories.get(mid).approved_by == "wei"
        assert wei.review.get(shop).decided_by == "wei"
    for command in (["memory", "edit", str(mid), "--content", "npm is fine"], ["memory", "delete", str(mid)]):
        assert main([*command, "--db", team["li"]]) == 1
        assert "may propose only" in capsys.readouterr().err
    with Services.open(team["li"], clock) as li:
        assert li.memories.get(mid).content == SHOP_RULE and li.memories.get(mid).status == "active"


def test_a_proposer_auto_approve_leaves_shared_candidates_for_a_reviewer(team: dict[str, str], clock: Clock) -> None:
    with Services.open(team["wei"], clock) as wei:
        wei.settings.set("auto_approve.enabled", True)
        wei.settings.set("auto_approve.min_seen", 1)
        wei.settings.set("auto_approve.min_confidence", 0.0)
    with Services.open(team["li"], clock) as li:
        with pytest.raises(ReviewerRoleError, match="review policy"):  # else wei's worker would approve for li
            li.settings.set("auto_approve.min_seen", 2)
        li.settings.set("desktop.notify", True)  # other settings are anyone's
        shared = li.review.remember(SHOP_RULE, "fact", namespace="workspace:shop", confidence=0.95)
        own = li.review.remember(LI_PERSONA, "preference", namespace="persona:default", confidence=0.95)
        assert li.review.get(shared.candidate_id).status == "pending"
        assert li.review.get(own.candidate_id).status == "approved"


def test_a_proposer_sweep_leaves_shared_rows_to_the_reviewers(team: dict[str, str], clock: Clock) -> None:
    with Services.open(team["li"], clock) as li:
        shop = li.review.remember(SHOP_RULE, "fact", namespace="workspace:shop").candidate_id
        clock.advance(days=120)
        report = li.sweep.run(force=True)  # no error surfaced to li's worker
        assert report["archived"] == [] and report["decay"]["skipped"]
        assert li.review.get(shop).status == "pending"
    with Services.open(team["wei"], clock) as wei:
        assert wei.sweep.run(force=True)["archived"] == [shop]


def test_persona_rows_stored_before_the_setup_can_be_handed_to_their_person(
    pg_cluster: Any, clock: Clock, capsys: pytest.CaptureFixture[str],
) -> None:
    name = f"moved_{os.getpid()}_{os.urandom(3).hex()}"
    admin = pg_cluster.create_database(name, template=PG_TEMPLATE)
    try:
        with Services.open(admin, clock, person="wei") as svc:  # as `transfer` leaves it: all the admin's
            svc.review.approve(svc.review.remember(WEI_PERSONA, "preference", namespace="persona:default")
                               .candidate_id)
            svc.review.approve(svc.review.add_manual(SHOP_RULE, "fact", "workspace:shop").candidate_id)
        for role in ("wei", "li"):
            pg_cluster.admin(f"DO $$ BEGIN CREATE ROLE {role} LOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$")
        assert main(["server-setup", "--db", admin, "--reviewer", "wei", "--proposer", "li",
                     "--persona-owner", "wei"]) == 0, capsys.readouterr().err
        for role, expected in (("wei", {WEI_PERSONA, SHOP_RULE}), ("li", {SHOP_RULE})):
            with Services.open(admin.replace("//madohub@", f"//{role}@"), clock) as svc:
                assert {m.content for m in svc.memories.list()} == expected, role
                assert {h.content for h in svc.recall.search(WEI_PERSONA, k=5, mode="keyword")} <= expected
    finally:
        pg_cluster.drop_database(name)


def test_the_setup_script_can_be_printed_for_an_administrator(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["server-setup", "--sql", "--reviewer", "wei", "--proposer", "li"]) == 0
    script = capsys.readouterr().out
    assert script.startswith("BEGIN;") and "CREATE POLICY persona_owner ON memories" in script
    assert "GRANT madohub_reviewer TO \"wei\";" in script and "GRANT madohub_proposer TO \"li\";" in script
    assert script == security.script(security.assign_statements(["wei"], ["li"])) and script.endswith("COMMIT;\n")
    assert main(["server-setup", "--db", "/tmp/not-a-server.db"]) == 1
    assert "PostgreSQL address" in capsys.readouterr().err


@pytest.mark.qt_log_ignore("propagateSizeHints")
def test_a_proposer_dashboard_lists_no_other_persona_and_shows_the_refusal(
    qtbot: Any, team: dict[str, str], clock: Clock, tmp_path: Path,
) -> None:
    from PySide6.QtCore import Qt
    from test_gui_helpers import open_window

    from madohub_memory.services.queue import QueueService

    with Services.open(team["wei"], clock) as wei:
        wei.review.add_manual(WEI_PERSONA, "preference", "persona:default")
    with Services.open(team["li"], clock) as li:
        shop = li.review.remember(SHOP_RULE, "fact", namespace="workspace:shop").candidate_id
        assert QueueService(li).ids() == [shop]  # the dashboard's queue
    with open_window(qtbot, team["li"], tmp_path, clock) as win:  # type: ignore[arg-type]
        qtbot.waitUntil(lambda: win.pending.detail.candidate_id == shop, timeout=5000)
        messages: list[str] = []
        win.statusBar().messageChanged.connect(messages.append)
        qtbot.keyClick(win.pending.table, Qt.Key.Key_A)
        qtbot.waitUntil(lambda: any("may propose only" in m for m in messages), timeout=10000)
        assert any(m.startswith(f"#{shop} was not approved: Only a reviewer") for m in messages)
        qtbot.waitUntil(lambda: win.pending.detail.candidate_id == shop, timeout=5000)  # still in the queue
    with Services.open(team["li"], clock) as li:
        assert li.review.get(shop).status == "pending"
