"""Namespaces kept in another store (setting ``stores.map``): writes go there, recall merges.

Two real SQLite files: ``local`` (the person's own memory) and ``team`` (a shared store;
a PostgreSQL DSN takes its place once that backend is in, through the same ``Services.open``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_runner import invoke
from conftest import copy_template

from madohub_memory.core.clock import Clock
from madohub_memory.core.errors import UserError, ValidationError
from madohub_memory.core.locations import display_location, location_label
from madohub_memory.core.types import CandidateDraft
from madohub_memory.services import Services


@pytest.fixture
def team_path(tmp_path: Path, migrated_template: Path) -> Path:
    return copy_template(migrated_template, tmp_path / "team.db")


@pytest.fixture
def mapped(svc: Services, team_path: Path) -> Services:
    svc.settings.set("stores.map", f"workspace:shop={team_path}")
    return svc


@pytest.fixture
def team(team_path: Path, clock: Clock) -> Iterator[Services]:
    with Services.open(team_path, clock, create=False) as services:
        yield services


def approved(svc: Services, content: str, kind: str = "fact", namespace: str | None = None) -> int:
    result = svc.review.add_manual(content, kind, namespace)
    return svc.review.approve(result.candidate_id)


# -- the setting and the helpers ------------------------------------------------------------


def test_display_location_masks_a_password_and_leaves_paths_alone() -> None:
    assert display_location("postgresql://wei:s3cret@db.lan:5432/memory?sslmode=verify-full") == (
        "postgresql://wei:***@db.lan:5432/memory?sslmode=verify-full")
    assert display_location("postgresql://db.lan/memory?user=wei&password=s3cret") == (
        "postgresql://db.lan/memory?user=wei&password=***")
    assert display_location("/srv/team:1@x/memory.db") == "/srv/team:1@x/memory.db"
    assert location_label("/srv/Team Memory.db") == "team-memory"
    assert location_label("postgresql://wei@db.lan/shop") == "shop"
    assert location_label("postgresql://db.lan") == "db-lan"


def test_setting_takes_pairs_or_json_and_refuses_what_it_cannot_use(svc: Services) -> None:
    assert svc.settings.set("stores.map", "workspace:shop=/srv/team.db, workspace:infra=postgresql://db.lan/m") == {
        "workspace:shop": "/srv/team.db", "workspace:infra": "postgresql://db.lan/m"}
    assert svc.settings.set("stores.map", '{"workspace:shop": "~/team.db"}') == {"workspace:shop": "~/team.db"}
    for bad in ("workspace:shop", "shop=/srv/team.db", "workspace:shop=team.db", "=/srv/team.db"):
        with pytest.raises(ValidationError):
            svc.settings.set("stores.map", bad)
    with pytest.raises(ValidationError, match="secret"):  # a password belongs in PGPASSFILE, not a setting
        svc.settings.set("stores.map", "workspace:shop=postgresql://wei:hunter2pass@db.lan/m")
    assert svc.settings.get("stores.map") == {"workspace:shop": "~/team.db"}  # unchanged by the refusals
    assert svc.settings.set("stores.map", "") == {}


# -- writes ---------------------------------------------------------------------------------


def test_a_mapped_namespace_is_queued_in_its_store_and_nothing_local(mapped: Services, team: Services) -> None:
    result = mapped.review.remember("Checkout totals are computed in cents", "fact", "workspace:shop")
    assert result.outcome == "new" and result.store == "team"
    assert "team:" in result.sentence()
    assert mapped.review.pending() == []
    [queued] = team.review.pending()
    assert queued.id == result.candidate_id and queued.namespace == "workspace:shop"
    # The persona stays local; the default namespace is the local persona, not the team's.
    mine = mapped.review.remember("The user prefers short answers", "preference")
    assert mine.store is None and [c.namespace for c in mapped.review.pending()] == ["persona:default"]
    # A second sighting is counted in the team store (dedup runs where the candidate lives).
    again = mapped.review.remember("Checkout totals are computed in cents", "fact", "workspace:shop",
                                   session="another")
    assert again.outcome == "seen_again" and team.review.get(result.candidate_id).seen_count == 2


def test_writes_to_a_missing_mapped_store_fail_and_write_nothing_locally(svc: Services, tmp_path: Path) -> None:
    svc.settings.set("stores.map", f"workspace:shop={tmp_path / 'unmounted' / 'team.db'}")
    with pytest.raises(UserError, match=r"The store team \(.*team.db\) could not be opened"):
        svc.review.remember("Checkout totals are computed in cents", "fact", "workspace:shop")
    assert svc.review.pending() == []
    assert not (tmp_path / "unmounted").exists()  # never created behind the person's back


def test_extracted_candidates_follow_the_map(mapped: Services, team: Services) -> None:
    """The extraction workers submit through the same door: a workspace candidate of a
    local turn goes to the team store with the turn id as its provenance."""
    draft = CandidateDraft("Run make check before pushing to the shop repository", "pattern",
                           "workspace:shop", source="turn", confidence=0.8, turn_ids=("turn-1",))
    result = mapped.review.submit(draft)
    assert result.store == "team"
    assert team.review.get(result.candidate_id).turn_ids == ["turn-1"]
    assert mapped.review.pending() == []


def test_ending_a_task_queues_its_summary_in_the_mapped_store(mapped: Services, team: Services) -> None:
    mapped.working.update("shop", "task", "Move checkout to cents")
    result = mapped.working.end_task("shop", "Integers everywhere")
    assert [c.id for c in team.review.pending()] == [result.candidate_id]
    assert mapped.review.pending() == [] and mapped.working.show("shop")["task"] is None


# -- recall ---------------------------------------------------------------------------------


@pytest.fixture
def split(mapped: Services, team: Services) -> dict[str, tuple[str, int]]:
    return {
        "pnpm": ("local", approved(mapped, "The user prefers pnpm over npm for JavaScript projects", "preference")),
        "coffee": ("local", approved(mapped, "用户每天早上都喝一杯拿铁咖啡", "preference")),
        "deploy": ("team", approved(team, "Production deploys happen on Tuesday mornings", "decision",
                                    "workspace:shop")),
        "db": ("team", approved(team, "这个项目的数据库是PostgreSQL，不要换成MySQL", "decision", "workspace:shop")),
        "other": ("team", approved(team, "The infra cluster runs on Hetzner", "fact", "workspace:infra")),
    }


def test_recall_merges_the_workspace_from_its_store_with_the_local_persona(
    mapped: Services, split: dict[str, tuple[str, int]],
) -> None:
    hits = mapped.recall.search("when do we ship to production", "workspace:shop", k=5)
    assert (hits[0].store, hits[0].id) == split["deploy"] and hits[0].ref == f"team:{split['deploy'][1]}"
    assert {(h.store, h.id) for h in hits} == {split[k] for k in ("pnpm", "coffee", "deploy", "db")}
    # Chinese across the two stores: the team's decision and the local preference.
    assert [(h.store, h.id) for h in mapped.recall.search("数据库用什么", "workspace:shop", k=1)] == [split["db"]]
    assert [(h.store, h.id) for h in mapped.recall.search("他早餐时习惯喝什么饮料？", "workspace:shop", k=1)] == [
        split["coffee"]]
    # A namespace the map does not name is never read from the team store.
    assert all(h.namespace != "workspace:infra" for h in mapped.recall.search("cluster hosting", k=10))
    assert mapped.recall.warnings == []


def test_recall_counts_hits_in_the_store_that_holds_each_memory(
    mapped: Services, team: Services, split: dict[str, tuple[str, int]],
) -> None:
    mapped.recall.search("when do we ship to production", "workspace:shop", k=1)
    assert team.memories.get(split["deploy"][1]).hit_count == 1
    assert team.recall.recent_log(1)[0]["memory_ids"] == [split["deploy"][1]]


def test_recall_answers_from_the_local_store_when_the_mapped_one_is_gone(
    mapped: Services, team_path: Path, split: dict[str, tuple[str, int]],
) -> None:
    mapped.close()
    team_path.rename(team_path.with_name("moved.db"))
    with Services.open(mapped.store.path, mapped.clock) as again:
        hits = again.recall.search("which package manager for JavaScript", "workspace:shop", k=3)
        assert hits[0].id == split["pnpm"][1] and hits[0].store == "local"
        [warning] = again.recall.warnings
        assert warning.startswith("The store team (") and "workspace:shop" in warning


# -- the command line -----------------------------------------------------------------------


def test_cli_remember_recall_and_ids_of_the_other_store(
    mapped: Services, team: Services, split: dict[str, tuple[str, int]],
) -> None:
    db = str(mapped.store.path)
    out = invoke("recall", "when do we ship to production", "--namespace", "workspace:shop", "-k", "2", "--db", db)
    assert out.returncode == 0, out.stderr
    assert f"team:{split['deploy'][1]}" in out.stdout.splitlines()[1]
    rows = json.loads(invoke("recall", "ship to production", "--namespace", "workspace:shop", "--json",
                             "--db", db).stdout)
    assert rows[0]["store"] == "team" and rows[0]["id"] == split["deploy"][1]
    shown = invoke("memory", "show", f"team:{split['deploy'][1]}", "--json", "--db", db)
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout)["content"] == "Production deploys happen on Tuesday mornings"
    assert invoke("memory", "pin", f"team:{split['deploy'][1]}", "--db", db).returncode == 0
    assert team.memories.get(split["deploy"][1]).pinned
    wrong = invoke("memory", "show", "nowhere:3", "--db", db)
    assert wrong.returncode != 0 and wrong.stderr.count("\n") == 1 and "No store is named 'nowhere'" in wrong.stderr
    queued = invoke("remember", "Prices are stored in cents", "--kind", "fact", "--namespace", "workspace:shop",
                    "--json", "--db", db)
    assert json.loads(queued.stdout)["store"] == "team"
    assert [c.content for c in team.review.pending()] == ["Prices are stored in cents"]


def test_cli_recall_with_the_mapped_store_missing_warns_once(
    mapped: Services, team_path: Path, split: dict[str, tuple[str, int]],
) -> None:
    team_path.unlink()
    out = invoke("recall", "package manager", "--namespace", "workspace:shop", "--db", str(mapped.store.path))
    assert out.returncode == 0 and "pnpm" in out.stdout
    assert len(out.stderr.strip().splitlines()) == 1 and "could not be opened" in out.stderr
    assert "Traceback" not in out.stderr
    failed = invoke("remember", "Prices are stored in cents", "--kind", "fact", "--namespace", "workspace:shop",
                    "--db", str(mapped.store.path))
    assert failed.returncode != 0 and len(failed.stderr.strip().splitlines()) == 1
    assert mapped.review.pending() == []


def test_session_context_takes_the_workspace_rules_from_its_store(
    mapped: Services, team: Services, split: dict[str, tuple[str, int]],
) -> None:
    rule = approved(team, "Always run make check before pushing", "pattern", "workspace:shop")
    context = mapped.session_context.build("shop")
    assert "Always run make check before pushing" in context.text
    assert "Production deploys happen on Tuesday mornings" in context.text
    assert "The user prefers pnpm over npm" in context.text  # the local persona beside it
    assert sorted(context.stores["team"]) == sorted([rule, split["deploy"][1], split["db"][1]])
    assert split["pnpm"][1] in context.memory_ids
    assert team.memories.get(rule).hit_count == 1  # counted where it lives


def test_session_context_goes_on_without_a_missing_store(
    mapped: Services, team_path: Path, split: dict[str, tuple[str, int]],
) -> None:
    team_path.unlink()
    context = mapped.session_context.build("shop")
    assert "The user prefers pnpm over npm" in context.text
    [warning] = context.warnings
    assert warning in context.text and "could not be opened" in warning


def test_mcp_session_remembers_into_the_team_store_and_recalls_both(
    mapped: Services, team: Services, team_path: Path, split: dict[str, tuple[str, int]],
) -> None:
    """A real MCP client over stdio against ``madohub-memory mcp`` on the local file."""
    import asyncio
    import sys

    from mcp import Client, StdioServerParameters
    from mcp.shared.exceptions import MCPError

    params = StdioServerParameters(command=sys.executable, cwd=str(Path(__file__).resolve().parents[1]),
                                   args=["-m", "madohub_memory", "mcp", "--db", str(mapped.store.path)])

    async def call(client: Client, name: str, args: dict[str, object]) -> dict[str, object]:
        result = await client.call_tool(name, args)
        assert not result.is_error, result.content[0].text
        assert isinstance(result.structured_content, dict)
        return result.structured_content

    async def go() -> None:
        async with Client(params) as client:
            queued = await call(client, "remember", {
                "content": "Refunds go through the payments service", "kind": "fact", "namespace": "workspace:shop"})
            assert queued["store"] == "team" and queued["status"] == "pending"
            found = await call(client, "recall", {"query": "数据库用什么", "namespace": "workspace:shop", "k": 3})
            first = found["memories"][0]  # type: ignore[index]
            assert (first["store"], first["id"]) == split["db"]
            listed = await call(client, "list_memories", {"namespace": "workspace:shop"})
            assert {m["store"] for m in listed["memories"]} == {"team"} and listed["total"] == 2  # type: ignore[union-attr]
            context = await call(client, "session_context", {"workspace": "shop"})
            assert "Production deploys happen on Tuesday mornings" in str(context["text"])
            team_path.rename(team_path.with_name("away.db"))
            alone = await call(client, "recall", {"query": "package manager", "namespace": "workspace:shop"})
            assert alone["memories"][0]["content"].startswith("The user prefers pnpm")  # type: ignore[index]
            assert "could not be opened" in str(alone["note"])
            # A store that cannot be opened is a storage failure: a protocol error with the sentence.
            with pytest.raises(MCPError, match="could not be opened"):
                await client.call_tool("remember", {
                    "content": "Refunds take five days", "kind": "fact", "namespace": "workspace:shop"})

    asyncio.run(go())
    team_path.with_name("away.db").rename(team_path)
    assert [c.content for c in team.review.pending()] == ["Refunds go through the payments service"]
    assert mapped.review.pending() == []


def test_cli_lists_and_reviews_a_mapped_queue_in_its_store(mapped: Services, team: Services) -> None:
    db = str(mapped.store.path)
    queued = mapped.review.remember("Prices are stored in cents", "fact", "workspace:shop")
    mapped.review.remember("The user prefers short answers", "preference")
    listing = invoke("pending", "--db", db)
    assert "short answers" in listing.stdout and "cents" not in listing.stdout
    assert "workspace:shop: queued in the store team" in listing.stderr  # says where the rest waits
    shop = invoke("pending", "--namespace", "workspace:shop", "--db", db)
    assert f"team:{queued.candidate_id}" in shop.stdout and "cents" in shop.stdout and shop.stderr == ""
    approved_out = invoke("approve", f"team:{queued.candidate_id}", "--db", db)
    assert approved_out.returncode == 0, approved_out.stderr
    assert "as memory team:" in approved_out.stdout
    assert team.review.get(queued.candidate_id).status == "approved"
    listed = json.loads(invoke("memories", "--namespace", "workspace:shop", "--json", "--db", db).stdout)
    assert [(m["store"], m["content"]) for m in listed] == [("team", "Prices are stored in cents")]
    assert json.loads(invoke("pending", "--json", "--db", db).stdout)[0]["content"] == "The user prefers short answers"


def test_extraction_queues_mapped_candidates_there_and_waits_while_the_store_is_away(
    mapped: Services, team: Services, team_path: Path, tmp_path: Path,
) -> None:
    chat = tmp_path / "chat.jsonl"
    chat.write_text('{"role": "user", "content": "Never edit src/checkout/totals.py without running make test first."}\n')
    summary = mapped.ingest.ingest_paths([str(chat)], namespace="workspace:shop")
    assert summary["candidates"]["new"] == 1
    assert [c.namespace for c in team.review.pending()] == ["workspace:shop"]
    [turn_id] = team.review.pending()[0].turn_ids  # provenance: the local turn's id
    assert "totals.py" in mapped.turns.context(turn_id)["turn"]["content"]
    assert mapped.review.pending() == []

    mapped.stores.close()  # the share goes away between two passes
    team_path.rename(team_path.with_name("away.db"))
    later = tmp_path / "later.jsonl"
    later.write_text('{"role": "user", "content": "We decided to store prices in cents because floats broke the totals."}\n')
    summary = mapped.ingest.ingest_paths([str(later)], namespace="workspace:shop")
    assert summary["candidates"].get("deferred") == 1
    assert mapped.review.pending() == [] and mapped.ingest.pending().get("pending") == 1  # waits, not lost
    team_path.with_name("away.db").rename(team_path)
    mapped.stores.close()
    mapped.stores._failed.clear()  # the next pass comes after the retry pause
    assert mapped.ingest.drain()["new"] == 1
    assert len(team.review.pending()) == 2 and "cents" in team.review.pending()[1].content
    assert mapped.ingest.pending().get("pending") is None


def test_a_changed_map_is_followed_by_a_long_lived_services(mapped: Services, team: Services) -> None:
    assert mapped.review.remember("Prices are stored in cents", "fact", "workspace:shop").store == "team"
    mapped.settings.set("stores.map", "")
    assert mapped.review.remember("Refunds take five days", "fact", "workspace:shop").store is None
    assert [c.content for c in mapped.review.pending()] == ["Refunds take five days"]


def test_session_start_hook_injects_the_team_workspace_and_the_local_persona(
    mapped: Services, split: dict[str, tuple[str, int]], tmp_path: Path,
) -> None:
    shop = tmp_path / "shop"
    shop.mkdir()
    payload = json.dumps({"session_id": "s1", "hook_event_name": "SessionStart", "source": "startup",
                          "cwd": str(shop)})
    env = {**os.environ, "MADOHUB_DB": str(mapped.store.path)}
    done = invoke("hook", input=payload, env=env)
    assert done.returncode == 0
    assert "Production deploys happen on Tuesday mornings" in done.stdout  # from the team store
    assert "The user prefers pnpm over npm" in done.stdout  # from the local one
    context = invoke("context", "--workspace", "shop", "--json", "--db", str(mapped.store.path))
    assert json.loads(context.stdout)["stores"]["team"]


def test_an_edit_never_moves_an_entry_out_of_the_store_that_keeps_its_namespace(
    mapped: Services, team: Services, split: dict[str, tuple[str, int]],
) -> None:
    db = str(mapped.store.path)
    moved = invoke("memory", "edit", f"team:{split['deploy'][1]}", "--namespace", "persona:default", "--db", db)
    assert moved.returncode != 0 and "persona:default is not kept in this store" in moved.stderr
    assert team.memories.get(split["deploy"][1]).namespace == "workspace:shop"
    assert invoke("memory", "edit", f"team:{split['deploy'][1]}", "--content", "Deploys happen on Tuesdays",
                  "--db", db).returncode == 0
    local = mapped.review.add_manual("Checkout uses Stripe", "fact", "workspace:blog").candidate_id
    with pytest.raises(ValidationError, match="workspace:shop is kept in the store team"):
        mapped.review.approve(local, namespace="workspace:shop")
    with pytest.raises(ValidationError, match="workspace:shop is kept in the store team"):
        mapped.memories.edit(split["pnpm"][1], namespace="workspace:shop")
    assert mapped.review.get(local).status == "pending"
