"""Issue 24, LOW 6: a teacher sees no table of another class, nor its pupils' names.

bob is a pupil of alice's class ("5B Kana") and also typed the join code of mallory, a
self-registered teacher. bob plays erin, his classmate in alice's class, at a table of that
class. mallory may see bob's progress in her class, but not that table: not on her live page
(page or poll), not as a spectator (board, poll, replay), not in the lobby's list of tables to
watch, not on bob's page in her class, not in any export. alice still sees and watches it.
docs/security.md §14.
"""

import pytest
from django.test import Client
from factories import ClassroomFactory, MembershipFactory, TeacherFactory

from games.models import TableStatus
from games.selectors import table_access, tables_watchable_by
from games.services.tables import table_create

HX = {"headers": {"HX-Request": "true"}}


@pytest.fixture
def mallory(db):
    return TeacherFactory(username="mallory", display_name="Mallory")


@pytest.fixture
def mallory_class(mallory, bob):
    classroom = ClassroomFactory(teacher=mallory, name="Rogue Kana")
    MembershipFactory(classroom=classroom, student=bob)
    return classroom


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _two_pupils(bob, erin, *, classroom=None):
    table = table_create(
        user=bob, engine="kazoku-families", options={"prompts": "off"},
        seats=[{"kind": "human", "user": bob}, {"kind": "human", "user": erin}],
        classroom=classroom,
    )  # fmt: skip
    assert table.status == TableStatus.PLAYING
    return table


def _solo(user, *, classroom=None):
    return table_create(
        user=user, engine="kazoku-families", options={"prompts": "off"},
        seats=[{"kind": "human", "user": user}, {"kind": "bot", "level": "easy"}],
        classroom=classroom,
    )  # fmt: skip


def _pages_of(client, classroom, student, table) -> dict[str, object]:
    """Every page, partial, poll and export a teacher reads about her class and this pupil."""
    teach = f"/teach/{classroom.pk}"
    board = f"/play/t/{table.code}"
    return {
        "live": client.get(f"{teach}/live/"),
        "live poll": client.get(f"{teach}/live/", {"v": "x"}, **HX),
        "student": client.get(f"{teach}/students/{student.pk}/"),
        "class": client.get(f"{teach}/"),
        "roster": client.get(f"{teach}/students/"),
        "progress.csv": client.get(f"{teach}/export/progress.csv"),
        "assignments.csv": client.get(f"{teach}/export/assignments.csv"),
        "student data": client.get(f"{teach}/students/{student.pk}/data.json"),
        "lobby": client.get("/play/"),
        "board": client.get(f"{board}/"),
        "board partial": client.get(f"{board}/", **HX),
        "poll": client.get(f"{board}/poll/", {"v": "0"}, **HX),
        "replay": client.get(f"{board}/replay/"),
    }


def _text(response) -> str:
    if getattr(response, "streaming", False):
        return b"".join(response.streaming_content).decode()
    return response.content.decode()


def test_a_teacher_sees_nothing_of_another_classs_table(
    alice, alice_class, bob, erin, mallory, mallory_class
):
    table = _two_pupils(bob, erin, classroom=alice_class)
    mallory_client = _client(mallory)
    for name, response in _pages_of(mallory_client, mallory_class, bob, table).items():
        assert response.status_code < 500, name
        text = _text(response)
        assert "Erin" not in text, f"{name} shows a pupil of another class"
        assert "You are watching" not in text, name
        if name in ("board", "board partial", "poll", "replay"):
            # refused (the page repeats the address she typed, and nothing else of it)
            assert response.status_code in (403, 404), name
        else:
            assert table.code not in text, f"{name} shows another class's table"
    assert not table_access(table=table, user=mallory).can_watch
    assert table not in tables_watchable_by(user=mallory)
    # the poll of the live page never answers for the other class's table either
    live = mallory_client.get(f"/teach/{mallory_class.pk}/live/")
    assert list(live.context["tables"]) == []
    # alice, whose class it is, still lists and watches it
    alice_client = _client(alice)
    live = _text(alice_client.get(f"/teach/{alice_class.pk}/live/"))
    assert table.code in live and "Erin" in live
    watching = _text(alice_client.get(f"/play/t/{table.code}/"))
    assert "You are watching" in watching and "Erin" in watching


def test_a_pupil_of_the_other_class_sees_no_foreign_table_on_its_live_page(
    alice_class, bob, erin, mallory_class, charlie
):
    """The live page is also the class's pupils' page: a pupil of mallory's class reads no
    table of alice's class there."""
    MembershipFactory(classroom=mallory_class, student=charlie)
    table = _two_pupils(bob, erin, classroom=alice_class)
    page = _text(_client(charlie).get(f"/teach/{mallory_class.pk}/live/"))
    assert table.code not in page and "Erin" not in page and "Bob" not in page


def test_the_live_page_lists_only_the_classs_own_tables(
    alice, alice_class, bob, erin, mallory, mallory_class
):
    own = _solo(bob, classroom=mallory_class)
    other = _solo(bob, classroom=alice_class)
    free = _solo(bob)  # no class: a pupil's own practice
    live = _client(mallory).get(f"/teach/{mallory_class.pk}/live/")
    assert [t.pk for t in live.context["tables"]] == [own.pk]
    live = _client(alice).get(f"/teach/{alice_class.pk}/live/")
    assert [t.pk for t in live.context["tables"]] == [other.pk]
    assert free.pk not in [t.pk for t in live.context["tables"]]


def test_a_table_without_a_class_is_watched_only_if_every_player_is_the_teachers_pupil(
    alice, bob, erin, mallory, mallory_class
):
    """A table without a class (a pupil's own practice): its teacher watches it when every
    human at it is one of her pupils; a table with a pupil of another class is not hers."""
    duo = _two_pupils(bob, erin)  # erin is not mallory's pupil
    solo = _solo(bob)  # bob alone against a CPU player
    assert not table_access(table=duo, user=mallory).can_watch
    assert duo not in tables_watchable_by(user=mallory)
    page = _client(mallory).get(f"/play/t/{duo.code}/")
    assert page.status_code in (403, 404) and "Erin" not in _text(page)
    assert table_access(table=solo, user=mallory).can_watch
    assert solo in tables_watchable_by(user=mallory)
    # alice teaches both players: she watches both
    assert table_access(table=duo, user=alice).can_watch
    assert {duo, solo} <= set(tables_watchable_by(user=alice))
    # bob's page in mallory's class lists only the games she may watch
    page = _text(_client(mallory).get(f"/teach/{mallory_class.pk}/students/{bob.pk}/"))
    assert solo.code in page and duo.code not in page


def test_a_class_table_stays_hidden_after_a_pupil_leaves_the_other_class(
    alice_class, bob, erin, mallory, mallory_class
):
    """Being a member of both classes grants the second teacher nothing of the first's."""
    table = _two_pupils(bob, erin, classroom=alice_class)
    MembershipFactory(classroom=mallory_class, student=erin)  # erin joins mallory's too
    assert not table_access(table=table, user=mallory).can_watch
    live = _client(mallory).get(f"/teach/{mallory_class.pk}/live/")
    assert list(live.context["tables"]) == []
