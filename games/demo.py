"""Demo tables for ``python manage.py seed_demo`` (idempotent: a second run changes nothing).

- the self-learner ``learner`` gets a finished Kazoku families game against three CPU players
  (their own moves chosen by the ``normal`` CPU), so the replay page has something to show;
- the demo class gets a waiting table opened by ``student1`` (Aiko) with two open seats, for
  classmates to join from the lobby;
- ``student2`` (Ben) has a game in progress against CPU players, which the teacher can watch.
"""

from __future__ import annotations

import random

from django.contrib.auth import get_user_model

from games.engines import action_key
from games.models import Table, TableStatus
from games.selectors import classrooms_of
from games.services.play import table_engine_state, table_play
from games.services.tables import table_create

CPU = {"kind": "bot", "level": "normal"}


def _play_human_moves(table: Table, user, moves: int | None = None) -> None:
    """Play ``user``'s turns with the normal CPU's choices (all of them if ``moves`` is None)."""
    rng = random.Random(table.pk)
    played = 0
    table.refresh_from_db()  # CPU seats that play first have moved since the caller read it
    while table.status == TableStatus.PLAYING and (moves is None or played < moves):
        eng, state = table_engine_state(table=table)
        seat = table.seats.get(user=user).index
        if seat not in eng.to_act(state):
            break
        legal = eng.legal_actions(state, seat)
        choice = eng.bot("normal").choose(eng.bot_view(state, seat), legal, rng)
        table = table_play(
            table=table,
            user=user,
            version=table.version,
            token=f"demo-{table.version}",
            key=action_key(choice),
        ).table
        played += 1


def seed_demo_games(stdout) -> None:
    users = {
        u.username: u
        for u in get_user_model().objects.filter(username__in=("learner", "student1", "student2"))
    }
    created = 0
    learner = users.get("learner")
    if learner and not Table.objects.filter(created_by=learner).exists():
        table = table_create(
            user=learner,
            engine="kazoku-families",
            options={"variant": "kana", "prompts": "off"},
            seats=[{"kind": "human", "user": learner}, CPU, CPU, CPU],
        )
        _play_human_moves(table, learner)
        created += 1
    aiko, ben = users.get("student1"), users.get("student2")
    classroom = next(iter(classrooms_of(user=aiko)), None) if aiko else None  # the demo class
    if classroom and aiko and not Table.objects.filter(created_by=aiko).exists():
        table_create(
            user=aiko,
            engine="kazoku-families",
            options={"variant": "themed"},
            seats=[{"kind": "human", "user": aiko}, {"kind": "open"}, {"kind": "open"}],
            classroom=classroom,
        )
        created += 1
    if classroom and ben and not Table.objects.filter(created_by=ben).exists():
        table = table_create(
            user=ben,
            engine="kazoku-words",
            options={"table_cards": 3, "prompts": "off"},
            seats=[{"kind": "human", "user": ben}, CPU, CPU],
            classroom=classroom,
        )
        _play_human_moves(table, ben, moves=3)
        created += 1
    stdout.write(f"games: {created} demo table(s) created")
