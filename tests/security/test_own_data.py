"""Issue 12, proof: learners own their data (download everything as JSON, delete the account);
a teacher does both for the student accounts they created."""

import json
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Move, Seat, Table, TableStatus
from kanagame.accounts.models import Role
from kanagame.accounts.services import user_create
from learning.classroom.models import Membership
from learning.classroom.services.classroom import classroom_create, membership_join, roster_create
from learning.models import KanaMemory, LearningEvent, Prompt
from learning.services.memory import memory_review

User = get_user_model()
PASSWORD = "kana-own-2026"


@pytest.fixture
def sam(db):
    return user_create(username="sam", password=PASSWORD, role=Role.SELF_LEARNER,
                       display_name="Sam", email="sam@example.org")  # fmt: skip


@pytest.fixture
def other(db):
    return user_create(username="other", password=PASSWORD, role=Role.SELF_LEARNER)


def _history(user, other, status=TableStatus.FINISHED):
    memory_review(learner=user, kana_id="ka", script="hiragana", correct=True,
                  response_ms=900, source="quiz", at=timezone.now())  # fmt: skip
    memory_review(learner=other, kana_id="shi", script="hiragana", correct=False,
                  response_ms=900, source="quiz", confused_with="tsu",
                  at=timezone.now())  # fmt: skip
    table = Table.objects.create(
        engine="kazoku-families", options={"variant": "kana"}, players=2, created_by=user,
        status=status, state={"hands": [["secret-of-other"]]}, seed=424242,
    )  # fmt: skip
    Seat.objects.create(table=table, index=0, user=user)
    Seat.objects.create(table=table, index=1, user=other)
    Move.objects.create(table=table, version=1, seat=0, action={"type": "ask", "card": "ka"})
    Move.objects.create(table=table, version=2, seat=1, action={"type": "ask", "card": "zz"})
    return table


def _download(client, url):
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert "attachment" in response["Content-Disposition"]
    assert "no-store" in response["Cache-Control"]
    return response.content.decode(), json.loads(response.content)


def test_a_self_learner_downloads_everything_held_about_them(client, sam, other):
    table = _history(sam, other)
    client.force_login(sam)
    text, data = _download(client, reverse("account_data"))
    assert data["account"]["username"] == "sam" and data["account"]["email"] == "sam@example.org"
    records = data["records"]
    assert records["accounts.Profile"][0]["display_name"] == "Sam"
    assert [e["kana_id"] for e in records["learning.LearningEvent"]] == ["ka"]
    assert [m["kana_id"] for m in records["learning.KanaMemory"]] == ["ka"]
    assert records["games.Seat"][0]["table"] == table.pk
    assert [m["action"]["card"] for m in records["games.Move (own moves)"]] == ["ka"]
    # Nothing of anyone else, no hidden game information, no password hash.
    for secret in ('"shi"', "secret-of-other", "424242", '"zz"', '"other"', "pbkdf2", "md5$"):
        assert secret not in text, secret


def test_a_self_learner_deletes_their_account_after_confirming(client, sam, other):
    _history(sam, other, status=TableStatus.PLAYING)
    client.force_login(sam)
    assert client.get(reverse("account_delete")).status_code == 200
    refused = client.post(reverse("account_delete"), {"password": "wrong"})
    assert refused.status_code == 400 and User.objects.filter(pk=sam.pk).exists()
    response = client.post(reverse("account_delete"), {"password": PASSWORD})
    assert response.status_code == 302
    assert not User.objects.filter(username="sam").exists()
    assert not LearningEvent.objects.filter(learner_id=sam.pk).exists()
    assert not KanaMemory.objects.filter(learner_id=sam.pk).exists()
    assert Seat.objects.filter(user__isnull=True, index=0).exists()  # the game stays for others
    assert not client.get("/").context["user"].is_authenticated
    assert User.objects.filter(username="other").exists()


def test_students_cannot_delete_their_own_account(db):
    teacher = user_create(username="tina", password=PASSWORD, role=Role.TEACHER)
    classroom = classroom_create(teacher=teacher, name="1A")
    card = roster_create(classroom=classroom, names_text="Aiko")[0]
    pupil = Client()
    pupil.force_login(User.objects.get(username=card["username"]))
    assert pupil.post(reverse("account_delete"), {"password": card["password"]}).status_code == 403
    assert User.objects.filter(username=card["username"]).exists()
    _text, data = _download(pupil, reverse("account_data"))  # but they may download theirs
    assert data["account"]["username"] == card["username"]


def test_a_teacher_downloads_only_students_they_manage(client, sam, other):
    teacher = user_create(username="tina", password=PASSWORD, role=Role.TEACHER)
    classroom = classroom_create(teacher=teacher, name="1A")
    card = roster_create(classroom=classroom, names_text="Aiko")[0]
    aiko = User.objects.get(username=card["username"])
    membership_join(student=sam, code=classroom.join_code)  # a self-learner who joined
    client.force_login(teacher)
    _text, data = _download(client, reverse("teach_student_data", args=[classroom.pk, aiko.pk]))
    assert data["account"]["username"] == aiko.username
    assert client.get(reverse("teach_student_data", args=[classroom.pk, sam.pk])).status_code == 403
    assert (
        client.get(reverse("teach_student_data", args=[classroom.pk, other.pk])).status_code == 404
    )
    # and deletes the one they manage (the confirmation page of the roster)
    url = reverse("teach_student_delete", args=[classroom.pk, aiko.pk])
    assert client.post(url, {"confirm_name": aiko.username}).status_code == 302
    assert not User.objects.filter(pk=aiko.pk).exists()
    assert Membership.objects.filter(student=sam).exists()


def test_the_learners_own_download_lists_no_open_prompts_answer(sam):
    """Issue 24, LOW 5a: an open prompt's kana is its right answer; it waits until answered."""
    now = timezone.now()
    for kana_id in ("ka", "shi", "tsu"):
        Prompt.objects.create(
            learner=sam, source="quiz", kind="glyph", kana_id=kana_id, script="hiragana",
            choices=["ka", "shi", "tsu", "nu"], shown_at=now,
            expires_at=now + timedelta(minutes=5),
        )  # fmt: skip
    answered = Prompt.objects.create(
        learner=sam, source="quiz", kind="glyph", kana_id="nu", script="hiragana",
        choices=["ka", "shi", "tsu", "nu"], shown_at=now, expires_at=now + timedelta(minutes=5),
        status="answered", answer="nu", correct=True, answered_at=now,
    )  # fmt: skip
    client = Client()
    client.force_login(sam)
    _text, data = _download(client, reverse("account_data"))
    prompts = data["records"]["learning.Prompt"]
    assert [p["id"] for p in prompts] == [answered.pk]
