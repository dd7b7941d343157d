"""Sign-up, login, logout, and the login rate limit keyed on (username, address)."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone
from factories import PASSWORD

from kanagame.accounts.models import LoginFailure
from kanagame.accounts.services import (
    login_failure_record,
    login_lockout_remaining,
    user_create,
)

User = get_user_model()
SCHOOL = "203.0.113.7"


def login(client: Client, username: str, password: str, address: str = SCHOOL):
    return client.post("/login/", {"username": username, "password": password}, REMOTE_ADDR=address)


# --- sign-up ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_visitor_signs_up_as_a_self_learner_without_email(client):
    response = client.post(
        "/signup/",
        {
            "role": "self",
            "username": "dana",
            "display_name": "Dana",
            "email": "",
            "password1": "hiragana-fan-7",
            "password2": "hiragana-fan-7",
        },
    )
    assert response.status_code == 302
    dana = User.objects.get(username="dana")
    assert (dana.profile.role, dana.profile.display_name, dana.email) == ("self", "Dana", "")
    assert client.get("/").context["user"] == dana


@pytest.mark.django_db
def test_a_visitor_signs_up_as_a_teacher_with_email(client):
    response = client.post(
        "/signup/",
        {
            "role": "teacher",
            "username": "erin",
            "email": "erin@example.org",
            "password1": "katakana-pro-9",
            "password2": "katakana-pro-9",
        },
    )
    assert response.status_code == 302
    assert User.objects.get(username="erin").profile.role == "teacher"


@pytest.mark.django_db
def test_sign_up_cannot_create_a_student_account(client):
    response = client.post(
        "/signup/",
        {
            "role": "student",
            "username": "sneaky",
            "password1": "kana-kana-99",
            "password2": "kana-kana-99",
        },
    )
    assert response.status_code == 400
    assert not User.objects.filter(username="sneaky").exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "data, field",
    [
        (
            {"username": "bob", "password1": "long-enough-1", "password2": "long-enough-1"},
            "username",
        ),
        (
            {"username": "BOB", "password1": "long-enough-1", "password2": "long-enough-1"},
            "username",
        ),
        (
            {"username": "zed", "password1": "long-enough-1", "password2": "long-enough-2"},
            "password2",
        ),
        ({"username": "zed", "password1": "short", "password2": "short"}, "password1"),
        ({"username": "zed", "password1": "password", "password2": "password"}, "password1"),
        (
            {"username": "zed z", "password1": "long-enough-1", "password2": "long-enough-1"},
            "username",
        ),
    ],
)
def test_sign_up_rejects_bad_input_with_a_message(client, bob, data, field):
    users = User.objects.count()
    response = client.post("/signup/", {"role": "self", **data})
    assert response.status_code == 400
    assert response.context["form"].errors[field]
    assert User.objects.count() == users


@pytest.mark.django_db
def test_the_sign_up_page_renders_its_role_choice(client):
    response = client.get("/signup/")
    assert response.status_code == 200
    body = response.content.decode()
    assert 'name="role"' in body and 'value="teacher"' in body and 'value="self"' in body
    assert 'value="student"' not in body


# --- login / logout ------------------------------------------------------------------------


def test_login_and_logout(client, bob):
    assert login(client, "bob", PASSWORD).status_code == 302
    assert client.get("/").context["user"] == bob
    assert client.post("/logout/").status_code == 302
    assert not client.get("/").context["user"].is_authenticated


def test_a_wrong_password_shows_the_form_again_with_an_error(client, bob):
    response = login(client, "bob", "nope")
    assert response.status_code == 200
    assert response.context["form"].non_field_errors()
    assert LoginFailure.objects.filter(username="bob", ip_address=SCHOOL).count() == 1


# --- rate limiting -------------------------------------------------------------------------


@pytest.mark.django_db
def test_thirty_students_from_one_address_all_get_in_within_a_minute():
    for n in range(30):
        user_create(username=f"pupil{n}", password=f"pupil-pass-{n}", role="student")
    for n in range(30):
        client = Client()
        # A few typos along the way, as in a real class.
        if n % 3 == 0:
            assert login(client, f"pupil{n}", "typo").status_code == 200
        response = login(client, f"pupil{n}", f"pupil-pass-{n}")
        assert response.status_code == 302, n
        assert client.get("/").context["user"].username == f"pupil{n}"


def test_one_username_hammered_is_locked_out_with_a_clear_message(client, bob, settings):
    settings.LOGIN_FAILURE_LIMIT = 5
    for _ in range(4):
        assert login(client, "bob", "guess").status_code == 200
    response = login(client, "bob", "guess")
    assert response.status_code == 429
    assert "Too many failed attempts" in response.content.decode()
    assert int(response["Retry-After"]) > 0
    # Even the right password waits out the cool-off: no guess is checked meanwhile.
    response = login(client, "bob", PASSWORD)
    assert response.status_code == 429
    assert not client.get("/").context["user"].is_authenticated
    assert LoginFailure.objects.filter(username="bob").count() == 5


def test_the_lock_does_not_touch_other_users_or_other_addresses(client, bob, settings):
    settings.LOGIN_FAILURE_LIMIT = 3
    user_create(username="ann", password="ann-kana-123", role="student")
    for _ in range(3):
        login(client, "bob", "guess")
    assert login(client, "bob", PASSWORD).status_code == 429
    assert login(Client(), "ann", "ann-kana-123").status_code == 302
    assert login(Client(), "bob", PASSWORD, address="198.51.100.2").status_code == 302


def test_the_limiter_ignores_case_and_surrounding_spaces(client, bob, settings):
    settings.LOGIN_FAILURE_LIMIT = 3
    for name in ["bob", "BOB", " Bob "]:
        login(client, name, "guess")
    assert login(client, "bob", PASSWORD).status_code == 429


def test_the_cool_off_ends_after_the_configured_minutes(bob, settings):
    settings.LOGIN_FAILURE_LIMIT = 3
    settings.LOGIN_COOLOFF_MINUTES = 10
    start = timezone.now() - timedelta(minutes=12)
    for minute in range(3):
        login_failure_record(
            username="bob", ip_address=SCHOOL, now=start + timedelta(minutes=minute)
        )
    # Failures at t=0,1,2: locked until t=10, free from then on.
    wait = login_lockout_remaining(
        username="bob", ip_address=SCHOOL, now=start + timedelta(minutes=4)
    )
    assert wait == timedelta(minutes=6)
    assert (
        login_lockout_remaining(
            username="bob", ip_address=SCHOOL, now=start + timedelta(minutes=10, seconds=1)
        )
        is None
    )
    # And the page lets bob in now (12 minutes later), clearing his record.
    client = Client()
    assert login(client, "bob", PASSWORD).status_code == 302
    assert not LoginFailure.objects.filter(username="bob").exists()


def test_a_success_clears_the_failures(client, bob, settings):
    settings.LOGIN_FAILURE_LIMIT = 3
    login(client, "bob", "guess")
    login(client, "bob", "guess")
    assert login(client, "bob", PASSWORD).status_code == 302
    client.post("/logout/")
    login(client, "bob", "guess")
    assert login(client, "bob", PASSWORD).status_code == 302


def test_the_forwarded_address_is_used_only_behind_trusted_proxies(bob, settings):
    settings.LOGIN_FAILURE_LIMIT = 2
    forged = {"HTTP_X_FORWARDED_FOR": "10.0.0.1"}
    client = Client()
    # No trusted proxy: a forged header does not dodge the limiter.
    client.post("/login/", {"username": "bob", "password": "x"}, REMOTE_ADDR=SCHOOL, **forged)
    client.post(
        "/login/",
        {"username": "bob", "password": "x"},
        REMOTE_ADDR=SCHOOL,
        HTTP_X_FORWARDED_FOR="10.0.0.2",
    )
    assert set(LoginFailure.objects.values_list("ip_address", flat=True)) == {SCHOOL}
    settings.TRUSTED_PROXY_COUNT = 1
    client.post(
        "/login/",
        {"username": "bob", "password": "x"},
        REMOTE_ADDR="192.0.2.1",
        HTTP_X_FORWARDED_FOR="10.9.9.9, 198.51.100.77",
    )
    assert LoginFailure.objects.filter(ip_address="198.51.100.77").exists()


# --- where each role lands ----------------------------------------------------------------


def test_a_teacher_lands_on_their_classes_after_logging_in(client, alice):
    response = login(client, "alice", PASSWORD)
    assert response.status_code == 302 and response["Location"] == "/teach/"


def test_a_student_lands_on_the_home_page_and_next_still_wins(client, bob, alice):
    assert login(client, "bob", PASSWORD)["Location"] == "/"
    client.post("/logout/")
    response = client.post(
        "/login/?next=/learn/", {"username": "alice", "password": PASSWORD}, REMOTE_ADDR=SCHOOL
    )
    assert response["Location"] == "/learn/"


@pytest.mark.django_db
@pytest.mark.parametrize("role, landing", [("self", "/daily/"), ("teacher", "/teach/")])
def test_sign_up_leads_to_the_first_step_of_the_role(client, role, landing):
    response = client.post(
        "/signup/",
        {"role": role, "username": "newbie", "display_name": "Newbie", "email": "",
         "password1": "hiragana-fan-7", "password2": "hiragana-fan-7"},
    )  # fmt: skip
    assert response.status_code == 302 and response["Location"] == landing
