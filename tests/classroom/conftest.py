"""The classroom cast: alice teaches bob; charlie is a student of dave's class; dave teaches."""

import pytest
from django.core.cache import cache

from learning.models import Membership, Role
from learning.services.accounts import user_create
from learning.services.classroom import classroom_create

PASSWORD = "kana-test-2026"


@pytest.fixture(autouse=True)
def _fresh_cache():
    """The join page counts wrong codes in the cache: each test starts from zero."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def alice(db):
    return user_create(username="alice", password=PASSWORD, role=Role.TEACHER, display_name="Alice")


@pytest.fixture
def dave(db):
    return user_create(username="dave", password=PASSWORD, role=Role.TEACHER, display_name="Dave")


@pytest.fixture
def alice_class(alice):
    return classroom_create(teacher=alice, name="5B Kana", level="beginners")


@pytest.fixture
def dave_class(dave):
    return classroom_create(teacher=dave, name="6A Kana", default_script="katakana")


@pytest.fixture
def bob(alice_class):
    user = user_create(
        username="bob",
        password=PASSWORD,
        role=Role.STUDENT,
        display_name="Bob",
        created_by=alice_class.teacher,  # as alice's roster or her class code would make him
    )
    Membership.objects.create(classroom=alice_class, student=user)
    return user


@pytest.fixture
def charlie(dave_class):
    user = user_create(
        username="charlie",
        password=PASSWORD,
        role=Role.STUDENT,
        display_name="Charlie",
        created_by=dave_class.teacher,
    )
    Membership.objects.create(classroom=dave_class, student=user)
    return user


@pytest.fixture
def as_alice(client, alice):
    client.force_login(alice)
    return client


@pytest.fixture
def as_bob(client, bob):
    client.force_login(bob)
    return client


@pytest.fixture
def as_charlie(client, charlie):
    client.force_login(charlie)
    return client


@pytest.fixture
def as_dave(client, dave):
    client.force_login(dave)
    return client
