"""kanagame.sessions reads sessions as Django's database store does."""

from datetime import timedelta

import pytest
from django.contrib.sessions.backends.db import SessionStore as DjangoStore
from django.contrib.sessions.models import Session
from django.utils import timezone

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


def test_the_settings_use_it(settings):
    assert settings.SESSION_ENGINE == "kanagame.sessions"
