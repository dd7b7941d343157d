"""Games fixtures: the cast (alice teacher, bob student of alice's class, charlie outsider,
dana self-learner) and the test-only "count-test" engine."""

import pytest

from games.engines import ENGINES
from learning.models import Classroom, Membership
from learning.services.accounts import user_create

PASSWORD = "kana-test-2026"


@pytest.fixture
def count_engine(monkeypatch):
    monkeypatch.setitem(ENGINES, "count-test", "games_toy_engine")
    return "count-test"


@pytest.fixture
def alice(transactional_db):
    return user_create(username="alice", password=PASSWORD, role="teacher", display_name="Alice")


@pytest.fixture
def classroom(alice):
    return Classroom.objects.create(teacher=alice, name="Class A", join_code="CLASSA")


@pytest.fixture
def bob(classroom):
    user = user_create(username="bob", password=PASSWORD, role="student", display_name="Bob")
    Membership.objects.create(classroom=classroom, student=user)
    return user


@pytest.fixture
def erin(classroom):
    user = user_create(username="erin", password=PASSWORD, role="student", display_name="Erin")
    Membership.objects.create(classroom=classroom, student=user)
    return user


@pytest.fixture
def charlie(transactional_db):
    return user_create(
        username="charlie", password=PASSWORD, role="student", display_name="Charlie"
    )


@pytest.fixture
def dana(transactional_db):
    return user_create(username="dana", password=PASSWORD, role="self", display_name="Dana")


def one_move_setup(players: int = 2) -> dict:
    """A Kazoku kana-rows deal that ends after one move: seat 0 holds A I U E, the pile is
    just O; asking anyone for O draws it ("Bonne pioche !") and empties the pile, which ends a
    ``pile_empty`` game."""
    from games.engines.kazoku_deck import load_deck

    rest = [card for card in load_deck().ids if card not in ("a", "i", "u", "e", "o")]
    hands = [["a", "i", "u", "e"]] + [[] for _ in range(players - 1)]
    for index, card in enumerate(rest):
        hands[1 + index % (players - 1)].append(card)
    return {"hands": hands, "pile": ["o"], "table": [], "first": 0}


def quick_options(players: int = 2, **extra) -> dict:
    return {"variant": "kana", "end": "pile_empty", "setup": one_move_setup(players), **extra}


ASK_O = '{"card":"o","target":1,"type":"ask"}'


def turn_passing_options() -> dict:
    """Two seats; seat 0 asking seat 1 for U fails and draws E: the turn passes to seat 1."""
    from games.engines.kazoku_deck import load_deck

    hands = [["a", "i", "ka", "sa", "ta"], ["ki", "shi", "chi", "ni", "hi"]]
    dealt = {card for hand in hands for card in hand}
    pile = [card for card in load_deck().ids if card not in dealt and card != "u"] + ["u"]
    setup = {"hands": hands, "pile": pile, "table": [], "first": 0}
    return {"variant": "kana", "setup": setup}


ASK_U = '{"card":"u","target":1,"type":"ask"}'


LIVE_SERVER_MODULES = ("test_games_live.py", "test_browser_play.py")


def pytest_collection_modifyitems(config, items):
    """Live-server tests need a SQLite *file*: with the default in-memory test database Django
    shares one connection between the server's threads, so concurrent requests would share a
    transaction. Only when such a test is collected, and only for SQLite without a name."""
    import os
    import tempfile

    from django.conf import settings

    if not any(item.path.name in LIVE_SERVER_MODULES for item in items):
        return
    database = settings.DATABASES["default"]
    test = database.setdefault("TEST", {})
    if "sqlite3" not in database["ENGINE"] or test.get("NAME") not in (None, "", ":memory:"):
        return
    test["NAME"] = os.path.join(tempfile.gettempdir(), f"kanagame-test-{os.getpid()}.sqlite3")
