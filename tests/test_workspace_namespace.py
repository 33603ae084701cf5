"""A workspace is the repository: subfolders and linked worktrees map to one namespace."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from madohub_memory.ingest.workspace import project_name, workspace_namespace

pytestmark = pytest.mark.both_backends


def _git(*args: str, cwd: Path) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True,
                   env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "t",
                        "GIT_COMMITTER_EMAIL": "t@e", "HOME": str(cwd), "PATH": "/usr/bin:/bin"})


def test_subfolder_and_worktree_of_one_repository_are_one_workspace(tmp_path: Path) -> None:
    shop = tmp_path / "src" / "shop"
    (shop / "web" / "components").mkdir(parents=True)
    _git("init", "-q", "-b", "main", cwd=shop)
    (shop / "README").write_text("x")
    _git("add", "README", cwd=shop)
    _git("commit", "-q", "-m", "init", cwd=shop)
    _git("worktree", "add", "-q", str(tmp_path / "src" / "shop-feature-x"), "-b", "feature-x", cwd=shop)

    assert workspace_namespace(str(shop)) == "workspace:shop"
    assert workspace_namespace(str(shop / "web" / "components")) == "workspace:shop"
    assert workspace_namespace(str(tmp_path / "src" / "shop-feature-x")) == "workspace:shop"


def test_path_outside_a_repository_falls_back_to_the_folder_name(tmp_path: Path) -> None:
    assert workspace_namespace("/home/someone/projects/blog/") == "workspace:blog"
    assert workspace_namespace(str(tmp_path / "gone" / "api")) == "workspace:api"


@pytest.mark.parametrize("cwd", ["", "/", "  "])
def test_empty_or_root_path_has_no_workspace(cwd: str) -> None:
    assert workspace_namespace(cwd) is None


def test_mapping_wins_and_longest_prefix_first(tmp_path: Path) -> None:
    mapping = {"/home/a/clients": "clients", "/home/a/clients/acme": "acme"}
    assert project_name("/home/a/clients/acme/api", mapping) == "acme"
    assert project_name("/home/a/clients/other", mapping) == "clients"
    assert project_name("/home/a/clientsX", mapping) == "clientsX"


@pytest.mark.parametrize(("cwd", "project"), [
    ("/Users/dev/src/spotter-worktrees/spotter-gqc", "spotter"),
    ("/Users/dev/src/spotter-worktrees/spotter-gqc/lib/web", "spotter"),
    ("/home/dev/shop/.worktrees/feature-x", "shop"),
    ("/home/dev/shop/.claude/worktrees/fix-login", "shop"),
    ("/home/dev/code/worktrees", "worktrees"),
    ("/home/dev/shop-feature-x", "shop-feature-x"),
])
def test_worktree_folder_layouts_away_from_this_machine(cwd: str, project: str) -> None:
    assert project_name(cwd) == project
