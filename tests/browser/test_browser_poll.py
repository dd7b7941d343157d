"""The board's poll needs no eval: a visible tab polls fast, a hidden one slowly (issue 25, 11).

The CSP forbids eval, so htmx cannot evaluate trigger filters such as
``[document.visibilityState === 'visible']``: it logged two ``htmx:evalDisallowedError`` per
board drawn and hidden tabs polled as often as visible ones. The intervals come from the
server (``POLL_FAST_S``, ``POLL_HIDDEN_S``; shortened here to keep the test short) and
static/js/board-poll.js sets the trigger on visibility changes. The browser reports no console
error, polls at the fast rate while visible, at the slow one while hidden, and at once when
the tab shows again.
"""

import re
import time

import pytest

from kanagame.accounts.services import user_create
from tests.factories import solo_kazoku_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "kana-demo-2026"
FAST, HIDDEN = 1, 4
SET_VISIBILITY = """(state) => {
  Object.defineProperty(document, 'visibilityState', {get: () => state, configurable: true});
  Object.defineProperty(document, 'hidden', {get: () => state === 'hidden', configurable: true});
  document.dispatchEvent(new Event('visibilitychange'));
}"""


@pytest.fixture
def quick_polls(monkeypatch):
    from games.views import board

    monkeypatch.setattr(board, "POLL_FAST_S", FAST)
    monkeypatch.setattr(board, "POLL_HIDDEN_S", HIDDEN)


@pytest.fixture
def table(transactional_db):
    player = user_create(username="pia", password=PASSWORD, role="self", display_name="Pia")
    return solo_kazoku_table(player)


def test_hidden_tabs_poll_slowly_without_eval(table, quick_polls, live_server, browser):
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    errors, polls = [], []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request", lambda r: polls.append(time.monotonic()) if "/poll/" in r.url else None)
    page.goto(f"{live_server.url}/login/")
    page.fill("input[name=username]", "pia")
    page.fill("input[name=password]", PASSWORD)
    page.locator("main").get_by_role("button", name=re.compile("log in", re.I)).click()
    page.wait_for_url(re.compile(r"/(?!login)"))
    page.goto(f"{live_server.url}/play/t/{table.code}/")
    assert page.locator("#board").get_attribute("data-version")

    page.wait_for_timeout(4500)
    visible = len(polls)
    assert visible >= 3, f"{visible} polls in 4.5 s while visible (every {FAST} s expected)"

    page.evaluate(SET_VISIBILITY, "hidden")
    start = len(polls)
    page.wait_for_timeout(9500)
    hidden = polls[start:]
    assert 1 <= len(hidden) <= 3, f"{len(hidden)} polls in 9.5 s while hidden (every {HIDDEN} s)"
    gaps = [b - a for a, b in zip(hidden, hidden[1:], strict=False)]
    assert all(gap >= HIDDEN - 0.5 for gap in gaps), f"hidden gaps (s): {gaps}"

    shown = len(polls)
    page.evaluate(SET_VISIBILITY, "visible")
    page.wait_for_timeout(600)
    assert len(polls) > shown, "no poll as soon as the tab shows again"
    assert not errors, f"console errors: {errors}"
    page.goto("about:blank")
    context.close()
