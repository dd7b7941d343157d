"""Opening the board page is coming back, through a POST: the GET itself changes nothing
(issue #23, docs/web.md "GETs never write"); the page posts "I'm back" as it loads."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Seat, Table
from games.services.tables import table_create

pytestmark = pytest.mark.django_db(transaction=True)
HX = {"HTTP_HX_REQUEST": "true"}
RETURNING = re.compile(
    r'<form class="returning"[^>]*hx-post="/play/t/\w+/back/"[^>]*hx-trigger="load"'
)


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _table(bob, erin) -> Table:
    seats = [{"kind": "human", "user": bob}, {"kind": "human", "user": erin}]
    return table_create(user=bob, engine="kazoku-families", options={"timer": 30}, seats=seats)


def _seat(table: Table, user) -> Seat:
    return Seat.objects.get(table=table, user=user)


@pytest.mark.parametrize("away", ["autoplay", "left"])
def test_opening_the_page_posts_im_back_and_the_get_changes_nothing(bob, erin, away):
    table = _table(bob, erin)
    change = {"autoplay": True} if away == "autoplay" else {"left_at": timezone.now()}
    Seat.objects.filter(table=table, user=erin).update(**change)
    before = Seat.objects.filter(table=table).values().get(user=erin)
    client = _client(erin)
    page = client.get(f"/play/t/{table.code}/").content.decode()
    assert RETURNING.search(page), "the page does not post I'm back as it loads"
    assert Seat.objects.filter(table=table).values().get(user=erin) == before
    # the POST the page sends (htmx): the seat is back, the board no longer says away
    board = client.post(f"/play/t/{table.code}/back/", **HX)
    assert board.status_code == 200
    seat = _seat(table, erin)
    assert not seat.autoplay and seat.left_at is None
    text = board.content.decode()
    assert "away-note" not in text and not RETURNING.search(text)


def test_a_present_player_and_a_spectator_post_nothing(bob, erin, alice):
    table = _table(bob, erin)
    assert not RETURNING.search(_client(erin).get(f"/play/t/{table.code}/").content.decode())
    Seat.objects.filter(table=table, user=erin).update(autoplay=True)
    assert not RETURNING.search(_client(alice).get(f"/play/t/{table.code}/").content.decode())


def test_a_poll_of_an_away_player_is_no_coming_back(bob, erin):
    """An open tab is not a present player: the polled board carries no I'm back form."""
    table = _table(bob, erin)
    Seat.objects.filter(table=table, user=erin).update(autoplay=True)
    poll = _client(erin).get(f"/play/t/{table.code}/poll/", {"v": "x"}, **HX)
    assert poll.status_code == 200
    text = poll.content.decode()
    assert "away-note" in text and not RETURNING.search(text)
    assert _seat(table, erin).autoplay
