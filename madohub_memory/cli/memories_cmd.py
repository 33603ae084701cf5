"""Commands on approved memory: memories, memory edit|delete|pin|unpin|deprecate|restore|show."""

from __future__ import annotations

import argparse

from madohub_memory.cli.output import emit, open_services, store_ref, table


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("memories", parents=[common], help="list approved memories")
    p.add_argument("--namespace", metavar="NS")
    p.add_argument("--status", default="active", choices=["active", "deprecated", "archived"])
    p.add_argument("--sort", default="namespace", choices=["namespace", "recalled"],
                   help="recalled: most often recalled first (hit_count, then last recall)")
    p.set_defaults(handler=_list)

    p = sub.add_parser("memory", help="edit, delete, pin or show one memory")
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    a = actions.add_parser("show", parents=[common], help="one memory with its originating turns")
    a.add_argument("id", type=store_ref, help="12, or team:12 for a memory of a mapped store")
    a.set_defaults(handler=_show)
    a = actions.add_parser("edit", parents=[common], help="change content, kind or namespace")
    a.add_argument("id", type=store_ref, help="12, or team:12 for a memory of a mapped store")
    a.add_argument("--content", metavar="T")
    a.add_argument("--kind", metavar="K")
    a.add_argument("--namespace", metavar="NS")
    a.set_defaults(handler=_edit)
    a = actions.add_parser("delete", parents=[common], help="delete (undo brings it back)")
    a.add_argument("id", type=store_ref, help="12, or team:12 for a memory of a mapped store")
    a.set_defaults(handler=_delete)
    a = actions.add_parser("pin", parents=[common], help="pin: always recalled, never evicted")
    a.add_argument("id", type=store_ref, help="12, or team:12 for a memory of a mapped store")
    a.set_defaults(handler=_pin, pinned=True)
    a = actions.add_parser("unpin", parents=[common], help="remove the pin")
    a.add_argument("id", type=store_ref, help="12, or team:12 for a memory of a mapped store")
    a.set_defaults(handler=_pin, pinned=False)
    a = actions.add_parser("deprecate", parents=[common], help="keep it, but out of recall")
    a.add_argument("id", type=store_ref, help="12, or team:12 for a memory of a mapped store")
    a.set_defaults(handler=_deprecate)
    a = actions.add_parser("restore", parents=[common], help="an archived or deprecated memory back into recall")
    a.add_argument("id", type=store_ref, help="12, or team:12 for a memory of a mapped store")
    a.set_defaults(handler=_restore)


def _list(args: argparse.Namespace) -> int:
    with open_services(args, create=False) as svc:
        owner, label = svc.stores.holder(args.namespace) if args.namespace else (svc, None)  # a mapped namespace: its store's memories
        rows = [m.to_dict() for m in owner.memories.list(args.namespace, args.status)]
    if label:
        rows = [{**r, "store": label} for r in rows]
    if args.sort == "recalled":
        rows.sort(key=lambda r: (r["hit_count"], r["last_hit_at"] or ""), reverse=True)
    for row in rows:
        row["last_recalled"] = (row["last_hit_at"] or "")[:16].replace("T", " ") or None
    shown = [{**r, "id": f"{label}:{r['id']}"} for r in rows] if label else rows
    emit(args, rows, table(shown, ["id", "kind", "namespace", "pinned", "hit_count", "last_recalled", "weight",
                                   "content"]))
    return 0


def _show(args: argparse.Namespace) -> int:
    with open_services(args, create=False) as svc:
        data = svc.memories.get(args.id).to_dict()
    text = "\n".join(f"{k}: {v}" for k, v in data.items())
    emit(args, data, text)
    return 0


def _edit(args: argparse.Namespace) -> int:
    with open_services(args, create=False) as svc:
        svc.memories.edit(args.id, content=args.content, kind=args.kind, namespace=args.namespace)
        data = svc.memories.get(args.id).to_dict()
    emit(args, data, f"memory {args.id} updated")
    return 0


def _delete(args: argparse.Namespace) -> int:
    with open_services(args, create=False) as svc:
        svc.memories.delete(args.id)
    emit(args, {"memory_id": args.id, "deleted": True}, f"memory {args.id} deleted (undo with `madohub-memory undo`)")
    return 0


def _pin(args: argparse.Namespace) -> int:
    with open_services(args, create=False) as svc:
        svc.memories.pin(args.id, args.pinned)
    emit(args, {"memory_id": args.id, "pinned": args.pinned}, f"memory {args.id} {'pinned' if args.pinned else 'unpinned'}")
    return 0


def _deprecate(args: argparse.Namespace) -> int:
    with open_services(args, create=False) as svc:
        svc.memories.set_status(args.id, "deprecated")
    emit(args, {"memory_id": args.id, "status": "deprecated"}, f"memory {args.id} deprecated")
    return 0


def _restore(args: argparse.Namespace) -> int:
    with open_services(args, create=False) as svc:
        svc.memories.restore(args.id)
    emit(args, {"memory_id": args.id, "status": "active"}, f"memory {args.id} restored (undo with `madohub-memory undo`)")
    return 0
