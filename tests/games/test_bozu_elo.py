"""Elo ratings of ranked Bōzu Mekuri tables: the arithmetic by hand, then through HTTP."""

import pytest
from django.test import Client
from test_games_views import form_fields, post_move

from games.engines.bozu import load_poets
from games.models import Rating, RatingChange, Table
from games.services.ratings import elo_changes, expected_score
from games.services.tables import TableError, table_create, table_join, table_start

DRAW = '{"type":"draw"}'


def test_two_equal_players_win_and_lose_sixteen():
    assert elo_changes([1500, 1500], [1, 2]) == [16.0, -16.0]


def test_a_tie_between_equals_changes_nothing_and_counts_half():
    assert elo_changes([1500, 1500], [1, 1]) == [0.0, 0.0]
    # 1600 vs 1400 tie: E(1600) = 1 / (1 + 10 ** (-200 / 400)) = 0.75975...; 32 * (0.5 - 0.75975)
    high, low = elo_changes([1600, 1400], [1, 1])
    assert high == pytest.approx(-8.312, abs=1e-3) and low == pytest.approx(8.312, abs=1e-3)


def test_an_upset_by_hand():
    # 1400 beats 1600: E(1400) = 1 / (1 + 10 ** 0.5) = 0.240253; 32 * (1 - 0.240253) = 24.312
    assert expected_score(1400, 1600) == pytest.approx(0.240253, abs=1e-6)
    low, high = elo_changes([1400, 1600], [1, 2])
    assert low == pytest.approx(24.312, abs=1e-3) and high == pytest.approx(-24.312, abs=1e-3)


def test_every_pair_counts_in_a_three_player_game_with_a_tie():
    # all at 1500, ranks 1, 2, 2: first S=2 E=1 -> 32/2 * 1 = +16; each second S=0.5 E=1 -> -8
    assert elo_changes([1500, 1500, 1500], [1, 2, 2]) == [16.0, -8.0, -8.0]
    # four players, two tied first: S = 1.5+... ; the changes always sum to zero
    changes = elo_changes([1500, 1620, 1380, 1500], [1, 1, 3, 4])
    assert sum(changes) == pytest.approx(0.0, abs=1e-9)
    assert changes[0] > 0 and changes[3] < 0


def test_elo_needs_two_ranked_players():
    with pytest.raises(ValueError):
        elo_changes([1500], [1])


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _last_card_setup():
    """Seat 0 holds 59 cards, seat 1 the other 40; one noble (p003) is left in the pile: seat 0
    turns it over and wins 60 to 40."""
    rest = [card for card in load_poets().ids if card != "p003"]
    return {"hands": [rest[:59], rest[59:]], "pile": ["p003"], "table": [], "first": 0}


@pytest.mark.django_db(transaction=True)
def test_a_ranked_game_updates_both_ratings_once_and_shows_them(dana, charlie):
    seats = [{"kind": "human", "user": dana}, {"kind": "human", "user": charlie}]
    options = {"setup": _last_card_setup(), "timer": 30}
    table = table_create(user=dana, engine="bozu", options=options, seats=seats, ranked=True)
    client = _client(dana)
    fields = form_fields(client.get(f"/play/t/{table.code}/").content.decode())
    post_move(client, table, version=fields["version"], token=fields["token"], action=DRAW)
    post_move(client, table, version=fields["version"], token=fields["token"], action=DRAW)
    table.refresh_from_db()
    assert table.status == "finished"
    assert Rating.objects.get(user=dana, engine="bozu").rating == 1516.0
    assert Rating.objects.get(user=charlie, engine="bozu").rating == 1484.0
    assert RatingChange.objects.filter(table=table).count() == 2
    page = client.get(f"/play/players/{dana.pk}/").content.decode()
    assert "Elo rating 1516 after 1 ranked game" in page and table.code in page and "+16.0" in page
    # charlie played with dana: he may see her page; a stranger may not
    assert _client(charlie).get(f"/play/players/{dana.pk}/").status_code == 200


@pytest.mark.django_db(transaction=True)
def test_unranked_games_and_strangers(dana, charlie, bob):
    solo = table_create(
        user=dana,
        engine="bozu",
        options={"setup": _last_card_setup()},
        seats=[{"kind": "human", "user": dana}, {"kind": "bot", "level": "easy"}],
    )
    client = _client(dana)
    fields = form_fields(client.get(f"/play/t/{solo.code}/").content.decode())
    post_move(client, solo, version=fields["version"], token=fields["token"], action=DRAW)
    assert not Rating.objects.exists()
    assert _client(bob).get(f"/play/players/{dana.pk}/").status_code == 403
    assert client.get("/play/players/999999/").status_code == 404


@pytest.mark.django_db(transaction=True)
def test_ranked_tables_refuse_cpu_seats(dana, charlie):
    with pytest.raises(ValueError, match="human players only"):
        table_create(
            user=dana,
            engine="bozu",
            options={},
            seats=[{"kind": "human", "user": dana}, {"kind": "bot", "level": "easy"}],
            ranked=True,
        )
    with pytest.raises(ValueError, match="no ranked"):
        table_create(
            user=dana,
            engine="kazoku-families",
            options={},
            seats=[{"kind": "human", "user": dana}, {"kind": "human", "user": charlie}],
            ranked=True,
        )
    waiting = table_create(
        user=dana,
        engine="bozu",
        options={"timer": 60},
        seats=[{"kind": "human", "user": dana}, {"kind": "open"}],
        ranked=True,
    )
    with pytest.raises(TableError, match="CPU players are not ranked"):
        table_start(table=waiting, user=dana)
    assert Table.objects.get(pk=waiting.pk).status == "open"
    table_join(table=waiting, user=charlie)  # the last open seat taken: the game starts
    assert Table.objects.get(pk=waiting.pk).status == "playing"
    # the create form says so too, with a 400
    form = {
        "t-ranked": "on",
        "t-seat_1": "easy",
        "t-romaji": "always",
        "t-prompts": "off",
        "t-timer": "0",
        "t-script": "hiragana",
        "t-semimaru": "eliminate",
        "t-emperor": "draw_again",
        "t-lady": "take_pile",
        "t-spelling": "modern",
    }
    response = _client(dana).post("/play/new/bozu/", form)
    assert response.status_code == 400 and "human players only" in response.content.decode()
    form["t-seat_1"] = "open"
    form["t-timer"] = "30"  # a ranked table needs a turn timer (test_ranked_play.py)
    created = _client(dana).post("/play/new/bozu/", form)
    assert created.status_code == 302 and Table.objects.filter(ranked=True).count() == 2
