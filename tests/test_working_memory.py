"""Working memory: operations, rendering in English and Chinese, ending a task, export."""

from __future__ import annotations

import json

import pytest

from madohub_memory.cli import main
from madohub_memory.core.errors import NotFoundError, ValidationError
from madohub_memory.services import Services

pytestmark = pytest.mark.both_backends


def test_operations_and_render(svc: Services) -> None:
    wm = svc.working
    wm.update("workspace:shop", "task", "Add a coupon field to checkout")
    wm.update("shop", "add_decision", "Store coupons in Postgres", reason="orders already live there")
    wm.update("shop", "add_constraint", "Never change the public API")
    wm.update("shop", "add_constraint", "Never change the public API")  # no duplicate
    todo = wm.update("shop", "add_pending", "Write the migration")["pending"][0]["id"]
    wm.update("shop", "add_pending", "Update the docs")
    wm.update("shop", "touch_file", "src/checkout.py")
    wm.update("shop", "touch_file", "src/checkout.py")
    data = wm.update("shop", "resolve_pending", item_id=todo)
    assert [p["text"] for p in data["pending"]] == ["Update the docs"]
    assert data["files_touched"] == ["src/checkout.py"]
    assert len(data["constraints"]) == 1 and data["updated_at"] == svc.clock.now_iso()
    text = wm.render("shop")
    assert text.splitlines()[1] == "Current task: Add a coupon field to checkout"
    assert "Decisions not to overturn:\n- Store coupons in Postgres (because: orders already live there)" in text
    assert "Hard constraints:\n- Never change the public API" in text
    assert "To-do:\n- [" in text and "Write the migration" not in text
    zh = wm.render("shop", "zh")
    assert "当前任务：Add a coupon field to checkout" in zh and "不要推翻的决定" in zh and "硬性约束" in zh
    assert "待办" in zh


def test_bad_operations_store_nothing(svc: Services) -> None:
    wm = svc.working
    with pytest.raises(ValidationError, match="needs a reason"):
        wm.update("shop", "add_decision", "Use Redis for sessions")
    with pytest.raises(ValidationError, match="needs a reason"):
        wm.update("shop", "add_decision", "Use Redis for sessions", reason="   ")
    with pytest.raises(ValidationError, match="Unknown operation"):
        wm.update("shop", "add_secret", "x")
    with pytest.raises(ValidationError, match="belongs to a workspace"):
        wm.update("persona:default", "task", "x")
    with pytest.raises(ValidationError, match="empty"):
        wm.update("shop", "task", "  ")
    with pytest.raises(NotFoundError):
        wm.update("shop", "resolve_pending", item_id=999)
    assert wm.show("shop")["decisions"] == [] and wm.workspaces() == []


def test_ending_a_task_makes_a_candidate_not_a_memory(svc: Services) -> None:
    wm = svc.working
    wm.update("shop", "task", "Speed up the product page")
    wm.update("shop", "add_decision", "Cache rendered HTML for 60 s", reason="prices change rarely")
    wm.update("shop", "reject_approach", "A CDN edge worker", reason="no budget for it this quarter")
    wm.update("shop", "add_constraint", "Keep server-side rendering")
    result = wm.end_task("shop", "HTML cache in Redis with a 60 s TTL")
    assert result.outcome == "new"
    candidate = svc.review.get(result.candidate_id)
    assert candidate.status == "pending" and candidate.namespace == "workspace:shop"
    assert "Goal: Speed up the product page" in candidate.content
    assert "Final approach: HTML cache in Redis" in candidate.content
    assert "A CDN edge worker (because no budget for it this quarter)" in candidate.content
    assert svc.memories.list() == []  # never straight into memory
    after = wm.show("shop")
    assert after["task"] is None and after["decisions"] == [] and len(after["constraints"]) == 1
    with pytest.raises(NotFoundError, match="no current task"):
        wm.end_task("shop", "again")


def test_export_carries_working_memory(svc: Services, tmp_path) -> None:
    svc.working.update("shop", "task", "Refactor the cart")
    svc.working.update("shop", "add_decision", "Keep the old cart API", reason="mobile app uses it")
    export = tmp_path / "wm.jsonl"
    svc.transfer.export(export)
    with Services.open(tmp_path / "copy.db") as other:
        other.transfer.import_file(export)
        assert other.working.show("shop")["decisions"][0]["reason"] == "mobile app uses it"


def test_cli(db_path, capsys) -> None:
    db = ["--db", str(db_path)]
    assert main(["working", "update", "shop", "task", "Ship v2", *db]) == 0
    assert main(["working", "update", "shop", "add_decision", "Drop IE11", "--reason", "0.1% of users", *db]) == 0
    assert main(["working", "update", "shop", "add_decision", "No reason", *db]) == 1
    assert "needs a reason" in capsys.readouterr().err
    assert main(["working", "show", "shop", "--json", *db]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["task"] == "Ship v2" and data["decisions"][0]["text"] == "Drop IE11"
    assert main(["working", "end", "shop", "Released on Monday", "--json", *db]) == 0
    assert json.loads(capsys.readouterr().out)["outcome"] == "new"
