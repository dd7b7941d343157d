"""Refusals found by an adversarial review: each one a clear message, the right status, and
no change to the table."""

from datetime import timedelta

import pytest
from django.utils import timezone
from games_helpers import ASK_U, turn_passing_options
from test_games_views import FAMILIES, HX, client_for

from games.models import Move, Seat, Table
from games.services.tables import table_create

pytestmark = pytest.mark.django_db(transaction=True)


def snapshot(table: Table) -> tuple:
    table.refresh_from_db()
    seats = list(
        Seat.objects.filter(table=table)
        .order_by("index")
        .values_list("user_id", "bot_level", "autoplay")
    )
    return table.version, table.status, table.state, Move.objects.filter(table=table).count(), seats


def class_table(creator, *seats) -> Table:
    return table_create(
        user=creator,
        engine=FAMILIES,
        options={},
        seats=[{"kind": "human", "user": creator}, *seats],
        classroom=creator.memberships.first().classroom,
    )


def test_a_creator_who_left_cannot_start_the_table_then_a_seated_player_can(bob, erin):
    table = class_table(bob, {"kind": "open"}, {"kind": "open"})
    erin_client, bob_client = client_for(erin), client_for(bob)
    erin_client.post(f"/play/t/{table.code}/join/")
    page = erin_client.get(f"/play/t/{table.code}/").content.decode()
    assert "Start now" not in page  # the creator is still seated: theirs to start
    assert erin_client.post(f"/play/t/{table.code}/start/").status_code == 403
    bob_client.post(f"/play/t/{table.code}/leave/")
    before = snapshot(table)
    for headers in ({}, HX):
        response = bob_client.post(f"/play/t/{table.code}/start/", **headers)
        assert response.status_code == 403
        assert "can start it" in response.content.decode(), response.content.decode()
    assert snapshot(table) == before
    # the creator is gone: a player still seated may start, so the table is not stuck
    assert "Start now" in erin_client.get(f"/play/t/{table.code}/").content.decode()
    assert erin_client.post(f"/play/t/{table.code}/start/").status_code == 302
    table.refresh_from_db()
    assert table.status == "playing"
    assert table.seats.get(index=0).user is None and table.seats.get(index=0).bot_level


def test_a_poll_without_version_is_refused_before_an_overdue_turn_is_played(bob, erin):
    table = table_create(
        user=bob,
        engine=FAMILIES,
        options={"timer": 30, **turn_passing_options()},
        seats=[{"kind": "human", "user": bob}, {"kind": "human", "user": erin}],
    )
    bob_client = client_for(bob)
    response = bob_client.post(
        f"/play/t/{table.code}/", {"version": 0, "token": "a", "action": ASK_U}
    )
    assert response.status_code == 302
    Table.objects.filter(pk=table.pk).update(turn_due_at=timezone.now() - timedelta(seconds=1))
    before = snapshot(table)
    response = bob_client.get(f"/play/t/{table.code}/poll/", **HX)
    assert response.status_code == 400 and "version" in response.content.decode()
    assert snapshot(table) == before
    # with the version, the overdue turn is played by the stand-in (the documented behaviour)
    bob_client.get(f"/play/t/{table.code}/poll/", {"v": str(before[0])}, **HX)
    assert snapshot(table)[0] > before[0]


@pytest.mark.parametrize("finish", [False, True])
def test_an_outsider_learns_only_that_the_table_belongs_to_another_class(bob, charlie, finish):
    table = class_table(bob, {"kind": "bot", "level": "easy"})
    if finish:
        Table.objects.filter(pk=table.pk).update(status="finished")
    before = snapshot(table)
    charlie_client = client_for(charlie)
    responses = [
        charlie_client.post(f"/play/t/{table.code}/join/"),
        charlie_client.post("/play/join/", {"code": table.code}),
        charlie_client.get(f"/play/t/{table.code}/"),
        charlie_client.post(f"/play/t/{table.code}/start/"),
        charlie_client.get(f"/play/t/{table.code}/poll/", {"v": "0"}),
    ]
    for response in responses:
        text = response.content.decode()
        assert response.status_code == 403
        assert "belongs to another class" in text
        assert "already started" not in text and "is over" not in text
    assert snapshot(table) == before


def test_a_classmate_without_a_seat_is_told_so_not_that_the_class_differs(bob, erin):
    table = class_table(bob, {"kind": "bot", "level": "easy"})
    erin_client = client_for(erin)
    response = erin_client.get(f"/play/t/{table.code}/")
    assert response.status_code == 403
    assert "You are not playing at this table." in response.content.decode()
    assert "another class" not in response.content.decode()
    response = erin_client.post(f"/play/t/{table.code}/join/")
    assert response.status_code == 409 and "already started" in response.content.decode()
    Table.objects.filter(pk=table.pk).update(status="finished")
    response = erin_client.post("/play/join/", {"code": table.code})
    assert response.status_code == 409 and "This game is over." in response.content.decode()


def test_an_empty_create_form_is_refused_with_its_reasons(dana):
    response = client_for(dana).post(f"/play/new/{FAMILIES}/", {})
    assert response.status_code == 400
    assert "This field is required." in response.content.decode()
    assert not Table.objects.exists()
