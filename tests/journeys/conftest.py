"""Journeys: a live server on a SQLite file (tests/conftest.py THREADED_MARKERS), Debian's
Chromium through Playwright, and the kana catalogue each journey needs."""

import os

import pytest
from journey_harness import CHROMIUM, CHROMIUM_ARGS, chromium_available


@pytest.fixture
def browser():
    if not chromium_available():
        pytest.fail(f"{CHROMIUM} is missing (apt-get install chromium): the journeys need it")
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def kana(transactional_db):
    """The kana rows, as migrations leave them: tests/conftest.py reloads them for every
    transactional test after an earlier one's flush; this names the need in a journey."""
