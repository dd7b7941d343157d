"""kanagame.sessions reads sessions as Django's database store does; the settings pick it, or
cached_db with a shared cache (Redis)."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends import cached_db
from django.contrib.sessions.backends.db import SessionStore as DjangoStore
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.utils import timezone

from kanagame.accounts.services import account_traces_delete
from kanagame.sessions import SessionStore

pytestmark = pytest.mark.django_db


def test_it_reads_what_djangos_store_wrote_and_drops_expired_or_unknown_keys():
    written = DjangoStore()
    written["games.shown_tables"] = {"ABCDEF": 12}
    written.save()

    read = SessionStore(session_key=written.session_key)
    assert read["games.shown_tables"] == {"ABCDEF": 12}
    assert read.session_key == written.session_key
    assert read.load() == DjangoStore(session_key=written.session_key).load()

    Session.objects.filter(pk=written.session_key).update(
        expire_date=timezone.now() - timedelta(seconds=1)
    )
    expired = SessionStore(session_key=written.session_key)
    assert expired.load() == {} and expired.session_key is None

    unknown = SessionStore(session_key="x" * 32)
    assert unknown.load() == {} and unknown.session_key is None


def test_the_settings_use_cached_db_with_a_shared_cache_else_this_store(settings):
    expected = "django.contrib.sessions.backends.cached_db" if settings.REDIS_URL else None
    assert settings.SESSION_ENGINE == (expected or "kanagame.sessions")
    if not settings.REDIS_URL:  # cached_db on a per-process cache is not safe (settings.py)
        assert "locmem" in settings.CACHES["default"]["BACKEND"]


def test_deleting_an_account_ends_its_cached_sessions_too(settings):
    """With cached_db a session is read from the cache first: ending it in the table alone
    would leave it readable until the cache entry expired."""
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
    dana = get_user_model().objects.create_user("dana-sessions", password="x" * 12)
    other = get_user_model().objects.create_user("erin-sessions", password="x" * 12)
    stores = []
    for user in (dana, dana, other):
        store = cached_db.SessionStore()
        store["_auth_user_id"] = str(user.pk)
        store.save()
        stores.append(store)

    assert account_traces_delete(user=dana) == 2
    for store in stores[:2]:
        assert cache.get(store.cache_key) is None
        assert cached_db.SessionStore(session_key=store.session_key).load() == {}
    assert cached_db.SessionStore(session_key=stores[2].session_key).load() == {
        "_auth_user_id": str(other.pk)
    }
