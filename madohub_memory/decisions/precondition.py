"""The "Recommended when ..." clause: the context every counted observation shares.

A recommendation learned while ``workflow=spec, phase=design`` says so, because it may
not hold in another phase. Keys whose values differ between observations are dropped;
what remains is the precondition.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

MAX_CLAUSES = 4


def _fmt(value: Any) -> str:
    return str(value) if not isinstance(value, bool) else ("yes" if value else "no")


def shared_context(contexts: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    shared: dict[str, Any] | None = None
    for ctx in contexts:
        if shared is None:
            shared = {k: v for k, v in ctx.items() if v not in (None, "")}
        else:
            shared = {k: v for k, v in shared.items() if k in ctx and ctx[k] == v}
        if not shared:
            return {}
    return dict(sorted((shared or {}).items()))


def mismatches(shared: Mapping[str, Any], query: Mapping[str, Any] | None) -> list[str]:
    """Keys whose value now differs from the value every observation had."""
    if not query:
        return []
    return sorted(k for k, v in shared.items() if k in query and query[k] != v)


def describe(shared: Mapping[str, Any], *, static: bool, query: Mapping[str, Any] | None = None) -> str:
    """``Recommended when ...`` for a learned (or static) recommendation."""
    if static:
        ctx = {k: v for k, v in (query or {}).items() if v not in (None, "")}
        clauses = [f"{k}={_fmt(v)}" for k, v in sorted(ctx.items())][:MAX_CLAUSES]
        where = f" and {' and '.join(clauses)}" if clauses else ""
        return f"Recommended when there is no personal history yet{where}"
    if not shared:
        return "Recommended when this question comes up (no context shared by the choices)"
    clauses = [f"{k}={_fmt(v)}" for k, v in shared.items()][:MAX_CLAUSES]
    return "Recommended when " + " and ".join(clauses)
