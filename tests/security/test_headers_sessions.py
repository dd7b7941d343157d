"""Issue 12, part 7: CSP without inline code, Permissions-Policy, no-store for signed-in
users, sessions that end with the browser on shared computers, a short idle limit for students."""

import re
import time
from pathlib import Path

from django.conf import settings
from django.test import Client
from django.urls import reverse
from factories import PASSWORD

from kanagame.accounts.services import LAST_SEEN_KEY
from learning.classroom.models import Membership
from learning.classroom.services.classroom import roster_create

ROOT = Path(settings.BASE_DIR)
INLINE = [
    (re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I), "inline <script>"),
    (re.compile(r"<style\b", re.I), "<style> element"),
    (re.compile(r"\sstyle\s*=", re.I), "style= attribute"),
    (re.compile(r"\son[a-z]+\s*=", re.I), "on…= handler"),
    (re.compile(r"\shx-on[:-]", re.I), "hx-on (needs eval)"),
    # an attribute whose value is a javascript: URL (href, src, action, formaction…), not
    # the word in a sentence ("Drawing needs JavaScript: …")
    (re.compile(r"""=\s*["']?\s*javascript:""", re.I), "javascript: URL"),
]


def _templates():
    for folder in ("templates", "games/templates", "learning/templates"):
        yield from (ROOT / folder).rglob("*.html")


def test_the_javascript_url_pattern_tells_a_url_from_the_word():
    pattern = next(p for p, what in INLINE if what == "javascript: URL")
    assert pattern.search('<a href="javascript:alert(1)">')
    assert pattern.search("<a href = ' JavaScript:void(0)'>")
    assert pattern.search("<button formaction=javascript:x>")
    assert not pattern.search("<p>Drawing needs JavaScript: use the other way.</p>")


def test_no_template_holds_inline_script_or_style():
    found = [
        f"{path.relative_to(ROOT)}: {what}"
        for path in _templates()
        for pattern, what in INLINE
        if pattern.search(path.read_text())
    ]
    assert found == []


def _assert_no_inline_code(html: str):
    for pattern, what in INLINE:
        assert not pattern.search(html), what


def test_pages_carry_a_strict_csp_and_no_inline_code(client, alice, alice_class):
    response = client.get("/")
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "style-src 'self'" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert "frame-ancestors 'none'" in policy and "object-src 'none'" in policy
    assert "camera=()" in response["Permissions-Policy"]
    assert "microphone=()" in response["Permissions-Policy"]
    _assert_no_inline_code(response.content.decode())
    client.force_login(alice)
    cards = client.post(reverse("teach_roster", args=[alice_class.pk]), {"names": "Aiko"})
    html = cards.content.decode()
    _assert_no_inline_code(html)
    assert "data-print" in html and "js/kanagame.js" in html


def test_every_signed_in_answer_is_no_store(client, alice, alice_class):
    assert "no-store" not in client.get("/").get("Cache-Control", "")
    client.force_login(alice)
    urls = ["/", reverse("teach_home"), reverse("teach_class", args=[alice_class.pk]),
            reverse("teach_export_progress", args=[alice_class.pk]),
            reverse("teach_export_assignments", args=[alice_class.pk])]  # fmt: skip
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        assert "no-store" in response["Cache-Control"], url
        assert "private" in response["Cache-Control"], url


def _login(client, username, password, own_device=False):
    data = {"username": username, "password": password}
    if own_device:
        data["own_device"] = "on"
    return client.post("/login/", data)


def test_sessions_end_with_the_browser_unless_own_device(alice):
    shared = Client()
    assert _login(shared, "alice", PASSWORD).status_code == 302
    cookie = shared.cookies[settings.SESSION_COOKIE_NAME]
    assert not cookie["max-age"] and not cookie["expires"]
    assert shared.session.get_expire_at_browser_close()

    own = Client()
    assert _login(own, "alice", PASSWORD, own_device=True).status_code == 302
    assert int(own.cookies[settings.SESSION_COOKIE_NAME]["max-age"]) == settings.SESSION_COOKIE_AGE
    assert not own.session.get_expire_at_browser_close()
    assert "own device" in Client().get("/login/").content.decode()


def _idle(client, minutes):
    session = client.session
    session[LAST_SEEN_KEY] = int(time.time()) - minutes * 60
    session.save()


def test_students_are_signed_out_after_a_short_idle_time(alice, alice_class, settings):
    settings.STUDENT_IDLE_MINUTES = 30
    card = roster_create(classroom=alice_class, names_text="Aiko")[0]
    pupil = Client()
    assert _login(pupil, card["username"], card["password"], own_device=True).status_code == 302
    _idle(pupil, 29)
    assert pupil.get("/").context["user"].is_authenticated
    _idle(pupil, 31)
    assert not pupil.get("/").context["user"].is_authenticated
    assert Membership.objects.filter(classroom=alice_class).count() == 1

    teacher = Client()
    _login(teacher, "alice", PASSWORD)
    _idle(teacher, 8 * 60)
    assert teacher.get("/").context["user"].is_authenticated
