"""Which ``workspace:`` a working directory belongs to: the repository, not the folder.

Why: a developer runs agents in the repository root, in subfolders of it and in git
worktrees (``~/src/shop-feature-x`` checked out from ``~/src/shop``); all of them are one
project and must share one memory. The folder name is only the fallback, for a path that
is not inside a repository or no longer exists on this machine (a transcript copied from
elsewhere).

Resolution, first match wins:
1. an explicit mapping of path prefixes to project names (longest prefix first);
2. the nearest ancestor holding ``.git``: a directory means that folder is the repository
   root; a file (``gitdir: …/.git/worktrees/<name>``) means a linked worktree, whose
   repository root is the folder that holds the common ``.git`` directory;
3. for a path that is not a repository on this machine, the usual worktree folder layouts:
   ``…/shop-worktrees/<name>`` (also ``.worktrees``/``_worktrees`` suffixes) and
   ``…/shop/.worktrees/<name>`` or ``…/shop/.claude/worktrees/<name>`` all mean ``shop``;
4. the last component of the path.

Transcripts travel: a session recorded on Windows (``c:\\Users\\me\\dev\\shop``, a UNC share
``\\\\server\\share\\shop``) or macOS is read the same way here, by its own path rules, never
against this machine's folders. A home folder (``/home/me``, ``/Users/me``, ``C:\\Users\\me``)
and a bare root are no project: the caller looks at what the session worked on instead
(:func:`project_from_paths`). A relative path names its last folder.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import PurePath, PurePosixPath, PureWindowsPath

_MAX_GITFILE_BYTES = 4096


def _norm(path: str) -> str:
    return os.path.normpath(os.path.expanduser(path.strip()))


def _mapped(path: str, mapping: Mapping[str, str] | None) -> str | None:
    if not mapping:
        return None
    for prefix in sorted(mapping, key=len, reverse=True):
        root = _norm(prefix)
        if path == root or path.startswith(root.rstrip(os.sep) + os.sep):
            name = str(mapping[prefix]).strip()
            return name or None
    return None


def _worktree_main_root(gitfile: str) -> str | None:
    """The main repository root named by a linked worktree's ``.git`` file, if any."""
    try:
        with open(gitfile, encoding="utf-8", errors="replace") as handle:
            text = handle.read(_MAX_GITFILE_BYTES)
    except OSError:
        return None
    line = text.strip().splitlines()[0] if text.strip() else ""
    if not line.startswith("gitdir:"):
        return None
    gitdir = line[len("gitdir:"):].strip()
    if not os.path.isabs(gitdir):
        gitdir = os.path.join(os.path.dirname(gitfile), gitdir)
    parts = PurePosixPath(os.path.normpath(gitdir)).parts
    # …/<repo>/.git/worktrees/<name>: the repository is the folder holding that .git.
    if len(parts) >= 3 and parts[-2] == "worktrees" and parts[-3] == ".git":
        return str(PurePosixPath(*parts[:-3]))
    return None


def repository_root(path: str) -> str | None:
    """The root of the repository that contains ``path`` (a linked worktree maps to its main
    checkout), or None when ``path`` is not inside a git repository on this machine."""
    current = _norm(path)
    while True:
        marker = os.path.join(current, ".git")
        if os.path.isdir(marker):
            return current
        if os.path.isfile(marker):
            return _worktree_main_root(marker) or current
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


_WORKTREE_SUFFIXES = ("-worktrees", ".worktrees", "_worktrees", "-worktree", ".worktree", "_worktree")
_WORKTREE_FOLDERS = frozenset({".worktrees", "worktrees", ".worktree", "worktree"})


def _worktree_layout_project(path: str) -> str | None:
    """The project named by a conventional worktree folder layout in ``path``, if any."""
    parts = [p for p in PurePosixPath(path).parts if p not in ("/", "")]
    for index in range(len(parts) - 2, -1, -1):  # the folder holding the worktree, innermost first
        part = parts[index]
        lowered = part.lower()
        for suffix in _WORKTREE_SUFFIXES:
            if lowered.endswith(suffix) and len(part) > len(suffix):
                return part[: -len(suffix)]
        if lowered in _WORKTREE_FOLDERS and index >= 1:
            owner = parts[index - 1]
            if owner == ".claude" and index >= 2:
                owner = parts[index - 2]
            if not owner.startswith("."):
                return owner
    return None


_WINDOWS = re.compile(r"^(?:[A-Za-z]:[\\/]|\\\\|//[^/])|^[^/]*\\")
_HOME = re.compile(r"^(?:/home/[^/]+|/Users/[^/]+|/root|/var/root|[A-Za-z]:[\\/]Users[\\/][^\\/]+"
                   r"|[A-Za-z]:[\\/]Documents and Settings[\\/][^\\/]+)[\\/]*$", re.I)
_NOT_A_PROJECT = frozenset({"", ".", "..", "~", "tmp", "temp", "desktop", "downloads", "documents", "src", "code",
                            "projects", "dev", "repos", "git", "workspace", "workspaces", "home", "users"})


def is_windows_path(path: str) -> bool:
    """A drive-letter, UNC or backslash path (from a Windows machine)."""
    return bool(_WINDOWS.match(path.strip()))


def is_home(path: str) -> bool:
    """A home folder (or a root): where a person starts an agent, never a project."""
    value = path.strip()
    return bool(_HOME.match(value)) or value in ("~", "/") or value.rstrip("/\\") == os.path.expanduser("~")


def _foreign_name(path: str, mapping: Mapping[str, str] | None) -> str | None:
    """The project of a Windows path: mapping, worktree layouts, then the last folder; never
    this machine's file system (the path does not exist here)."""
    win = PureWindowsPath(path.strip())
    if mapping:
        low = str(win).lower()
        for prefix in sorted(mapping, key=len, reverse=True):
            root = str(PureWindowsPath(prefix)).lower().rstrip("\\")
            if low == root or low.startswith(root + "\\"):
                return str(mapping[prefix]).strip() or None
    parts = [p for p in win.parts[1:] if p.strip()]  # the drive or UNC share is no project
    if not parts:
        return None
    return _worktree_layout_project("/" + "/".join(parts)) or parts[-1]


def project_name(cwd: str, mapping: Mapping[str, str] | None = None) -> str | None:
    """The project name for a working directory, or None for an empty or root path or a
    home folder."""
    if not isinstance(cwd, str) or not cwd.strip("/ \\") or "\n" in cwd:
        return None
    if is_home(cwd):
        return None
    if is_windows_path(cwd):
        return _foreign_name(cwd, mapping)
    if not os.path.isabs(os.path.expanduser(cwd.strip())):  # relative: its last folder, if it names one
        last = PurePosixPath(os.path.normpath(cwd.strip())).name
        return None if last.lower() in _NOT_A_PROJECT or last.startswith(".") else last
    path = _norm(cwd)
    name = _mapped(path, mapping)
    if name:
        return name
    root = repository_root(path)
    if root is None:
        layout = _worktree_layout_project(path)
        if layout:
            return layout
    base = os.path.basename((root or path).rstrip(os.sep)).strip()
    return base or None


def project_from_paths(paths: Iterable[str], base: str | None) -> str | None:
    """The folder a session worked in when its ``cwd`` was a home folder (or missing): the
    most used folder just below ``base`` (or, without one, below the paths' home folder)
    among the files its tools read and wrote. ``~/shop/src/a.ts`` -> ``~/shop``."""
    counts: Counter[str] = Counter()
    for raw in paths:
        if not isinstance(raw, str) or not raw.strip():
            continue
        path: PurePath = PureWindowsPath(raw) if is_windows_path(raw) else PurePosixPath(raw)
        parts = path.parts
        for cut in range(len(parts) - 1, 0, -1):
            head = str(type(path)(*parts[:cut]))
            if (base is not None and _same_path(head, base)) or (base is None and is_home(head)):
                folder = parts[cut] if cut < len(parts) - 1 else ""  # a file right in the home folder: none
                if folder and not folder.startswith(".") and folder.lower() not in _NOT_A_PROJECT:
                    counts[str(type(path)(*parts[:cut + 1]))] += 1
                break
    return counts.most_common(1)[0][0] if counts else None


def _same_path(a: str, b: str) -> bool:
    strip = "/\\"
    return a.rstrip(strip).replace("\\", "/").lower() == b.rstrip(strip).replace("\\", "/").lower()


def workspace_namespace(cwd: str, mapping: Mapping[str, str] | None = None) -> str | None:
    """``workspace:<project>`` for a working directory (see :func:`project_name`)."""
    name = project_name(cwd, mapping)
    return f"workspace:{name}" if name else None


def is_project_folder(cwd: str, mapping: Mapping[str, str] | None = None) -> bool:
    """A folder the user mapped to a project, or one inside a git repository: a program
    started there (an MCP server) works on that project; elsewhere (a home folder, ``/``)
    the folder name would name no project."""
    if not isinstance(cwd, str) or not cwd.strip("/ \\"):
        return False
    path = _norm(cwd)
    return bool(_mapped(path, mapping)) or repository_root(path) is not None
