"""A game that ends refreshes its players' class summaries (through the Celery task)."""

from pathlib import Path

import pytest

from games.engines import ENGINES
from games.engines.base import action_key
from games.services.play import table_play
from games.services.tables import table_create
from learning.classroom.models import LearnerActivity


def counting_table(user, monkeypatch):
    """A table of the test-only "count to 3" engine (tests/games/games_toy_engine.py): the
    user against one CPU player, so a move of 2 and the CPU's reply end the game."""
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "games"))
    monkeypatch.setitem(ENGINES, "count-test", "games_toy_engine")
    return table_create(
        user=user,
        engine="count-test",
        options={"target": 3},
        seats=[{"kind": "human", "user": user}, {"kind": "bot", "level": "easy"}],
    )


@pytest.mark.django_db(transaction=True)
def test_a_finished_game_refreshes_the_players_summaries(bob, monkeypatch):
    table = counting_table(bob, monkeypatch)
    assert not LearnerActivity.objects.filter(learner=bob).exists()
    table_play(table=table, user=bob, version=0, token="a", key=action_key({"type": "add", "n": 2}))
    table.refresh_from_db()
    assert table.status == "finished"
    assert LearnerActivity.objects.get(learner=bob).games_week == 1


@pytest.mark.django_db(transaction=True)
def test_the_last_moves_answer_is_built_before_the_summaries_and_they_follow_it(
    bob, client, monkeypatch
):
    """Eager mode: the summaries are not refreshed inside the move that ends the game (its
    board is rendered without them) but once its response is sent (kanagame/after_response)."""
    import games.views.board as board_views

    table = counting_table(bob, monkeypatch)
    rendered_with = []
    real = board_views._board_response

    def board_response(*args, **kwargs):
        rendered_with.append(LearnerActivity.objects.filter(learner=bob).count())
        return real(*args, **kwargs)

    monkeypatch.setattr(board_views, "_board_response", board_response)
    client.force_login(bob)
    data = {"version": 0, "token": "last", "action": action_key({"type": "add", "n": 2})}
    # (the CPU adds 2 after bob's 2: 4 >= 3, the game is over in this one request)
    response = client.post(f"/play/t/{table.code}/", data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    table.refresh_from_db()
    assert table.status == "finished"
    assert rendered_with == [0]  # the answer was built before the refresh
    assert LearnerActivity.objects.get(learner=bob).games_week == 1  # and it followed


def test_with_workers_the_refresh_is_queued_on_commit(monkeypatch):
    from learning.classroom import hooks
    from learning.classroom.tasks import refresh_summaries_after_game

    queued = []
    # undone here, not at the test's teardown: undone there, it came after tests/conftest.py's
    # eager switch had restored the flag and left it on for every later test (CI's pass 2)
    with monkeypatch.context() as patch:
        patch.setitem(refresh_summaries_after_game.app.conf, "task_always_eager", False)
        patch.setattr(refresh_summaries_after_game, "delay_on_commit", queued.append)
        hooks.refresh_after_game(sender=None, table_id=42)
    assert queued == [42]
