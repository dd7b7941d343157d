"""Issue 12, part 4: the join-code limiter counts per real client, in the database.

Behind the documented proxy, REMOTE_ADDR is the proxy: keyed on it, one pupil's 20 wrong
codes locked /join/ for the whole school. Counted in a per-process cache, each web process
(and every restart) started from zero.
"""

import threading

import pytest
from django.core.cache import cache
from django.db import close_old_connections
from django.test import Client
from django.urls import reverse

from kanagame.accounts.models import RateCounter
from kanagame.accounts.services import rate_count, rate_take

pytestmark = pytest.mark.live  # threads on one database: a SQLite file (tests/conftest.py)

PROXY = "10.0.0.1"


def _join(client, code, pupil_address, name="Hana"):
    return client.post(
        reverse("join"),
        {"code": code, "display_name": name, "password": "sakura-neko-2026",
         "password_again": "sakura-neko-2026"},
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR=pupil_address,
    )  # fmt: skip


def test_one_pupils_wrong_codes_do_not_lock_the_school(alice_class, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    for _ in range(20):
        assert _join(Client(), "XXXXXX", "198.51.100.10").status_code == 400
    assert _join(Client(), alice_class.join_code, "198.51.100.10").status_code == 429
    assert _join(Client(), alice_class.join_code, "198.51.100.11", name="Ken").status_code == 200


def test_a_forged_forwarded_header_does_not_reset_the_count(alice_class, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    for n in range(20):
        # The client prepends fake addresses; the proxy appends the real one.
        _join(Client(), "XXXXXX", f"203.0.113.{n}, 198.51.100.10")
    assert _join(Client(), alice_class.join_code, "1.2.3.4, 198.51.100.10").status_code == 429


def test_the_count_lives_in_the_database_not_in_one_processs_cache(alice_class):
    for _ in range(20):
        assert _join(Client(), "XXXXXX", "").status_code == 400
    cache.clear()  # another web process, or a restart, has an empty local cache
    assert _join(Client(), alice_class.join_code, "").status_code == 429
    assert RateCounter.objects.get(key=f"join-code:{PROXY}").count == 20


@pytest.mark.django_db(transaction=True)
def test_concurrent_attempts_never_pass_the_limit():
    """Eight writers race for 5 attempts: exactly 5 are granted, the counter says 5 + refused."""
    granted, errors = [], []
    barrier = threading.Barrier(8)

    def attempt():
        try:
            barrier.wait(timeout=10)
            for _ in range(3):
                granted.append(rate_take(key="race", limit=5, window_seconds=600))
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            close_old_connections()

    threads = [threading.Thread(target=attempt) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert granted.count(True) == 5 and len(granted) == 24
    assert rate_count(key="race") == 24
