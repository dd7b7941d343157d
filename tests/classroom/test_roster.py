"""Rosters and login cards; renaming, password resets, removing and deleting students."""

from django.contrib.auth import authenticate, get_user_model
from django.urls import reverse
from factories import answer

from learning.classroom.models import ConfusionSummary, Membership
from learning.classroom.services.classroom import JOIN_CODE_ALPHABET
from learning.models import LearningEvent

User = get_user_model()


def test_pasted_names_become_accounts_with_login_cards(as_alice, alice_class):
    response = as_alice.post(
        reverse("teach_roster", args=[alice_class.pk]), {"names": "Aiko\n\n  Ben  \nはな\n"}
    )
    assert response.status_code == 200
    cards = response.context["cards"]
    assert [c["display_name"] for c in cards] == ["Aiko", "Ben", "はな"]
    assert [c["username"] for c in cards] == ["aiko", "ben", "hana"]  # はな read in romaji
    assert response["Cache-Control"].startswith("max-age=0")
    html = response.content.decode()
    for card in cards:
        assert card["password"] in html
        user = authenticate(username=card["username"], password=card["password"])
        assert user is not None and user.email == ""
        assert Membership.objects.filter(classroom=alice_class, student=user).exists()
        assert user.profile.role == "student"
    # the passwords are not shown again
    roster = as_alice.get(reverse("teach_roster", args=[alice_class.pk])).content.decode()
    assert cards[0]["password"] not in roster and cards[0]["username"] in roster


def test_an_empty_roster_is_refused(as_alice, alice_class):
    response = as_alice.post(reverse("teach_roster", args=[alice_class.pk]), {"names": " \n "})
    assert response.status_code == 400
    assert Membership.objects.filter(classroom=alice_class).count() == 0


def test_rename_and_reset_password(as_alice, alice_class, bob):
    url = reverse("teach_student_action", args=[alice_class.pk, bob.pk])
    assert as_alice.post(url, {"action": "rename", "name": "Bobby"}).status_code == 302
    bob.profile.refresh_from_db()
    assert bob.profile.display_name == "Bobby"
    response = as_alice.post(url, {"action": "reset"})
    new_password = response.context["cards"][0]["password"]
    assert authenticate(username="bob", password=new_password) == bob
    assert authenticate(username="bob", password="kana-test-2026") is None


def test_an_empty_name_is_refused(as_alice, alice_class, bob):
    url = reverse("teach_student_action", args=[alice_class.pk, bob.pk])
    as_alice.post(url, {"action": "rename", "name": "  "})
    bob.profile.refresh_from_db()
    assert bob.profile.display_name == "Bob"


def test_unknown_action_is_a_bad_request(as_alice, alice_class, bob):
    url = reverse("teach_student_action", args=[alice_class.pk, bob.pk])
    assert as_alice.post(url, {"action": "promote"}).status_code == 400


def test_removing_keeps_the_account(as_alice, alice_class, bob):
    url = reverse("teach_student_action", args=[alice_class.pk, bob.pk])
    as_alice.post(url, {"action": "remove"})
    assert not Membership.objects.filter(classroom=alice_class, student=bob).exists()
    assert User.objects.filter(pk=bob.pk).exists()


def test_deleting_asks_for_confirmation_then_deletes_everything(as_alice, alice_class, bob):
    answer(bob, "so", correct=False, confused_with="n")
    ConfusionSummary.objects.create(learner=bob, kana_id="so", script="katakana",
                                    confused_with="n", count=1)  # fmt: skip
    url = reverse("teach_student_delete", args=[alice_class.pk, bob.pk])
    page = as_alice.get(url)
    assert page.status_code == 200 and "cannot be undone" in page.content.decode()
    assert as_alice.post(url, {"confirm_name": "nope"}).status_code == 400
    assert User.objects.filter(pk=bob.pk).exists()
    assert as_alice.post(url, {"confirm_name": "bob"}).status_code == 302
    assert not User.objects.filter(pk=bob.pk).exists()
    assert not LearningEvent.objects.filter(learner_id=bob.pk).exists()
    assert not ConfusionSummary.objects.filter(learner_id=bob.pk).exists()


def test_a_student_shared_with_another_teacher_cannot_be_deleted(
    as_alice, alice_class, dave_class, bob
):
    Membership.objects.create(classroom=dave_class, student=bob)
    url = reverse("teach_student_delete", args=[alice_class.pk, bob.pk])
    assert as_alice.post(url, {"confirm_name": "bob"}).status_code == 409
    assert User.objects.filter(pk=bob.pk).exists()


def test_class_creation_settings_code_and_closing(as_alice, alice):
    response = as_alice.post(
        reverse("teach_home"), {"name": "7C", "level": "year 7", "default_script": "katakana"}
    )
    classroom = alice.classrooms_taught.get(name="7C")
    assert response.status_code == 302
    assert set(classroom.join_code) <= set(JOIN_CODE_ALPHABET)
    code_url = reverse("teach_class_code", args=[classroom.pk])
    old = classroom.join_code
    as_alice.post(code_url, {"action": "regenerate"})
    classroom.refresh_from_db()
    assert classroom.join_code != old
    as_alice.post(code_url, {"action": "close"})
    classroom.refresh_from_db()
    assert classroom.is_open is False
    assert as_alice.post(reverse("teach_home"), {"name": ""}).status_code == 400


def test_deleting_a_student_keeps_the_games_their_classmates_played(as_alice, alice_class, bob):
    from games.models import Seat, Table
    from games.services.tables import table_create
    from kanagame.accounts.models import Role
    from kanagame.accounts.services import user_create

    eve = user_create(username="eve", password="kana-test-pass-1", role=Role.STUDENT)
    Membership.objects.create(classroom=alice_class, student=eve)
    table = table_create(
        user=bob,
        engine="kazoku-families",
        options={"variant": "kana"},
        seats=[{"kind": "human", "user": bob}, {"kind": "human", "user": eve}],
        classroom=alice_class,
    )
    url = reverse("teach_student_delete", args=[alice_class.pk, bob.pk])
    assert as_alice.post(url, {"confirm_name": "bob"}).status_code == 302
    table.refresh_from_db()
    assert table.created_by_id is None
    assert Seat.objects.filter(table=table, user=eve).exists()
    assert not Seat.objects.filter(table=table, user_id=bob.pk).exists()
    assert Table.objects.filter(pk=table.pk).exists()
