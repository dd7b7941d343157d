"""Issue 24, LOW 7: ranked Bōzu ratings cannot be gamed (docs/security.md §15).

A ranked table has a turn timer (a table without one is refused, by the service and the
form); a player who leaves it, whose timer runs out or whose account is deleted forfeits:
the loss is recorded at once, before any CPU stand-in plays, and a stand-in's moves are never
rated, even when they win the game on the board.

The deal (``_last_card_setup``): seat 0 (dana) is to act with 59 cards, seat 1 (charlie)
holds 40, one noble card is left in the pile: whoever plays seat 0's draw wins 60 to 40.
"""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone, translation
from factories import PASSWORD
from test_bozu_elo import _last_card_setup
from test_games_views import form_fields, post_move

from games.models import Move, Rating, RatingChange, Seat, Table, TableStatus
from games.services.play import timeouts_sweep
from games.services.ratings import elo_changes, forfeit_changes
from games.services.tables import table_create, table_leave

pytestmark = pytest.mark.django_db(transaction=True)
User = get_user_model()

DRAW = '{"type":"draw"}'
HX = {"HTTP_HX_REQUEST": "true"}


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _ranked(dana, charlie, *, timer=30, setup=True) -> Table:
    options = {"timer": timer, "prompts": "off"}
    if setup:
        options["setup"] = _last_card_setup()
    seats = [{"kind": "human", "user": dana}, {"kind": "human", "user": charlie}]
    table = table_create(user=dana, engine="bozu", options=options, seats=seats, ranked=True)
    assert table.status == TableStatus.PLAYING and table.turn_due_at is not None
    return table


def _ratings(*users) -> list[float]:
    return [Rating.objects.get(user=u, engine="bozu").rating for u in users]


def _assert_dana_lost_by_forfeit(table, dana, charlie) -> None:
    assert _ratings(dana, charlie) == [1484.0, 1516.0]
    changes = {c.user_id: c for c in RatingChange.objects.filter(table=table)}
    assert changes[dana.pk].rank == 2 and changes[charlie.pk].rank == 1


def test_forfeit_arithmetic():
    # two players: the same as a finished game with the forfeiter last
    assert forfeit_changes([1500, 1500], 0) == elo_changes([1500, 1500], [2, 1])
    assert forfeit_changes([1600, 1400], 1) == pytest.approx(elo_changes([1600, 1400], [1, 2]))
    # three equals: each other player beats the forfeiter (32 / 2 * 0.5), no other pair counts
    assert forfeit_changes([1500, 1500, 1500], 0) == [-16.0, 8.0, 8.0]
    changes = forfeit_changes([1500, 1620, 1380, 1450], 2)
    assert sum(changes) == pytest.approx(0.0, abs=1e-9) and changes[2] < 0
    with pytest.raises(ValueError):
        forfeit_changes([1500, 1500], 2)


def test_a_ranked_table_needs_a_turn_timer(dana, charlie):
    with translation.override("en"), pytest.raises(ValueError, match="needs a turn timer"):
        _ranked(dana, charlie, timer=0)  # (read in English whatever an earlier test left on)
    assert not Table.objects.exists()
    form = {
        "t-ranked": "on", "t-seat_1": "open", "t-romaji": "always", "t-prompts": "off",
        "t-timer": "0", "t-script": "hiragana", "t-semimaru": "eliminate",
        "t-emperor": "draw_again", "t-lady": "take_pile", "t-spelling": "modern",
    }  # fmt: skip
    refused = _client(dana).post("/play/new/bozu/", form)
    assert refused.status_code == 400 and "needs a turn timer" in refused.content.decode()
    assert not Table.objects.exists()
    form["t-timer"] = "60"
    assert _client(dana).post("/play/new/bozu/", form).status_code == 302
    assert Table.objects.get(ranked=True).timer == 60


def test_leaving_a_ranked_table_is_a_loss_at_once_and_the_stand_in_is_not_rated(dana, charlie):
    table = _ranked(dana, charlie)
    page = _client(dana).get(f"/play/t/{table.code}/").content.decode()
    assert "Ranked game: leaving the table or letting your turn timer run out" in page
    response = _client(dana).post(f"/play/t/{table.code}/leave/", follow=True)
    assert "it counts as a loss" in response.content.decode()
    # the loss is recorded at once ...
    _assert_dana_lost_by_forfeit(table, dana, charlie)
    # ... and the CPU playing dana's seat drew the last card: it won 60 to 40 on the board,
    # the game is over, and nothing more was rated
    table.refresh_from_db()
    assert table.status == TableStatus.FINISHED
    assert Move.objects.filter(table=table, seat=0, by_bot=True).exists()
    assert RatingChange.objects.filter(table=table).count() == 2
    _assert_dana_lost_by_forfeit(table, dana, charlie)
    assert Rating.objects.get(user=dana, engine="bozu").games == 1
    # the board says who forfeited, whatever the ranking of the cards says
    assert table.forfeit_seat == 0
    page = _client(charlie).get(f"/play/t/{table.code}/").content.decode()
    assert "Ranked result: Dana forfeited" in page


def test_a_forfeit_is_recorded_once(dana, charlie):
    table = _ranked(dana, charlie, setup=False)
    table_leave(table=table, user=charlie)  # charlie forfeits: +16 to dana
    assert _ratings(dana, charlie) == [1516.0, 1484.0]
    table_leave(table=table, user=dana)  # the table is settled: leaving changes nothing more
    assert _ratings(dana, charlie) == [1516.0, 1484.0]
    assert RatingChange.objects.filter(table=table).count() == 2
    # both seats are CPU-played now: the game plays out to its end, unrated
    table.refresh_from_db()
    assert table.status == TableStatus.FINISHED
    assert _ratings(dana, charlie) == [1516.0, 1484.0]


def test_a_ranked_player_who_stops_playing_loses_through_the_timer(dana, charlie):
    table = _ranked(dana, charlie)
    # dana (to act) stops playing; charlie's page polls once her time is up
    Table.objects.filter(pk=table.pk).update(turn_due_at=timezone.now())
    poll = _client(charlie).get(f"/play/t/{table.code}/poll/", {"v": "0"}, **HX)
    assert poll.status_code in (200, 286)
    _assert_dana_lost_by_forfeit(table, dana, charlie)
    table.refresh_from_db()
    assert table.status == TableStatus.FINISHED  # the stand-in's winning draw: not rated
    assert Seat.objects.get(table=table, index=0).autoplay
    _assert_dana_lost_by_forfeit(table, dana, charlie)


def test_the_beat_sweep_records_the_timeout_loss_with_nobody_watching(dana, charlie):
    table = _ranked(dana, charlie)
    Table.objects.filter(pk=table.pk).update(turn_due_at=timezone.now())
    assert timeouts_sweep() == 1
    _assert_dana_lost_by_forfeit(table, dana, charlie)
    assert Table.objects.get(pk=table.pk).status == TableStatus.FINISHED


def test_deleting_the_account_forfeits_a_ranked_game(dana, charlie):
    table = _ranked(dana, charlie)
    client = _client(dana)
    response = client.post("/account/delete/", {"password": PASSWORD})
    assert response.status_code == 302 and not User.objects.filter(pk=dana.pk).exists()
    assert Rating.objects.get(user=charlie, engine="bozu").rating == 1516.0
    change = RatingChange.objects.get(table=table, user=charlie)
    assert change.rank == 1 and change.after - change.before == 16.0
    assert Table.objects.get(pk=table.pk).status == TableStatus.FINISHED


def test_an_unranked_leaver_keeps_the_seat_and_no_rating_moves(dana, charlie):
    seats = [{"kind": "human", "user": dana}, {"kind": "human", "user": charlie}]
    table = table_create(
        user=dana, engine="bozu", options={"timer": 30, "setup": _last_card_setup()},
        seats=seats,
    )  # fmt: skip
    table_leave(table=table, user=dana)
    seat = Seat.objects.get(table=table, index=0)
    assert seat.left_at is not None and not seat.autoplay  # waits for the timer, as before
    assert not Rating.objects.exists()
    assert Table.objects.get(pk=table.pk).status == TableStatus.PLAYING


def test_a_ranked_game_played_to_its_end_is_still_rated(dana, charlie):
    table = _ranked(dana, charlie)
    client = _client(dana)
    fields = form_fields(client.get(f"/play/t/{table.code}/").content.decode())
    post_move(client, table, version=fields["version"], token=fields["token"], action=DRAW)
    assert Table.objects.get(pk=table.pk).status == TableStatus.FINISHED
    assert _ratings(dana, charlie) == [1516.0, 1484.0]


def test_the_migration_gives_older_ranked_tables_a_timer(dana, charlie):
    from importlib import import_module

    from django.apps import apps

    migration = import_module("games.migrations.0005_ranked_tables_get_a_timer")
    old = _ranked(dana, charlie)
    Table.objects.filter(pk=old.pk).update(options={**old.options, "timer": 0}, turn_due_at=None)
    migration.ranked_tables_timer(apps, None)
    old.refresh_from_db()
    assert old.timer == 60 and old.turn_due_at is not None
    # its player who stopped playing now forfeits through the timer
    Table.objects.filter(pk=old.pk).update(turn_due_at=timezone.now())
    assert timeouts_sweep() == 1
    _assert_dana_lost_by_forfeit(old, dana, charlie)
