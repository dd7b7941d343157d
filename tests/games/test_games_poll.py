"""The cheap poll: "nothing changed" in two queries without the user row, and every other case
through the full path with its checks."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from test_games_views import FAMILIES, HX, client_for

from games.models import Table
from games.services.tables import table_create

pytestmark = pytest.mark.django_db(transaction=True)


def solo(user) -> Table:
    return table_create(
        user=user,
        engine=FAMILIES,
        options={},
        seats=[{"kind": "human", "user": user}, {"kind": "bot", "level": "easy"}],
    )


def poll(client, table: Table, version) -> tuple:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(f"/play/t/{table.code}/poll/", {"v": str(version)}, **HX)
    return response, [q["sql"] for q in queries.captured_queries]


def test_an_unchanged_table_answers_204_in_two_queries_without_the_user_row(bob):
    table = solo(bob)
    client = client_for(bob)
    assert client.get(f"/play/t/{table.code}/").status_code == 200  # shown: remembered
    table.refresh_from_db()

    response, sql = poll(client, table, table.version)

    assert response.status_code == 204
    assert len(sql) <= 2, sql  # the session, then the table's version
    assert not any("auth_user" in q for q in sql)
    assert response["Cache-Control"] == "no-store, private"  # still a signed-in answer


def test_a_changed_table_answers_with_the_board(bob):
    table = solo(bob)
    client = client_for(bob)
    client.get(f"/play/t/{table.code}/")
    table.refresh_from_db()

    response, _sql = poll(client, table, table.version - 1)

    assert response.status_code == 200
    assert f'data-version="{table.version}"' in response.content.decode()


def test_a_session_never_shown_the_table_gets_the_full_checks(bob, charlie):
    table = solo(bob)
    table.refresh_from_db()
    # charlie guessed the code and the version: the full path refuses him
    response, _sql = poll(client_for(charlie), table, table.version)
    assert response.status_code == 403


def test_after_log_out_the_same_browser_gets_no_204(bob):
    table = solo(bob)
    client = client_for(bob)
    client.get(f"/play/t/{table.code}/")
    table.refresh_from_db()
    client.post("/logout/")

    response, _sql = poll(client, table, table.version)

    assert response.status_code == 302 and "/login/" in response["Location"]


def test_a_finished_table_stops_the_polling_through_the_full_path(bob):
    table = solo(bob)
    client = client_for(bob)
    client.get(f"/play/t/{table.code}/")
    Table.objects.filter(pk=table.pk).update(status="finished")
    table.refresh_from_db()

    response, _sql = poll(client, table, table.version)

    assert response.status_code == 286
