"""Learning fixtures: dana the self-learner, bob a student, alice a teacher."""

from datetime import UTC, datetime

import pytest
from django.contrib.auth import get_user_model

from learning.models import Profile


@pytest.fixture(autouse=True)
def _no_fuzz(settings):
    """Deterministic FSRS intervals in tests."""
    settings.LEARNING_FSRS_FUZZING = False


def make_user(username: str, role: str):
    user = get_user_model().objects.create_user(username=username, password="kana-test-2026")
    Profile.objects.create(user=user, role=role)
    return user


@pytest.fixture
def dana(db):
    return make_user("dana", "self")


@pytest.fixture
def bob(db):
    return make_user("bob", "student")


@pytest.fixture
def alice(db):
    return make_user("alice", "teacher")


@pytest.fixture
def t0():
    return datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


@pytest.fixture
def user_maker(db):
    """make_user(username, role) for tests that need more of the cast."""
    return make_user
