"""Games fixtures: the cast (alice teacher, bob student of alice's class, charlie outsider,
dana self-learner) and the test-only "count-test" engine."""

import pytest

from games.engines import ENGINES
from learning.models import Classroom, Membership
from learning.services.accounts import user_create

PASSWORD = "kana-test-2026"


@pytest.fixture
def count_engine(monkeypatch):
    monkeypatch.setitem(ENGINES, "count-test", "games_toy_engine")
    return "count-test"


@pytest.fixture
def alice(transactional_db):
    return user_create(username="alice", password=PASSWORD, role="teacher", display_name="Alice")


@pytest.fixture
def classroom(alice):
    return Classroom.objects.create(teacher=alice, name="Class A", join_code="CLASSA")


@pytest.fixture
def bob(classroom):
    user = user_create(username="bob", password=PASSWORD, role="student", display_name="Bob")
    Membership.objects.create(classroom=classroom, student=user)
    return user


@pytest.fixture
def erin(classroom):
    user = user_create(username="erin", password=PASSWORD, role="student", display_name="Erin")
    Membership.objects.create(classroom=classroom, student=user)
    return user


@pytest.fixture
def charlie(transactional_db):
    return user_create(
        username="charlie", password=PASSWORD, role="student", display_name="Charlie"
    )


@pytest.fixture
def dana(transactional_db):
    return user_create(username="dana", password=PASSWORD, role="self", display_name="Dana")
