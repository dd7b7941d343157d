"""Roles: the user_create service and the role_required decorator."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.test import RequestFactory
from factories import PASSWORD

from kanagame.accounts.models import Profile
from kanagame.accounts.permissions import role_required
from kanagame.accounts.services import user_create


@role_required("teacher")
def teacher_page(request):
    return HttpResponse("teacher page")


@role_required("student", "self")
def learner_page(request):
    return HttpResponse("learner page")


def request_as(user, path="/teach/secret/"):
    request = RequestFactory().get(path)
    request.user = user
    return request


def test_user_create_makes_the_user_and_profile(alice):
    assert alice.check_password(PASSWORD)
    assert alice.email == ""
    profile = Profile.objects.get(user=alice)
    assert (profile.role, profile.display_name, profile.name) == (
        "teacher",
        "Alice Sensei",
        "Alice Sensei",
    )


@pytest.mark.django_db
def test_user_create_refuses_an_unknown_role_and_creates_nothing():
    with pytest.raises(ValueError, match="unknown role"):
        user_create(username="mallory", password="pw-123456", role="admin")
    assert not Profile.objects.exists()
    from django.contrib.auth import get_user_model

    assert not get_user_model().objects.filter(username="mallory").exists()


def test_the_teacher_reaches_the_teacher_page(alice):
    assert teacher_page(request_as(alice)).content == b"teacher page"


def test_a_student_gets_403_on_a_teacher_page(bob):
    with pytest.raises(PermissionDenied):
        teacher_page(request_as(bob))


def test_both_learner_roles_reach_learner_pages_but_teachers_do_not(alice, bob, dana):
    assert learner_page(request_as(bob)).status_code == 200
    assert learner_page(request_as(dana)).status_code == 200
    with pytest.raises(PermissionDenied):
        learner_page(request_as(alice))


def test_an_anonymous_visitor_is_sent_to_login_and_back():
    response = teacher_page(request_as(AnonymousUser()))
    assert response.status_code == 302
    assert response["Location"] == "/login/?next=/teach/secret/"


@pytest.mark.django_db
def test_a_user_without_profile_is_refused_not_crashed(django_user_model):
    admin = django_user_model.objects.create_user(username="root", password="x-123456")
    with pytest.raises(PermissionDenied):
        teacher_page(request_as(admin))


def test_role_required_refuses_unknown_roles_at_import_time():
    with pytest.raises(ValueError):
        role_required("admin")
    with pytest.raises(ValueError):
        role_required()
