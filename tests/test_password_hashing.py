"""Passwords are hashed with Argon2id at the school cost, and older hashes upgrade at log-in."""

from __future__ import annotations

import pytest
from django.contrib.auth.hashers import (
    Argon2PasswordHasher,
    PBKDF2PasswordHasher,
    identify_hasher,
    make_password,
)

from kanagame.accounts.services import user_create

REAL_HASHERS = [
    "kanagame.accounts.hashers.SchoolArgon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]


@pytest.fixture
def real_hashers(settings):
    # tests/conftest.py swaps in MD5 for speed; these tests need the production list.
    settings.PASSWORD_HASHERS = REAL_HASHERS


@pytest.mark.django_db
def test_new_passwords_are_argon2id_at_owasp_cost(real_hashers):
    encoded = make_password("plum-river-42")
    assert encoded.startswith("argon2$argon2id$v=19$m=19456,t=2,p=1$")


@pytest.mark.django_db
def test_a_pbkdf2_hash_is_upgraded_at_the_next_log_in(real_hashers, client):
    user = user_create(username="old-timer", password="x", role="self")
    legacy = PBKDF2PasswordHasher()
    user.password = legacy.encode("plum-river-42", legacy.salt())
    user.save(update_fields=["password"])

    response = client.post("/login/", {"username": "old-timer", "password": "plum-river-42"})

    assert response.status_code == 302
    user.refresh_from_db()
    assert identify_hasher(user.password).algorithm == "argon2"
    assert "m=19456,t=2,p=1" in user.password
    assert user.check_password("plum-river-42")


@pytest.mark.django_db
def test_an_argon2_hash_of_other_parameters_is_upgraded_too(real_hashers, client):
    user = user_create(username="heavy-hash", password="x", role="self")
    django_default = Argon2PasswordHasher()  # 100 MiB, 8 lanes
    user.password = django_default.encode("plum-river-42", django_default.salt())
    user.save(update_fields=["password"])

    assert client.post("/login/", {"username": "heavy-hash", "password": "plum-river-42"})[
        "Location"
    ]
    user.refresh_from_db()
    assert "m=19456,t=2,p=1" in user.password


@pytest.mark.django_db
def test_a_wrong_password_does_not_touch_the_stored_hash(real_hashers, client):
    user = user_create(username="stays", password="x", role="self")
    legacy = PBKDF2PasswordHasher()
    user.password = legacy.encode("plum-river-42", legacy.salt())
    user.save(update_fields=["password"])
    before = user.password

    response = client.post("/login/", {"username": "stays", "password": "wrong"})

    assert response.status_code == 200
    user.refresh_from_db()
    assert user.password == before
