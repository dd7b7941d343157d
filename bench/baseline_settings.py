"""Settings of the load benchmark's baseline app (``bench/baseline_app.py``).

The product's settings (same database, session store, password hasher, cache, production
security), with a stand-in URLconf, Django's stock middleware and templates without context
processors: what a plain Django app of the same shape costs on the same machine, in the same
run (docs/bench.md, "Same-run baseline").
"""

from kanagame.settings import *  # noqa: F403
from kanagame.settings import env_bool

ROOT_URLCONF = "baseline_app"
WSGI_APPLICATION = "baseline_app.application"
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]
if env_bool("KANAGAME_SERVER_TIMING", False):
    MIDDLEWARE.insert(0, "kanagame.server_timing.ServerTimingMiddleware")
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": False,
        "OPTIONS": {"context_processors": []},
    }
]
# A session of this app is signed in by Django's own backend (the product's store reads it).
AUTHENTICATION_BACKENDS = ["django.contrib.auth.backends.ModelBackend"]
