"""What every page shares: the header, flash messages and the icon (issue 25, item 12).

- A flash message is a list item that contains its live region: ``<li role="status">`` in a
  ``<ul>`` breaks the list (axe rule "list", serious) on every page that shows a message.
- ``/favicon.ico`` answers (browsers ask for it on every first visit): no 404 in the console.
- Every link and button of the header is at least 24 px tall (WCAG 2.5.8 target size), at
  phone and laptop sizes, and the header leaves the phone's screen to the page (≤ 140 px).
"""

import re

import pytest

from kanagame.accounts.services import user_create
from tests.browser.test_browser_pages import axe_problems

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "kana-demo-2026"
TARGETS = """() => [...document.querySelectorAll(
  '.site-header a, .site-header button, .site-header select')].map(el => {
    const box = el.getBoundingClientRect();
    return [el.textContent.trim().slice(0, 20) || el.tagName, Math.round(box.height * 10) / 10];
  })"""


@pytest.fixture
def sam(transactional_db):
    return user_create(username="sam", password=PASSWORD, role="self", display_name="Sam")


def log_in(page, base_url: str) -> None:
    page.goto(f"{base_url}/login/")
    page.fill("input[name=username]", "sam")
    page.fill("input[name=password]", PASSWORD)
    page.locator("main").get_by_role("button", name=re.compile("log in", re.I)).click()
    page.wait_for_url(re.compile(r"/(?!login)"))


@pytest.mark.parametrize("width, height", [(360, 740), (1366, 768)])
def test_messages_header_targets_and_icon(sam, live_server, browser, width, height):
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    failed = []
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    log_in(page, live_server.url)
    page.goto(f"{live_server.url}/play/")
    page.fill("#join-code", "ZZZZZZ")
    page.locator("#join-code").press("Enter")
    page.wait_for_selector(".messages .message")
    assert "ZZZZZZ" in page.locator(".messages").inner_text()
    problems = axe_problems(page, f"{width}x{height} lobby with a message")
    assert not problems, "\n".join(problems)
    small = [(name, h) for name, h in page.evaluate(TARGETS) if h < 24]
    assert not small, f"header targets under 24 px: {small}"
    header = page.locator(".site-header").bounding_box()
    assert header["height"] <= 140, f"the header takes {header['height']} px"
    page.goto(f"{live_server.url}/favicon.ico")
    assert not failed, f"failed requests: {failed}"
    page.goto("about:blank")
    context.close()


def test_the_icon_is_served(client):
    from django.contrib.staticfiles import finders
    from django.templatetags.static import static

    response = client.get("/favicon.ico")
    assert response.status_code == 302
    assert response["Location"] == static("favicon.ico")
    with open(finders.find("favicon.ico"), "rb") as icon:
        assert icon.read(4) == b"\x00\x00\x01\x00"  # an ICO file
