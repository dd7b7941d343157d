"""``manage.py bots_audit``: what the CPU players did at the tables, from the Move log.

    python manage.py bots_audit [--since 2026-12-01T08:00:00+00:00]

Prints one JSON object: ``tables`` (their number) and ``table_ids``, ``bot_moves`` (CPU Move
rows), ``runs`` (the ``[table id, version]`` key of each run of consecutive CPU moves, i.e. of
each bot task that saved moves) and ``waiting`` (ids of tables under way where a CPU player is
to act now).
``bench/load.py --celery`` compares it with the worker's log of task runs: every run saved
by exactly one task, no table left waiting for a task that never ran.
"""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.dateparse import parse_datetime

from games.selectors import bot_turns_audit


class Command(BaseCommand):
    help = "Audit the CPU players' moves at the tables (bot task accounting), as JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--since", default=None, help="only tables created since (ISO)")

    def handle(self, *args, **opts) -> None:
        since = None
        if opts["since"]:
            since = parse_datetime(opts["since"])
            if since is None or since.tzinfo is None:
                raise CommandError("--since must be an ISO date-time with its time zone")
        audit = bot_turns_audit(since=since)
        self.stdout.write(
            json.dumps(
                {
                    "tables": len(audit.table_ids),
                    "table_ids": audit.table_ids,
                    "bot_moves": audit.bot_moves,
                    "runs": [list(key) for key in audit.runs],
                    "waiting": audit.waiting,
                }
            )
        )
