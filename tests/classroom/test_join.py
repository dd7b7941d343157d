"""Joining a class at /join/: codes, accounts without email, closed classes, guessing."""

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from learning.classroom.models import Assignment, Membership
from learning.classroom.selectors import assignments_open_for
from learning.classroom.services.classroom import (
    JOIN_CODE_ALPHABET,
    classroom_code_regenerate,
    classroom_create,
    join_code_normalize,
)

User = get_user_model()


def _join(client, code, name="Hana", password="sakura-neko-2026", username=""):
    return client.post(
        reverse("join"),
        {
            "code": code,
            "display_name": name,
            "username": username,
            "password": password,
            "password_again": password,
        },
    )


def test_join_codes_avoid_look_alike_characters(alice):
    codes = {classroom_create(teacher=alice, name=f"c{i}").join_code for i in range(40)}
    assert len(codes) == 40
    for code in codes:
        assert len(code) == 6
        assert not set(code) & set("0O1IL2Z5S8BUV")
        assert set(code) <= set(JOIN_CODE_ALPHABET)


def test_typed_codes_are_normalised():
    assert join_code_normalize(" kmn-7rt ") == "KMN7RT"


def test_it_creates_a_student_account_without_email(client, alice_class):
    code = alice_class.join_code_display.lower()
    response = _join(client, code)
    assert response.status_code == 200
    user = User.objects.get(profile__display_name="Hana")
    assert user.email == ""
    assert user.profile.role == "student"
    assert user.username == "hana"
    assert Membership.objects.filter(classroom=alice_class, student=user).exists()
    assert user.username in response.content.decode()
    # logged in as the new student
    assert client.get(reverse("home")).context["user"] == user


def test_a_student_may_choose_a_username(client, alice_class):
    _join(client, alice_class.join_code, username="hana_k")
    assert User.objects.filter(username="hana_k", memberships__classroom=alice_class).exists()


def test_a_taken_username_is_refused(client, alice_class, bob):
    response = _join(client, alice_class.join_code, username="bob")
    assert response.status_code == 400
    assert "taken" in response.content.decode()
    assert User.objects.filter(username="bob").count() == 1


def test_weak_or_mismatched_passwords_are_refused(client, alice_class):
    assert _join(client, alice_class.join_code, password="123").status_code == 400
    response = client.post(
        reverse("join"),
        {
            "code": alice_class.join_code,
            "display_name": "Hana",
            "password": "sakura-neko-2026",
            "password_again": "other-password-1",
        },
    )
    assert response.status_code == 400
    assert not User.objects.filter(profile__display_name="Hana").exists()


def test_a_closed_class_or_unknown_code_is_refused_with_one_message(client, alice_class):
    alice_class.is_open = False
    alice_class.save()
    closed = _join(client, alice_class.join_code)
    unknown = _join(client, "XXXXXX")
    assert closed.status_code == unknown.status_code == 400
    assert "unknown or the class is closed" in closed.content.decode()
    assert "unknown or the class is closed" in unknown.content.decode()
    assert not User.objects.filter(profile__display_name="Hana").exists()


def test_a_regenerated_code_replaces_the_old_one(client, alice_class):
    old = alice_class.join_code
    classroom_code_regenerate(classroom=alice_class)
    assert alice_class.join_code != old
    assert _join(client, old).status_code == 400
    assert _join(client, alice_class.join_code).status_code == 200


def test_guessing_codes_is_slowed_down(client, alice_class):
    for _ in range(20):
        assert _join(client, "XXXXXX").status_code == 400
    response = _join(client, alice_class.join_code)
    assert response.status_code == 429
    assert not User.objects.filter(profile__display_name="Hana").exists()


def test_a_logged_in_student_joins_another_class_with_the_code(as_charlie, charlie, alice_class):
    response = as_charlie.post(reverse("join"), {"code": alice_class.join_code})
    assert response.status_code == 302
    assert Membership.objects.filter(classroom=alice_class, student=charlie).exists()


def test_a_teacher_cannot_join_a_class(as_dave, dave, alice_class):
    response = as_dave.post(reverse("join"), {"code": alice_class.join_code})
    assert response.status_code == 403
    assert not Membership.objects.filter(student=dave).exists()


def test_the_join_page_prefills_the_code(client, alice_class):
    response = client.get(reverse("join") + f"?code={alice_class.join_code}")
    assert response.status_code == 200
    assert f'value="{alice_class.join_code}"' in response.content.decode()


def test_open_assignments_are_those_of_the_students_classes_not_yet_due(
    bob, alice_class, dave_class
):
    now = timezone.now()
    later = Assignment.objects.create(classroom=alice_class, due_at=now + timedelta(days=3))
    sooner = Assignment.objects.create(classroom=alice_class, due_at=now + timedelta(days=1))
    Assignment.objects.create(classroom=alice_class, due_at=now - timedelta(hours=1))
    Assignment.objects.create(classroom=dave_class, due_at=now + timedelta(days=1))
    assert assignments_open_for(student=bob, now=now) == [sooner, later]


def test_only_wrong_codes_count_towards_the_limit(client, alice_class):
    for _ in range(25):
        assert _join(client, alice_class.join_code, password="123").status_code == 400
    assert _join(client, alice_class.join_code).status_code == 200


def test_the_account_is_named_from_the_name_typed(client, alice_class):
    """ "Yuki" -> yuki, then yuki-2 for the next Yuki (the help text's promise)."""
    assert _join(client, alice_class.join_code, name="Yuki").status_code == 200
    client.logout()
    assert _join(client, alice_class.join_code, name="yuki").status_code == 200
    names = set(
        User.objects.filter(profile__display_name__iexact="yuki").values_list("username", flat=True)
    )
    assert names == {"yuki", "yuki-2"}


def test_a_name_typed_in_kana_gives_its_romaji():
    from learning.classroom.services.classroom import username_base

    assert username_base("ゆき") == "yuki"
    assert username_base("ユキ") == "yuki"
    assert username_base("しょうた") == "shouta"
    assert username_base("きっと") == "kitto"
    assert username_base("Zoé Martin") == "zoemartin"
    assert username_base("由紀") == "student"  # kanji: no reading to take


def test_the_class_tables_link_is_not_worded_as_a_persons(as_bob, alice_class):
    from django.utils import translation

    as_bob.post("/i18n/setlang/", {"language": "ja", "next": "/"})
    page = as_bob.get(reverse("home")).content.decode()
    with translation.override("ja"):
        assert f"{alice_class.name}さん" not in page
        assert alice_class.name in page
