"""Shared fixtures: the named cast (alice the teacher, bob her student, charlie an outsider)."""

import os
import tempfile

import pytest
from django.conf import settings

from kanagame.celery import app as celery_app

# tests that run a live server (threads): they need a SQLite test database *file*
LIVE_SERVER_MODULES = ("test_games_live.py", "test_browser_play.py", "test_browser_yokai.py")


def pytest_collection_modifyitems(config, items):
    _live_server_sqlite_file(items)
    _skip_redis_tests_without_redis(items)


def _live_server_sqlite_file(items) -> None:
    """With the default in-memory SQLite test database Django shares one connection between
    the live server's threads, so concurrent requests would share a transaction. Only when
    such a test is collected, and only for SQLite without a name."""
    if not any(item.path.name in LIVE_SERVER_MODULES for item in items):
        return
    database = settings.DATABASES["default"]
    test = database.setdefault("TEST", {})
    if "sqlite3" not in database["ENGINE"] or test.get("NAME") not in (None, "", ":memory:"):
        return
    test["NAME"] = os.path.join(tempfile.gettempdir(), f"kanagame-test-{os.getpid()}.sqlite3")


def _skip_redis_tests_without_redis(items) -> None:
    """`redis` tests need REDIS_URL and a worker: skipped, loudly, on the embedded default
    (CI's second pass runs them, and pass 2b fails if they were skipped)."""
    if os.environ.get("REDIS_URL"):
        return
    skip = pytest.mark.skip(reason="needs REDIS_URL and a running Celery worker (CI pass 2)")
    for item in items:
        if "redis" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _celery_eager_unless_redis(request):
    """Tasks run inline in tests, except `redis` tests, which go through the real worker.

    The worker of CI's second pass talks to the real database, not the test one, so every
    other test keeps the eager behaviour of the embedded default.
    """
    if "redis" in request.keywords and settings.REDIS_URL:
        yield
        return
    previous = (celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates)
    celery_app.conf.task_always_eager = True
    celery_app.conf.task_eager_propagates = True
    yield
    celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates = previous


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """PBKDF2 at full cost makes every test login take ~0.3 s; MD5 is enough in tests."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
