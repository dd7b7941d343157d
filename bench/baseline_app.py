"""The load benchmark's baseline: a stand-in Django app of the product's request shape.

``bench/load.py`` serves it with the same gunicorn, workers, database and session store as the
product and drives it with the same Locust scenario, before and after the product's run, so
that the product's latency and CPU are read as ratios to it (docs/bench.md, "Same-run
baseline"). Its URLs are the product's, so the scenario does not know which app it talks to:

- ``/login/``: a form; the POST checks the password with the product's hasher and signs in;
- ``/play/t/<code>/``: GET the page (a version, a token, eight action buttons); POST a move:
  one guarded ``UPDATE … WHERE version = v`` and one ``INSERT`` of the move in a
  transaction, answered with a small partial (409 when the version is stale);
- ``/play/t/<code>/poll/?v=``: the session and one version read: 204 when unchanged, the
  partial otherwise.

Its two tables (``bench_baseline_table``, ``bench_baseline_move``) are created by
``python bench/baseline_app.py prepare`` with the students' table codes on stdin (JSON).

    DJANGO_SETTINGS_MODULE=baseline_settings gunicorn --pythonpath bench baseline_app
"""

from __future__ import annotations

import json
import os
import secrets
import sys
from pathlib import Path

from django.contrib.auth import SESSION_KEY, authenticate, get_user_model, login
from django.core.wsgi import get_wsgi_application
from django.db import connection, transaction
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template import engines
from django.urls import path
from django.utils import timezone

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "baseline_settings")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

ACTIONS = [json.dumps({"type": "ask", "card": n}) for n in range(8)]

LOGIN = """<form method="post">{% csrf_token %}<input name="username">
<input name="password" type="password"><button>Log in</button></form>"""
BOARD = """<div id="board" data-version="{{ version }}"><p>Move {{ version }}</p>
{% for action in actions %}<form method="post">{% csrf_token %}
<input type="hidden" name="version" value="{{ version }}">
<input type="hidden" name="token" value="{{ token }}">
<button name="action" value="{{ action }}">Card {{ forloop.counter }}</button></form>
{% endfor %}</div>"""
PAGE = "<!doctype html><html><body><main>" + BOARD + "</main></body></html>"


def _template(source: str):
    return engines["django"].from_string(source)


def _version(code: str, owner: str) -> int | None:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT version FROM bench_baseline_table WHERE code = %s AND owner_id = %s",
            [code, owner],
        )
        row = cursor.fetchone()
    return None if row is None else row[0]


def _board(request: HttpRequest, version: int, source: str = BOARD, status: int = 200):
    context = {"version": version, "token": secrets.token_hex(8), "actions": ACTIONS}
    return HttpResponse(_template(source).render(context, request), status=status)


def login_view(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        user = authenticate(
            request,
            username=request.POST.get("username", ""),
            password=request.POST.get("password", ""),
        )
        if user is not None:
            login(request, user)
            return HttpResponseRedirect("/")
        return HttpResponse("wrong password", status=400)
    return HttpResponse(_template(LOGIN).render({}, request))


def table_view(request: HttpRequest, code: str) -> HttpResponse:
    owner = request.session.get(SESSION_KEY)
    if owner is None:
        return HttpResponse(status=403)
    if request.method != "POST":
        version = _version(code, owner)
        return HttpResponse(status=404) if version is None else _board(request, version, PAGE)
    version = int(request.POST.get("version", "0"))
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            "UPDATE bench_baseline_table SET version = version + 1, state = %s "
            "WHERE code = %s AND owner_id = %s AND version = %s",
            [request.POST.get("action", ""), code, owner, version],
        )
        if cursor.rowcount != 1:
            return HttpResponse("stale", status=409)
        cursor.execute(
            "INSERT INTO bench_baseline_move (table_code, version, action, token, created_at) "
            "VALUES (%s, %s, %s, %s, %s)",
            [code, version + 1, request.POST.get("action", ""),
             request.POST.get("token", ""), timezone.now()],
        )  # fmt: skip
    return _board(request, version + 1)


def poll_view(request: HttpRequest, code: str) -> HttpResponse:
    owner = request.session.get(SESSION_KEY)
    version = None if owner is None else _version(code, owner)
    if version is None:
        return HttpResponse(status=404)
    if request.GET.get("v") == str(version):
        return HttpResponse(status=204)
    return _board(request, version)


urlpatterns = [
    path("login/", login_view),
    path("play/t/<str:code>/", table_view),
    path("play/t/<str:code>/poll/", poll_view),
]

SCHEMA = {
    "sqlite": [
        "CREATE TABLE IF NOT EXISTS bench_baseline_table (code varchar(32) PRIMARY KEY, "
        "owner_id varchar(32) NOT NULL, version integer NOT NULL, state text NOT NULL)",
        "CREATE TABLE IF NOT EXISTS bench_baseline_move (id integer PRIMARY KEY AUTOINCREMENT, "
        "table_code varchar(32) NOT NULL, version integer NOT NULL, action text NOT NULL, "
        "token varchar(64) NOT NULL, created_at datetime NOT NULL, UNIQUE (table_code, version))",
    ],
    "postgresql": [
        "CREATE TABLE IF NOT EXISTS bench_baseline_table (code varchar(32) PRIMARY KEY, "
        "owner_id varchar(32) NOT NULL, version integer NOT NULL, state text NOT NULL)",
        "CREATE TABLE IF NOT EXISTS bench_baseline_move (id bigserial PRIMARY KEY, "
        "table_code varchar(32) NOT NULL, version integer NOT NULL, action text NOT NULL, "
        "token varchar(64) NOT NULL, created_at timestamptz NOT NULL, "
        "UNIQUE (table_code, version))",
    ],
}


def prepare(students: list[dict]) -> None:
    """The two tables, emptied, and one table per student (its code, its owner, version 1)."""
    owners = dict(
        get_user_model()
        .objects.filter(username__in=[s["username"] for s in students])
        .values_list("username", "pk")
    )
    with transaction.atomic(), connection.cursor() as cursor:
        for statement in SCHEMA[connection.vendor]:
            cursor.execute(statement)
        # A database used by an earlier run (PostgreSQL): this run's tables only.
        cursor.execute("DELETE FROM bench_baseline_move")
        cursor.execute("DELETE FROM bench_baseline_table")
        cursor.executemany(
            "INSERT INTO bench_baseline_table (code, owner_id, version, state) "
            "VALUES (%s, %s, 1, '')",
            [(s["table"], str(owners[s["username"]])) for s in students],
        )


application = get_wsgi_application()

if __name__ == "__main__" and sys.argv[1:] == ["prepare"]:
    prepare(json.load(sys.stdin)["students"])
