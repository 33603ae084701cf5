"""``scrub``: mask secrets stored by an older version (see ``services/scrub.py``)."""

from __future__ import annotations

import argparse

from madohub_memory.cli.output import emit, open_services


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "scrub", parents=[common],
        help="mask secrets an older version stored (turns, memories, history, ...) and compact the file",
    )
    p.add_argument("--no-compact", action="store_true", help="skip rewriting the file (VACUUM)")
    p.set_defaults(handler=_scrub)


def _scrub(args: argparse.Namespace) -> int:
    from madohub_memory.services.scrub import scrub_secrets

    with open_services(args) as svc:
        changed = scrub_secrets(svc, compact=not args.no_compact)
    total = sum(changed.values())
    emit(args, {"changed": changed, "rows": total},
         f"masked secrets in {total} rows" + (f" ({', '.join(f'{t} {n}' for t, n in changed.items())})" if total else ""))
    return 0
