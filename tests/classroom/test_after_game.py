"""A game that ends refreshes its players' class summaries (through the Celery task)."""

from pathlib import Path

import pytest

from games.engines import ENGINES
from games.engines.base import action_key
from games.services.play import table_play
from games.services.tables import table_create
from learning.classroom.models import LearnerActivity


@pytest.mark.django_db(transaction=True)
def test_a_finished_game_refreshes_the_players_summaries(bob, monkeypatch):
    # WEB's test-only "count to N" engine (tests/games/games_toy_engine.py)
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "games"))
    monkeypatch.setitem(ENGINES, "count-test", "games_toy_engine")
    table = table_create(
        user=bob,
        engine="count-test",
        options={"target": 3},
        seats=[{"kind": "human", "user": bob}, {"kind": "bot", "level": "easy"}],
    )
    assert not LearnerActivity.objects.filter(learner=bob).exists()
    table_play(table=table, user=bob, version=0, token="a", key=action_key({"type": "add", "n": 2}))
    table.refresh_from_db()
    assert table.status == "finished"
    assert LearnerActivity.objects.get(learner=bob).games_week == 1
