"""Kanagame settings: one module, configured from the environment (ARCHITECTURE §5).

Embedded default (no variables set): DEBUG on, SQLite file, Celery eager, local-memory cache.
Production: DJANGO_DEBUG=0, DJANGO_SECRET_KEY, DJANGO_ALLOWED_HOSTS, DATABASE_URL, REDIS_URL.
"""

import os
import secrets
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), not {raw!r}")


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name, "")
    if raw == "":
        return default
    try:
        return int(raw)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} must be an integer, not {raw!r}") from exc


DEBUG = env_bool("DJANGO_DEBUG", True)

# --- Secret key ---------------------------------------------------------------------------
# Local runs generate one and keep it in a git-ignored file; production must provide a real one.
PLACEHOLDER_KEYS = {"", "change-me", "changeme", "secret", "placeholder", "xxx"}
SECRET_KEY_FILE = Path(os.environ.get("KANAGAME_SECRET_KEY_FILE", "") or BASE_DIR / ".secret_key")


def _secret_key() -> str:
    key = os.environ.get("DJANGO_SECRET_KEY", "").strip()
    if not DEBUG:
        if key.lower() in PLACEHOLDER_KEYS or key.startswith("django-insecure") or len(key) < 50:
            raise ImproperlyConfigured(
                "DJANGO_SECRET_KEY must be set to a random value of at least 50 characters "
                "when DJANGO_DEBUG=0 (generate one with: python -c "
                "'import secrets; print(secrets.token_urlsafe(64))')."
            )
        return key
    if key:
        return key
    if not SECRET_KEY_FILE.exists():
        SECRET_KEY_FILE.write_text(secrets.token_urlsafe(64))
        SECRET_KEY_FILE.chmod(0o600)
    return SECRET_KEY_FILE.read_text().strip()


SECRET_KEY = _secret_key()

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost,testserver" if DEBUG else "")
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfigured(
        "DJANGO_ALLOWED_HOSTS must list the site's host names (comma-separated) "
        "when DJANGO_DEBUG=0, e.g. DJANGO_ALLOWED_HOSTS=kana.example.org"
    )
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "csp",
    "template_partials",
    "kanagame.accounts",
    "kanagame.classes",
    "games",
    "learning",
    "learning.classroom",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # The response headers first, so that every answer gets them, the 400 of the next one
    # included (issue 24): they read the session only on the way out, when it exists.
    "kanagame.middleware.PrivacyHeadersMiddleware",
    "kanagame.middleware.CSPMiddleware",  # django-csp's, its usual header built once
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # NUL bytes, non-UTF-8 charsets, unreadable forms: 400 before any session or query.
    "kanagame.middleware.RequestSanityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "kanagame.middleware.IdleTimeoutMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]
# The load benchmark's per-request CPU time and query count (kanagame/server_timing.py).
if env_bool("KANAGAME_SERVER_TIMING", False):
    MIDDLEWARE.insert(0, "kanagame.server_timing.ServerTimingMiddleware")

ROOT_URLCONF = "kanagame.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "kanagame.accounts.context_processors.roles",
            ],
        },
    },
]

WSGI_APPLICATION = "kanagame.wsgi.application"

# --- Database -----------------------------------------------------------------------------
DATABASE_URL = os.environ.get("DATABASE_URL", "")
if DATABASE_URL:
    # Persistent connections, checked before reuse so a restarted PostgreSQL costs no 500s.
    DATABASES = {
        "default": dj_database_url.parse(DATABASE_URL, conn_max_age=600, conn_health_checks=True)
    }
else:
    DATABASES = {
        "default": {
            # Django's SQLite backend, its placeholder conversion kept per statement text
            # (kanagame/db/sqlite3/base.py)
            "ENGINE": "kanagame.db.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            "CONN_MAX_AGE": 600,
            "OPTIONS": {
                # IMMEDIATE takes the write lock at BEGIN: concurrent writers wait (timeout)
                # instead of failing with "database is locked" halfway through a transaction.
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
            # In memory unless named: spelled ":memory:", since pytest-django (its xdist
            # workers' names) recognises an unnamed one only under Django's own ENGINE path
            "TEST": {"NAME": os.environ.get("SQLITE_TEST_PATH") or ":memory:"},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Cache, Celery ------------------------------------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
    }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    CELERY_BROKER_URL = "memory://"
    CELERY_RESULT_BACKEND = "cache+memory://"
    CELERY_TASK_ALWAYS_EAGER = True
    CELERY_TASK_EAGER_PROPAGATES = True
# The queue tasks go to and workers read (default "celery"): bench/load.py gives its own
# worker and web servers a queue of their own, so that it counts every task of its run.
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("KANAGAME_CELERY_QUEUE", "") or "celery"
CELERY_TASK_ACKS_LATE = True
# No task's return value is read (the tasks act on the database; bench/load.py counts them by
# the worker's log), so none is stored: a result is a write to Redis per task and a key kept
# for a day (a district's 600 CPU bursts a second: ~50 million keys). A task whose caller
# waits for its value says so (``kanagame.ping``: ``ignore_result=False``).
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE: dict = {}
# Teacher dashboards' summary tables (learning/classroom/tasks.py).
CELERY_BEAT_SCHEDULE["classroom-summaries"] = {
    "task": "learning.refresh_all_class_summaries",
    "schedule": 15 * 60,
}
# Per-learner FSRS parameter fitting, once a day (learning/tasks.py).
CELERY_BEAT_SCHEDULE["learning-fit-parameters"] = {
    "task": "learning.fit_parameters_nightly",
    "schedule": 24 * 60 * 60,
}
# Overdue turn timers: a CPU stand-in plays for absent players (games/tasks.py).
CELERY_BEAT_SCHEDULE["games-timeouts-sweep"] = {
    "task": "games.timeouts_sweep",
    "schedule": 5.0,
}

# --- Auth ---------------------------------------------------------------------------------
# Argon2id (the hasher Django's documentation recommends) at OWASP's cost, about 30 ms of CPU
# per log-in against PBKDF2's 340 ms (kanagame/accounts/hashers.py, docs/bench.md). Older
# hashes (PBKDF2, or Argon2 with other parameters) still verify and are re-hashed with these
# settings at the user's next successful log-in.
PASSWORD_HASHERS = [
    "kanagame.accounts.hashers.SchoolArgon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
    "django.contrib.auth.hashers.ScryptPasswordHasher",
]

# Django's ModelBackend, the user row read in SQL without the ORM's compiler
# (kanagame/accounts/backends.py); ModelBackend itself stays listed for sessions signed in before.
AUTHENTICATION_BACKENDS = [
    "kanagame.accounts.backends.UserRowBackend",
    "django.contrib.auth.backends.ModelBackend",
    "kanagame.backends.UserRowBackend",  # its former path: sessions signed in before the move
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": 8},
    },
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
# Login rate limit (kanagame/accounts/services.py): after LOGIN_FAILURE_LIMIT failures of one
# username from one address, that pair waits until the failures are LOGIN_COOLOFF_MINUTES old.
LOGIN_FAILURE_LIMIT = env_int("KANAGAME_LOGIN_FAILURE_LIMIT", 5)
LOGIN_COOLOFF_MINUTES = env_int("KANAGAME_LOGIN_COOLOFF_MINUTES", 15)
# How many reverse proxies / load balancers append to X-Forwarded-For in front of the app.
TRUSTED_PROXY_COUNT = env_int("KANAGAME_TRUSTED_PROXIES", 0)
# Sessions end when the browser closes (shared school computers) unless the login form's
# "this is my own device" box is ticked; a student's also ends after this many idle minutes.
SESSION_EXPIRE_AT_BROWSER_CLOSE = True
# With Redis (production, several nodes): Django's cached_db sessions, read from the shared
# cache and written to both; without it: Django's database sessions, read in SQL without the
# ORM's compiler (kanagame/sessions.py). cached_db on the local-memory cache would keep a
# logged-out session alive in the other worker processes. Measured: docs/bench.md, "Cheaper
# requests, the GC tail and the session engine".
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db" if REDIS_URL else "kanagame.sessions"
SESSION_COOKIE_AGE = 14 * 24 * 60 * 60
STUDENT_IDLE_MINUTES = env_int("KANAGAME_STUDENT_IDLE_MINUTES", 30)
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
# Where each role lands (URL names) after logging in without a ?next=, and after signing up:
# a teacher on their classes, a new self-learner on the daily session (its first lesson).
# Settings, not code: kanagame.accounts sits below the apps whose pages these are.
LOGIN_LANDING = {"teacher": "teach_home"}
SIGNUP_LANDING = {"self": "learn:daily", "teacher": "teach_home"}
LOGOUT_REDIRECT_URL = "home"

# --- I18n ---------------------------------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("fr", _("French")), ("ja", _("Japanese"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --- Static -------------------------------------------------------------------------------
STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# --- Content-Security-Policy (django-csp 4) ------------------------------------------------
# No inline script or style anywhere: every script and stylesheet is a static file.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "frame-ancestors": [NONE],
        "form-action": [SELF],
    }
}

# --- Production security ------------------------------------------------------------------
if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
    X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "WARNING")},
}
