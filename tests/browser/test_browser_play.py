"""A real browser plays a whole Kazoku game against three CPU players.

The demo self-learner logs in, creates a solo ``kazoku-families`` kana-rows table from the
lobby form, plays to the end by clicking legal-action buttons (HTMX swaps the board), and
reads the ranking. A second run starts with JavaScript disabled (plain POST + redirect) for
the first moves, then finishes with JavaScript on. Screenshots go to test-results/<test>/.
"""

import re

import pytest

from kanagame.accounts.services import user_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
# Fixture order matters: the database work (``learner``) happens before ``browser`` starts
# Playwright's event loop, whose context would otherwise hold its own database connection.
USERNAME, PASSWORD = "learner", "kana-demo-2026"
MAX_CLICKS = 300


@pytest.fixture
def learner(transactional_db):
    return user_create(username=USERNAME, password=PASSWORD, role="self", display_name="Kana")


def log_in(page, base_url: str) -> None:
    page.goto(f"{base_url}/login/")
    page.fill("input[name=username]", USERNAME)
    page.fill("input[name=password]", PASSWORD)
    page.locator("main").get_by_role("button", name=re.compile("log in", re.I)).click()
    page.wait_for_url(re.compile(r"/(?!login)"))


def create_solo_table(page, base_url: str) -> str:
    page.goto(f"{base_url}/play/")
    page.get_by_role("link", name="New table: Kazoku: happy families").click()
    page.get_by_label("Families").select_option("kana")
    page.get_by_label("Script").select_option("hiragana")
    for seat in (2, 3, 4):
        page.get_by_label(f"Seat {seat}", exact=True).select_option("normal")
    page.get_by_role("button", name="Create the table").click()
    page.wait_for_url(re.compile(r"/play/t/[A-Z0-9]+/$"))
    assert page.get_by_role("heading", name="Your hand").is_visible()
    return page.url


def board_version(page) -> str:
    return page.locator("#board").get_attribute("data-version")


def play_with_htmx(page, clicks: int = MAX_CLICKS) -> int:
    """Click the first legal action until the game is over; each click swaps the board."""
    played = 0
    for _ in range(clicks):
        if page.locator("#board .ranking").count():
            return played
        before = board_version(page)
        page.locator("#board button[name=action]").first.click()
        page.wait_for_function(
            "(v) => { const b = document.querySelector('#board');"
            " return b && (b.dataset.version !== v || b.querySelector('.ranking')); }",
            arg=before,
        )
        played += 1
    raise AssertionError("the game did not end")


def check_ranking(page) -> None:
    assert page.get_by_role("heading", name="Ranking").is_visible()
    rows = page.locator(".ranking-list li")
    assert rows.count() == 4
    assert page.get_by_role("link", name="Watch the replay").is_visible()


def test_play_a_solo_game_to_the_end(learner, live_server, browser, results_dir):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    log_in(page, live_server.url)
    create_solo_table(page, live_server.url)
    page.screenshot(path=f"{results_dir}/board.png", full_page=True)
    # Keyboard play: the first legal action is a focusable, labelled button.
    first = page.locator("#board button[name=action]").first
    assert first.get_attribute("aria-label")
    before = board_version(page)
    first.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(
        "(v) => document.querySelector('#board').dataset.version !== v", arg=before
    )
    # the swap keeps the keyboard focus on the board (the same control, or the status line)
    page.wait_for_function("() => document.activeElement.closest('#board') !== null")
    # and what changed is announced from a live region outside the swapped board
    page.wait_for_function("() => document.getElementById('swap-announcer').textContent.trim()")
    play_with_htmx(page)
    check_ranking(page)
    page.screenshot(path=f"{results_dir}/ranking.png", full_page=True)
    # a replay steps on with the keyboard, the focus staying on "Next move"
    page.get_by_role("link", name="Watch the replay").click()
    page.get_by_role("link", name="« Deal").click()
    # the clicked "Deal" link is gone at step 0: the focus falls back to the step's status
    page.wait_for_function(
        "() => document.querySelector('#replay-step').textContent.includes('Move 0 of')"
        " && document.activeElement.id === 'replay-step'"
    )
    page.locator("#replay a[rel=next]").focus()
    for step in (1, 2):
        page.keyboard.press("Enter")
        page.wait_for_function(
            "(n) => document.querySelector('#replay-step').textContent.includes(`Move ${n} of`)"
            " && document.activeElement.getAttribute('rel') === 'next'",
            arg=step,
        )
    page.goto("about:blank")  # no request left in flight when the live server stops
    context.close()


def test_first_moves_without_javascript_then_finish(learner, live_server, browser, results_dir):
    plain = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 900})
    page = plain.new_page()
    log_in(page, live_server.url)
    url = create_solo_table(page, live_server.url)
    for _ in range(3):
        if page.locator(".ranking").count():
            break
        before = int(board_version(page))
        page.locator("#board button[name=action]").first.click()
        page.wait_for_load_state()
        assert page.url == url  # Post/Redirect/Get back to the board
        assert int(board_version(page)) > before
    page.screenshot(path=f"{results_dir}/no-js.png", full_page=True)
    state = plain.storage_state()
    plain.close()
    scripted = browser.new_context(storage_state=state, viewport={"width": 1280, "height": 900})
    page = scripted.new_page()
    page.goto(url)
    play_with_htmx(page)
    check_ranking(page)
    page.goto("about:blank")
    scripted.close()


@pytest.fixture
def two_players(transactional_db):
    """Bob and Erin at one table; Bob's first ask fails, so the turn passes to Erin."""
    from games.engines.kazoku.deck import load_deck
    from games.services.tables import table_create

    hands = [["a", "i", "ka", "sa", "ta"], ["ki", "shi", "chi", "ni", "hi"]]
    dealt = {card for hand in hands for card in hand}
    pile = [card for card in load_deck().ids if card not in dealt and card != "u"] + ["u"]
    setup = {"hands": hands, "pile": pile, "table": [], "first": 0}

    bob = user_create(username="bob", password=PASSWORD, role="self", display_name="Bob")
    erin = user_create(username="erin", password=PASSWORD, role="self", display_name="Erin")
    table = table_create(
        user=bob,
        engine="kazoku-families",
        options={"prompts": "off", "variant": "kana", "setup": setup},
        seats=[{"kind": "human", "user": bob}, {"kind": "human", "user": erin}],
    )
    return table


def test_the_other_players_board_updates_by_polling(two_players, live_server, browser):
    table = two_players
    pages = {}
    for name in ("bob", "erin"):
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        page.goto(f"{live_server.url}/login/")
        page.fill("input[name=username]", name)
        page.fill("input[name=password]", PASSWORD)
        page.locator("main").get_by_role("button", name=re.compile("log in", re.I)).click()
        page.wait_for_url(re.compile(r"/(?!login)"))
        page.goto(f"{live_server.url}/play/t/{table.code}/")
        pages[name] = page
    assert "Bob is playing." in pages["erin"].locator("#board-status").inner_text()
    ask_u = pages["bob"].locator("#board button[name=action]", has_text="U").first
    ask_u.click()
    # No reload: Erin's board learns of the move by polling (every 2 s while visible).
    pages["erin"].wait_for_function(
        "() => document.querySelector('#board-status').innerText.includes('Your turn')",
        timeout=15000,
    )
    assert pages["erin"].locator("#board").get_attribute("data-version") == "1"
    assert "go fish" in pages["erin"].locator(".game-log").inner_text()
    for page in pages.values():
        page.goto("about:blank")
        page.context.close()
