"""kanagame.accounts.backends reads the signed-in user as Django's ModelBackend does, in SQL."""

import pytest
from django.contrib.auth import BACKEND_SESSION_KEY, authenticate, get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.signals import user_login_failed
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from factories import PASSWORD

from kanagame.accounts.backends import UserRowBackend
from kanagame.backends import UserRowBackend as Former

pytestmark = pytest.mark.django_db


def fields(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def test_get_user_returns_what_model_backend_returns(bob, alice):
    get_user_model().objects.filter(pk=alice.pk).update(is_superuser=True, first_name="Al")
    for user in (bob, alice):
        with CaptureQueriesContext(connection) as queries:
            found = UserRowBackend().get_user(user.pk)
        assert len(queries) == 1
        expected = ModelBackend().get_user(user.pk)
        assert type(found) is type(expected)
        assert fields(found) == fields(expected)
        assert found._state.adding is False and found._state.db == "default"
        assert found.get_session_auth_hash() == expected.get_session_auth_hash()
    assert UserRowBackend().get_user(10**9) is None
    assert UserRowBackend().get_user(str(bob.pk)).pk == bob.pk  # the session holds a string


def test_an_inactive_user_is_refused_like_model_backend_refuses_it(bob):
    get_user_model().objects.filter(pk=bob.pk).update(is_active=False)
    assert ModelBackend().get_user(bob.pk) is None
    assert UserRowBackend().get_user(bob.pk) is None


def test_a_sign_in_is_stored_with_the_new_backend_and_old_sessions_still_work(client, bob):
    assert client.login(username="bob", password=PASSWORD)
    assert client.session[BACKEND_SESSION_KEY] == "kanagame.accounts.backends.UserRowBackend"
    assert client.get("/").wsgi_request.user == bob

    # A session signed in before this backend (Django's ModelBackend path) stays signed in.
    old = Client()
    old.force_login(bob, backend="django.contrib.auth.backends.ModelBackend")
    assert old.session[BACKEND_SESSION_KEY] == "django.contrib.auth.backends.ModelBackend"
    assert old.get("/").wsgi_request.user == bob


def test_a_session_signed_in_before_the_backend_moved_stays_signed_in(bob):
    old = Client()
    old.force_login(bob, backend="kanagame.backends.UserRowBackend")
    assert old.get("/").wsgi_request.user == bob
    # the former path never signs anyone in: the current backend checks passwords
    assert authenticate(username="bob", password=PASSWORD).backend == (
        "kanagame.accounts.backends.UserRowBackend"
    )
    assert Former().authenticate(None, username="bob", password=PASSWORD) is None


def test_a_refused_password_is_checked_once_and_reported_once(bob, monkeypatch):
    checks, failures = [], []

    def counting(backend_class):
        original = backend_class.authenticate

        def authenticate(self, *args, **kwargs):
            checks.append(backend_class.__name__)
            return original(self, *args, **kwargs)

        monkeypatch.setattr(backend_class, "authenticate", authenticate)

    counting(ModelBackend)
    counting(UserRowBackend)  # finds the account by its canonical name (issue 24)

    def failed(**kwargs):
        failures.append(kwargs["credentials"]["username"])

    user_login_failed.connect(failed)
    try:
        assert authenticate(None, username="bob", password="wrong") is None
        assert authenticate(None, username="nobody", password="wrong") is None
        assert authenticate(None, username="bob", password=PASSWORD) == bob
    finally:
        user_login_failed.disconnect(failed)
    assert checks == ["UserRowBackend"] * 3  # the legacy ModelBackend never hashes again
    assert failures == ["bob", "nobody"]
