"""Printing results as JSON or as short human-readable text, and opening services.

Every command module imports this one at start, so it imports nothing heavy itself: the
services (and the store under them) load when a handler opens them, ``json`` when
something is printed as JSON.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from madohub_memory.core.errors import shown
from madohub_memory.core.text import first_line

if TYPE_CHECKING:
    from madohub_memory.core.clock import Clock
    from madohub_memory.services import Services


def open_services(
    args: argparse.Namespace, clock: Clock | None = None, *, create: bool = True, check: bool = True,
) -> Services:
    """The services on ``--db``. Commands that only read or change what exists pass
    ``create=False``: a mistyped path is then one sentence, not a new empty database.
    ``check=False``: open a file marked damaged (doctor, backup).

    Every CLI invocation is the actor `cli`: `madohub-memory undo` takes back the CLI's own
    newest change, never one made in the dashboard, by an agent or by the workers.

    An id of another store (``team:12``, setting ``stores.map``) opens that store instead."""
    from madohub_memory.services import Services

    ref = getattr(args, "id", None)
    if isinstance(ref, StoreRef) and ref.store:
        with Services.open(args.db, clock, origin="cli", create=False) as local:
            location = local.stores.location_of_label(ref.store)
            if location is not None:
                return local.stores.take(location)
    return Services.open(args.db, clock, origin="cli", create=create, check=check)


def emit(args: argparse.Namespace, data: Any, text: str | None = None) -> None:
    if args.json or text is None:
        import json

        # One write of the whole text: json.dump would write each of its thousands of small
        # pieces to stdout separately (a third of a cold ``pending --json``).
        sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2, default=str) + "\n")
    else:
        sys.stdout.write(text.rstrip("\n") + "\n")


def table(rows: list[dict[str, Any]], columns: list[str]) -> str:
    if not rows:
        return "(none)"
    cells = [[_cell(r.get(c)) for c in columns] for r in rows]
    widths = [max(len(c), *map(len, column)) for c, column in zip(columns, zip(*cells, strict=True), strict=True)]
    line = "  ".join(f"{{:<{w}}}" for w in widths)  # each cell left-justified to its column's width
    return "\n".join(line.format(*values).rstrip() for values in [columns, *cells])


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.2f}"
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value) or "-"
    return first_line(str(value), 70)


MAX_ID = 2**63 - 1


class StoreRef(int):
    """An id as typed: ``12``, or ``team:12`` / ``team:#12`` for one of a mapped store
    (``local:12`` is this store's). Prints as typed, acts as the number."""

    store: str | None = None

    def __str__(self) -> str:
        return f"{self.store}:{int(self)}" if self.store else str(int(self))


def store_ref(text: str) -> StoreRef:
    """``ID`` or ``STORE:ID`` (argparse type of the commands that act on one memory or candidate)."""
    label, sep, number = text.strip().rpartition(":")
    ref = StoreRef(positive_id(number.lstrip("#") if sep else text))
    if sep and label.strip().lower() != "local":
        if not label.strip():
            raise argparse.ArgumentTypeError(f"{shown(text)} is not an id (STORE:ID, e.g. team:12)")
        ref.store = label.strip().lower()
    return ref


def positive_id(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{shown(text)} is not an id (a whole number)") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{shown(text)} is not an id (a positive number)")
    if value > MAX_ID:
        raise argparse.ArgumentTypeError(f"{shown(text)} is not an id (ids stop at {MAX_ID})")
    return value
