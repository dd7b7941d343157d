"""Settings come from the environment (ARCHITECTURE §5).

Settings are read once at import, so each case runs a fresh interpreter with its own
environment and prints what Django resolved.
"""

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
VARIABLES = [
    "DJANGO_DEBUG",
    "DJANGO_SECRET_KEY",
    "DJANGO_ALLOWED_HOSTS",
    "DATABASE_URL",
    "REDIS_URL",
    "DJANGO_CSRF_TRUSTED_ORIGINS",
    "KANAGAME_SECRET_KEY_FILE",
    "SQLITE_PATH",
]
PRINT_SETTINGS = """
import json, django
from django.conf import settings
django.setup()
db = settings.DATABASES["default"]
print(json.dumps({
    "DEBUG": settings.DEBUG,
    "ENGINE": db["ENGINE"], "NAME": str(db["NAME"]), "HOST": db.get("HOST", ""),
    "CONN_MAX_AGE": db["CONN_MAX_AGE"], "OPTIONS": db.get("OPTIONS", {}),
    "CACHE": settings.CACHES["default"]["BACKEND"],
    "CACHE_LOCATION": settings.CACHES["default"].get("LOCATION", ""),
    "BROKER": settings.CELERY_BROKER_URL, "EAGER": settings.CELERY_TASK_ALWAYS_EAGER,
    "SECRET_KEY": settings.SECRET_KEY, "ALLOWED_HOSTS": settings.ALLOWED_HOSTS,
}))
"""


def strong_key() -> str:
    return secrets.token_urlsafe(64)


def run(code_or_args: str | list[str], **env: str) -> subprocess.CompletedProcess:
    # Drop anything that configures Django (the browser tests set DJANGO_ALLOW_ASYNC_UNSAFE,
    # which the deploy check rightly flags): each case starts from a clean environment.
    clean = {
        key: value
        for key, value in os.environ.items()
        if key not in VARIABLES and not key.startswith(("DJANGO_", "KANAGAME_", "SQLITE_"))
    }
    clean.update(env, DJANGO_SETTINGS_MODULE="kanagame.settings")
    args = code_or_args if isinstance(code_or_args, list) else ["-c", code_or_args]
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=120
    )


def resolved(**env: str) -> dict:
    result = run(PRINT_SETTINGS, **env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_the_embedded_default_is_sqlite_immediate_eager_and_local_memory(tmp_path):
    config = resolved(KANAGAME_SECRET_KEY_FILE=str(tmp_path / "key"))
    assert config["DEBUG"] is True
    assert config["ENGINE"] == "kanagame.db.sqlite3"  # Django's, statement texts kept
    assert config["NAME"] == str(ROOT / "db.sqlite3")
    assert config["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert config["CONN_MAX_AGE"] > 0
    assert config["CACHE"] == "django.core.cache.backends.locmem.LocMemCache"
    assert config["EAGER"] is True
    assert config["BROKER"] == "memory://"


def test_database_url_switches_to_postgresql(tmp_path):
    config = resolved(
        DATABASE_URL="postgres://kana:pw@db.example.org:5432/kanagame",
        KANAGAME_SECRET_KEY_FILE=str(tmp_path / "key"),
    )
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["NAME"], config["HOST"]) == ("kanagame", "db.example.org")
    assert config["CONN_MAX_AGE"] > 0
    assert "transaction_mode" not in config["OPTIONS"]


def test_redis_url_switches_cache_and_broker_and_turns_eager_off(tmp_path):
    config = resolved(
        REDIS_URL="redis://cache.example.org:6379/3", KANAGAME_SECRET_KEY_FILE=str(tmp_path / "key")
    )
    assert config["CACHE"] == "django.core.cache.backends.redis.RedisCache"
    assert config["CACHE_LOCATION"] == "redis://cache.example.org:6379/3"
    assert config["BROKER"] == "redis://cache.example.org:6379/3"
    assert config["EAGER"] is False
    assert config["ENGINE"] == "kanagame.db.sqlite3"  # the two switches are independent


def test_a_local_run_generates_a_secret_key_once_and_keeps_it(tmp_path):
    key_file = tmp_path / "secret"
    first = resolved(KANAGAME_SECRET_KEY_FILE=str(key_file))["SECRET_KEY"]
    assert len(first) >= 50
    assert key_file.read_text().strip() == first
    assert key_file.stat().st_mode & 0o777 == 0o600
    assert resolved(KANAGAME_SECRET_KEY_FILE=str(key_file))["SECRET_KEY"] == first


def test_production_settings_pass_the_deploy_check():
    result = run(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=strong_key(),
        DJANGO_ALLOWED_HOSTS="kana.example.org",
        DATABASE_URL="postgres://kana:pw@db.example.org:5432/kanagame",
        REDIS_URL="redis://cache.example.org:6379/0",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


@pytest.mark.parametrize("key", [None, "", "change-me", "django-insecure-abc123", "short-key"])
def test_production_refuses_to_start_without_a_real_secret_key(key):
    env = {"DJANGO_DEBUG": "0", "DJANGO_ALLOWED_HOSTS": "kana.example.org"}
    if key is not None:
        env["DJANGO_SECRET_KEY"] = key
    result = run(PRINT_SETTINGS, **env)
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY must be set to a random value" in result.stderr


def test_production_refuses_to_start_without_allowed_hosts():
    result = run(PRINT_SETTINGS, DJANGO_DEBUG="0", DJANGO_SECRET_KEY=strong_key())
    assert result.returncode != 0
    assert "DJANGO_ALLOWED_HOSTS must list" in result.stderr


def test_a_malformed_boolean_is_refused_with_a_clear_message():
    result = run(PRINT_SETTINGS, DJANGO_DEBUG="maybe")
    assert result.returncode != 0
    assert "DJANGO_DEBUG must be a boolean" in result.stderr
