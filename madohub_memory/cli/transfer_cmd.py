"""``export FILE`` / ``import FILE``: lossless JSONL round trip."""

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
