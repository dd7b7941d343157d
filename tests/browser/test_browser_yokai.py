"""A real browser plays Yokai with a CPU teammate, with the keyboard and without JavaScript.

The self-learner creates a solo Yokai table from the lobby form (one CPU teammate), peeks with
the keyboard, moves a yokai by choosing it (a radio button) and then an empty place (shown only
once the yokai is chosen, by CSS, with no script), first with JavaScript off (plain POST and
redirect), then finishes the game with HTMX. Screenshots go to test-results/<test>/.
"""

import re

import pytest
from test_browser_play import board_version, log_in

from kanagame.accounts.services import user_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
USERNAME, PASSWORD = "learner", "kana-demo-2026"


@pytest.fixture
def learner(transactional_db):
    return user_create(username=USERNAME, password=PASSWORD, role="self", display_name="Kana")


def create_yokai_table(page, base_url: str) -> str:
    page.goto(f"{base_url}/play/")
    page.get_by_role("link", name="New table: Yokai").click()
    page.get_by_label("Level").fill("1")
    page.get_by_label("Seat 2", exact=True).select_option("normal")
    for seat in (3, 4):
        page.get_by_label(f"Seat {seat}", exact=True).select_option("")
    page.get_by_role("button", name="Create the table").click()
    page.wait_for_url(re.compile(r"/play/t/[A-Z0-9]+/$"))
    return page.url


def press_and_wait(page, locator) -> None:
    """Focus a control, press Enter, wait for the page's table version to change."""
    before = board_version(page)
    locator.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(
        "(v) => { const b = document.querySelector('#board');"
        " return b && b.dataset.version !== v; }",
        arg=before,
    )


def test_keyboard_turn_without_javascript_then_finish_with_htmx(
    learner, live_server, browser, results_dir
):
    plain = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 1000})
    page = plain.new_page()
    log_in(page, live_server.url)
    url = create_yokai_table(page, live_server.url)
    assert page.get_by_text("Step 1: peek at 2 more yokai").is_visible()
    peeks = page.locator("#yk-grid button[name=action]")
    assert peeks.count() == 16
    assert re.match(
        r"Peek at row \d, column \d: a face-down yokai", peeks.first.get_attribute("aria-label")
    )
    press_and_wait(page, peeks.first)
    assert page.locator("#yk-grid .yk-face").count() == 1  # my peek, face up for me
    press_and_wait(page, page.locator("#yk-grid button[name=action]").nth(3))
    assert page.get_by_text("Step 2").is_visible()
    # no move button is visible before a yokai is chosen; choosing one shows its places
    assert page.locator("#yk-grid .yk-target:visible").count() == 0
    page.locator(".yk-pick").first.focus()
    page.keyboard.press("Space")
    targets = page.locator("#yk-grid .yk-target:visible")
    assert targets.count() >= 1
    page.screenshot(path=f"{results_dir}/move.png", full_page=True)
    press_and_wait(page, targets.first)
    assert page.url == url
    reveal = page.get_by_role("button", name="Reveal a new clue")
    press_and_wait(page, reveal)
    state = plain.storage_state()
    plain.close()

    scripted = browser.new_context(storage_state=state, viewport={"width": 1280, "height": 1000})
    page = scripted.new_page()
    page.goto(url)
    for _ in range(200):
        if page.locator(".yk-result").count():
            break
        before = board_version(page)
        if page.locator(".yk-pick").count():
            page.locator("label.yk-card-label").first.click()  # choose a yokai
        page.locator("#board button[name=action]:visible").first.click()
        page.wait_for_function(
            "(v) => { const b = document.querySelector('#board');"
            " return b && (b.dataset.version !== v || b.querySelector('.yk-result')); }",
            arg=before,
        )
    else:
        raise AssertionError("the game did not end")
    result = page.locator(".yk-result h2").inner_text()
    assert "The yokai are" in result
    assert page.locator("#yk-grid .yk-face").count() == 16  # all turned over
    page.screenshot(path=f"{results_dir}/end.png", full_page=True)
    page.goto("about:blank")
    scripted.close()
