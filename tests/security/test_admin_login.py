"""Issue 12, part 5: /admin/login/ sits behind the same limiter as /login/."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from kanagame.accounts.models import LoginFailure

SCHOOL = "203.0.113.7"


@pytest.fixture
def root(db):
    return get_user_model().objects.create_superuser("root", "", "root-kana-2026")


def admin_login(username, password, client=None):
    client = client or Client()
    return client.post(
        "/admin/login/?next=/admin/", {"username": username, "password": password},
        REMOTE_ADDR=SCHOOL,
    )  # fmt: skip


def test_the_admin_login_is_rate_limited(root, settings):
    settings.LOGIN_FAILURE_LIMIT = 5
    for spelling in ["root", "ｒoot", "ROOT", "root", "ｒｏｏｔ"][:4]:
        assert admin_login(spelling, "guess").status_code == 200
    response = admin_login("root", "guess")
    assert response.status_code == 429
    assert "Too many failed attempts" in response.content.decode()
    assert int(response["Retry-After"]) > 0
    assert admin_login("root", "root-kana-2026").status_code == 429
    assert LoginFailure.objects.filter(username="root", ip_address=SCHOOL).count() == 5


def test_admin_and_site_logins_share_one_counter(root, settings):
    settings.LOGIN_FAILURE_LIMIT = 3
    Client().post("/login/", {"username": "root", "password": "x"}, REMOTE_ADDR=SCHOOL)
    Client().post("/login/", {"username": "root", "password": "x"}, REMOTE_ADDR=SCHOOL)
    assert admin_login("root", "guess").status_code == 429


def test_staff_still_log_in_to_the_admin(root):
    client = Client()
    response = admin_login("root", "root-kana-2026", client)
    assert response.status_code == 302 and response["Location"] == "/admin/"
    assert client.get("/admin/").status_code == 200
    assert Client().get("/admin/login/").status_code == 200
