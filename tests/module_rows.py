"""Rows built once per test process and module, under every test's own transaction.

Django's ``setUpTestData`` pattern for pytest: the rows are written inside a transaction that
stays open while the module's tests run; each test's own transaction (pytest-django's ``db``)
nests in it as a savepoint, so every test starts from exactly these rows and its changes are
rolled back with it. The transaction is rolled back when the module's last test is done.

While the rows are built, the tests' defaults apply as the autouse fixtures of
tests/conftest.py give them to a test: Celery tasks run inline, passwords hash with MD5.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TypeVar

from django.db import transaction
from django.test import override_settings

from kanagame.celery import app as celery_app

T = TypeVar("T")
FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def module_rows(django_db_blocker, build: Callable[[], T]) -> Iterator[T]:
    """For a module-scoped fixture: ``yield from module_rows(django_db_blocker, build)``."""
    conf = celery_app.conf
    previous = (conf.task_always_eager, conf.task_eager_propagates)
    with django_db_blocker.unblock(), transaction.atomic():
        conf.task_always_eager = conf.task_eager_propagates = True
        try:
            with override_settings(PASSWORD_HASHERS=FAST_HASHERS):
                built = build()
        finally:
            conf.task_always_eager, conf.task_eager_propagates = previous
        yield built
        transaction.set_rollback(True)
