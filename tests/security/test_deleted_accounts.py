"""Issue 24, MEDIUM 3 and LOW 9: deleting an account never freezes a game, and leaves no
session or failed log-in with the user's id or name behind.

Both deletion paths: a self-learner deleting their own account (/account/delete/) and a
teacher deleting a student account they manage (/teach/<class>/students/<id>/delete/).
"""

from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse
from factories import PASSWORD

from games.engines import get_engine
from games.models import Move, Seat, Table, TableStatus
from games.services import tables as games_tables
from kanagame.accounts.models import LoginFailure

User = get_user_model()


def _table_waiting_on(user, capture, *, timer: int = 30, others=None) -> Table:
    """A started Kazoku table where ``user`` is to act (CPU players moved first if they
    had to), with a turn timer."""
    seats = [{"kind": "human", "user": user}]
    seats += others or [{"kind": "bot", "level": "easy"}]
    with capture(execute=True):
        table = games_tables.table_create(
            user=user, engine="kazoku-families", options={"timer": timer, "prompts": "off"},
            seats=seats,
        )  # fmt: skip
    table.refresh_from_db()
    eng = get_engine(table.engine)
    assert table.status == TableStatus.PLAYING
    assert 0 in eng.to_act(eng.from_json(table.state)), "the human is to act"
    assert table.turn_due_at is not None  # the timer runs for the human
    return table


def _assert_a_cpu_plays_on(table: Table, version_before: int) -> None:
    table.refresh_from_db()
    seat = Seat.objects.get(table=table, index=0)
    assert seat.user_id is None and seat.played_by_bot, "a CPU stand-in took the seat"
    assert table.version > version_before, "the game went on"
    assert Move.objects.filter(table=table, seat=0, by_bot=True).exists()
    if table.status == TableStatus.PLAYING:
        eng = get_engine(table.engine)
        state = eng.from_json(table.state)
        seats = {s.index: s for s in table.seats.all()}
        # nobody waits on an empty seat: whoever acts now is a human with a timer, or a CPU
        for index in eng.to_act(state):
            assert seats[index].user_id is not None or seats[index].played_by_bot
    else:
        assert table.status == TableStatus.FINISHED


def test_a_self_learner_deleting_their_account_hands_the_seat_to_a_cpu(
    dana, django_capture_on_commit_callbacks
):
    table = _table_waiting_on(dana, django_capture_on_commit_callbacks)
    version = table.version
    client = Client()
    client.force_login(dana)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("account_delete"), {"password": PASSWORD})
    assert response.status_code == 302
    assert not User.objects.filter(username="dana").exists()
    _assert_a_cpu_plays_on(table, version)


def test_a_teacher_deleting_a_student_hands_the_seat_to_a_cpu(
    as_alice, alice_class, bob, erin, django_capture_on_commit_callbacks
):
    table = _table_waiting_on(
        bob, django_capture_on_commit_callbacks, others=[{"kind": "human", "user": erin}]
    )
    version = table.version
    url = reverse("teach_student_delete", args=[alice_class.pk, bob.pk])
    with django_capture_on_commit_callbacks(execute=True):
        response = as_alice.post(url, {"confirm_name": "bob"})
    assert response.status_code == 302
    assert not User.objects.filter(username="bob").exists()
    _assert_a_cpu_plays_on(table, version)
    table.refresh_from_db()
    assert table.status == TableStatus.PLAYING  # erin still plays, her timer runs
    assert table.turn_due_at is not None


def test_a_waiting_table_frees_the_deleted_players_seat(dana, erin):
    table = games_tables.table_create(
        user=dana, engine="kazoku-families", options={},
        seats=[{"kind": "human", "user": dana}, {"kind": "human", "user": erin},
               {"kind": "open"}],
    )  # fmt: skip
    client = Client()
    client.force_login(dana)
    assert client.post(reverse("account_delete"), {"password": PASSWORD}).status_code == 302
    seat = Seat.objects.get(table=table, index=0)
    assert seat.user_id is None and not seat.bot_level and seat.is_open  # free for a newcomer
    assert Table.objects.get(pk=table.pk).status == TableStatus.OPEN


def test_deleting_an_account_ends_its_other_sessions_and_failed_log_ins(dana):
    phone, laptop = Client(), Client()
    for device in (phone, laptop):
        assert device.post("/login/", {"username": "dana", "password": PASSWORD}).status_code == 302
    Client().post("/login/", {"username": "DANA", "password": "wrong"}, REMOTE_ADDR="198.51.100.4")
    assert LoginFailure.objects.filter(username="dana").exists()

    assert phone.post(reverse("account_delete"), {"password": PASSWORD}).status_code == 302
    remaining = [s.get_decoded().get("_auth_user_id") for s in Session.objects.all()]
    assert str(dana.pk) not in remaining
    assert not LoginFailure.objects.filter(username="dana").exists()
    assert laptop.get("/").context["user"].is_anonymous


def test_a_teachers_delete_ends_the_students_sessions_too(as_alice, alice_class, bob):
    pupil = Client()
    pupil.force_login(bob)
    url = reverse("teach_student_delete", args=[alice_class.pk, bob.pk])
    assert as_alice.post(url, {"confirm_name": "bob"}).status_code == 302
    remaining = [s.get_decoded().get("_auth_user_id") for s in Session.objects.all()]
    assert str(bob.pk) not in remaining
    assert as_alice.get(reverse("teach_roster", args=[alice_class.pk])).status_code == 200


def _admin_client() -> Client:
    admin = User.objects.create_superuser("root", "root@example.org", PASSWORD)
    client = Client()
    client.force_login(admin)
    return client


def test_an_admin_deleting_a_user_hands_the_seat_to_a_cpu(dana, django_capture_on_commit_callbacks):
    """The admin's delete page goes through the same erase as the product's own paths."""
    table = _table_waiting_on(dana, django_capture_on_commit_callbacks)
    version = table.version
    elsewhere = Client()
    elsewhere.force_login(dana)
    client = _admin_client()
    url = reverse("admin:auth_user_delete", args=[dana.pk])
    assert client.get(url).status_code == 200  # the confirmation page
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"post": "yes"})
    assert response.status_code == 302
    assert not User.objects.filter(username="dana").exists()
    _assert_a_cpu_plays_on(table, version)
    remaining = [s.get_decoded().get("_auth_user_id") for s in Session.objects.all()]
    assert str(dana.pk) not in remaining  # her other sessions went with her


def test_an_admins_bulk_delete_hands_every_seat_over(
    alice_class, bob, erin, django_capture_on_commit_callbacks
):
    table = _table_waiting_on(
        bob, django_capture_on_commit_callbacks, others=[{"kind": "human", "user": erin}]
    )
    version = table.version
    client = _admin_client()
    data = {"action": "delete_selected", "_selected_action": [bob.pk], "post": "yes"}
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("admin:auth_user_changelist"), data)
    assert response.status_code == 302
    assert not User.objects.filter(username="bob").exists()
    _assert_a_cpu_plays_on(table, version)
    table.refresh_from_db()
    assert table.status == TableStatus.PLAYING and table.turn_due_at is not None  # erin's turn
