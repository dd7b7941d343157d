"""kanagame.accounts.rows prepares each distinct value once per statement: the parameters are those
``get_db_prep_save`` gives value by value."""

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games.models import Move
from kanagame.accounts.rows import insert_sql
from learning.models import KanaMemory, LearningEvent

pytestmark = pytest.mark.django_db


def direct(model, rows):
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    params = []
    for row in rows:
        for f in fields:
            value = row[f.attname] if f.attname in row else f.get_default()
            params.append(f.get_db_prep_save(value, connection))
    return params


def test_repeated_equal_and_unhashable_values_are_prepared_as_one_by_one():
    at = timezone.now()
    events = [
        {"learner_id": 5, "kana_id": kana, "script": script, "kind": "exposure",
         "source": "play", "table_id": table, "move_id": move, "created_at": when}
        for kana, script, table, move, when in [
            ("ka", "hiragana", 7, 9, at), ("ki", "hiragana", 7, 9, at),
            ("ka", "katakana", None, None, at + timedelta(seconds=1)),
            ("ka", "hiragana", 7, True, at),  # True and 1 are equal: told apart by type
            ("ka", "hiragana", 7, 1, at),
        ]
    ]  # fmt: skip
    memories = [
        {"learner_id": 5, "kana_id": kana, "script": "hiragana", "exposures": n}
        for kana, n in [("ka", 1), ("ki", 2), ("ku", 1), ("ke", 1.0)]
    ]
    moves = [
        {"table_id": 3, "version": v, "seat": v % 2, "action": {"type": "ask", "card": "ka"},
         "token": "", "by_bot": v > 1, "created_at": at}
        for v in (1, 2, 3)
    ]  # fmt: skip
    cases = ((LearningEvent, events), (KanaMemory, memories), (Move, moves))
    for model, rows in cases * 2:  # the second time from the memo of the statement's shape
        sql, params = insert_sql(model, rows)
        expected = direct(model, rows)
        # PostgreSQL adapts a JSON value as an object holding it (``obj``)
        assert [getattr(p, "obj", p) for p in params] == [getattr(p, "obj", p) for p in expected]
        assert [type(p) for p in params] == [type(p) for p in expected]
        assert sql.count("(") == len(rows) + 1
