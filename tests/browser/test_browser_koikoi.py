"""A real browser plays a Koi-Koi round against a CPU player.

The self-learner creates a 3-round table from the lobby form, sees the hanafuda cards drawn
with their plant names in kana and text labels, plays with the keyboard and by clicking
(HTMX swaps the board) until the first round is over, and reads the round's end in the log.
Screenshots go to test-results/<test>/.
"""

import re

import pytest

from kanagame.accounts.services import user_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
USERNAME, PASSWORD = "hanako", "kana-demo-2026"
PLANTS = "まつ うめ さくら ふじ あやめ ぼたん はぎ すすき きく もみじ やなぎ きり".split()


@pytest.fixture
def learner(transactional_db):
    return user_create(username=USERNAME, password=PASSWORD, role="self", display_name="Hanako")


def test_play_a_koikoi_round(learner, live_server, browser, results_dir):
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    page.goto(f"{live_server.url}/login/")
    page.fill("input[name=username]", USERNAME)
    page.fill("input[name=password]", PASSWORD)
    page.locator("main").get_by_role("button", name=re.compile("log in", re.I)).click()
    page.wait_for_url(re.compile(r"/(?!login)"))
    page.goto(f"{live_server.url}/play/")
    page.get_by_role("link", name="New table: Koi-Koi (hanafuda)").click()
    page.get_by_label("Rounds").select_option("3")
    page.get_by_label("Seat 2", exact=True).select_option("normal")
    page.get_by_role("button", name="Create the table").click()
    page.wait_for_url(re.compile(r"/play/t/[A-Z0-9]+/$"))
    assert page.get_by_role("heading", name="Your hand").is_visible()
    assert "Round 1 of 3" in page.locator(".koikoi-round").inner_text()
    cards = page.locator("#board .hanafuda")
    assert cards.count() >= 16  # 8 in hand, 8 on the table
    label = cards.first.get_attribute("aria-label")
    assert label and any(plant in label for plant in PLANTS)
    assert any(plant in page.locator("#board").inner_text() for plant in PLANTS)
    page.screenshot(path=f"{results_dir}/board.png", full_page=True)
    # keyboard: the first legal action is a labelled button
    first = page.locator("#board button[name=action]").first
    assert first.get_attribute("aria-label").startswith("Play ")
    before = page.locator("#board").get_attribute("data-version")
    first.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(
        "(v) => document.querySelector('#board').dataset.version !== v", arg=before
    )
    for _ in range(60):
        if "Round 1 is over" in page.locator(".game-log").inner_text():
            break
        if page.locator("#decide-title").count():
            page.screenshot(path=f"{results_dir}/decide.png", full_page=True)
            assert "Shōbu now scores" in page.locator(".koikoi-decide").inner_text()
            button = page.locator(".koikoi-decide button[name=action]").last  # shōbu
        else:
            button = page.locator("#board button[name=action]").first
        before = page.locator("#board").get_attribute("data-version")
        button.click()
        page.wait_for_function(
            "(v) => { const b = document.querySelector('#board');"
            " return b && (b.dataset.version !== v || b.querySelector('.ranking')); }",
            arg=before,
        )
    else:
        raise AssertionError("the first round did not end")
    assert "Round 2 of 3" in page.locator(".koikoi-round").inner_text()
    page.screenshot(path=f"{results_dir}/round-2.png", full_page=True)
    page.goto("about:blank")
    context.close()
