"""Opening the board page brings an away player back through a POST the page sends as it
loads (issue #23: the GET itself writes nothing). In Chromium: the away note is gone once the
page has loaded, the seat is back in the database, and nothing was logged as an error."""

import re

import pytest
from django.utils import timezone

from games.models import Seat
from kanagame.accounts.services import user_create
from tests.factories import solo_kazoku_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "kana-demo-2026"


@pytest.fixture
def table(transactional_db):
    player = user_create(username="pia", password=PASSWORD, role="self", display_name="Pia")
    return solo_kazoku_table(player)


def test_opening_the_page_of_an_away_seat_comes_back(table, live_server, browser):
    Seat.objects.filter(table=table, user__isnull=False).update(
        autoplay=True, left_at=timezone.now()
    )
    context = browser.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()
    errors, posts = [], []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    page.goto(f"{live_server.url}/login/")
    page.fill("input[name=username]", "pia")
    page.fill("input[name=password]", PASSWORD)
    page.locator("main").get_by_role("button", name=re.compile("log in", re.I)).click()
    page.wait_for_url(re.compile(r"/(?!login)"))
    posts.clear()
    page.goto(f"{live_server.url}/play/t/{table.code}/")
    page.wait_for_selector("#board .away-note", state="detached", timeout=10_000)
    assert [url for url in posts if url.endswith(f"/play/t/{table.code}/back/")], posts
    seat = Seat.objects.get(table=table, user__isnull=False)
    assert not seat.autoplay and seat.left_at is None
    page.reload()  # a present player's page posts nothing
    page.wait_for_selector("#board")
    page.wait_for_timeout(500)
    assert len([url for url in posts if url.endswith("/back/")]) == 1, posts
    assert not errors, f"console errors: {errors}"
    page.goto("about:blank")
    context.close()
