"""Create a class of N students, each with a solo table (the first registered game by default),
for the load benchmark.

    python manage.py seed_load --students 300 --password load-pass-2026 [--json]

``--midgame N``: each table is then played part-way, its student's first k moves (random
legal ones, the CPU replies inline), k drawn uniformly from 0 to N - 1, so that games end
all through a load run as they do in a lesson, not only after the first game's length
(docs/bench.md, "Session 26"). A game that ends while it is seeded is replaced by a fresh one.

Prints one JSON object: the class's join code and, per student, the username and the code of
their table (one human seat against two CPU players, already dealt). Every student shares one
password, hashed once (a bench fixture, not a product path: real rosters use
``roster_create``). Running it twice adds a second class with fresh students.
"""

from __future__ import annotations

import json
import random
import secrets

from celery import current_app
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from games.engines import ENGINES, action_key, get_engine
from games.models import TableStatus
from games.services.play import table_play
from games.services.tables import table_create
from kanagame.accounts.models import Profile, Role
from kanagame.accounts.names import canonical_usernames_create
from kanagame.accounts.services import user_create
from learning.classroom.models import Membership
from learning.classroom.services.classroom import classroom_create

User = get_user_model()


class Command(BaseCommand):
    help = "Create N students in a new class, each with a solo table (load benchmark)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--students", type=int, default=30)
        parser.add_argument("--password", default="load-pass-2026")
        parser.add_argument(
            "--engine", default=None, help="default: the first registered game for 1 + CPUS"
        )
        parser.add_argument("--cpus", type=int, default=2, help="CPU seats per table")
        parser.add_argument(
            "--midgame", type=int, default=0, metavar="N",
            help="play each table's first k < N student moves (k uniform; CPU replies inline)",
        )  # fmt: skip
        parser.add_argument("--seed", type=int, default=1, help="of --midgame's draws")

    def handle(self, *args, **opts) -> None:
        tag = secrets.token_hex(3)
        engine = opts["engine"] or _first_engine_for(1 + opts["cpus"])
        with transaction.atomic():
            teacher = user_create(
                username=f"load-teacher-{tag}", password=opts["password"], role=Role.TEACHER
            )
            classroom = classroom_create(teacher=teacher, name=f"Load class {tag}")
            hashed = make_password(opts["password"])  # once: hashing is the slow part
            users = User.objects.bulk_create(
                [
                    User(username=f"load-{tag}-{i:04d}", password=hashed)
                    for i in range(opts["students"])
                ]
            )
            users = list(User.objects.filter(username__startswith=f"load-{tag}-").order_by("id"))
            canonical_usernames_create(users)  # bulk_create sends no signal (names.py)
            Profile.objects.bulk_create([Profile(user=u, role=Role.STUDENT) for u in users])
            Membership.objects.bulk_create(
                [Membership(classroom=classroom, student=u) for u in users]
            )
        students = []
        draws = random.Random(opts["seed"])  # k per table: the same for the same --seed
        choices = random.Random(opts["seed"] + 1)  # the moves (their count varies with deals)
        for user in users:
            seats = [{"kind": "human", "user": user}]
            seats += [{"kind": "bot", "level": "normal"}] * opts["cpus"]
            table = table_create(user=user, engine=engine, options={}, seats=seats)
            if opts["midgame"] > 0:
                moves = draws.randrange(opts["midgame"])
                while not _played_part_way(table, user, moves, choices):
                    table = table_create(user=user, engine=engine, options={}, seats=seats)
            students.append({"username": user.username, "table": table.code})
        self.stdout.write(
            json.dumps({"join_code": classroom.join_code, "students": students}, indent=None)
        )


def _played_part_way(table, user, moves: int, rng: random.Random) -> bool:
    """Play ``moves`` random legal moves of ``user`` at ``table`` (the CPU replies inline);
    False if the game ended on the way."""
    eng = get_engine(table.engine)
    seat = table.seats.get(user=user).index
    eager = current_app.conf.task_always_eager
    current_app.conf.task_always_eager = True  # the CPU replies before the next move
    try:
        for n in range(moves):
            table.refresh_from_db()
            if table.status != TableStatus.PLAYING:
                return False
            legal = eng.legal_actions(eng.from_json(table.state), seat)
            if not legal:  # the CPU players replied inline: it must be the student's turn
                raise CommandError(f"table {table.code}: not the student's turn after a move")
            key = action_key(rng.choice(legal))
            table_play(table=table, user=user, version=table.version, token=f"seed{n}", key=key)
        table.refresh_from_db()
        return table.status == TableStatus.PLAYING
    finally:
        current_app.conf.task_always_eager = eager


def _first_engine_for(players: int) -> str:
    """The first registered game that seats ``players`` (a student and the CPU seats)."""
    for name in ENGINES:
        eng = get_engine(name)
        if eng.MIN_PLAYERS <= players <= eng.MAX_PLAYERS:
            return name
    raise CommandError(f"no registered game seats {players} players")
