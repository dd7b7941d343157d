"""Issue #23: a GET never writes the product's state.

Every GET route of the URLconf (the fuzz test's enumeration, ``ROUTES``), its parameters
filled with every known id and code, is requested as a page and as an htmx request by each
role (nobody, a teacher, her student, a self-learner, another teacher), with the table in the
states that used to make a GET write (its player away and their seat left; the turn timer
running, then overdue), a finished table for the replay and an open quiz run. Every statement
the request runs, and the callbacks it leaves for after the commit, is captured; an INSERT,
UPDATE or DELETE fails the test unless ``ALLOWED`` names it, with its reason (docs/web.md,
"GETs never write").
"""

from __future__ import annotations

import re
from datetime import timedelta
from itertools import product
from urllib.parse import quote

import pytest
from django.contrib.sessions.models import Session
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from factories import taught
from module_rows import module_rows

from games.demo import _play_human_moves
from games.models import Move, Seat, Table
from games.services.tables import table_create
from kanagame.accounts.models import RateCounter, Role
from kanagame.accounts.services import user_create
from learning.classroom.models import Assignment, Membership
from learning.classroom.services.classroom import classroom_create, membership_join
from learning.models import Prompt
from learning.services.quiz import quiz_start
from tests.security.test_fuzz_every_url import PARAM, ROUTES

# The writes a GET may make: none of them is a change a person asked for. Each entry: the
# table, the statement (a pattern), the routes (None: any), and why it is not the product's
# state (docs/web.md, "GETs never write").
ALLOWED = [
    (
        Session._meta.db_table,
        r".",
        None,
        "the session framework saves the visitor's session (a new visitor, the tables a page "
        "was shown for the cheap poll): the browsing state, not the product's",
    ),
    (
        RateCounter._meta.db_table,
        r".",
        None,
        "unknown table codes are counted per address to slow down guessing (docs/security.md "
        "§8): a wrong code must count on a GET too, or guessing would be free",
    ),
    (
        Prompt._meta.db_table,
        r'SET "displayed_at" = .*"displayed_at" IS NULL',
        None,
        "when a question was first put on screen, once: response time is measured "
        "server-side from the GET that served it (ARCHITECTURE §4), nothing a person sees",
    ),
]
# Only while the turn timer is overdue, only on the poll: the clock made the stand-in's turn
# due, the beat sweep would play it within 5 s anyway; the poll brings it forward (claimed
# once by a guarded UPDATE). The same poll with the timer not yet run out writes nothing.
OVERDUE_POLL = "play/t/<str:code>/poll/"
HX = {"HTTP_HX_REQUEST": "true"}
WRITE = re.compile(
    r'^\s*(?:WITH\b.*?\)\s*)?(INSERT\s+INTO|UPDATE|DELETE\s+FROM|REPLACE\s+INTO)\s+"?(\w+)"?',
    re.I | re.S,
)


@pytest.fixture(scope="module")
def _cast_once(django_db_setup, django_db_blocker):
    """The cast, built once per test process inside a transaction each test's own nests in
    (Django's ``setUpTestData`` pattern): every test starts from these rows, and its changes
    are rolled back with it."""
    yield from module_rows(django_db_blocker, _cast_build)


@pytest.fixture
def cast(_cast_once, db):
    return _cast_once


def _cast_build() -> dict:
    alice = user_create(username="alice", password="pw-alice-2026", role=Role.TEACHER)
    dave = user_create(username="dave", password="pw-dave-2026", role=Role.TEACHER)
    alice_class = classroom_create(teacher=alice, name="5B")
    bob = user_create(username="bob", password="pw-bob-2026", role=Role.STUDENT, created_by=alice)
    Membership.objects.create(classroom=alice_class, student=bob)
    sam = user_create(username="sam", password="pw-sam-2026", role=Role.SELF_LEARNER)
    membership_join(student=sam, code=alice_class.join_code)
    table = table_create(
        user=bob,
        engine="kazoku-families",
        options={"timer": 30},
        seats=[{"kind": "human", "user": bob}, {"kind": "bot", "level": "easy"}],
        classroom=alice_class,
    )
    finished = table_create(
        user=sam,
        engine="kazoku-families",
        options={},
        seats=[{"kind": "human", "user": sam}, {"kind": "bot", "level": "normal"}],
    )
    _play_human_moves(finished, sam)
    finished.refresh_from_db()
    assert finished.status == "finished"
    assignment = Assignment.objects.create(classroom=alice_class, due_at=timezone.now())
    taught(sam)
    quiz_start(learner=sam)  # a quiz run: its page puts a question on screen
    users = {"anonymous": None, "alice": alice, "bob": bob, "sam": sam, "dave": dave}
    values = {
        "class_id": [alice_class.pk, 0],
        "student_id": [bob.pk, sam.pk, dave.pk],
        "assignment_id": [assignment.pk, 0],
        "prompt_id": [0, 1],
        "code": [table.code, finished.code, "ZZZZZZ"],
        "engine": ["kazoku-families", "bozu", "chess"],
        "user_id": [bob.pk, sam.pk, 0],
        "script": ["hiragana", "katakana"],
        "kana_id": ["shi", "zz"],
    }
    return {"users": users, "values": values, "table": table}


def _away(table: Table, *, overdue: bool) -> None:
    """The states in which a GET used to write: the player away (their seat left), the turn
    timer run out (or not); the table as dealt (an overdue poll lets the stand-in play)."""
    Move.objects.filter(table=table, version__gt=table.version).delete()
    Seat.objects.filter(table=table, user__isnull=False).update(
        autoplay=True, left_at=timezone.now()
    )
    due = timezone.now() + timedelta(minutes=-5 if overdue else 5)
    Table.objects.filter(pk=table.pk).update(
        turn_due_at=due, status=table.status, state=table.state, version=table.version
    )


def _urls(route: str, values: dict) -> list[str]:
    names = [m["name"] for m in PARAM.finditer(route)]
    urls = []
    for combo in product(*(values.get(name, [1]) for name in names)):
        filled = dict(zip(names, combo, strict=True))
        urls.append("/" + PARAM.sub(lambda m, f=filled: quote(str(f[m["name"]]), safe=""), route))
    if route.endswith("poll/"):
        urls = [f"{url}?v={v}" for url in urls for v in ("0", "1", "o1")]
    return urls


def _allowed(table: str, sql: str, route: str) -> bool:
    return any(
        table == name and re.search(pattern, sql, re.S) and (routes is None or route in routes)
        for name, pattern, routes, _why in ALLOWED
    )


def _writes(queries, route: str, *, overdue: bool) -> list[tuple[str, str]]:
    if overdue and route == OVERDUE_POLL:
        return []
    found = []
    for query in queries:
        match = WRITE.match(query["sql"])
        if match and not _allowed(match[2], query["sql"], route):
            found.append((match[2], query["sql"][:160]))
    return found


# one test per caller and timer state (not one per timer state): ten tests of ~2 s spread over
# the test processes, where two of ~12 s ended a run on one process
@pytest.mark.parametrize("who", ["anonymous", "alice", "bob", "sam", "dave"])
@pytest.mark.parametrize("overdue", [False, True], ids=["timer-running", "timer-overdue"])
def test_no_get_writes_the_products_state(cast, overdue, who, django_capture_on_commit_callbacks):
    table = cast["table"]
    problems = []
    user = cast["users"][who]
    assert set(cast["users"]) == {"anonymous", "alice", "bob", "sam", "dave"}  # every caller
    client = Client()
    if user is not None:
        client.force_login(user)
    for route in ROUTES:
        # as a page and as an htmx request (the partials: boards, questions, replays)
        for url, headers in product(_urls(route, cast["values"]), ({}, HX)):
            _away(table, overdue=overdue)
            RateCounter.objects.all().delete()
            with (
                CaptureQueriesContext(connection) as captured,
                django_capture_on_commit_callbacks(execute=True),
            ):
                response = client.get(url, **headers)
            how = "htmx GET" if headers else "GET"
            for name, sql in _writes(captured.captured_queries, route, overdue=overdue):
                status = response.status_code
                problems.append(f"{how} {url} as {who} ({status}): {name}: {sql}")
    assert not problems, "\n".join(sorted(set(problems)))


def test_the_write_finder_sees_what_a_get_must_not_do():
    """The finder itself: a plain write is found, each allowance only where it applies."""
    seat = 'UPDATE "games_seat" SET "autoplay" = 0 WHERE "games_seat"."id" = 1'
    shown = 'UPDATE "learning_prompt" SET "displayed_at" = 1 WHERE "displayed_at" IS NULL'
    answered = 'UPDATE "learning_prompt" SET "status" = 2 WHERE "id" = 1'
    inserted = 'WITH x AS (SELECT 1) INSERT INTO "games_move" ("table_id") VALUES (1)'
    queries = [{"sql": sql} for sql in (seat, shown, answered, inserted)]
    found = [name for name, _sql in _writes(queries, "play/t/<str:code>/", overdue=True)]
    assert found == ["games_seat", "learning_prompt", "games_move"]
    assert _writes(queries, OVERDUE_POLL, overdue=True) == []
    assert len(_writes(queries, OVERDUE_POLL, overdue=False)) == 3
