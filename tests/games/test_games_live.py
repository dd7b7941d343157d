"""Real concurrency: simultaneous HTTP requests against a live server (threads).

Four tabs of the same player post a move at the same table version at the same instant,
60 times: each time exactly one move is played and the three others get 409, with no 5xx,
and the move log has no hole and no double. Runs on SQLite (pass 1, a test database file)
and on PostgreSQL (CI pass 2).
"""

import threading
import urllib.error
import urllib.request
from urllib.parse import urlencode

import pytest
from django.test import Client

from games.engines import action_key, get_engine
from games.models import Move, Table
from games.services.tables import table_create

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]
ROUNDS = 60
TABS = 4


def post(url: str, data: dict, cookies: dict) -> int:
    request = urllib.request.Request(
        url,
        data=urlencode(data).encode(),
        headers={
            "Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items()),
            "X-CSRFToken": cookies["csrftoken"],
            "HX-Request": "true",
            "Referer": url,
        },
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def new_table(user) -> Table:
    seats = [{"kind": "human", "user": user}] + [{"kind": "bot", "level": "easy"}] * 3
    return table_create(
        user=user, engine="kazoku-families", options={"prompts": "off"}, seats=seats
    )


def test_four_simultaneous_moves_one_wins_sixty_times(live_server, dana):
    client = Client()
    client.force_login(dana)
    cookies = {"sessionid": client.cookies["sessionid"].value, "csrftoken": "a" * 32}
    eng = get_engine("kazoku-families")
    table, tables, wins = new_table(dana), [], 0
    for round_number in range(ROUNDS):
        table.refresh_from_db()
        if table.status == "finished":
            tables.append(table)
            table = new_table(dana)
        version = table.version
        keys = [action_key(a) for a in eng.legal_actions(eng.from_json(table.state), 0)]
        barrier = threading.Barrier(TABS)
        statuses: list[int] = []

        def tab(
            index: int,
            version=version,
            keys=keys,
            barrier=barrier,
            statuses=statuses,
            round_number=round_number,
            code=table.code,
        ):
            data = {
                "version": version,
                "token": f"r{round_number}-{index}",
                "action": keys[index % len(keys)],
            }
            barrier.wait()
            statuses.append(post(f"{live_server.url}/play/t/{code}/", data, cookies))

        threads = [threading.Thread(target=tab, args=(i,)) for i in range(TABS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(statuses) == [200, 409, 409, 409], (round_number, statuses)
        wins += 1
        human = Move.objects.filter(table=table, seat=0, token__startswith=f"r{round_number}-")
        assert human.count() == 1 and human.get().version == version + 1
    tables.append(table)
    for played in tables:
        played.refresh_from_db()
        versions = list(Move.objects.filter(table=played).values_list("version", flat=True))
        assert versions == list(range(1, played.version + 1))  # no hole, no double
    assert Move.objects.filter(seat=0, by_bot=False).count() == wins == ROUNDS
