"""Issue 12, proof: random input on every URL and every POST field never gives a 500, and a
refused request changes nothing.

Hypothesis draws the URL (every pattern of the URLconf, its parameters filled with real ids
and codes or random text), who asks (nobody, a teacher, their student, a self-learner,
another teacher), the method and the body: every form field name the site renders, with
random text (NUL, control characters, huge and empty values), or raw bytes under a wrong
content type or a foreign charset. Runs on SQLite and PostgreSQL alike (set DATABASE_URL);
FUZZ_EXAMPLES raises the number of requests per URL pattern (default 12).
"""

from __future__ import annotations

import os
import re
from itertools import product
from urllib.parse import quote, urlencode

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from module_rows import module_rows
from signed_in import signed_in

from games.models import Move, Rating, RatingChange, Seat, Table
from games.services.tables import table_create
from kanagame.accounts.models import LoginFailure, Profile, RateCounter, Role
from kanagame.accounts.services import user_create
from learning.classroom.models import Assignment, Classroom, Membership
from learning.classroom.services.classroom import classroom_create, membership_join
from learning.models import DailySession, KanaMemory, LearnerSettings, LearningEvent, Prompt

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "12"))  # per URL pattern
PARAM = re.compile(r"<(?:(?P<converter>\w+):)?(?P<name>\w+)>")
# Tables whose rows a refusal must leave alone (limiter counters and sessions may change).
WATCHED = (
    get_user_model(),
    Profile,
    Classroom,
    Membership,
    Assignment,
    Table,
    Seat,
    Move,
    Rating,
    RatingChange,
    LearningEvent,
    KanaMemory,
    Prompt,
    DailySession,
    LearnerSettings,
)
VOLATILE_FIELDS = {"last_login", "last_seen_at"}


def _routes(patterns, prefix: str = ""):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            route = prefix + str(pattern.pattern)
            if route.startswith("admin/") and ("(?P" in route or "^" in route):
                route = "admin/auth/"  # the admin's regex routes: one real example
            yield route


ROUTES = sorted(set(_routes(get_resolver().url_patterns)))
NASTY = [
    "",
    "\x00",
    "a\x00b",
    "\x01\x1f\x7f",
    "\r\n",
    "\ud7ff",
    "ｌｏｇｉｎ",
    "＝1+1",
    "-1",
    "0",
    "99999999999999999999",
    "x" * 20_000,
    "<script>",
    "' OR 1=1 --",
    "%00",
    "../../etc",
    # issue 24: digits int() refuses or reads, ids past 64 bits, full-width names
    # (superscript, Arabic-Indic, full-width, circled: isdigit() but no decimal, mathematical:
    # a decimal int() reads; other scripts' decimals behave as the Arabic-Indic one), 30-digit
    # ids either sign, full-width names (two of them real accounts' names in full width)
    *(
        NEW_VALUES := [
            "²", "٣", "１２", "①", "𝟗", "9" * 30, "-" + "9" * 30,
            "Ｓtudent4", "ｓtudent4", "ＢＯＢ", "ａｌｉｃｅ",
        ]
    ),
]  # fmt: skip
nasty_text = st.one_of(st.sampled_from(NASTY), st.text(max_size=40))
CONTENT_TYPES = [
    "application/x-www-form-urlencoded",
    "application/json",
    "text/plain",
    "",
    "multipart/form-data",
    "multipart/form-data; boundary=zz",
    "application/x-www-form-urlencoded; charset=latin-1",
    "application/x-www-form-urlencoded; charset=utf-16",
    "text/html; charset=koi8-r",
]


@pytest.fixture(scope="module")
def _world_once(django_db_setup, django_db_blocker):
    """The world, built once per test process and module inside a transaction that each
    test's own transaction nests in (Django's ``setUpTestData`` pattern): every test starts
    from exactly these rows, its changes are rolled back with it, and the rows go when the
    module's last test is done. Building it for each of the ~130 tests cost ~10 s of CPU."""
    yield from module_rows(django_db_blocker, _world_build)


@pytest.fixture
def world(_world_once, db):
    return _world_once


def _world_build() -> dict:
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
        options={},
        seats=[{"kind": "human", "user": bob}, {"kind": "bot", "level": "easy"}],
        classroom=alice_class,
    )
    assignment = Assignment.objects.create(classroom=alice_class, due_at=timezone.now())
    users = {"anonymous": None, "alice": alice, "bob": bob, "sam": sam, "dave": dave}
    values = {
        "class_id": [alice_class.pk, 0, 10**12],
        "student_id": [bob.pk, sam.pk, dave.pk, 0],
        "assignment_id": [assignment.pk, 0],
        "prompt_id": [0, 1, 10**12],
        "code": [table.code, table.code.lower(), "ZZZZZZ"],
        "engine": ["kazoku-families", "kazoku-words", "bozu", "chess"],
        "user_id": [bob.pk, sam.pk, dave.pk, 0, 10**12],
        "script": ["hiragana", "katakana", "latin"],
        "kana_id": ["shi", "ka", "zz"],
    }
    if not _FIELDS:
        with transaction.atomic():  # the harvest's own writes (sessions) are not the world's
            _FIELDS.extend(_harvest_fields(users, values))
            transaction.set_rollback(True)
    return {"users": users, "values": values, "fields": _FIELDS}


_FIELDS: list[str] = []  # form field names are the same in every test database: found once


def _harvest_fields(users: dict, values: dict) -> list[str]:
    """Every field name the site renders in a form, for every role."""
    fields = set()
    for user in users.values():
        client = signed_in(user)
        for route in ROUTES:
            if route.startswith("admin"):
                continue
            path = "/" + PARAM.sub(lambda m: quote(str(values[m["name"]][0]), safe=""), route)
            response = client.get(path)
            if response.streaming or not response["Content-Type"].startswith("text/html"):
                continue
            html = response.content.decode(errors="replace")
            fields |= set(re.findall(r'name="([^"]+)"', html))
    fields |= {
        "username",
        "password",
        "code",
        "action",
        "name",
        "confirm_name",
        "version",
        "token",
        "key",
        "level",
        "answer",
        "prompt",
        "table_id",
        "next",
        "own_device",
    }
    fields.discard("csrfmiddlewaretoken")
    return sorted(fields)


def _path(draw, route: str, values: dict) -> str:
    def fill(match: re.Match) -> str:
        known = values.get(match["name"], [])
        if match["converter"] == "int":
            value = draw(
                st.one_of(
                    st.sampled_from(known or [1]),
                    st.integers(0, 10**15),
                    st.just(10**30),  # 30 digits: past every 64-bit column (issue 24)
                )
            )
        else:
            value = draw(st.one_of(st.sampled_from(known or ["x"]), nasty_text))
        return quote(str(value), safe="")

    return "/" + PARAM.sub(fill, route)


def _snapshot() -> tuple:
    """Every watched row as the database holds it (raw column values, in primary-key order),
    the volatile columns left out: one plain SELECT per table, no model instances built."""
    state = []
    with connection.cursor() as cursor:
        for model in WATCHED:
            meta = model._meta
            columns = [f.column for f in meta.concrete_fields if f.name not in VOLATILE_FIELDS]
            quoted = ", ".join(connection.ops.quote_name(column) for column in columns)
            table = connection.ops.quote_name(meta.db_table)
            pk = connection.ops.quote_name(meta.pk.column)
            cursor.execute(f"SELECT {quoted} FROM {table} ORDER BY {pk}")
            state.append((meta.db_table, tuple(cursor.fetchall())))
    return tuple(state)


@pytest.fixture
def unchanged():
    """One per test (shared by a Hypothesis test's examples: the database is not rolled back
    between them, and a refusal leaves it as it was)."""
    return Unchanged()


class Unchanged:
    """The watched rows before each request, and the check that a refusal left them alone.

    A refused request leaves the rows as they were, so the rows read after it are the next
    request's "before": one snapshot per refusal instead of two. Any other answer may have
    changed them, so the next request reads them anew."""

    def __init__(self) -> None:
        self.before: tuple | None = None

    def take(self) -> None:
        if self.before is None:
            self.before = _snapshot()

    def check(self, response, note: str) -> None:
        assert response.status_code < 500, note
        if response.status_code >= 400:
            assert _snapshot() == self.before, note
        else:
            self.before = None


@st.composite
def requests(draw, world, route):
    path = _path(draw, route, world["values"])
    who = draw(st.sampled_from(sorted(world["users"])))
    method = draw(st.sampled_from(["GET", "POST", "POST", "POST", "PUT", "DELETE"]))
    query = draw(
        st.dictionaries(
            st.sampled_from(world["fields"] + ["v", "step", "script"]), nasty_text, max_size=3
        )
    )
    form = draw(st.dictionaries(st.sampled_from(world["fields"]), nasty_text, max_size=8))
    raw = draw(
        st.one_of(st.none(), st.tuples(st.sampled_from(CONTENT_TYPES), st.binary(max_size=300)))
    )
    return route, path, who, method, query, form, raw


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)
@pytest.mark.parametrize("route", ROUTES)
@given(data=st.data())
def test_no_input_anywhere_gives_a_500_or_changes_state_when_refused(world, unchanged, route, data):
    route, path, who, method, query, form, raw = data.draw(requests(world, route))
    LoginFailure.objects.all().delete()  # no lockout left over from an earlier example
    RateCounter.objects.all().delete()
    client = signed_in(world["users"][who], raise_request_exception=True)
    url = path + ("?" + urlencode(query) if query else "")
    unchanged.take()
    if method == "GET":
        response = client.get(url)
    elif raw is not None:
        response = client.generic(method, url, raw[1], content_type=raw[0])
    elif method == "POST" and data.draw(st.booleans()):
        response = client.post(url, form)  # multipart
    else:
        body = urlencode(form).encode()
        response = client.generic(
            method, url, body, content_type="application/x-www-form-urlencoded"
        )
    unchanged.check(response, f"{method} {url[:200]} as {who} ({route})")


# --- issue 24: every new value in every form field and id, deterministically ----------------
# The random walk above may miss a given field; here each new value fills every id in the
# address and every field name the site renders (query string and form), for each caller.


def _send(client: Client, how: str, url: str, fields: dict):
    """``post`` as a multipart form (a forged client's choice), ``htmx`` URL-encoded, as htmx
    and every form of the site send it (none asks for multipart)."""
    if how == "get":
        return client.get(url, fields)
    if how == "post":
        return client.post(url, fields)
    return client.post(
        f"{url}?{urlencode(fields)}",
        urlencode(fields),
        content_type="application/x-www-form-urlencoded",
        HTTP_HX_REQUEST="true",
    )


def _fill(route: str, value_of) -> str:
    return "/" + PARAM.sub(lambda match: quote(str(value_of(match)), safe=""), route)


@pytest.mark.parametrize("route", [r for r in ROUTES if not r.startswith("admin")])
def test_unicode_digits_long_ids_and_full_width_names_never_give_a_500(world, unchanged, route):
    """Each new value in every field name and id of the route, as GET, POST and htmx POST;
    the callers take turns (every value reaches each route as some caller, every caller
    sends some value): ~1,000 requests instead of five times as many."""
    known = _fill(route, lambda m: world["values"].get(m["name"], [1])[0])
    callers = sorted(world["users"])
    for turn, value in enumerate(NEW_VALUES):
        fields = dict.fromkeys(world["fields"], value)
        path = _fill(route, lambda m, v=value: "9" * 30 if m["converter"] == "int" else v)
        who = callers[(turn + len(route)) % len(callers)]
        client = signed_in(world["users"][who], raise_request_exception=True)
        for url, how in product(sorted({path, known}), ("get", "post", "htmx")):
            LoginFailure.objects.all().delete()
            RateCounter.objects.all().delete()
            unchanged.take()
            response = _send(client, how, url, fields)
            unchanged.check(response, f"{how} {url} {value!r} as {who}")


# --- the admin's forms, as a superuser ------------------------------------------------------
# The callers above are not staff: the admin answers them with its login page. Here a
# superuser sends each new value to every field the admin renders and every object id of
# its pages (the user admin routes deletions through account_erase, learning/classroom/admin.py).


def _admin_urls(user_pk: int, group_pk: int, value: str) -> list[str]:
    from django.urls import reverse

    urls = ["/admin/", "/admin/auth/", "/admin/login/"]
    for name, pk in (("auth_user", user_pk), ("auth_group", group_pk)):
        urls += [reverse(f"admin:{name}_changelist"), reverse(f"admin:{name}_add")]
        for object_id in (pk, "9" * 30, value):
            urls += [
                reverse(f"admin:{name}_change", args=[object_id]),
                reverse(f"admin:{name}_history", args=[object_id]),
                reverse(f"admin:{name}_delete", args=[object_id]),
            ]
            if name == "auth_user":
                urls.append(reverse("admin:auth_user_password_change", args=[object_id]))
    return urls


_ADMIN_FIELDS: list[str] = []  # the admin's field names, the same in every test database


def _admin_fields(client: Client, target_pk: int, group_pk: int) -> list[str]:
    if not _ADMIN_FIELDS:
        fields = set()
        for url in _admin_urls(target_pk, group_pk, "x"):
            html = client.get(url).content.decode(errors="replace")
            fields |= set(re.findall(r'name="([^"]+)"', html))
        _ADMIN_FIELDS.extend(sorted(fields - {"csrfmiddlewaretoken"}))
    return _ADMIN_FIELDS


@pytest.mark.parametrize("value", NEW_VALUES)
def test_the_admins_forms_and_ids_take_every_new_value_without_a_500(world, unchanged, value):
    """Each new value, in a fresh world (one test per value, so that the values spread over
    the test processes), in every field and object id of the admin, as GET and POST."""
    from django.contrib.auth.models import Group
    from django.urls import reverse

    root = get_user_model().objects.create_superuser("root", "root@example.org", "pw-root-2026")
    group = Group.objects.create(name="teachers")
    target = world["users"]["sam"]
    client = Client(raise_request_exception=True)
    client.force_login(root)
    fields = _admin_fields(client, target.pk, group.pk)
    assert {"username", "password1", "q", "action", "name", "permissions"} <= set(fields)
    form = dict.fromkeys(fields, value)
    kept = {  # posting these would delete the objects the other requests are sent to
        reverse("admin:auth_user_delete", args=[target.pk]),
        reverse("admin:auth_group_delete", args=[group.pk]),
    }
    for url in _admin_urls(target.pk, group.pk, value):
        posts = "/history/" not in url and url not in kept
        for how in ("get", "post") if posts else ("get",):
            client = signed_in(root, raise_request_exception=True)
            LoginFailure.objects.all().delete()
            unchanged.take()
            response = client.get(url, form) if how == "get" else client.post(url, form)
            unchanged.check(response, f"{how} {url} {value!r}")


def test_the_snapshot_sees_a_refusal_that_changed_a_row(world):
    """The guard rail bites: a 4xx answer after a watched row changed fails the check, and a
    2xx answer makes the next request read the rows anew."""

    class Answer:
        def __init__(self, status_code: int) -> None:
            self.status_code = status_code

    unchanged = Unchanged()
    unchanged.take()
    unchanged.check(Answer(403), "nothing changed")
    Profile.objects.filter(user=world["users"]["bob"]).update(role=Role.TEACHER)
    with pytest.raises(AssertionError, match="a row changed"):
        unchanged.check(Answer(403), "a row changed")
    unchanged.check(Answer(200), "a success may change rows")
    assert unchanged.before is None
    unchanged.take()
    unchanged.check(Answer(400), "read anew after the success")
    with pytest.raises(AssertionError, match="a 500"):
        unchanged.check(Answer(500), "a 500")
