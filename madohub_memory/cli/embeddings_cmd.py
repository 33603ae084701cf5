"""``embeddings [status|reembed]``: which model recall serves, and re-embedding after a switch."""

from __future__ import annotations

import argparse
import sys
import time

from madohub_memory.cli.output import emit, open_services


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("embeddings", parents=[common],
                       help="embedding model status; re-embed the memories after embedding.model changed")
    p.add_argument("action", nargs="?", default="status", choices=["status", "reembed"],
                   help="status (default), or reembed: embed every memory with the chosen model now, "
                        "then switch recall to it (safe to interrupt; the next run goes on)")
    p.set_defaults(handler=_embeddings)


def _line(status: dict[str, object]) -> str:
    total, done = int(status["memories"]), int(status["embedded"])  # type: ignore[call-overload]
    share = f" ({100 * done // total}%)" if total else ""
    if status["state"] == "re-embedding":
        return (f"recall uses {status['serving']}; re-embedding for {status['model']}: {done:,} of "
                f"{total:,} memories{share}")
    return f"recall uses {status['serving']}: {done:,} of {total:,} memories embedded{share}"


def _embeddings(args: argparse.Namespace) -> int:
    with open_services(args, create=args.action == "reembed") as svc:
        if args.action == "reembed":
            shown = [0.0]

            def progress(done: int, total: int) -> None:
                now = time.monotonic()
                if not args.json and now - shown[0] >= 1.0:
                    shown[0] = now
                    print(f"re-embedding for {svc.embedding.wanted()}: {done:,} of {total:,}", file=sys.stderr,
                          flush=True)

            started = time.monotonic()
            embedded = svc.embedding.reembed(progress)
            status = svc.embedding.status()
            status["embedded_now"] = embedded
            status["seconds"] = round(time.monotonic() - started, 1)
        else:
            status = svc.embedding.status()
    emit(args, status, _line(status))
    return 0
