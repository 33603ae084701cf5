"""The house rules, read from the source: layers one way, Qt only in ``gui/``, sqlite3 only in
``store/``, no import circle, no module past 600 lines. Every import counts, also one inside a function or under
``TYPE_CHECKING`` (the circle check skips only the latter: it never runs)."""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "madohub_memory"
LAYER = {"core": 0, "store": 1, "ingest": 2, "extraction": 2, "recall": 2, "decisions": 2,
         "services": 3, "workers": 4, "mcp": 4, "gui": 4, "cli": 4}
# Front ends may start one another: the command line opens the dashboard, the MCP server and
# the worker (and draws the desktop icons with Qt); the dashboard runs the workers in-process.
LAUNCHES = {("cli", "gui"), ("cli", "mcp"), ("cli", "workers"), ("gui", "workers")}
# ``agents/<agent>/`` holds everything about one agent, at several layers: a module's layer is
# its role, named by its file (see ``madohub_memory/agents/__init__.py``). A new file there
# gets its role here, or the layering test fails.
AGENT_ROLES = {
    # reading the agent's session files
    "transcript": "ingest", "rollout": "ingest", "rollout_items": "ingest", "remember_calls": "ingest",
    "contract": "ingest",
    # the person's answers to the agent's questions
    "questions": "decisions",
    # set-up, status for the doctor, the guide, the read-back: use cases
    "setup": "services", "status": "services", "guide": "services", "config_files": "services",
    "compaction_readback": "services", "sessions": "services",
    # what the agent runs on its events, what the command line prints: front ends
    "hook": "cli", "notify": "cli", "setup_command": "cli",
}


def _imports() -> list[tuple[str, str, int, bool]]:
    """(importing module, imported name, line, only for type checking) for every import."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        tree = ast.parse(path.read_text(encoding="utf-8"))
        typing_only = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
                       and "TYPE_CHECKING" in ast.unparse(node.test) for n in ast.walk(node)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join([*package.split(".")[: len(package.split(".")) - node.level + 1], base]).strip(".")
                names = [f"{base}.{alias.name}" for alias in node.names]
            else:
                continue
            found += [(module, name, node.lineno, id(node) in typing_only) for name in names]
    return found


def _layer(module: str) -> str | None:
    parts = module.split(".")
    if len(parts) > 2 and parts[:2] == ["madohub_memory", "agents"]:
        # a package (agents, agents.codex) imports nothing: the lowest layer; a name inside a
        # module (``agents.guide.remember_guide``) has the module's role
        roles = [AGENT_ROLES[part] for part in parts[2:] if part in AGENT_ROLES]
        return roles[0] if roles else "core"
    return parts[1] if len(parts) > 2 and parts[0] == "madohub_memory" else None


def test_every_agent_module_has_a_role() -> None:
    """A module in ``agents/`` sits at the layer of its role; one without a known role is
    refused, so that nothing in an agent's room escapes the layering."""
    unknown = [str(p.relative_to(PACKAGE)) for p in sorted((PACKAGE / "agents").rglob("*.py"))
               if p.stem != "__init__" and p.stem not in AGENT_ROLES]
    assert not unknown, f"give these a role in AGENT_ROLES: {unknown}"


def test_agent_packages_import_nothing() -> None:
    """``import madohub_memory.agents.codex.notify`` runs the packages' ``__init__`` first: they
    stay empty, so that an agent's hook loads only what it uses."""
    busy = [m for m, *_ in _imports() if m.startswith("madohub_memory.agents")
            and (PACKAGE.parent / m.replace(".", "/") / "__init__.py").exists()]
    assert not busy, busy


def test_qt_only_in_gui_and_sqlite3_only_in_store() -> None:
    wrong = [f"{m}:{line} imports {name}" for m, name, line, _ in _imports()
             if (name.startswith(("PySide6", "shiboken6")) and _layer(m) != "gui")
             or (name.split(".")[0] == "sqlite3" and _layer(m) != "store")]
    assert not wrong, "\n".join(wrong)


def test_every_import_runs_down_the_layers() -> None:
    wrong = []
    for module, name, line, _ in _imports():
        source, target = _layer(module), _layer(name)
        if source and target and source != target and (source, target) not in LAUNCHES \
                and LAYER[target] >= LAYER[source]:
            wrong.append(f"{module}:{line} ({source}) imports {name} ({target})")
    assert not wrong, "\n".join(wrong)


def test_no_import_circle_between_modules() -> None:
    modules = {".".join(p.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__")
               for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for module, name, _, typing_only in _imports():
        while name and name not in modules:  # ``from a.b import C`` names module a.b
            name = name.rpartition(".")[0]
        if name and name != module and not typing_only:
            graph[module].add(name)
    try:
        TopologicalSorter(graph).prepare()
    except CycleError as exc:
        raise AssertionError(f"import circle: {' -> '.join(exc.args[1])}") from None


MAX_MODULE_LINES = 600


def test_every_module_is_small() -> None:
    """Small files with one clear job: a module past the limit gets split, not waved through."""
    long = {str(p.relative_to(PACKAGE)): n for p in sorted(PACKAGE.rglob("*.py"))
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES}
    assert long == {}, f"modules over {MAX_MODULE_LINES} lines: {long}"
