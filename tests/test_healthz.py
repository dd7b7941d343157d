"""/healthz: database (and Redis when configured) reachable → 200 JSON, else 503 JSON."""

import pytest
from django.db import OperationalError

DEAD_REDIS = "redis://127.0.0.1:9/0"  # the discard port: nothing speaks Redis there


@pytest.mark.django_db
def test_it_reports_ok_when_the_database_answers(client, settings):
    settings.REDIS_URL = ""
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"status": "ok", "checks": {"database": "ok"}}
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.django_db
def test_it_reports_503_when_the_database_is_down(client, settings, monkeypatch):
    settings.REDIS_URL = ""

    def broken_cursor(*args, **kwargs):
        raise OperationalError("connection refused to db.internal:5432 as kanagame")

    monkeypatch.setattr("kanagame.views.connection.cursor", broken_cursor)
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "error"
    assert body["checks"]["database"] == "error: OperationalError"
    assert "db.internal" not in response.content.decode()  # no details leak


@pytest.mark.django_db
def test_it_checks_redis_when_configured_and_reports_503_when_down(client, settings):
    settings.REDIS_URL = DEAD_REDIS
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": DEAD_REDIS,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["checks"]["database"] == "ok"
    assert response.json()["checks"]["redis"].startswith("error")


@pytest.mark.django_db
def test_it_reports_redis_ok_when_the_configured_cache_round_trips(client, settings):
    settings.REDIS_URL = "redis://configured"
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["checks"] == {"database": "ok", "redis": "ok"}


@pytest.mark.redis
@pytest.mark.django_db
def test_it_reports_ok_against_the_real_redis(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["checks"] == {"database": "ok", "redis": "ok"}


@pytest.mark.django_db
def test_it_only_answers_get(client):
    assert client.post("/healthz").status_code == 405
