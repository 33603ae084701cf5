"""``export FILE`` / ``import FILE``: lossless JSONL round trip; ``transfer``: store to store."""

from __future__ import annotations

import argparse

from madohub_memory.cli.output import emit, open_services


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("export", parents=[common], help="write everything to a JSONL file (secrets are always masked)")
    p.add_argument("file")
    p.add_argument("--redact-pii", action="store_true",
                   help="replace e-mail addresses, phone, ID and card numbers and IBANs with [PII:kind] (for sharing)")
    p.set_defaults(handler=_export)
    p = sub.add_parser("import", parents=[common], help="read a JSONL export (all or nothing)")
    p.add_argument("file")
    p.set_defaults(handler=_import)
    register_transfer(sub, common)


def _export(args: argparse.Namespace) -> int:
    with open_services(args, create=False) as svc:
        counts = svc.transfer.export(args.file, redact_pii=args.redact_pii)
    emit(args, counts, f"exported {sum(counts.values())} rows to {args.file}")
    return 0


def _import(args: argparse.Namespace) -> int:
    with open_services(args) as svc:
        counts = svc.transfer.import_file(args.file)
    emit(args, counts, f"imported {sum(counts.values())} rows from {args.file}")
    return 0


def register_transfer(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "transfer", parents=[common],
        help="copy everything from one database into another, new one (resumable: run it again after a stop)")
    p.add_argument("--from", dest="source", required=True, metavar="SOURCE", help="the database to copy")
    p.add_argument("--to", dest="target", required=True, metavar="TARGET",
                   help="a new or empty database, or one this transfer was interrupted on")
    p.add_argument("--batch", type=int, default=1000, metavar="N", help=argparse.SUPPRESS)
    p.set_defaults(handler=_transfer)


def _transfer(args: argparse.Namespace) -> int:
    import sys

    from madohub_memory.core.errors import ConflictError
    from madohub_memory.services import Services
    from madohub_memory.services.store_copy import ProgressLine, StoreCopy, same_location, shown_location

    source, target = shown_location(args.source), shown_location(args.target)
    if same_location(args.source, args.target):
        raise ConflictError("{source} and {target} are the same database: nothing to transfer.",
                            source=source, target=target)
    line = ProgressLine(sys.stderr)
    with Services.open(args.source, origin="transfer", create=False) as src, \
            Services.open(args.target, origin="transfer") as dst:
        copy = StoreCopy(src, dst, source_name=args.source, target_name=args.target, batch_rows=args.batch,
                         progress=line)
        try:
            result = copy.run()
        except KeyboardInterrupt:
            line.close()
            print(f"madohub-memory: interrupted; what was copied is kept: run the same command again to "
                  f"continue the transfer into {target}.", file=sys.stderr)
            return 130
        finally:
            line.close()
    data = {"source": source, "target": target, **result.to_dict()}
    if result.already_done:
        text = f"nothing to do: {target} already holds everything from {source} (transferred {result.finished_at})."
    else:
        total = sum(result.copied.values())
        text = (f"{'continued: ' if result.resumed else ''}copied {total:,} rows from {source} to {target}; "
                "the transfer is complete.")
        if result.differences:
            changed = ", ".join(f"{t} {s:,} in the source, {d:,} copied" for t, (s, d) in result.differences.items())
            text += f" The source changed while the transfer was stopped ({changed})."
    emit(args, data, text)
    return 0
