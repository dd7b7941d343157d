"""The one cast every test shares, built from tests/factories.py.

- alice teaches ``alice_class`` ("5B Kana"); bob and erin are her students;
- dave teaches ``dave_class`` ("6A Kana", katakana); charlie is his student, an outsider to
  everything of alice's class;
- dana learns on her own (self-learner).

Students' accounts are created by their class's teacher (``created_by``), as a roster or the
class's /join/ page makes them.

Every cast member's password is ``PASSWORD``. ``as_<name>`` is the test client logged in.
"""

import os
import tempfile

import pytest
from django.conf import settings
from django.core import serializers
from django.core.management.color import no_style
from django.db import connection
from factories import (
    PASSWORD,
    ClassroomFactory,
    SelfLearnerFactory,
    StudentFactory,
    TeacherFactory,
)

from kanagame.celery import app as celery_app

# tests that run threads against one database (a live server, racing clients): they need a
# SQLite test database *file*; their markers say so (pyproject.toml)
THREADED_MARKERS = ("live", "browser", "journey")


def pytest_collection_modifyitems(config, items):
    _skip_redis_tests_without_redis(items)


def _transactional(item) -> bool:
    """Whether pytest-django runs this test on committed transactions (flushed after)."""
    marker = item.get_closest_marker("django_db")
    fixtures = set(getattr(item, "fixturenames", ()))
    return bool(
        (marker and (marker.kwargs.get("transaction") or marker.kwargs.get("reset_sequences")))
        or fixtures & {"transactional_db", "live_server"}
    )


def _uses_db(item) -> bool:
    return bool(item.get_closest_marker("django_db")) or "db" in getattr(item, "fixturenames", ())


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session):
    """A transactional test flushes the database after it ran, the migration's rows (the kana
    catalog) included; pytest-django runs them after the plain database tests, which roll back
    and keep those rows. A marker added after its sort would put a flush among the plain tests
    (on PostgreSQL the kana of every later test vanished): refuse such a run."""
    _live_server_sqlite_file(session.items)  # after `-m`/`-k` deselected what will not run
    seen_transactional = None
    for item in session.items:
        if _transactional(item):
            seen_transactional = seen_transactional or item.nodeid
        elif _uses_db(item) and seen_transactional:
            raise pytest.UsageError(
                f"{item.nodeid} (rolled back) runs after {seen_transactional} (flushed): add the "
                "django_db marker before pytest-django sorts (hookimpl tryfirst)"
            )


@pytest.fixture(autouse=True)
def _migration_rows_after_a_flush(request):
    """A transactional test sees the database as migrations leave it: an earlier one's flush
    took the kana catalog (loaded by learning's migration 0002), so it is loaded again."""
    if not _transactional(request.node):
        return
    request.getfixturevalue("transactional_db")
    from learning.models import Kana

    if not Kana.objects.exists():
        _kana_catalog_load(Kana)


_KANA_CATALOG: list = []  # fixtures/kana.json's rows, read once per test process


def _kana_catalog_load(Kana) -> None:
    """What ``loaddata fixtures/kana.json`` does, for a twentieth of its CPU: the file is
    parsed once per process (not once per transactional test), the 142 rows are inserted in one
    statement, and the primary key's sequence is moved past them as loaddata moves it."""
    if not _KANA_CATALOG:
        with open(settings.BASE_DIR / "fixtures" / "kana.json", encoding="utf-8") as fixture:
            _KANA_CATALOG.extend(row.object for row in serializers.deserialize("json", fixture))
    Kana.objects.bulk_create(_KANA_CATALOG)
    if reset := connection.ops.sequence_reset_sql(no_style(), [Kana]):
        with connection.cursor() as cursor:
            for statement in reset:
                cursor.execute(statement)


def _live_server_sqlite_file(items) -> None:
    """With the default in-memory SQLite test database Django shares one connection between
    the live server's threads, so concurrent requests would share a transaction. Only when
    such a test will run (collected and not deselected), and only for SQLite without a name."""
    if not any(item.get_closest_marker(name) for item in items for name in THREADED_MARKERS):
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
    through_worker = "redis" in request.keywords and bool(settings.REDIS_URL)
    previous = (celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates)
    # set either way, not assumed: a `redis` test that ran eagerly would pass without the
    # worker (CI's pass 2 once ran one so, after another test had left the flag on)
    celery_app.conf.task_always_eager = not through_worker
    celery_app.conf.task_eager_propagates = not through_worker
    yield
    celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates = previous


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """PBKDF2 at full cost makes every test login take ~0.3 s; MD5 is enough in tests."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


# --- The cast ---------------------------------------------------------------------------------


@pytest.fixture
def alice(db):
    return TeacherFactory(username="alice", display_name="Alice Sensei")


@pytest.fixture
def alice_class(alice):
    return ClassroomFactory(teacher=alice, name="5B Kana", level="beginners")


@pytest.fixture
def bob(alice_class):
    return StudentFactory(
        username="bob", display_name="Bob", classroom=alice_class, created_by=alice_class.teacher
    )


@pytest.fixture
def erin(alice_class):
    return StudentFactory(
        username="erin", display_name="Erin", classroom=alice_class, created_by=alice_class.teacher
    )


@pytest.fixture
def dave(db):
    return TeacherFactory(username="dave", display_name="Dave")


@pytest.fixture
def dave_class(dave):
    return ClassroomFactory(teacher=dave, name="6A Kana", default_script="katakana")


@pytest.fixture
def charlie(dave_class):
    return StudentFactory(
        username="charlie",
        display_name="Charlie",
        classroom=dave_class,
        created_by=dave_class.teacher,
    )


@pytest.fixture
def dana(db):
    return SelfLearnerFactory(username="dana", display_name="Dana")


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


@pytest.fixture
def password() -> str:
    return PASSWORD
