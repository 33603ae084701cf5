"""``recall QUERY [--namespace NS] [-k N] [--json] [--render] [--no-persona]``: ranked approved memories."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from madohub_memory.cli.output import emit, open_services, table


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("recall", parents=[common], help="search approved memories (hybrid: vectors + keywords)")
    p.add_argument("query", metavar="QUERY", help="what to look for (English or Chinese)")
    p.add_argument("--namespace", metavar="NS", help="persona:<name> or workspace:<project> (default: all)")
    p.add_argument("-k", type=int, default=None, metavar="N", help="how many memories (default: setting recall.k)")
    p.add_argument("--render", action="store_true", help="print the block an agent gets injected")
    p.add_argument("--budget", type=int, default=None, metavar="TOKENS", help="token budget of --render")
    p.add_argument("--language", default="en", choices=["en", "zh"], help="language of the --render header")
    p.add_argument("--no-persona", action="store_true", help="with a workspace, leave out the persona's memories")
    p.set_defaults(handler=_recall)


def _recall(args: argparse.Namespace) -> int:
    with open_services(args, create=False) as svc:
        # The hits are counted after the answer is printed: beside an import the count waits
        # its turn for the lock, the person reading the answer does not.
        hits = svc.recall.search(
            args.query, args.namespace, args.k, include_persona=not args.no_persona, source="cli", defer=True,
        )
        rendered = svc.recall.render(hits, args.budget, args.language) if args.render else None
        _print(args, hits, rendered)
        sys.stdout.flush()
        svc.recall.count_deferred()
    return 0


def _print(args: argparse.Namespace, hits: list[Any], rendered: str | None) -> None:
    rows = [
        {**h.to_dict(), "score": round(h.score, 4), "date": h.said_on} for h in hits
    ]
    if args.render:
        emit(args, {"text": rendered, "hits": rows}, rendered or "(no memories)")
        return
    # The table names how many turns a memory came from (`memory show ID` lists them, --json has
    # them): four turn ids are 150 characters, and the memory's text would come after them.
    shown = [{**r, "id": h.ref, "turns": len(r.get("turn_ids") or [])} for r, h in zip(rows, hits, strict=True)]
    emit(args, rows, table(shown, ["id", "score", "kind", "namespace", "date", "turns", "content"]))
