"""``settings get|set|list``."""

from __future__ import annotations

import argparse

from madohub_memory.cli.output import emit, open_services
from madohub_memory.core.settings_schema import SETTINGS


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("settings", help="read or change settings")
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    a = actions.add_parser("get", parents=[common], help="print one setting")
    a.add_argument("key", help="e.g. auto_approve.enabled")
    a.set_defaults(handler=_get)
    a = actions.add_parser("set", parents=[common], help="change one setting")
    a.add_argument("key")
    a.add_argument("value")
    a.set_defaults(handler=_set)
    a = actions.add_parser("list", parents=[common], help="every setting with its value")
    a.set_defaults(handler=_list)


def _fmt(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ",".join(str(v) for v in value)
    if isinstance(value, dict):
        return ",".join(f"{k}={v}" for k, v in value.items())
    return str(value)


def _get(args: argparse.Namespace) -> int:
    with open_services(args, create=False) as svc:
        value = svc.settings.get(args.key)
    emit(args, {"key": args.key, "value": value}, _fmt(value))
    return 0


def _set(args: argparse.Namespace) -> int:
    with open_services(args) as svc:
        value = svc.settings.set(args.key, args.value)
    emit(args, {"key": args.key, "value": value}, f"{args.key} = {_fmt(value)}")
    return 0


def _list(args: argparse.Namespace) -> int:
    with open_services(args, create=False) as svc:
        values = svc.settings.all()
    text = "\n".join(f"{k} = {_fmt(v)}    # {SETTINGS[k].help}" for k, v in values.items())
    emit(args, values, text)
    return 0
