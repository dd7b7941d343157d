"""Two web nodes, one database (issue 28): a class spread over two gunicorn instances.

Two gunicorn instances on two ports share the test database (PostgreSQL), Redis and one
Celery worker of their own, as two hosts behind a school district's proxy would. Every
request of these tests goes over HTTP to one node or the other, the same session cookie on
both (one site behind one proxy): the log-in and join limits count across the nodes, a move
on one node is seen by a poll on the other, a stale version is refused by either, a prompt
opened on one is answered on the other, an overdue turn is played once by a stand-in however
many nodes poll it, and the CPU players reply through the worker whichever node took the move.

Run only with DATABASE_URL (PostgreSQL) and REDIS_URL set: CI's pass 2 (marked ``redis`` and
``postgresql``: pass 2b fails if they were skipped there).
"""

from __future__ import annotations

import os
import re
import secrets
import sys
import threading
import time
from datetime import timedelta
from pathlib import Path

import pytest
import requests
from django.conf import settings
from django.db import connection
from django.utils import timezone

from games.engines import action_key, get_engine
from games.models import Move, Seat, Table
from games.services.tables import table_create
from kanagame.accounts.hashers import SchoolArgon2PasswordHasher
from kanagame.celery import app as celery_app
from learning.models import Prompt

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench"
sys.path.insert(0, str(BENCH))

import load  # noqa: E402  (bench/load.py: free ports, gunicorn, the worker)

PASSWORD = "two-nodes-2026"
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
VERSION = re.compile(r'data-version="(\d+)"')
TOKEN = re.compile(r'name="token" value="([^"]+)"')

pytestmark = [
    pytest.mark.redis,
    pytest.mark.postgresql,
    pytest.mark.django_db(transaction=True),
]


def _database_url() -> str:
    db = settings.DATABASES["default"]
    auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture(scope="module")
def nodes(django_db_setup, django_db_blocker, tmp_path_factory):
    """Two gunicorn nodes and one Celery worker on the test database; their base URLs."""
    if not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")):
        pytest.skip("two nodes share PostgreSQL and Redis: CI pass 2 (DATABASE_URL, REDIS_URL)")
    with django_db_blocker.unblock():
        if connection.vendor != "postgresql":
            pytest.skip("two nodes share PostgreSQL: CI pass 2")
        url = _database_url()
    workdir = tmp_path_factory.mktemp("kanagame-two-nodes")
    env = load.server_env(workdir)
    env["DATABASE_URL"] = url
    env.pop("SQLITE_PATH", None)
    load.manage(env, "collectstatic", "--noinput")  # production settings: hashed static names
    worker = load.celery_worker(env, workdir / "celery.log")
    ports = [load.free_port(), load.free_port()]
    servers = [load.serve(env, port, 2, workdir / f"node-{port}.log") for port in ports]
    try:
        deadline = time.monotonic() + 90
        while "ready" not in (workdir / "celery.log").read_text():
            assert time.monotonic() < deadline, (workdir / "celery.log").read_text()[-2000:]
            time.sleep(0.5)
        hosts = [f"http://127.0.0.1:{port}" for port in ports]
        for host in hosts:
            load.warm_up(host, 2)
        yield hosts
    finally:
        load.stop([*servers, worker])


class Browser:
    """One person's browser: one cookie jar for the site, whichever node answers.

    Production cookies are Secure and the nodes speak plain HTTP on loopback: the jar keeps
    them and every request sends them (``requests`` itself would not, over HTTP)."""

    def __init__(self) -> None:
        self.http = requests.Session()

    def _send(self, method: str, url: str, headers: dict | None = None, **kw):
        cookies = "; ".join(f"{c.name}={c.value}" for c in self.http.cookies)
        headers = {**(headers or {}), **({"Cookie": cookies} if cookies else {})}
        return self.http.request(
            method, url, headers=headers, allow_redirects=False, timeout=60, **kw
        )

    def get(self, url: str, **kw) -> requests.Response:
        return self._send("GET", url, **kw)

    def post(self, url: str, data: dict, *, page: str | None = None, **kw) -> requests.Response:
        """POST ``data`` with the CSRF token of ``page`` (default: ``url`` itself)."""
        form = self.get(page or url)
        token = CSRF.search(form.text)
        data = {"csrfmiddlewaretoken": token.group(1) if token else "", **data}
        return self._send("POST", url, data=data, **kw)

    def log_in(self, host: str, username: str, password: str = PASSWORD) -> requests.Response:
        return self.post(f"{host}/login/", {"username": username, "password": password})


def _student(username: str):
    """A student whose password the nodes check with the product's own hasher."""
    from factories import StudentFactory

    user = StudentFactory(username=username)
    user.password = SchoolArgon2PasswordHasher().encode(PASSWORD, secrets.token_hex(8))
    user.save(update_fields=["password"])
    return user


def _table(*seats, **options) -> Table:
    """A dealt table, created in this process with its follow-ups inline (not queued to the
    CI worker, whose database is another)."""
    eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    try:
        specs = [
            {"kind": "human", "user": s} if not isinstance(s, str) else {"kind": "bot", "level": s}
            for s in seats
        ]
        owner = next(s for s in seats if not isinstance(s, str))
        table = table_create(
            user=owner, engine="kazoku-families", options={"prompts": "off", **options},
            seats=specs,
        )  # fmt: skip
    finally:
        celery_app.conf.task_always_eager = eager
    table.refresh_from_db()
    return table


def _to_act(table: Table) -> list[int]:
    table.refresh_from_db()
    return get_engine(table.engine).to_act(get_engine(table.engine).from_json(table.state))


def _move(browser: Browser, host: str, table: Table, seat: int, version: int | None = None):
    """POST the seat's first legal action at ``version`` (default: the table's) to ``host``."""
    table.refresh_from_db()
    eng = get_engine(table.engine)
    key = action_key(eng.legal_actions(eng.from_json(table.state), seat)[0])
    url = f"{host}/play/t/{table.code}/"
    page = browser.get(url)
    return browser._send(
        "POST",
        url,
        data={
            "csrfmiddlewaretoken": CSRF.search(page.text).group(1),
            "version": table.version if version is None else version,
            "token": secrets.token_hex(8),
            "action": key,
        },
        headers={"HX-Request": "true"},
    )


def _contiguous(table: Table) -> bool:
    """The Move log has no hole and no double."""
    versions = list(Move.objects.filter(table=table).order_by("version").values_list("version"))
    versions = [v for (v,) in versions]
    return bool(versions) and versions == list(range(versions[0], versions[0] + len(versions)))


# --- limits ------------------------------------------------------------------------------


def test_the_login_limit_counts_failures_on_both_nodes(nodes):
    a, b = nodes
    _student("limit-pupil")
    browser = Browser()
    limit = settings.LOGIN_FAILURE_LIMIT
    for attempt in range(limit - 1):  # failures alternate between the nodes
        refused = browser.log_in(nodes[attempt % 2], "limit-pupil", "wrong-password")
        assert refused.status_code == 200, (attempt, refused.status_code)  # the form again
    last = browser.log_in(nodes[(limit - 1) % 2], "limit-pupil", "wrong-password")
    assert last.status_code == 429  # the limit-th failure, whichever node counted the others
    for host in (a, b):  # locked on both, even with the right password
        locked = browser.log_in(host, "limit-pupil")
        assert locked.status_code == 429 and locked.headers.get("Retry-After")


def test_the_join_limit_counts_wrong_codes_on_both_nodes(nodes):
    from learning.classroom.views.join import FAILED_CODES_LIMIT

    browser = Browser()
    for attempt in range(FAILED_CODES_LIMIT):
        wrong = browser.post(
            f"{nodes[attempt % 2]}/join/",
            {"code": f"NOPE-{attempt:03d}", "display_name": "Kim", "password": "pw-12345678",
             "password_again": "pw-12345678"},
        )  # fmt: skip
        assert wrong.status_code == 400, (attempt, wrong.status_code)
    for host in nodes:
        assert browser.post(f"{host}/join/", {"code": "NOPE-999"}).status_code == 429


# --- live tables ---------------------------------------------------------------------------


def test_a_move_on_one_node_is_seen_by_a_poll_on_the_other_and_stale_versions_refused(nodes):
    a, b = nodes
    ann, ben = _student("ann-two"), _student("ben-two")
    table = _table(ann, ben)
    ann_browser, ben_browser = Browser(), Browser()
    assert ann_browser.log_in(a, "ann-two").status_code == 302
    assert ben_browser.log_in(b, "ben-two").status_code == 302
    ann_at = {0: ann_browser, 1: ben_browser}
    seen = table.version
    for turn in range(6):
        seat = _to_act(table)[0]
        mover, watcher = (a, b) if turn % 2 == 0 else (b, a)
        played = _move(ann_at[seat], mover, table, seat)
        assert played.status_code == 200, played.text[:300]
        table.refresh_from_db()
        assert table.version > seen
        # the other player, on the other node, polls with the version they saw
        other = ann_at[1 - seat]
        polled = other.get(
            f"{watcher}/play/t/{table.code}/poll/?v={seen}", headers={"HX-Request": "true"}
        )
        assert polled.status_code == 200 and VERSION.search(polled.text).group(1) == str(
            table.version
        )
        unchanged = other.get(
            f"{mover}/play/t/{table.code}/poll/?v={table.version}", headers={"HX-Request": "true"}
        )
        assert unchanged.status_code == 204
        # whoever plays next, from a tab on the other node still showing the old version
        after = _to_act(table)[0]
        stale = _move(ann_at[after], watcher, table, after, version=seen)
        assert stale.status_code == 409, stale.status_code
        seen = table.version
    assert _contiguous(table)


def test_the_same_move_sent_to_both_nodes_at_once_is_played_once(nodes):
    ann = _student("ann-race")
    table = _table(ann, "easy")
    while _to_act(table) != [0]:  # the CPU plays inline at the deal; then it is ann's turn
        time.sleep(0.2)
    browsers = [Browser(), Browser()]  # two tabs, one per node, the same person
    for browser, host in zip(browsers, nodes, strict=True):
        assert browser.log_in(host, "ann-race").status_code == 302
    for _round in range(5):
        deadline = time.monotonic() + 30
        while _to_act(table) != [0] and table.status == "playing":  # the worker replies
            assert time.monotonic() < deadline, "the CPU reply never came"
            time.sleep(0.2)
        if table.status != "playing":
            break
        version = table.version
        barrier, statuses = threading.Barrier(2), []

        def tab(browser, host, version=version, barrier=barrier, statuses=statuses):
            eng = get_engine(table.engine)
            key = action_key(eng.legal_actions(eng.from_json(table.state), 0)[0])
            page = browser.get(f"{host}/play/t/{table.code}/")
            data = {"csrfmiddlewaretoken": CSRF.search(page.text).group(1), "version": version,
                    "token": secrets.token_hex(8), "action": key}  # fmt: skip
            barrier.wait()
            response = browser._send(
                "POST", f"{host}/play/t/{table.code}/", data=data, headers={"HX-Request": "true"}
            )
            statuses.append(response.status_code)

        threads = [
            threading.Thread(target=tab, args=(b, h)) for b, h in zip(browsers, nodes, strict=True)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(statuses) == [200, 409], statuses
        assert Move.objects.filter(table=table, version=version + 1, by_bot=False).count() == 1
    # the worker's reply to the last move lands before the test ends: a reply still in its
    # transaction when the test database is flushed deadlocked with the TRUNCATE (CI, session 18)
    deadline = time.monotonic() + 30
    while _to_act(table) != [0] and table.status == "playing":
        assert time.monotonic() < deadline, "the CPU reply never came"
        time.sleep(0.2)
    assert _contiguous(table)


# --- CPU seats, prompts, turn timers ------------------------------------------------------


def test_cpu_players_reply_through_the_worker_whichever_node_took_the_move(nodes):
    ann = _student("ann-cpu")
    table = _table(ann, "normal", "normal")
    browser = Browser()
    assert browser.log_in(nodes[0], "ann-cpu").status_code == 302
    for turn in range(8):
        deadline = time.monotonic() + 30
        while _to_act(table) != [0] and table.status == "playing":
            assert time.monotonic() < deadline, "the CPU players never replied"
            time.sleep(0.2)
        if table.status != "playing":
            break
        before = table.version
        played = _move(browser, nodes[turn % 2], table, 0)
        assert played.status_code == 200
        # the board the poll of the other node shows, once the worker has replied
        deadline = time.monotonic() + 30
        while True:
            polled = browser.get(
                f"{nodes[(turn + 1) % 2]}/play/t/{table.code}/poll/?v={before}",
                headers={"HX-Request": "true"},
            )
            assert polled.status_code in (200, 286), polled.status_code
            if polled.status_code == 286 or 'name="action"' in polled.text:
                break
            assert time.monotonic() < deadline, "no board with ann's actions on the other node"
            time.sleep(0.3)
    assert Move.objects.filter(table=table, by_bot=True).exists()
    assert _contiguous(table)


def test_a_prompt_opened_on_one_node_is_answered_on_the_other(nodes):
    a, b = nodes
    ann = _student("ann-prompt")
    table = _table(ann, "easy", prompts="new")
    prompt = Prompt.objects.filter(learner=ann, table_id=table.pk, status="open").first()
    assert prompt is not None, "a deal with prompts 'new' opens a question on the cards dealt"
    browser = Browser()
    assert browser.log_in(a, "ann-prompt").status_code == 302
    page = browser.get(f"{b}/play/t/{table.code}/")
    assert f"/learn/prompts/{prompt.pk}/answer/" in page.text
    answer = prompt.choices[0] if prompt.choices else "ka"
    answered = browser.post(
        f"{a}/learn/prompts/{prompt.pk}/answer/",
        {"answer": answer, "table_id": str(table.pk)},
        page=f"{b}/play/t/{table.code}/",
    )
    assert answered.status_code in (200, 302)
    prompt.refresh_from_db()
    assert prompt.status == "answered"
    again = browser.post(
        f"{b}/learn/prompts/{prompt.pk}/answer/",
        {"answer": answer, "table_id": str(table.pk)},
        page=f"{b}/play/t/{table.code}/",
    )
    assert again.status_code == 409, again.status_code  # not answered twice
    prompt.refresh_from_db()
    assert prompt.answered_at is not None


def test_an_overdue_turn_polled_on_both_nodes_at_once_is_played_once(nodes):
    ann, ben = _student("ann-timer"), _student("ben-timer")
    table = _table(ann, ben, timer=30)
    browsers = {0: Browser(), 1: Browser()}
    for seat, (browser, host) in enumerate(zip(browsers.values(), nodes, strict=True)):
        assert browser.log_in(host, ["ann-timer", "ben-timer"][seat]).status_code == 302
    absent = _to_act(table)[0]
    present = browsers[1 - absent]
    version = table.version
    Table.objects.filter(pk=table.pk).update(turn_due_at=timezone.now() - timedelta(seconds=5))
    barrier, statuses = threading.Barrier(4), []

    def poll(host):
        barrier.wait()
        response = present.get(
            f"{host}/play/t/{table.code}/poll/?v={version}", headers={"HX-Request": "true"}
        )
        statuses.append(response.status_code)

    threads = [threading.Thread(target=poll, args=(host,)) for host in [*nodes, *nodes]]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(status in (200, 204) for status in statuses), statuses
    assert 200 in statuses  # the stand-in played: the board changed
    table.refresh_from_db()
    assert table.version > version
    assert Seat.objects.get(table=table, index=absent).autoplay
    stood_in = Move.objects.filter(table=table, version=version + 1)
    assert stood_in.count() == 1 and stood_in.get().seat == absent
    assert _contiguous(table)
