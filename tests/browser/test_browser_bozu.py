"""A real browser plays Bōzu Mekuri against three CPU players, with and without a Japanese
speech voice: the "Read it aloud" button appears only when one exists and reads the poet."""

import re

import pytest
from test_browser_play import PASSWORD, USERNAME, board_version, log_in, play_with_htmx

from kanagame.accounts.services import user_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# A stand-in for a system with a Japanese voice: getVoices() lists one, speak() records.
FAKE_VOICE = """
(() => {
  window.__spoken = [];
  const voice = {lang: "ja-JP", name: "Test Japanese", default: true, localService: true};
  window.speechSynthesis.getVoices = () => [voice];
  window.speechSynthesis.speak = (u) => { window.__spoken.push([u.text, u.lang]); };
})();
"""


@pytest.fixture
def learner(transactional_db):
    return user_create(username=USERNAME, password=PASSWORD, role="self", display_name="Kana")


def create_bozu_table(page, base_url: str) -> str:
    page.goto(f"{base_url}/play/")
    page.get_by_role("link", name="New table: Bōzu Mekuri").click()
    page.get_by_label("Semimaru").select_option("eliminate")
    page.get_by_label("Recognition questions").select_option("off")
    for seat in (2, 3, 4):
        page.get_by_label(f"Seat {seat}", exact=True).select_option("normal")
    page.get_by_role("button", name="Create the table").click()
    page.wait_for_url(re.compile(r"/play/t/[A-Z0-9]+/$"))
    return page.url


def first_move(page) -> None:
    button = page.get_by_role("button", name="Turn over the top card")
    before = board_version(page)
    button.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(
        "(v) => { const b = document.querySelector('#board');"
        " return b.dataset.version !== v || b.querySelector('.ranking'); }",
        arg=before,
    )


def test_bozu_without_a_japanese_voice_has_no_read_aloud_button(
    learner, live_server, browser, results_dir
):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.add_init_script("window.speechSynthesis && (speechSynthesis.getVoices = () => []);")
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    log_in(page, live_server.url)
    create_bozu_table(page, live_server.url)
    first_move(page)
    card = page.locator(".poet-card")
    assert card.count() == 1 and re.search(
        r"[\u3041-\u3096]", card.locator(".poet-name").inner_text()
    )
    assert page.locator("button[data-speak]").is_hidden()
    page.screenshot(path=f"{results_dir}/board.png", full_page=True)
    play_with_htmx(page)
    assert page.get_by_role("heading", name="Ranking").is_visible()
    assert page.locator(".ranking-list li").count() == 4
    assert errors == []
    page.goto("about:blank")
    context.close()


def test_bozu_reads_the_poet_aloud_with_a_japanese_voice(learner, live_server, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.add_init_script(FAKE_VOICE)
    log_in(page, live_server.url)
    create_bozu_table(page, live_server.url)
    first_move(page)
    speak = page.get_by_role("button", name="Read it aloud")
    speak.wait_for(state="visible")  # revealed again after the htmx swap
    expected = speak.get_attribute("data-speak")
    kana = page.locator(".poet-card .poet-name [lang=ja]").inner_text()
    speak.click()
    spoken = page.evaluate("() => window.__spoken")
    assert spoken == [[expected, "ja-JP"]] and expected.startswith(kana)
    page.goto("about:blank")
    context.close()
