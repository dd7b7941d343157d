"""Issue 12, part 2: no teacher takes over an account that is not theirs.

Cast: alice teaches bob (her roster); dave teaches charlie; mallory signed up as a teacher a
minute ago; sam is a self-learner. Rename, new password and delete need an account the
teacher created whose every class is theirs; remove only ends the teacher's own membership.
"""

import pytest
from django.contrib.auth import authenticate
from django.urls import reverse
from factories import PASSWORD, ClassroomFactory, SelfLearnerFactory, TeacherFactory

from kanagame.accounts.models import Role
from learning.classroom.models import Membership
from learning.classroom.services.classroom import (
    NotYourStudent,
    membership_join,
    roster_create,
    student_password_reset,
    student_rename,
)


@pytest.fixture
def mallory(db):
    return TeacherFactory(username="mallory")


@pytest.fixture
def mallory_class(mallory):
    return ClassroomFactory(teacher=mallory, name="Free kana lessons")


@pytest.fixture
def sam(db):
    return SelfLearnerFactory(username="sam", display_name="Sam")


def _action(client, classroom, student, action, **data):
    url = reverse("teach_student_action", args=[classroom.pk, student.pk])
    return client.post(url, {"action": action, **data})


def _unchanged(user, display_name):
    user.refresh_from_db()
    user.profile.refresh_from_db()
    assert authenticate(username=user.username, password=PASSWORD) == user
    assert user.profile.display_name == display_name


def test_a_self_learner_who_joins_stays_their_own(client, sam, mallory, mallory_class):
    client.force_login(sam)
    assert client.post(reverse("join"), {"code": mallory_class.join_code}).status_code == 302
    sam.profile.refresh_from_db()
    assert (sam.profile.role, sam.profile.created_by) == (Role.SELF_LEARNER, None)
    client.force_login(mallory)
    for action in ("reset", "rename"):
        response = _action(client, mallory_class, sam, action, name="Owned")
        assert response.status_code == 403
        assert "Only the teacher who created" in response.content.decode()
    _unchanged(sam, "Sam")
    url = reverse("teach_student_delete", args=[mallory_class.pk, sam.pk])
    assert client.post(url, {"confirm_name": "sam"}).status_code == 409
    assert type(sam).objects.filter(pk=sam.pk).exists()


def test_another_teachers_student_cannot_be_taken_over(client, charlie, mallory, mallory_class):
    membership_join(student=charlie, code=mallory_class.join_code)
    client.force_login(mallory)
    for action in ("reset", "rename"):
        assert _action(client, mallory_class, charlie, action, name="Owned").status_code == 403
    _unchanged(charlie, "Charlie")
    roster = client.get(reverse("teach_roster", args=[mallory_class.pk])).content.decode()
    assert 'value="reset"' not in roster and 'value="rename"' not in roster


def test_a_shared_student_is_changed_by_nobody(as_alice, alice_class, bob, dave_class):
    """bob (alice's account) also joined dave's class: alice may no longer reset or rename."""
    membership_join(student=bob, code=dave_class.join_code)
    for action in ("reset", "rename"):
        assert _action(as_alice, alice_class, bob, action, name="Bobby").status_code == 403
    _unchanged(bob, "Bob")
    with pytest.raises(NotYourStudent):
        student_password_reset(classroom=dave_class, student=bob)
    with pytest.raises(NotYourStudent):
        student_rename(classroom=dave_class, student=bob, display_name="Bobby")


def test_the_creator_manages_their_own_students(as_alice, alice, alice_class, bob):
    assert _action(as_alice, alice_class, bob, "rename", name="Bobby").status_code == 302
    response = _action(as_alice, alice_class, bob, "reset")
    assert response.status_code == 200
    assert authenticate(username="bob", password=response.context["cards"][0]["password"]) == bob


def test_accounts_made_by_roster_or_join_code_belong_to_that_classes_teacher(
    client, alice, alice_class
):
    cards = roster_create(classroom=alice_class, names_text="Aiko")
    aiko = type(alice).objects.get(username=cards[0]["username"])
    assert aiko.profile.created_by == alice
    response = client.post(
        reverse("join"),
        {"code": alice_class.join_code, "display_name": "Hana", "password": "sakura-neko-2026",
         "password_again": "sakura-neko-2026"},
    )  # fmt: skip
    assert response.status_code == 200
    assert response.context["new_user"].profile.created_by == alice


def test_a_teacher_can_always_remove_anyone_from_their_own_class(
    client, charlie, mallory, mallory_class, dave_class
):
    """Remove ends only this membership: the account and the other class are untouched."""
    membership_join(student=charlie, code=mallory_class.join_code)
    client.force_login(mallory)
    assert _action(client, mallory_class, charlie, "remove").status_code == 302
    assert not Membership.objects.filter(classroom=mallory_class, student=charlie).exists()
    assert Membership.objects.filter(classroom=dave_class, student=charlie).exists()
    _unchanged(charlie, "Charlie")
