"""``server-setup``: make a PostgreSQL database a team server (who sees and decides what).

Run once (and again after an upgrade) by the database's owner; see ``store/pg/security.py``
for the rules and README "A team server" for the roles. ``--sql`` prints the script
instead, for an administrator who prefers to read it and run it with psql.
"""

from __future__ import annotations

import argparse

from madohub_memory.cli.output import emit


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "server-setup", parents=[common],
        help="set up a PostgreSQL database for a team: private persona memory, reviewer and proposer roles",
        description="Create the group roles madohub_reviewer and madohub_proposer, their grants, and the"
                    " row-level security that keeps each person's persona: memory to themselves. Run as the"
                    " database's owner; safe to run again.")
    p.add_argument("--reviewer", action="append", default=[], metavar="ROLE",
                   help="an existing login role that may approve, reject and edit (repeatable)")
    p.add_argument("--proposer", action="append", default=[], metavar="ROLE",
                   help="an existing login role that may propose and recall only (repeatable)")
    p.add_argument("--persona-owner", metavar="ROLE",
                   help="give the persona rows already stored (e.g. by transfer) to this person")
    p.add_argument("--sql", action="store_true", help="print the SQL script instead of running it")
    p.set_defaults(handler=_setup)


def _setup(args: argparse.Namespace) -> int:
    from madohub_memory.core.errors import ValidationError
    from madohub_memory.store.pg import security

    for role in [*args.reviewer, *args.proposer, *([args.persona_owner] if args.persona_owner else [])]:
        if not role or '"' in role or "\0" in role:
            raise ValidationError("{role!r} is not a role name.", role=role)
    if args.sql:
        extra = security.assign_statements(args.reviewer, args.proposer)
        if args.persona_owner:
            extra += security.hand_over_statements(args.persona_owner)
        print(security.script(extra), end="")
        return 0
    from madohub_memory.core.paths import default_database
    from madohub_memory.store import open_store
    from madohub_memory.store.pg.dsn import is_dsn

    target = str(args.db or default_database())
    if not is_dsn(target):
        raise ValidationError("server-setup needs a PostgreSQL address (--db postgresql://… or service=…),"
                              " not the file {target}.", target=target)
    with open_store(target) as store:
        count = security.apply(store, args.reviewer, args.proposer, args.persona_owner)
    emit(args, {"database": str(store.path), "statements": count, "reviewers": args.reviewer,
                "proposers": args.proposer},
         f"{store.path} is set up for a team ({count} statements): persona memory is private to its owner,"
         " madohub_reviewer decides, madohub_proposer proposes.")
    return 0
