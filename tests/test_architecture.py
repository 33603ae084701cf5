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
    return parts[1] if len(parts) > 2 and parts[0] == "madohub_memory" else None


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
