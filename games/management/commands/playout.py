"""``manage.py playout ENGINE``: bot-vs-bot games through an engine, checking invariants.

    python manage.py playout ENGINE --players 4 --games 100 --seed 1 \
        --option NAME=VALUE --bots easy,normal,hard --json

Seat ``i`` plays ``bots[i % len(bots)]``; game ``g`` uses seed ``S + g``. After every action
the invariants of ``games.engines.conformance`` are checked (card conservation, views hide
secrets, legal actions apply, illegal ones are refused). Prints one JSON object with
``games``, ``actions``, ``seconds``, ``games_per_s``, ``invariant_errors``, ``wins_by_seat``.
"""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.engines import ENGINES, get_engine
from games.engines.base import coerce_options
from games.engines.conformance import playout


class Command(BaseCommand):
    help = "Play bot-vs-bot games through an engine and check its invariants after every action."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("engine", help=f"engine name ({', '.join(sorted(ENGINES))})")
        parser.add_argument(
            "--players", type=int, default=None, help="default: 4, within the engine's range"
        )
        parser.add_argument("--games", type=int, default=10)
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument(
            "--option",
            action="append",
            default=[],
            metavar="KEY=VALUE",
            help="an engine option (repeatable), e.g. --option variant=kana",
        )
        parser.add_argument(
            "--bots", default="easy", help="comma-separated bot levels by seat, e.g. easy,hard"
        )
        parser.add_argument(
            "--no-check", action="store_true", help="skip the invariant checks (speed runs)"
        )
        parser.add_argument("--json", action="store_true", help="print only the JSON summary")

    def handle(self, *args, **opts) -> None:
        try:
            engine = get_engine(opts["engine"])
        except KeyError as exc:
            raise CommandError(exc.args[0]) from None
        raw = {}
        for item in opts["option"]:
            key, sep, value = item.partition("=")
            if not sep:
                raise CommandError(f"--option expects KEY=VALUE, got {item!r}")
            raw[key.strip()] = value.strip()
        bots = [level.strip() for level in opts["bots"].split(",") if level.strip()]
        if opts["games"] < 1:
            raise CommandError("--games must be at least 1")
        try:
            options = coerce_options(engine.OPTIONS, raw)
            for level in bots:
                engine.check_bot_level(level)
            summary = playout(
                engine,
                players=(
                    opts["players"]
                    if opts["players"] is not None
                    else max(engine.MIN_PLAYERS, min(4, engine.MAX_PLAYERS))
                ),
                games=opts["games"],
                seed=opts["seed"],
                options=options,
                bots=bots or ["easy"],
                check=not opts["no_check"],
            )
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        if opts["json"]:
            self.stdout.write(json.dumps(summary))
            return
        self.stdout.write(json.dumps(summary, indent=2))
        status = self.style.SUCCESS if summary["invariant_errors"] == 0 else self.style.ERROR
        self.stdout.write(status(f"{summary['invariant_errors']} invariant error(s)"))
