"""Create a class of N students, each with a solo table (the first registered game by default),
for the load benchmark.

    python manage.py seed_load --students 300 --password load-pass-2026 [--json]

Prints one JSON object: the class's join code and, per student, the username and the code of
their table (one human seat against two CPU players, already dealt). Every student shares one
password, hashed once (a bench fixture, not a product path: real rosters use
``roster_create``). Running it twice adds a second class with fresh students.
"""

from __future__ import annotations

import json
import secrets

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from games.engines import ENGINES, get_engine
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
        for user in users:
            seats = [{"kind": "human", "user": user}]
            seats += [{"kind": "bot", "level": "normal"}] * opts["cpus"]
            table = table_create(user=user, engine=engine, options={}, seats=seats)
            students.append({"username": user.username, "table": table.code})
        self.stdout.write(
            json.dumps({"join_code": classroom.join_code, "students": students}, indent=None)
        )


def _first_engine_for(players: int) -> str:
    """The first registered game that seats ``players`` (a student and the CPU seats)."""
    for name in ENGINES:
        eng = get_engine(name)
        if eng.MIN_PLAYERS <= players <= eng.MAX_PLAYERS:
            return name
    raise CommandError(f"no registered game seats {players} players")
