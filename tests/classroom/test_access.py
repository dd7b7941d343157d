"""Access control: every forbidden access answers 403/404 (never 500, never the data)."""

import pytest
from django.urls import reverse
from factories import answer

from learning.classroom.models import Assignment, Classroom, Membership


def _class_pages(classroom, student_id):
    cid = classroom.pk
    return [
        ("get", reverse("teach_class", args=[cid])),
        ("get", reverse("teach_class_settings", args=[cid])),
        ("get", reverse("teach_roster", args=[cid])),
        ("get", reverse("teach_assignments", args=[cid])),
        ("get", reverse("teach_export_progress", args=[cid])),
        ("get", reverse("teach_export_assignments", args=[cid])),
        ("get", reverse("teach_student", args=[cid, student_id])),
        ("get", reverse("teach_student_delete", args=[cid, student_id])),
        ("post", reverse("teach_refresh", args=[cid])),
        ("post", reverse("teach_class_code", args=[cid])),
        ("post", reverse("teach_student_action", args=[cid, student_id])),
    ]


def test_another_teachers_class_is_not_found(as_dave, alice_class, bob):
    code = alice_class.join_code
    for method, url in _class_pages(alice_class, bob.pk):
        data = {"action": "regenerate"} if "code" in url else {"action": "remove"}
        response = getattr(as_dave, method)(url, data if method == "post" else None)
        assert response.status_code == 404, url
    alice_class.refresh_from_db()
    assert alice_class.join_code == code
    assert Membership.objects.filter(classroom=alice_class, student=bob).exists()


def test_a_student_of_another_class_is_not_found_in_mine(as_alice, alice_class, charlie):
    answer(charlie, "so", correct=False, confused_with="n")
    for _method, url in _class_pages(alice_class, charlie.pk)[6:8]:
        assert as_alice.get(url).status_code == 404
    response = as_alice.post(
        reverse("teach_student_action", args=[alice_class.pk, charlie.pk]), {"action": "reset"}
    )
    assert response.status_code == 404
    response = as_alice.post(
        reverse("teach_student_delete", args=[alice_class.pk, charlie.pk]),
        {"confirm_name": "charlie"},
    )
    assert response.status_code == 404
    assert charlie.__class__.objects.filter(pk=charlie.pk).exists()


def test_students_cannot_open_teacher_pages(as_bob, alice_class, bob):
    for method, url in _class_pages(alice_class, bob.pk):
        response = getattr(as_bob, method)(url)
        assert response.status_code == 403, url
    assert as_bob.get(reverse("teach_home")).status_code == 403


def test_anonymous_visitors_are_sent_to_login(client, alice_class, bob):
    response = client.get(reverse("teach_class", args=[alice_class.pk]))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]
    assert client.get(reverse("teach_live", args=[alice_class.pk])).status_code == 404


def test_another_teachers_csv_is_not_found_and_leaks_nothing(as_dave, alice_class, bob):
    response = as_dave.get(reverse("teach_export_progress", args=[alice_class.pk]))
    assert response.status_code == 404
    assert b"bob" not in response.content


def test_another_classes_assignment_cannot_be_deleted(as_dave, alice_class, dave_class):
    from datetime import timedelta

    from django.utils import timezone

    assignment = Assignment.objects.create(
        classroom=alice_class, due_at=timezone.now() + timedelta(days=1)
    )
    url = reverse("teach_assignment_delete", args=[dave_class.pk, assignment.pk])
    assert as_dave.post(url).status_code == 404
    url = reverse("teach_assignment_delete", args=[alice_class.pk, assignment.pk])
    assert as_dave.post(url).status_code == 404
    assert Assignment.objects.filter(pk=assignment.pk).exists()


@pytest.mark.parametrize("who", ["bob", "alice"])
def test_the_class_and_its_teacher_see_the_live_tables(client, who, alice, bob, alice_class):
    client.force_login({"bob": bob, "alice": alice}[who])
    assert client.get(reverse("teach_live", args=[alice_class.pk])).status_code == 200


def test_outsiders_do_not_see_a_classes_live_tables(as_charlie, as_dave, alice_class):
    assert as_charlie.get(reverse("teach_live", args=[alice_class.pk])).status_code == 404


def test_a_teacher_sees_only_their_classes_in_the_list(as_alice, alice_class, dave_class):
    response = as_alice.get(reverse("teach_home"))
    assert alice_class.name in response.content.decode()
    assert dave_class.name not in response.content.decode()
    assert list(response.context["classes"]) == list(
        Classroom.objects.filter(teacher__username="alice")
    )


def test_every_teacher_page_renders_for_the_classes_teacher(as_alice, alice_class, bob):
    cid = alice_class.pk
    for url in [
        reverse("teach_home"),
        reverse("teach_class", args=[cid]),
        reverse("teach_class", args=[cid]) + "?script=katakana",
        reverse("teach_class_settings", args=[cid]),
        reverse("teach_roster", args=[cid]),
        reverse("teach_student", args=[cid, bob.pk]),
        reverse("teach_student_delete", args=[cid, bob.pk]),
        reverse("teach_assignments", args=[cid]),
        reverse("teach_assignments", args=[cid]) + "?engine=kazoku-families",
        reverse("teach_live", args=[cid]),
    ]:
        response = as_alice.get(url)
        assert response.status_code == 200, url
        assert alice_class.name in response.content.decode(), url
    assert as_alice.get(reverse("teach_assignments", args=[cid]) + "?engine=x").status_code == 400
