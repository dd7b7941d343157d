"""The listen button says why it cannot speak on a device without a Japanese voice (issue 25, 10).

It used to vanish without a word. Now, with JavaScript on, it is always there: with a Japanese
voice it reads the kana aloud; without one it is marked as silent and, pressed, says why, how
to add a voice and what still works — in the page's language, announced by a live region.
Headless Chromium has no voice at all; a Japanese one is faked for the other case.
"""

import re

import pytest

from kanagame.accounts.services import user_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "kana-demo-2026"
KANA_PAGE = "/learn/kana/hiragana/nu/"
FAKE_VOICE = """
  window.__said = [];
  const voice = {lang: 'ja-JP', name: 'Test voice', default: true, localService: true};
  Object.defineProperty(window.speechSynthesis, 'getVoices', {value: () => [voice]});
  Object.defineProperty(window.speechSynthesis, 'speak',
    {value: (u) => window.__said.push(u.text)});
  window.SpeechSynthesisUtterance = function (text) { this.text = text; };
"""


@pytest.fixture
def learner(transactional_db):
    # the kana rows: tests/conftest.py reloads them for every transactional test
    return user_create(username="lou", password=PASSWORD, role="self", display_name="Lou")


def open_kana_page(browser, base_url: str, language: str, init_script: str = ""):
    context = browser.new_context(viewport={"width": 360, "height": 740})
    context.add_cookies([{"name": "django_language", "value": language, "url": base_url}])
    if init_script:
        context.add_init_script(init_script)
    page = context.new_page()
    page.goto(f"{base_url}/login/")
    page.fill("input[name=username]", "lou")
    page.fill("input[name=password]", PASSWORD)
    page.locator("main button[type=submit]").click()
    page.wait_for_url(re.compile(r"/(?!login)"))
    page.goto(base_url + KANA_PAGE)
    return context, page


@pytest.mark.parametrize(
    "language, why",
    [("en", "No Japanese voice"), ("fr", "Aucune voix japonaise"), ("ja", "日本語の音声")],
)
def test_without_a_japanese_voice_the_button_says_why(learner, live_server, browser, language, why):
    context, page = open_kana_page(browser, live_server.url, language)
    button = page.locator("h1 .listen")
    assert button.is_visible(), "the listen button vanished"
    page.wait_for_function("() => document.documentElement.classList.contains('no-voice')")
    button.click()
    help_text = page.locator("#listen-help")
    help_text.wait_for(state="visible")
    assert why in help_text.inner_text()
    assert help_text.get_attribute("role") == "status"
    box, near = help_text.bounding_box(), button.bounding_box()
    assert box["y"] < near["y"] + 200  # shown by the button, not somewhere else on the page
    page.goto("about:blank")
    context.close()


def test_with_a_japanese_voice_the_button_reads_aloud(learner, live_server, browser):
    context, page = open_kana_page(browser, live_server.url, "en", FAKE_VOICE)
    page.wait_for_function("() => document.documentElement.classList.contains('can-speak')")
    page.locator("h1 .listen").click()
    assert page.evaluate("() => window.__said") == ["ぬ"]
    assert not page.locator("#listen-help").is_visible()
    page.goto("about:blank")
    context.close()
