"""``decisions record|recommend|stats|points|capture|decay-scan``: decision memory from the shell."""

from __future__ import annotations

import argparse

from madohub_memory.cli.output import emit, open_services, table
from madohub_memory.core.clock import Clock, parse_iso
from madohub_memory.core.errors import ValidationError


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("decisions", help="record choices at decision points and recommend the usual one")
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)

    a = actions.add_parser("record", parents=[common], help="record which option was chosen")
    _question_args(a)
    a.add_argument("--choice", required=True, help="the option that was picked")
    a.add_argument("--transient", action="store_true", help="expires after the TTL (default 28 days)")
    a.set_defaults(handler=_record)

    a = actions.add_parser("recommend", parents=[common], help="recommend an option for a question")
    _question_args(a)
    a.add_argument("--no-personalisation", action="store_true",
                   help="ignore the history for this call (static default)")
    a.set_defaults(handler=_recommend)

    a = actions.add_parser("stats", parents=[common], help="counts, sessions and expertise")
    a.set_defaults(handler=_stats)

    a = actions.add_parser("points", parents=[common], help="every decision point with its tiers")
    a.add_argument("--session", help="the session shown as the current one (default: the latest)")
    a.set_defaults(handler=_points)

    a = actions.add_parser("capture", parents=[common], help="record AskUserQuestion answers from Claude Code files")
    a.add_argument("paths", nargs="+", metavar="PATH")
    a.set_defaults(handler=_capture)

    a = actions.add_parser("decay-scan", parents=[common], help="expire transient choices (at most once a day)")
    a.add_argument("--force", action="store_true", help="run even if the scan ran less than a day ago")
    a.add_argument("--now", metavar="ISO", help="pretend the current time is ISO (for tests)")
    a.set_defaults(handler=_decay_scan)


def _question_args(a: argparse.ArgumentParser) -> None:
    a.add_argument("--question", required=True, help="the question as asked")
    a.add_argument("--options", required=True, help="the offered options, comma-separated")
    a.add_argument("--session", help="the session this belongs to")
    a.add_argument("--context", nargs="+", action="extend", default=[], metavar="KEY=VALUE",
                   help="context such as workflow=spec phase=design")
    a.add_argument("--key", help="an explicit decision-point key (default: question + option set)")


def _options(text: str) -> list[str]:
    return [o.strip() for o in text.split(",") if o.strip()]


def _context(pairs: list[str]) -> dict[str, str]:
    context: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ValidationError("Context {pair!r} is not KEY=VALUE.", pair=pair)
        context[key.strip()] = value.strip()
    return context


def _record(args: argparse.Namespace) -> int:
    context = _context(args.context)
    with open_services(args) as svc:
        record = svc.decisions.record(
            args.question, _options(args.options), args.choice, session=args.session,
            context=context, key=args.key, transient=args.transient, source="cli",
        )
    emit(args, record, f"recorded {record['user_choice']!r} for {record['question']!r} "
                       f"({record['decision_id']})")
    return 0


def _recommend(args: argparse.Namespace) -> int:
    context = _context(args.context)
    with open_services(args, create=False) as svc:
        rec = svc.decisions.recommend(
            args.question, _options(args.options), session=args.session, context=context,
            key=args.key, personalise=not args.no_personalisation,
        )
    lines = [rec["text"], f"confidence: {rec['confidence_level']} ({rec['confidence']:.2f}); "
             f"observations: {rec['observations']}; action: {rec['action']}"]
    if rec.get("test"):
        t = rec["test"]
        lines.append(f"test: {t['name']}: p = {t['p_value']:.4g} (alpha {t['alpha']})")
    emit(args, rec, "\n".join(lines))
    return 0


def _stats(args: argparse.Namespace) -> int:
    with open_services(args, create=False) as svc:
        data = svc.decisions.stats()
    emit(args, data, "\n".join(f"{k}: {v}" for k, v in data.items()))
    return 0


def _points(args: argparse.Namespace) -> int:
    with open_services(args, create=False) as svc:
        points = svc.decisions.points(args.session)
    emit(args, points, table(points, ["question", "recommendation", "share", "confidence_level",
                                      "observations", "precondition"]))
    return 0


def _capture(args: argparse.Namespace) -> int:
    with open_services(args) as svc:
        added = {path: svc.decisions.capture_transcript(path) for path in args.paths}
    data = {"added": sum(added.values()), "files": added}
    emit(args, data, f"captured {data['added']} new decision(s) from {len(added)} file(s)")
    return 0


def _decay_scan(args: argparse.Namespace) -> int:
    clock = Clock(parse_iso(args.now)) if args.now else None
    with open_services(args, clock, create=False) as svc:
        report = svc.decisions.decay_scan(force=args.force)
    if report["ran"]:
        text = f"expired {report['expired']}, proposed {len(report['proposed'])}; next run {report['next_run']}"
    else:
        text = f"skipped: last run {report['last_run']}, next run {report['next_run']} (use --force)"
    emit(args, report, text)
    return 0
